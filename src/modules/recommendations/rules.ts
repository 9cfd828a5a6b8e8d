// The recommendation rule engine: pure functions from what Crestwatch knows about one user (their interests,
// the trends matching them, their open crisis events, their latest AI insights) to recommendation drafts.
// No I/O and no clock: `now` and every input arrive in `RuleInput`; the service stores what comes out.
//
// The rules (thresholds in RULES below; each draft names its source and type, and the store keeps one
// recommendation per user, source and type):
//
// | rule | source | fires when | type | priority | trigger level |
// |---|---|---|---|---|---|
// | trend momentum | trend | a trend matching an interest has velocity_score ≥ 75 | marketing_angle when the user's fresh insight on it measures commercial intent ≥ 0.2 and is not negative, else content_idea | high at ≥ 90, else medium | 90 or 75 |
// | trend watch | trend | a trend matching an interest has 50 ≤ velocity_score < 75 | monitoring | low | 50 |
// | creator moment | trend | a trend matching an interest has velocity_score ≥ 50, is emerging or rising, and the user's fresh insight on it is positive and brand-safe | influencer_collab | medium (high at ≥ 75) | 75 or 50 |
// | crisis response | crisis event | an open (active or acknowledged) event of severity high or critical | pr_response | the severity | 3 (high) or 4 (critical) |
// | crisis watch | crisis event | an open event of severity low or medium | monitoring | the severity | 1 or 2 |
// | search demand | trend (insight) | the user's latest insight measures commercial intent ≥ 0.15 and its sentiment is not negative | seo_optimization | high at ≥ 0.3, else medium | 30 or 15 |
// | product complaints | trend (insight) | a product complaint topic (outages, bugs, performance, quality, privacy, safety) in ≥ 10 % and ≥ 3 of the analysed mentions | product_improvement | high at ≥ 25 %, else medium | 25 or 10 |
// | service complaints | trend (insight) | a service complaint topic (billing, support, delivery) in ≥ 10 % and ≥ 3 of the analysed mentions | crm_strategy | high at ≥ 25 %, else medium | 25 or 10 |
//
// Confidence is evidence completeness, not a probability: each rule lists the signals a complete decision
// would rest on, with weights summing to 100; the score is the weight of those present (freshness is judged
// when the brief is shown, see brief.ts).
import type { AIInsight } from '../insights/index.ts';
import { normaliseKey } from '../text/index.ts';
import type { BriefParts, Check, Evidence } from './brief.ts';

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
// Helpers

