// What the recommendation rules read and write: the recommendation types and priorities, every threshold, the
// facts of trends, crisis events and insights, the draft a rule proposes, and the reading of a stored AIInsight
// into InsightFacts. Pure.
import type { AIInsight } from '../insights/index.ts';
import type { BriefParts } from './brief.ts';
import { round } from './format.ts';

export const RECOMMENDATION_TYPES = [
  'pr_response',
  'content_idea',
  'marketing_angle',
  'seo_optimization',
  'influencer_collab',
  'product_improvement',
  'crm_strategy',
  'monitoring',
  'other',
] as const;
export type RecommendationType = (typeof RECOMMENDATION_TYPES)[number];

export const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const priorityRank = (p: string): number => PRIORITIES.indexOf(p as Priority) + 1;

const HOUR_MS = 3_600_000;

/** Every threshold the rules use. */
export const RULES = {
  /** velocity_score a trend matching an interest must reach for content_idea / marketing_angle. */
  momentumVelocity: 75,
  /** …and for priority high (trigger level 90). */
  strongVelocity: 90,
  /** velocity_score from which a matching trend is worth watching (monitoring, influencer_collab). */
  watchVelocity: 50,
  /** Commercial intent (share of mentions with buying language) that makes the angle a marketing one. */
  marketingIntent: 0.2,
  /** Commercial intent for seo_optimization, and for its priority high. */
  seoIntent: 0.15,
  seoStrongIntent: 0.3,
  /** A complaint topic's share of the analysed mentions (%), and its count, for a recommendation… */
  complaintSharePct: 10,
  complaintMinCount: 3,
  /** …and its share for priority high. */
  complaintStrongSharePct: 25,
  /** An analysis sample this large counts as a solid base. */
  solidSample: 20,
  /** Platforms with mentions for cross-platform corroboration. */
  corroboratingPlatforms: 2,
  /** Crisis evidence completeness (the event's own score) that counts as complete. */
  crisisCompleteness: 60,
  /** Trend numbers are fresh while the trend's newest mention is this recent. */
  trendFreshMs: 6 * HOUR_MS,
  /** An insight is fresh this long after it was generated. */
  insightFreshMs: 72 * HOUR_MS,
} as const;

/** A trend as the list shows it (the fields the rules read). */
export interface TrendFacts {
  id: number;
  title: string;
  category: string;
  /** ISO 8601: the trend's newest mention. */
  timestamp: string;
  volume: number;
  previous_volume: number;
  growth: number | null;
  average_velocity: number;
  velocity_score: number;
  /** The window velocity_score comes from (1h, 6h, 24h); absent reads as 1h. */
  velocity_window?: string;
  velocity_1h: number;
  lifecycle_stage: string;
  sentiment_category: string;
  platforms: Record<string, number>;
}

export interface InterestFacts {
  keyword: string;
}

/** An open crisis event of the user (the fields the rules read). */
export interface CrisisFacts {
  id: number;
  title: string;
  summary: string;
  severity: string;
  status: string;
  impacted_entity: string | null;
  trend_id: number | null;
  source_keywords: string[];
  detected_at: string;
  /** ISO 8601, null without evidence. */
  evidence_as_of: string | null;
  /** How long the event's evidence stays fresh (the crisis module's window for its source). */
  freshness_window_ms: number;
  severity_basis: string | null;
  evidence_completeness: { score: number } | null;
  independent_sources: number | null;
  review_status: string | null;
  source_state: string | null;
  evidence_version: string | null;
}

/** A complaint topic as the insight's crm section reports it. */
export interface Complaint {
  label: string;
  count: number;
  /** Mentions analysed. */
  of: number;
  share_pct: number;
  example: string | null;
  kind: 'product' | 'service';
}

