// The evidence a recommendation shows: a trend's live numbers and what the user's insight measured, each with
// its source link and the instant it was observed.
import type { Evidence } from './brief.ts';
import type { InsightFacts, TrendFacts } from './facts.ts';
import { iso } from './format.ts';

export function topPlatform(platforms: Record<string, number>): [string, number] | null {
  const top = Object.entries(platforms)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  return top ?? null;
}

export const activePlatforms = (platforms: Record<string, number>) =>
  Object.values(platforms).filter((n) => n > 0).length;

const WINDOW_WORDS: Record<string, string> = {
  '6h': 'the last 6 hours are against the 6-hour spans before them',
  '24h': 'the last 24 hours are against the days before them',
};

/** What the score measured: the window it comes from (the strongest of 1 h, 6 h and 24 h). */
function velocityMeaning(trend: Pick<TrendFacts, 'velocity_window'>): string {
  const words =
    WINDOW_WORDS[trend.velocity_window ?? '1h'] ?? 'the last 60 minutes are for this hour of the week';
  return `How surprising ${words} (the strongest of the 1-hour, 6-hour and 24-hour windows).`;
}

export function trendEvidence(trend: TrendFacts, link: string): Evidence[] {
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
    e('velocity_score', 'Velocity score', trend.velocity_score, 'score (0–100)', velocityMeaning(trend)),
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

export function insightEvidence(insight: InsightFacts, link: string): Evidence[] {
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
