// Trend rules: a trend matching one of the user's interests becomes content_idea or marketing_angle (momentum),
// monitoring (watch) or influencer_collab (creator moment); see the table in rules.ts.
import type { BriefParts, Check } from './brief.ts';
import { activePlatforms, insightEvidence, topPlatform, trendEvidence } from './evidence.ts';
import {
  type CrisisFacts,
  type Draft,
  type InsightFacts,
  type InterestFacts,
  type RecommendationType,
  RULES,
  type TrendFacts,
} from './facts.ts';
import { growthText, iso, plural } from './format.ts';

export interface TrendContext {
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

export function momentum(c: TrendContext): Draft | null {
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
            basis:
              trend.velocity_window === '6h' || trend.velocity_window === '24h'
                ? `Velocity score ${trend.velocity_score}: the last ${trend.velocity_window === '6h' ? '6' : '24'} hours of independent posts against the same spans before them.`
                : `Velocity score ${trend.velocity_score}: ${plural(trend.velocity_1h, 'mention')} in the last hour against a seasonal baseline.`,
            measurement: `Engagement and reach of the piece against your median for ${trend.category} over 7 days.`,
          },
      urgency: urgencyOf(trend.lifecycle_stage, trend.velocity_1h),
      next_steps: steps,
      snapshot_at: trend.timestamp,
      blockers: blockersFor(c),
    },
  };
}

export function watch(c: TrendContext): Draft | null {
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

export function creatorMoment(c: TrendContext): Draft | null {
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