const trimSlash = (url: string) => url.replace(/\/+$/, '');
const iso = (ms: number) => new Date(ms).toISOString();
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The key a name is matched by (as trends and interests are keyed), or null. */
function keyOf(text: string): string | null {
  return normaliseKey(text.trim().replace(/^#/, ''));
}

/** ` key ` for whole-word containment; alternatives joined by `|`. */
function paddedWords(names: (string | null)[]): string {
  const keys = [...new Set(names.map((n) => (n ? keyOf(n) : null)).filter((k): k is string => k !== null))];
  return keys.length === 0 ? ' ' : ` ${keys.join(' | ')} `;
}

/** The first interest whose key occurs as whole words in the name's key. */
export function matchingInterest(name: string, interests: readonly InterestFacts[]): InterestFacts | null {
  const key = keyOf(name);
  if (key === null) return null;
  const padded = ` ${key} `;
  for (const interest of interests) {
    const k = keyOf(interest.keyword);
    if (k !== null && padded.includes(` ${k} `)) return interest;
  }
  return null;
}

/** An open crisis of severity ≥ high about the trend: its trend_id, or a keyword or entity in the name. */
function gatingCrisis(trend: { id: number; title: string }, crises: readonly CrisisFacts[]) {
  const key = keyOf(trend.title);
  const padded = key === null ? '' : ` ${key} `;
  return (
    crises.find((c) => {
      if (c.severity !== 'high' && c.severity !== 'critical') return false;
      if (c.trend_id === trend.id) return true;
      return [...c.source_keywords, c.impacted_entity].some((name) => {
        const k = name ? keyOf(name) : null;
        return k !== null && padded.includes(` ${k} `);
      });
    }) ?? null
  );
}

const isFreshInsight = (insight: InsightFacts | undefined, now: number): insight is InsightFacts =>
  insight !== undefined && now - insight.generated_at <= RULES.insightFreshMs;

function topPlatform(platforms: Record<string, number>): [string, number] | null {
  const top = Object.entries(platforms)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  return top ?? null;
}

const activePlatforms = (platforms: Record<string, number>) =>
  Object.values(platforms).filter((n) => n > 0).length;

function growthText(growth: number | null): string {
  if (growth === null) return 'no mentions in the previous 24 hours to compare with';
  return `${growth >= 0 ? '+' : ''}${round(growth, 1)} % against the previous 24 hours`;
}

// ---------------------------------------------------------------------------------------------------------
// Complaints: the insight's crm section writes each topic as "label: N of M mentions (P %), e.g. “…”".

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

// ---------------------------------------------------------------------------------------------------------
// Evidence builders

function trendEvidence(trend: TrendFacts, link: string): Evidence[] {
  const at = trend.timestamp;
  const e = (
    metric: string,
    label: string,
    value: unknown,
    unit: string | null,
    interpretation: string | null,
  ): Evidence => ({
    metric,
    label,
    value,
    unit,
    interpretation,
    source: 'crestwatch',
    source_url: link,
    observed_at: at,
  });
  const top = topPlatform(trend.platforms);
  return [
    e(
      'velocity_score',
      'Velocity score',
      trend.velocity_score,
      'score (0–100)',
      'How surprising the last 60 minutes are for this hour of the week.',
    ),
    e('velocity_1h', 'Mentions in the last 60 minutes', trend.velocity_1h, 'mentions', null),
    e('volume', 'Mentions in the last 24 hours', trend.volume, 'mentions', null),
    e('previous_volume', 'Mentions in the 24 hours before', trend.previous_volume, 'mentions', null),
    e(
      'growth',
      'Growth against the previous 24 hours',
      trend.growth,
      '%',
      trend.growth === null ? 'No previous volume to compare with.' : null,
    ),
    e('average_velocity', 'Average mentions per hour (24 h)', trend.average_velocity, 'mentions/hour', null),
    e('lifecycle_stage', 'Lifecycle stage', trend.lifecycle_stage, null, null),
    e(
      'platforms',
      'Platforms with mentions',
      activePlatforms(trend.platforms),
      'platforms',
      top ? `Most mentions on ${top[0]} (${top[1]}).` : null,
    ),
  ];
}

function insightEvidence(insight: InsightFacts, link: string): Evidence[] {
  const at = iso(insight.generated_at);
  const out: Evidence[] = [];
  const e = (
    metric: string,
    label: string,
    value: unknown,
    unit: string | null,
    interpretation: string | null,
  ) =>
    out.push({
      metric,
      label,
      value,
      unit,
      interpretation,
      source: 'crestwatch',
      source_url: link,
      observed_at: at,
    });
  if (insight.commercial_intent !== null)
    e(
      'commercial_intent',
      'Commercial intent (share of mentions with buying language)',
      insight.commercial_intent,
      'share (0–1)',
      null,
    );
  if (insight.predicted_cpc_usd !== null)
    e('predicted_cpc_usd', 'Predicted cost per click', insight.predicted_cpc_usd, 'USD', null);
  if (insight.brand_safety?.level)
    e(
      'brand_safety',
      'Brand safety of the analysed mentions',
      insight.brand_safety.level,
      null,
      insight.brand_safety.flags.length > 0 ? `Flags: ${insight.brand_safety.flags.join(', ')}.` : null,
    );
  if (insight.sentiment_category)
    e('sentiment_category', 'Sentiment of the analysed mentions', insight.sentiment_category, null, null);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Trend rules

interface TrendContext {
  trend: TrendFacts;
  interest: InterestFacts;
  insight: InsightFacts | undefined;
  freshInsight: InsightFacts | null;
  gate: CrisisFacts | null;
  trendLink: string;
  insightLink: string;
  interestsLink: string;
  freshUntil: number;
  sourceWords: string;
}

function urgencyOf(stage: string, velocity1h: number): BriefParts['urgency'] {
  if (stage === 'peaking')
    return {
      level: 'act_now',
      window: 'Next 6 hours',
      reason: 'The trend is at its high; attention fades from here.',
    };
  if (stage === 'emerging' || stage === 'rising')
    return {
      level: 'act_now',
      window: 'Next 24 hours',
      reason: `Momentum is building (${plural(velocity1h, 'mention')} in the last hour, ${stage}).`,
    };
  if (stage === 'declining')
    return {
      level: 'this_week',
      window: 'Next 2 days',
      reason: 'Volume is past its peak; only a quick follow-up pays.',
    };
  return { level: 'this_week', window: 'Next 3 days', reason: 'Activity is high but steady.' };
}

function blockersFor(c: TrendContext): string[] {
  const out: string[] = [];
  if (c.gate)
    out.push(
      `Your open ${c.gate.severity} crisis event #${c.gate.id} ("${c.gate.title}") concerns this trend: ` +
        'resolve or archive it before promoting anything about it.',
    );
  if (c.freshInsight?.brand_safety?.level === 'unsafe')
    out.push(
      `Your latest insight rates the mentions brand-unsafe (${c.freshInsight.brand_safety.flags.join(', ') || 'flagged'}).`,
    );
  return out;
}

function trendChecks(c: TrendContext): Check[] {
  const { trend } = c;
  const platforms = activePlatforms(trend.platforms);
  return [
    {
      signal: 'velocity',
      weight: 25,
      present: true,
      reason: `Velocity measured: score ${trend.velocity_score}, ${plural(trend.velocity_1h, 'mention')} in the last hour.`,
    },
    {
      signal: 'growth_baseline',
      weight: 20,
      present: trend.growth !== null,
      reason:
        trend.growth !== null
          ? `Growth has a baseline: ${trend.previous_volume} mentions in the previous 24 hours.`
          : 'No mentions in the previous 24 hours, so growth has no baseline.',
    },
    {
      signal: 'cross_platform_corroboration',
      weight: 20,
      present: platforms >= RULES.corroboratingPlatforms,
      reason:
        platforms >= RULES.corroboratingPlatforms
          ? `Mentions come from ${platforms} platforms.`
          : `Mentions come from ${platforms === 0 ? 'no known platform' : 'a single platform'}.`,
    },
    {
      signal: 'ai_insight',
      weight: 20,
      present: c.freshInsight !== null,
      reason: c.freshInsight
        ? `Your AI insight on the trend (generated ${iso(c.freshInsight.generated_at)}) gives sentiment, brand safety and commercial intent.`
        : c.insight
          ? 'Your AI insight on the trend is older than 72 hours.'
          : 'You have no AI insight on the trend (sentiment, brand safety, commercial intent unknown).',
    },
  ];
}

function insightStep(c: TrendContext): string[] {
  return c.freshInsight
    ? []
    : [
        `Generate an AI insight to check sentiment and brand safety: POST /api/trends/${c.trend.id}/ai-insights/generate.`,
      ];
}

function momentum(c: TrendContext): Draft | null {
  const { trend, interest, freshInsight } = c;
  if (trend.velocity_score < RULES.momentumVelocity) return null;
  const strong = trend.velocity_score >= RULES.strongVelocity;
  const level = strong ? RULES.strongVelocity : RULES.momentumVelocity;
  // Buying words in a negative conversation are complaints (refunds, charges), not demand.
  const marketing =
    (freshInsight?.commercial_intent ?? 0) >= RULES.marketingIntent &&
    freshInsight?.sentiment_category !== 'negative';
  const type: RecommendationType = marketing ? 'marketing_angle' : 'content_idea';
  const top = topPlatform(trend.platforms);
  const evidence = [
    ...trendEvidence(trend, c.trendLink),
    ...(freshInsight ? insightEvidence(freshInsight, c.insightLink) : []),
    {
      metric: 'interest_match',
      label: 'Matches your interest',
      value: interest.keyword,
      unit: null,
      interpretation: null,
      source: 'crestwatch',
      source_url: c.interestsLink,
      observed_at: null,
    },
  ];
  const angle = freshInsight?.key_angles[0];
  const why =
    `"${trend.title}" crossed velocity ${level} (score ${trend.velocity_score}): ${plural(trend.velocity_1h, 'mention')} ` +
    `in the last hour, ${trend.volume} in 24 hours (${growthText(trend.growth)}); it matches your interest ` +
    `"${interest.keyword}" and is ${trend.lifecycle_stage}.`;
  const steps = [
    `Read the recent mentions of "${trend.title}": GET /api/trends/${trend.id}.`,
    ...insightStep(c),
    ...(angle ? [`Start from the angle your insight suggests: ${angle}`] : []),
    marketing
      ? `Run a bounded creative test of a "${trend.title}" angle against your current control${top ? `, starting on ${top[0]}` : ''}.`
      : `Draft a short piece on "${trend.title}" for ${top ? top[0] : 'the platform where it is most discussed'} and publish within the window.`,
    ...(c.gate
      ? [
          `Hold it until crisis event #${c.gate.id} is resolved: GET /api/intelligence/crisis-events/${c.gate.id}.`,
        ]
      : []),
    `Measure the result against your median for ${trend.category} over the next 7 days.`,
  ];
  return {
    type,
    source_key: `trend:${trend.id}`,
    source_trend_id: String(trend.id),
    source_trend_name: trend.title,
    source_words: c.sourceWords,
    title: marketing
      ? `Test a marketing angle on "${trend.title}" while buying intent is high`
      : `Publish on "${trend.title}" while it is accelerating`,
    details:
      `"${trend.title}" (${trend.category}) reached a velocity score of ${trend.velocity_score} with ` +
      `${trend.volume} mentions in 24 hours. ` +
      (marketing
        ? `Your latest insight measures commercial intent ${freshInsight!.commercial_intent}: a campaign angle tied to it can meet existing demand.`
        : 'Content that joins the conversation early gets the most reach.'),
    priority: strong ? 'high' : 'medium',
    trigger_level: level,
    fresh_until: c.freshUntil,
    parts: {
      why_now: why,
      evidence,
      checks: trendChecks(c),
      freshness_weight: 15,
      expected_benefit: marketing
        ? {
            outcome: `Validate a campaign angle on "${trend.title}" against current demand.`,
            basis: `Velocity score ${trend.velocity_score} and commercial intent ${freshInsight!.commercial_intent} in your latest insight.`,
            measurement:
              'Click-through and conversion rate of the test against your current control over 7 days.',
          }
        : {
            outcome: `Reach the audience following "${trend.title}" while attention is rising.`,
            basis: `Velocity score ${trend.velocity_score}: ${plural(trend.velocity_1h, 'mention')} in the last hour against a seasonal baseline.`,
            measurement: `Engagement and reach of the piece against your median for ${trend.category} over 7 days.`,
          },
      urgency: urgencyOf(trend.lifecycle_stage, trend.velocity_1h),
      next_steps: steps,
      snapshot_at: trend.timestamp,
      blockers: blockersFor(c),
    },
  };
}

function watch(c: TrendContext): Draft | null {
  const { trend, interest } = c;
  if (trend.velocity_score < RULES.watchVelocity || trend.velocity_score >= RULES.momentumVelocity)
    return null;
  return {
    type: 'monitoring',
    source_key: `trend:${trend.id}`,
    source_trend_id: String(trend.id),
    source_trend_name: trend.title,
    source_words: c.sourceWords,
    title: `Watch "${trend.title}": it is picking up`,
    details:
      `"${trend.title}" matches your interest "${interest.keyword}" and crossed velocity ${RULES.watchVelocity} ` +
      `(score ${trend.velocity_score}). At ${RULES.momentumVelocity} it becomes a content opportunity.`,
    priority: 'low',
    trigger_level: RULES.watchVelocity,
    fresh_until: c.freshUntil,
    parts: {
      why_now:
        `"${trend.title}" crossed velocity ${RULES.watchVelocity} (score ${trend.velocity_score}) with ` +
        `${plural(trend.velocity_1h, 'mention')} in the last hour, ${trend.volume} in 24 hours ` +
        `(${growthText(trend.growth)}); it is ${trend.lifecycle_stage}.`,
      evidence: trendEvidence(trend, c.trendLink),
      checks: trendChecks(c),
      freshness_weight: 15,
      expected_benefit: {
        outcome: `Be ready to act if "${trend.title}" keeps accelerating.`,
        basis: `Velocity score ${trend.velocity_score}, ${trend.volume} mentions in 24 hours.`,
        measurement: `Whether velocity reaches ${RULES.momentumVelocity} within 24 hours.`,
      },
      urgency: {
        level: 'monitor',
        window: 'Next 24 hours',
        reason: 'Rising, but below the level that calls for content.',
      },
      next_steps: [
        `Get told when it crosses ${RULES.momentumVelocity}: POST /api/integrations/webhooks with trigger_type trend_velocity and threshold_value ${RULES.momentumVelocity}.`,
        ...insightStep(c),
        `Check it again within the hour: GET /api/trends/${trend.id}.`,
      ],
      snapshot_at: trend.timestamp,
      blockers: [],
    },
  };
}

function creatorMoment(c: TrendContext): Draft | null {
  const { trend, freshInsight } = c;
  if (trend.velocity_score < RULES.watchVelocity) return null;
  if (trend.lifecycle_stage !== 'emerging' && trend.lifecycle_stage !== 'rising') return null;
  if (freshInsight?.brand_safety?.level !== 'safe' || freshInsight.sentiment_category !== 'positive')
    return null;
  const strong = trend.velocity_score >= RULES.momentumVelocity;
  const top = topPlatform(trend.platforms);
  const checks = trendChecks(c);
  return {
    type: 'influencer_collab',
    source_key: `trend:${trend.id}`,
    source_trend_id: String(trend.id),
    source_trend_name: trend.title,
    source_words: c.sourceWords,
    title: `Work with creators already talking about "${trend.title}"`,
    details:
      `"${trend.title}" is ${trend.lifecycle_stage} (velocity ${trend.velocity_score}) and the conversation is ` +
      'positive and brand-safe: creators who already post about it can carry your message credibly.',
    priority: strong ? 'high' : 'medium',
    trigger_level: strong ? RULES.momentumVelocity : RULES.watchVelocity,
    fresh_until: Math.min(c.freshUntil, freshInsight.generated_at + RULES.insightFreshMs),
    parts: {
      why_now:
        `"${trend.title}" is ${trend.lifecycle_stage} with velocity score ${trend.velocity_score}; your insight ` +
        `(${iso(freshInsight.generated_at)}) rates the mentions positive and brand-safe.`,
      evidence: [...trendEvidence(trend, c.trendLink), ...insightEvidence(freshInsight, c.insightLink)],
      checks,
      freshness_weight: 15,
      expected_benefit: {
        outcome: 'Borrowed reach and credibility from voices the audience already follows.',
        basis: `A positive, brand-safe conversation growing on ${top ? top[0] : 'several platforms'}.`,
        measurement:
          'Reach, engagement and tracked conversions (a unique code or link per creator) over 14 days.',
      },
      urgency: urgencyOf(trend.lifecycle_stage, trend.velocity_1h),
      next_steps: [
        `Shortlist creators posting about "${trend.title}"${top ? ` on ${top[0]}` : ''}: GET /api/trends/${trend.id}.`,
        'Brief them with your key angle and disclosure rules.',
        'Give each a unique code or link so results can be attributed.',
      ],
      snapshot_at: trend.timestamp,
      blockers: blockersFor(c),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Crisis rules

function crisisDraft(crisis: CrisisFacts, link: string): Draft {
  const severe = crisis.severity === 'high' || crisis.severity === 'critical';
  const asOf = crisis.evidence_as_of;
  const e = (
    metric: string,
    label: string,
    value: unknown,
    unit: string | null,
    interpretation: string | null,
  ): Evidence => ({
    metric,
    label,
    value,
    unit,
    interpretation,
    source: 'crestwatch',
    source_url: link,
    observed_at: asOf,
  });
  const evidence: Evidence[] = [
    e('severity', 'Severity', crisis.severity, null, crisis.severity_basis),
    e('status', 'Event status', crisis.status, null, null),
    e('detected_at', 'Detected at', crisis.detected_at, null, null),
  ];
  if (crisis.independent_sources !== null)
    evidence.push(
      e('independent_sources', 'Independent sources', crisis.independent_sources, 'sources', null),
    );
  if (crisis.evidence_completeness)
    evidence.push(
      e(
        'evidence_completeness',
        'Evidence completeness (the event’s own score)',
        crisis.evidence_completeness.score,
        'score (0–100)',
        null,
      ),
    );
  if (crisis.source_state) evidence.push(e('source_state', 'Source state', crisis.source_state, null, null));
  if (crisis.review_status)
    evidence.push(e('review_status', 'Your review', crisis.review_status, null, null));
  const corroborated = (crisis.independent_sources ?? 0) >= RULES.corroboratingPlatforms;
  const complete = (crisis.evidence_completeness?.score ?? 0) >= RULES.crisisCompleteness;
  const reviewed = crisis.review_status === 'supported';
  const checks: Check[] = [
    {
      signal: 'severity_basis',
      weight: 20,
      present: crisis.severity_basis !== null,
      reason: crisis.severity_basis
        ? `Severity basis: ${crisis.severity_basis}`
        : 'The event states no severity basis.',
    },
    {
      signal: 'independent_corroboration',
      weight: 20,
      present: corroborated,
      reason: corroborated
        ? `${crisis.independent_sources} independent sources corroborate it.`
        : 'Fewer than 2 independent sources corroborate it.',
    },
    {
      signal: 'evidence_completeness',
      weight: 20,
      present: complete,
      reason: complete
        ? `The event's evidence completeness is ${crisis.evidence_completeness!.score}.`
        : `The event's evidence completeness is ${crisis.evidence_completeness?.score ?? 'unknown'} (below ${RULES.crisisCompleteness}).`,
    },
    {
      signal: 'human_review',
      weight: 20,
      present: reviewed,
      reason: reviewed
        ? 'You reviewed the evidence as supported.'
        : `The evidence is ${crisis.review_status ?? 'unreviewed'}: no review supports it yet.`,
    },
  ];
  const entity = crisis.impacted_entity ?? crisis.title;
  const evidenceUrl = `/api/intelligence/crisis-events/${crisis.id}`;
  const freshUntil = asOf === null ? null : Date.parse(asOf) + crisis.freshness_window_ms;
  const common = {
    source_key: `crisis:${crisis.id}`,
    source_trend_id: crisis.trend_id === null ? null : String(crisis.trend_id),
    source_trend_name: entity,
    source_words: paddedWords([...crisis.source_keywords, crisis.impacted_entity]),
    priority: crisis.severity as Priority,
    trigger_level: priorityRank(crisis.severity),
    fresh_until: freshUntil,
  };
  if (severe) {
    const steps = [
      `Review the evidence: GET ${evidenceUrl}/evidence.`,
      `Record your review against evidence_version ${crisis.evidence_version ?? '(none yet)'}: POST ${evidenceUrl}/reviews.`,
      `Publish a short, factual holding statement about ${entity} and say when you will update it.`,
      `Pause scheduled promotion about ${entity} (workflow pushes gated on it are refused while the event is active).`,
      ...(crisis.status === 'active'
        ? [
            `Acknowledge the event once the response is out: POST ${evidenceUrl}/action with {"action": "acknowledge"}.`,
          ]
        : []),
    ];
    return {
      ...common,
      type: 'pr_response',
      title: `Respond to the ${crisis.severity} crisis about ${entity}`,
      details: `${crisis.summary} A prompt, factual response limits how far the story spreads.`,
      parts: {
        why_now: `Crisis event #${crisis.id} "${crisis.title}" is ${crisis.severity} and ${crisis.status}: ${crisis.summary}`,
        evidence,
        checks,
        freshness_weight: 20,
        expected_benefit: {
          outcome: `Contain the damage to ${entity}: a visible, factual response before the story settles.`,
          basis: crisis.severity_basis ?? `A ${crisis.severity} crisis event.`,
          measurement:
            'Negative mentions per 30 minutes and the event’s severity over the next 24 hours, until it subsides.',
        },
        urgency:
          crisis.severity === 'critical'
            ? {
                level: 'act_now',
                window: 'Next 2 hours',
                reason: 'Critical severity: the story is spreading now.',
              }
            : {
                level: 'act_now',
                window: 'Next 6 hours',
                reason: 'High severity while the evidence is fresh.',
              },
        next_steps: steps,
        snapshot_at: asOf,
        blockers:
          crisis.review_status === 'disputed'
            ? ['You reviewed the evidence as disputed: confirm it before responding publicly.']
            : [],
      },
    };
  }
  return {
    ...common,
    type: 'monitoring',
    title: `Keep an eye on the ${crisis.severity} crisis about ${entity}`,
    details: `${crisis.summary} It is below high severity; a response is not called for yet.`,
    parts: {
      why_now: `Crisis event #${crisis.id} "${crisis.title}" is ${crisis.severity} and ${crisis.status}.`,
      evidence,
      checks,
      freshness_weight: 20,
      expected_benefit: {
        outcome: `Spot an escalation about ${entity} before it needs a public response.`,
        basis: crisis.severity_basis ?? `A ${crisis.severity} crisis event.`,
        measurement: 'Whether the event escalates to high within 24 hours.',
      },
      urgency: { level: 'monitor', window: 'Next 24 hours', reason: `Severity ${crisis.severity}.` },
      next_steps: [
        `Review the evidence: GET ${evidenceUrl}/evidence.`,
        'Get told when it escalates: POST /api/integrations/webhooks with trigger_type crisis_event and filters.min_severity high.',
        `Prepare a holding statement about ${entity} in case it escalates.`,
      ],
      snapshot_at: asOf,
      blockers: [],
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Insight rules

interface InsightContext {
  insight: InsightFacts;
  trend: TrendFacts | undefined;
  link: string;
  trendLink: string;
  freshUntil: number;
  sourceWords: string;
}

function insightCommon(c: InsightContext) {
  return {
    source_key: `trend:${c.insight.trend_id}`,
    source_trend_id: String(c.insight.trend_id),
    source_trend_name: c.insight.trend_name,
    source_words: c.sourceWords,
    fresh_until: c.freshUntil,
  };
}

function searchDemand(c: InsightContext): Draft | null {
  const { insight } = c;
  const intent = insight.commercial_intent;
  if (intent === null || intent < RULES.seoIntent) return null;
  // Buying words in complaints (refunds, charges, cancellations) are not demand to capture.
  if (insight.sentiment_category === 'negative') return null;
  const strong = intent >= RULES.seoStrongIntent;
  const keywords = insight.primary_keywords.slice(0, 5);
  const evidence = insightEvidence(insight, c.link);
  if (keywords.length > 0)
    evidence.push({
      metric: 'primary_audience_keywords',
      label: 'Primary audience keywords',
      value: keywords,
      unit: null,
      interpretation: null,
      source: 'crestwatch',
      source_url: c.link,
      observed_at: iso(insight.generated_at),
    });
  if (c.trend) evidence.push(...trendEvidence(c.trend, c.trendLink).slice(0, 3));
  const unsafe = insight.brand_safety?.level === 'unsafe';
  return {
    ...insightCommon(c),
    type: 'seo_optimization',
    title: `Capture search demand for "${insight.trend_name}"`,
    details:
      `${Math.round(intent * 100)} % of the analysed mentions of "${insight.trend_name}" use buying language ` +
      `(predicted CPC $${insight.predicted_cpc_usd ?? '?'}): a page that answers them can earn that traffic organically.`,
    priority: strong ? 'high' : 'medium',
    trigger_level: Math.round((strong ? RULES.seoStrongIntent : RULES.seoIntent) * 100),
    parts: {
      why_now:
        `Your insight of ${iso(insight.generated_at)} measures commercial intent ${intent} for "${insight.trend_name}"` +
        (c.trend ? `, which now has velocity score ${c.trend.velocity_score}.` : '.'),
      evidence,
      checks: [
        {
          signal: 'commercial_intent',
          weight: 30,
          present: true,
          reason: `Commercial intent measured: ${intent}.`,
        },
        {
          signal: 'predicted_cpc',
          weight: 15,
          present: insight.predicted_cpc_usd !== null,
          reason:
            insight.predicted_cpc_usd !== null
              ? `Predicted CPC $${insight.predicted_cpc_usd} values the traffic.`
              : 'No predicted CPC to value the traffic.',
        },
        {
          signal: 'audience_keywords',
          weight: 20,
          present: keywords.length >= 3,
          reason:
            keywords.length >= 3
              ? `Keywords to target: ${keywords.join(', ')}.`
              : 'Fewer than 3 audience keywords to target.',
        },
        {
          signal: 'live_trend_metrics',
          weight: 15,
          present: c.trend !== undefined,
          reason: c.trend
            ? `Live numbers: velocity score ${c.trend.velocity_score}, ${c.trend.volume} mentions in 24 hours.`
            : 'The trend does not match one of your interests, so its live numbers are not tracked here.',
        },
      ],
      freshness_weight: 20,
      expected_benefit: {
        outcome: `Organic search traffic from people looking to buy around "${insight.trend_name}".`,
        basis: `Commercial intent ${intent}${insight.predicted_cpc_usd !== null ? ` at a predicted CPC of $${insight.predicted_cpc_usd}` : ''}.`,
        measurement: 'Impressions, clicks and conversions of the page for the target keywords over 28 days.',
      },
      urgency: strong
        ? {
            level: 'this_week',
            window: 'Next 7 days',
            reason: 'High buying intent while the topic is discussed.',
          }
        : { level: 'this_week', window: 'Next 14 days', reason: 'Moderate buying intent.' },
      next_steps: [
        keywords.length > 0
          ? `Map the keywords ${keywords.join(', ')} to one landing page or guide.`
          : `Research the queries people use about "${insight.trend_name}".`,
        'Answer the buying questions directly (price, comparison, where to buy) with structured data.',
        `Re-run the insight in a week to see whether intent holds: POST /api/trends/${insight.trend_id}/ai-insights/generate.`,
      ],
      snapshot_at: iso(insight.generated_at),
      blockers: unsafe
        ? [
            `Your latest insight rates the mentions brand-unsafe (${insight.brand_safety!.flags.join(', ') || 'flagged'}).`,
          ]
        : [],
    },
  };
}

function complaintDraft(c: InsightContext, kind: 'product' | 'service'): Draft | null {
  const { insight } = c;
  const topics = insight.complaints.filter(
    (t) => t.kind === kind && t.share_pct >= RULES.complaintSharePct && t.count >= RULES.complaintMinCount,
  );
  if (topics.length === 0) return null;
  const top = topics.reduce((a, b) => (b.share_pct > a.share_pct ? b : a));
  const strong = top.share_pct >= RULES.complaintStrongSharePct;
  const at = iso(insight.generated_at);
  const sample = top.of;
  const evidence: Evidence[] = topics.slice(0, 3).map((t) => ({
    metric: 'complaint_share',
    label: `Mentions complaining about ${t.label}`,
    value: t.share_pct,
    unit: '%',
    interpretation: `${t.count} of ${t.of} analysed mentions${t.example ? `, e.g. “${t.example}”` : ''}.`,
    source: 'crestwatch',
    source_url: c.link,
    observed_at: at,
  }));
  evidence.push({
    metric: 'sample_size',
    label: 'Mentions analysed',
    value: sample,
    unit: 'mentions',
    interpretation: null,
    source: 'crestwatch',
    source_url: c.link,
    observed_at: at,
  });
  if (insight.sentiment_category)
    evidence.push({
      metric: 'sentiment_category',
      label: 'Sentiment of the analysed mentions',
      value: insight.sentiment_category,
      unit: null,
      interpretation: null,
      source: 'crestwatch',
      source_url: c.link,
      observed_at: at,
    });
  const negative = insight.sentiment_category === 'negative' || insight.sentiment_category === 'mixed';
  const labels = topics.map((t) => t.label).join('; ');
  const product = kind === 'product';
  return {
    ...insightCommon(c),
    type: product ? 'product_improvement' : 'crm_strategy',
    title: product
      ? `Fix what people complain about in "${insight.trend_name}": ${top.label}`
      : `Set up a support response for "${insight.trend_name}": ${top.label}`,
    details:
      `${top.share_pct} % of the analysed mentions of "${insight.trend_name}" complain about ${top.label}` +
      (topics.length > 1
        ? ` (also: ${topics
            .slice(1)
            .map((t) => t.label)
            .join('; ')})`
        : '') +
      '.',
    priority: strong ? 'high' : 'medium',
    trigger_level: strong ? RULES.complaintStrongSharePct : RULES.complaintSharePct,
    parts: {
      why_now: `Your insight of ${at} finds ${top.count} of ${top.of} mentions complaining about ${top.label} (${top.share_pct} %).`,
      evidence,
      checks: [
        {
          signal: 'complaint_share',
          weight: 35,
          present: true,
          reason: `Complaint share measured: ${labels}.`,
        },
        {
          signal: 'sample_size',
          weight: 20,
          present: sample >= RULES.solidSample,
          reason:
            sample >= RULES.solidSample
              ? `${sample} mentions analysed.`
              : `Only ${sample} mentions analysed (fewer than ${RULES.solidSample}).`,
        },
        {
          signal: 'negative_sentiment',
          weight: 20,
          present: negative,
          reason: negative
            ? `Overall sentiment is ${insight.sentiment_category}.`
            : `Overall sentiment is ${insight.sentiment_category ?? 'unknown'}, not negative.`,
        },
      ],
      freshness_weight: 25,
      expected_benefit: product
        ? {
            outcome: `Fewer complaints about ${top.label}.`,
            basis: `${top.share_pct} % of the analysed mentions.`,
            measurement: `The topic's share in your next insight on the trend against ${top.share_pct} % now.`,
          }
        : {
            outcome: `Faster, consistent answers on ${top.label}, and fewer repeat contacts.`,
            basis: `${top.share_pct} % of the analysed mentions.`,
            measurement: `The topic's share and the overall sentiment in your next insight against ${top.share_pct} % now.`,
          },
      urgency: strong
        ? {
            level: 'this_week',
            window: 'Next 3 days',
            reason: `${top.share_pct} % of mentions is a recurring problem.`,
          }
        : { level: 'this_week', window: 'Next 14 days', reason: 'A recurring, moderate complaint.' },
      next_steps: product
        ? [
            `Share the examples with whoever owns ${top.label}: GET /api/trends/${insight.trend_id}/ai-insights.`,
            'Reproduce the most common failure and estimate the fix.',
            `Re-run the insight after the fix: POST /api/trends/${insight.trend_id}/ai-insights/generate.`,
          ]
        : [
            ...insight.suggested_responses
              .filter((r) => topics.some((t) => r.startsWith(`On ${t.label}:`)))
              .slice(0, 2),
            `Turn the answer into a support macro and a pinned FAQ entry about ${top.label}.`,
            ...(insight.common_questions.length > 0
              ? [`Answer the common question: ${insight.common_questions[0]}`]
              : []),
          ],
      snapshot_at: at,
      blockers: [],
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The engine

/** Every draft the rules produce for one user; at most one per (source_key, type). */
export function generate(input: RuleInput): Draft[] {
  const base = trimSlash(input.baseUrl);
  const trendLink = (id: number) => `${base}/api/trends/${id}`;
  const insightLink = (id: number) => `${base}/api/trends/${id}/ai-insights`;
  const crisisLink = (id: number) => `${base}/api/intelligence/crisis-events/${id}`;
  const insights = new Map(input.insights.map((i) => [i.trend_id, i]));
  const drafts: Draft[] = [];
  const trendsById = new Map<number, TrendFacts>();

  for (const trend of input.trends) {
    const interest = matchingInterest(trend.title, input.interests);
    if (interest === null) continue;
    trendsById.set(trend.id, trend);
    const insight = insights.get(trend.id);
    const c: TrendContext = {
      trend,
      interest,
      insight,
      freshInsight: isFreshInsight(insight, input.now) ? insight : null,
      gate: gatingCrisis(trend, input.crises),
      trendLink: trendLink(trend.id),
      insightLink: insightLink(trend.id),
      interestsLink: `${base}/api/user/interests`,
      freshUntil: Date.parse(trend.timestamp) + RULES.trendFreshMs,
      sourceWords: paddedWords([trend.title]),
    };
    for (const rule of [momentum, watch, creatorMoment]) {
      const draft = rule(c);
      if (draft) drafts.push(draft);
    }
  }

  for (const crisis of input.crises) drafts.push(crisisDraft(crisis, crisisLink(crisis.id)));

  for (const insight of input.insights) {
    const c: InsightContext = {
      insight,
      trend: trendsById.get(insight.trend_id),
      link: insightLink(insight.trend_id),
      trendLink: trendLink(insight.trend_id),
      freshUntil: insight.generated_at + RULES.insightFreshMs,
      sourceWords: paddedWords([insight.trend_name]),
    };
    for (const draft of [searchDemand(c), complaintDraft(c, 'product'), complaintDraft(c, 'service')]) {
      if (draft) drafts.push(draft);
    }
  }

  // One per source and type (inputs could repeat a trend or an event): the first wins.
  const seen = new Set<string>();
  return drafts.filter((d) => {
    const key = `${d.source_key}|${d.type}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