/** What the rules read from the user's latest insight on a trend. */
export interface InsightFacts {
  trend_id: number;
  trend_name: string;
  /** Epoch ms. */
  generated_at: number;
  sentiment_category: string | null;
  commercial_intent: number | null;
  predicted_cpc_usd: number | null;
  brand_safety: { level: string | null; flags: string[] } | null;
  complaints: Complaint[];
  suggested_responses: string[];
  common_questions: string[];
  key_angles: string[];
  primary_keywords: string[];
}

export interface RuleInput {
  now: number;
  /** PUBLIC_BASE_URL, for the API links evidence points at. */
  baseUrl: string;
  interests: InterestFacts[];
  /** Trends matching any of the interests (the rules check which one). */
  trends: TrendFacts[];
  /** Open crisis events (active or acknowledged). */
  crises: CrisisFacts[];
  /** The user's latest insight per trend. */
  insights: InsightFacts[];
}

/** One recommendation as a rule proposes it; the store keeps one per (user, source_key, type). */
export interface Draft {
  type: RecommendationType;
  /** `trend:<id>` or `crisis:<id>`. */
  source_key: string;
  source_trend_id: string | null;
  source_trend_name: string | null;
  /** Normalised words of the source, space-padded (`| `-separated alternatives), for interest matching. */
  source_words: string;
  title: string;
  details: string;
  priority: Priority;
  /** How strong the trigger is on the rule's own scale: a dismissed or actioned one returns when this rises. */
  trigger_level: number;
  /** Epoch ms until which the evidence is fresh; null when there is none. */
  fresh_until: number | null;
  parts: BriefParts;
}

// ---------------------------------------------------------------------------------------------------------
// Complaints: the insight's crm section writes each topic as "label: N of M mentions (P %), e.g. “…”".

/** A label naming one of these is about the product (product_improvement); any other is service (crm_strategy). */
const PRODUCT_WORDS =
  /\b(outage|downtime|bug|broken|feature|slow|performance|quality|crash|defect|privacy|security|safety)/i;
const COMPLAINT_LINE = /^(.+?): (\d+) of (\d+) mentions \((\d+(?:\.\d+)?) ?%\)(?:, e\.g\. “(.*)”)?/u;

/** The complaint topics an insight reports (lines that do not carry the numbers are skipped). */
export function parseComplaints(lines: readonly unknown[]): Complaint[] {
  const out: Complaint[] = [];
  for (const line of lines) {
    if (typeof line !== 'string') continue;
    const m = COMPLAINT_LINE.exec(line.trim());
    if (!m) continue;
    const label = m[1]!.trim();
    const count = Number(m[2]);
    const of = Number(m[3]);
    if (!(of > 0)) continue;
    out.push({
      label,
      count,
      of,
      share_pct: round((count / of) * 100, 1),
      example: m[5] ?? null,
      kind: PRODUCT_WORDS.test(label) ? 'product' : 'service',
    });
  }
  return out;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The facts the rules read from a stored AIInsight. */
export function insightFacts(insight: AIInsight, generatedAt: number): InsightFacts {
  const crm = insight.crm_and_support_insights ?? {};
  return {
    trend_id: insight.trend_id,
    trend_name: insight.trend_name ?? `trend ${insight.trend_id}`,
    generated_at: generatedAt,
    sentiment_category: insight.sentiment_category ?? null,
    commercial_intent: insight.trend_metrics?.commercial_intent ?? null,
    predicted_cpc_usd: insight.trend_metrics?.predicted_cpc_usd ?? null,
    brand_safety: insight.brand_safety
      ? { level: insight.brand_safety.level ?? null, flags: strings(insight.brand_safety.flags) }
      : null,
    complaints: parseComplaints(strings(crm.common_complaints)),
    suggested_responses: strings(crm.suggested_responses),
    common_questions: strings(crm.common_questions),
    key_angles: strings(insight.content_brief?.key_angles_for_content),
    primary_keywords: strings(insight.ad_platform_targeting?.primary_audience_keywords),
  };
}
