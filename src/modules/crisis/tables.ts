// Kysely table types of the crisis module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

export interface CrisisEventsTable {
  id: Generated<number>;
  user_id: number;
  /** social | hazard */
  kind: string;
  /** What the event is about: the interest key (social) or `<source>:<reference_id>` (hazard). */
  watch_key: string;
  title: string;
  summary: string;
  severity: string;
  /** 1 low … 4 critical, for ordering and escalation. */
  severity_rank: number;
  status: string;
  review_status: string;
  source_state: string | null;
  impacted_entity: string | null;
  /** JSON array of strings. */
  source_keywords: string;
  trend_id: number | null;
  trend_snapshot_link: string | null;
  detection_method: string;
  method_version: string;
  model_version: string | null;
  provider_severity: string | null;
  location: string | null;
  severity_basis: string | null;
  /** JSON object. */
  corroboration: string | null;
  /** JSON EvidenceCompleteness. */
  evidence_completeness: string | null;
  /** JSON array of strings. */
  limitations: string;
  analysis_status: string | null;
  evidence_version: string | null;
  evidence_as_of: number | null;
  /** How long evidence stays fresh for this event's source (ms). */
  freshness_window_ms: number;
  /** Counts the domain events recorded for this event (their ids end in it). */
  event_seq: number;
  detected_at: number;
  created_at: number;
  updated_at: number;
}

export interface CrisisEvidenceTable {
  id: Generated<number>;
  event_id: number;
  source_id: string;
  reference_id: string;
  source_url: string;
  observed_at: number;
  retrieved_at: number;
  excerpt: string;
  claim: string;
  content_hash: string;
  attribution: string | null;
  licence_url: string | null;
}

export interface CrisisReviewsTable {
  id: Generated<number>;
  event_id: number;
  reviewer_id: number;
  assessment: string;
  rationale: string;
  evidence_version: string;
  created_at: number;
}

export interface ResilienceSettingsTable {
  user_id: number;
  location_query: string | null;
  updated_at: number;
}

/** Negative mentions of watched keys, copied from signals (which are pruned) so evidence outlives them. */
export interface CrisisMentionsTable {
  id: Generated<number>;
  key: string;
  signal_id: number;
  source: string;
  /** The independent origin: the platform, or the web domain for news-like sources. */
  origin: string;
  author: string | null;
  external_id: string;
  url: string | null;
  excerpt: string;
  compound: number;
  engagement: number;
  /** 64-bit simhash as 16 hex chars. */
  simhash: string;
  observed_at: number;
}

/** Hazard observations as the feeds gave them (place, magnitude, alert, severity that signals cannot hold). */
export interface CrisisHazardsTable {
  id: Generated<number>;
  source: string;
  reference_id: string;
  /** Changes whenever the provider revises the record. */
  revision_hash: string;
  title: string;
  place: string | null;
  /** JSON array of area names (EA). */
  areas: string;
  latitude: number | null;
  longitude: number | null;
  magnitude: number | null;
  alert: string | null;
  provider_severity: string;
  severity: string;
  source_state: string;
  url: string;
  excerpt: string;
  attribution: string;
  licence_url: string;
  observed_at: number;
  retrieved_at: number;
  /** 1 until the detector has matched this revision against users' settings. */
  pending: number;
}

/** The detector's signal cursor (`signals`). */
export interface CrisisCursorTable {
  name: string;
  position: number;
}

export interface CrisisTables {
  crisis_events: CrisisEventsTable;
  crisis_evidence: CrisisEvidenceTable;
  crisis_reviews: CrisisReviewsTable;
  resilience_settings: ResilienceSettingsTable;
  crisis_mentions: CrisisMentionsTable;
  crisis_hazards: CrisisHazardsTable;
  crisis_cursor: CrisisCursorTable;
}
