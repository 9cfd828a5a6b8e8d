// Rows → the contract's CrisisEvent, CrisisEvidence and CrisisReview shapes.
import { isoString } from '../../platform/clock.ts';
import { freshness } from './scoring.ts';
import type { EventRow, EvidenceRow, ReviewRow } from './store.ts';

const parse = <T>(text: string | null, fallback: T): T => {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

function evidenceView(row: EvidenceRow) {
  return {
    id: row.id,
    source_id: row.source_id,
    reference_id: row.reference_id,
    source_url: row.source_url,
    observed_at: isoString(row.observed_at)!,
    retrieved_at: isoString(row.retrieved_at)!,
    excerpt: row.excerpt,
    claim: row.claim,
    content_hash: row.content_hash,
    attribution: row.attribution,
    licence_url: row.licence_url,
  };
}

function reviewView(row: ReviewRow) {
  return {
    id: row.id,
    reviewer_id: row.reviewer_id,
    assessment: row.assessment,
    rationale: row.rationale,
    evidence_version: row.evidence_version,
    created_at: isoString(row.created_at)!,
  };
}

export function eventView(
  row: EventRow,
  now: number,
  extra: { evidence?: EvidenceRow[]; reviews?: ReviewRow[] } = {},
) {
  const asOf = row.evidence_as_of === null ? null : Number(row.evidence_as_of);
  return {
    id: row.id,
    user_id: row.user_id,
    title: row.title,
    summary: row.summary,
    severity: row.severity,
    status: row.status,
    detected_at: isoString(row.detected_at)!,
    created_at: isoString(row.created_at)!,
    updated_at: isoString(row.updated_at)!,
    source_keywords: parse<string[]>(row.source_keywords, []),
    impacted_entity: row.impacted_entity,
    trend_id: row.trend_id,
    trend_snapshot_link: row.trend_snapshot_link,
    detection_method: row.detection_method,
    method_version: row.method_version,
    evidence_as_of: isoString(asOf),
    freshness: freshness(asOf, Number(row.freshness_window_ms), now),
    analysis_status: row.analysis_status,
    severity_basis: row.severity_basis,
    model_version: row.model_version,
    provider_severity: row.provider_severity,
    location: row.location,
    source_state: row.source_state,
    review_status: row.review_status,
    evidence_version: row.evidence_version,
    evidence_completeness: parse<{ score: number; method: string; meaning: string | null } | null>(
      row.evidence_completeness,
      null,
    ),
    corroboration: parse<Record<string, unknown> | null>(row.corroboration, null),
    limitations: parse<string[]>(row.limitations, []),
    ...(extra.evidence ? { source_refs: extra.evidence.map(evidenceView) } : {}),
    ...(extra.reviews ? { reviews: extra.reviews.map(reviewView) } : {}),
  };
}

export type CrisisEventView = ReturnType<typeof eventView>;
