// Trends as the API shows them: metrics computed from the stored buckets with the formulas in metrics.ts.
import type { Selectable } from 'kysely';
import { type Clock, isoString } from '../../platform/clock.ts';
import type { TrendsTable } from '../../platform/db/schema.ts';
import { notFound } from '../../platform/errors.ts';
import { CATEGORIES, descendantsOf } from './categories.ts';
import {
  computeTrendMetrics,
  HOURS_PER_WEEK,
  hourIndex,
  PERIOD_HOURS,
  type PeriodName,
  type SentimentSums,
  type TrendMetrics,
} from './metrics.ts';
import type { TrendsStore } from './store.ts';

const MINUTE_MS = 60_000;
// The velocity baseline looks at the same hour of the week up to 4 weeks back.
const BASELINE_HOURS = 4 * HOURS_PER_WEEK + 1;
const PERIOD_WORDS: Record<PeriodName, string> = {
  '1h': 'hour',
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
};

export type TrendType = 'hashtag' | 'keyword' | 'entity' | 'query' | 'hazard';

export interface TrendItemView extends TrendMetrics {
  id: number;
  title: string;
  timestamp: string;
  category: string;
  type: TrendType;
  meta_description: string;
}

type TrendRow = Selectable<TrendsTable>;

/** A one-sentence summary with the numbers behind it. */
export function describe(title: string, metrics: TrendMetrics, period: PeriodName): string {
  const words = PERIOD_WORDS[period];
  const change =
    metrics.growth === null
      ? metrics.volume > 0
        ? ` (new: none in the previous ${words})`
        : ''
      : ` (${metrics.growth >= 0 ? '+' : ''}${metrics.growth} % vs the previous ${words})`;
  const top = Object.entries(metrics.platforms).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  const where = top ? `; most mentions on ${top[0]}` : '';
  return `${title}: ${metrics.volume} mentions in the last ${words}${change}${where}; ${metrics.lifecycle_stage}.`;
}

export class TrendsService {
  constructor(
    private readonly store: TrendsStore,
    private readonly clock: Clock,
  ) {}

  async get(id: number, period: PeriodName = '24h'): Promise<TrendItemView> {
    const trend = await this.store.findTrend(id);
    if (!trend) throw notFound(`No trend has id ${id}.`);
    return this.view(trend, period);
  }

  async view(trend: TrendRow, period: PeriodName): Promise<TrendItemView> {
    const now = this.clock.now();
    const endHour = hourIndex(now);
    const periodHours = PERIOD_HOURS[period];
    const span = Math.max(2 * periodHours, BASELINE_HOURS);
    const fromHour = endHour - span + 1;
    const hourly = new Array<number>(span).fill(0);
    const platforms: Record<string, number> = {};
    const sentiment: SentimentSums = { sum: 0, count: 0, positive: 0, negative: 0 };
    for (const row of await this.store.hourlyRows(trend.id, fromHour, endHour)) {
      hourly[row.hour - fromHour]! += row.mentions;
      if (row.hour > endHour - periodHours) {
        platforms[row.platform] = (platforms[row.platform] ?? 0) + row.mentions;
        sentiment.sum += row.sentiment_sum;
        sentiment.count += row.mentions;
        sentiment.positive += row.positive;
        sentiment.negative += row.negative;
      }
    }
    const nowMinute = Math.floor(now / MINUTE_MS);
    const minuteCounts = new Array<number>(60).fill(0);
    for (const row of await this.store.minuteRows(trend.id, nowMinute - 59, nowMinute)) {
      minuteCounts[row.minute - (nowMinute - 59)]! += row.mentions;
    }
    const metrics = computeTrendMetrics({
      hourly,
      endHour,
      minuteCounts,
      periodHours,
      now,
      firstSeenAt: trend.first_seen_at,
      sentiment,
      platforms,
    });
    return {
      id: trend.id,
      title: trend.title,
      timestamp: isoString(trend.last_seen_at)!,
      category: trend.category,
      type: trend.type as TrendType,
      meta_description: describe(trend.title, metrics, period),
      ...metrics,
    };
  }

  /** The whole taxonomy with trend counts; a parent counts its own trends and its children's. */
  async categories() {
    const counts = await this.store.countByCategory();
    return {
      categories: CATEGORIES.map((category) => ({
        name: category.name,
        slug: category.slug,
        description: category.description,
        id: null,
        trend_count: descendantsOf(category.name).reduce((sum, name) => sum + (counts.get(name) ?? 0), 0),
      })),
    };
  }
}
