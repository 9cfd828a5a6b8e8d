// Report rows from per-trend sums (and bucket sums), per-event values, and the sort that orders them. Pure:
// every number is computed here with the trends module's own formulas, so a row for one trend shows the numbers
// `GET /api/trends` shows for it over the same window.
import { isoString, utcDate } from '../../platform/clock.ts';
import {
  averageVelocity,
  formatSentiment,
  growth,
  overallTrend,
  sentimentCategory,
  type TrendTotalsRow,
} from '../trends/index.ts';
import type { BucketDimension, CrisisPlan, TrendDimension, TrendPlan } from './catalogue.ts';

const HOUR_MS = 3_600_000;

export type Cell = string | number | null;
export type Row = Record<string, Cell>;

/** What a report knows of one trend over the window. */
export interface TrendFacts extends TrendTotalsRow {
  /** The trend's computed metrics for the window (when the plan needs them). */
  whole?: { velocity_score: number; velocity_1h: number; trend_stability: number; lifecycle_stage: string };
}

/** Sums of one trend's (or a group of trends') buckets, split by bucket columns. */
interface BucketSums {
  trend_id: number | null;
  platform: string | null;
  day: number | null;
  hour: number | null;
  volume: number;
  sentiment_sum: number;
  positive: number;
  negative: number;
  trends: number;
}

interface ReportWindow {
  fromHour: number;
  toHour: number;
}

/** A trend's sentiment category over the window, as TrendItem computes it. */
export function trendSentimentCategory(t: TrendFacts): string {
  return sentimentCategory({
    sum: t.sentiment_sum,
    count: t.volume,
    positive: t.positive,
    negative: t.negative,
  });
}

/** A trend's overall_trend over the window, as TrendItem computes it. */
function trendOverall(t: TrendFacts): string {
  return overallTrend(growth(t.volume, t.previous_volume), t.volume);
}

function trendDimension(dimension: TrendDimension, t: TrendFacts | undefined): Cell {
  if (!t) return null;
  switch (dimension) {
    case 'trend_id':
      return t.trend_id;
    case 'trend_name':
      return t.title;
    case 'category':
      return t.category;
    case 'type':
      return t.type;
    case 'sentiment_category':
      return trendSentimentCategory(t);
    case 'overall_trend':
      return trendOverall(t);
    case 'lifecycle_stage':
      return t.whole?.lifecycle_stage ?? null;
    default:
      return null;
  }
}

function bucketDimension(dimension: BucketDimension, b: BucketSums): Cell {
  switch (dimension) {
    case 'platform':
      return b.platform;
    case 'day':
      return b.day === null ? null : utcDate(b.day * 24 * HOUR_MS);
    case 'hour':
      return b.hour === null ? null : isoString(b.hour * HOUR_MS);
  }
}

interface Group {
  cells: Row;
  volume: number;
  previous: number;
  sentimentSum: number;
  positive: number;
  negative: number;
  trends: number;
  /** Hours of the window the group covers (for average_velocity). */
  hours: number;
  velocitySum: number;
  velocityMax: number | null;
  velocityCount: number;
  velocity1h: number;
  /** The one trend of a per-trend row. */
  trend?: TrendFacts;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function newGroup(cells: Row, hours: number): Group {
  return {
    cells,
    volume: 0,
    previous: 0,
    sentimentSum: 0,
    positive: 0,
    negative: 0,
    trends: 0,
    hours,
    velocitySum: 0,
    velocityMax: null,
    velocityCount: 0,
    velocity1h: 0,
  };
}

function metricValue(metric: TrendPlan['metrics'][number], g: Group): Cell {
  switch (metric) {
    case 'volume':
      return g.volume;
    case 'previous_volume':
      return g.previous;
    case 'absolute_change':
      return g.volume - g.previous;
    case 'growth':
      return growth(g.volume, g.previous);
    case 'average_velocity':
      return averageVelocity(g.volume, g.hours);
    case 'sentiment':
      return g.volume > 0 ? Number(formatSentiment(g.sentimentSum / g.volume)) : null;
    case 'positive_mentions':
      return g.positive;
    case 'negative_mentions':
      return g.negative;
    case 'trend_count':
      return g.trends;
    case 'velocity_score':
      return g.trend?.whole?.velocity_score ?? null;
    case 'trend_stability':
      return g.trend?.whole?.trend_stability ?? null;
    case 'avg_velocity_score':
      return g.velocityCount > 0 ? round2(g.velocitySum / g.velocityCount) : null;
    case 'max_velocity_score':
      return g.velocityMax;
    case 'velocity_1h':
      return g.velocity1h;
  }
}

/** Hours of the window inside epoch day `day`. */
function hoursOfDay(day: number, window: ReportWindow): number {
  return Math.max(0, Math.min(window.toHour, day * 24 + 23) - Math.max(window.fromHour, day * 24) + 1);
}

/**
 * The groups of a trends report. Without bucket dimensions each trend counts whole (its window sums); with
 * them `buckets` holds the split sums (per trend when any trend dimension is asked for).
 */
export function trendRows(
  plan: TrendPlan,
  window: ReportWindow,
  trends: TrendFacts[],
  buckets: BucketSums[] | null,
): Row[] {
  const byId = new Map(trends.map((t) => [t.trend_id, t]));
  const trendDims = plan.dimensions.filter(
    (d): d is Exclude<TrendDimension, BucketDimension> => !plan.buckets.includes(d as BucketDimension),
  );
  const groups = new Map<string, Group>();
  const windowHours = window.toHour - window.fromHour + 1;
  const groupFor = (cells: Row, trendId: number | null, hours: number): Group => {
    const key = JSON.stringify([plan.perTrend ? trendId : null, ...plan.dimensions.map((d) => cells[d])]);
    let group = groups.get(key);
    if (!group) {
      group = newGroup(cells, hours);
      groups.set(key, group);
    }
    return group;
  };
  if (buckets === null) {
    for (const t of trends) {
      const cells: Row = {};
      for (const d of trendDims) cells[d] = trendDimension(d, t);
      const g = groupFor(cells, t.trend_id, windowHours);
      g.volume += t.volume;
      g.previous += t.previous_volume;
      g.sentimentSum += t.sentiment_sum;
      g.positive += t.positive;
      g.negative += t.negative;
      if (t.volume > 0) g.trends += 1;
      if (t.whole) {
        g.velocitySum += t.whole.velocity_score;
        g.velocityMax = Math.max(g.velocityMax ?? 0, t.whole.velocity_score);
        g.velocityCount += 1;
        g.velocity1h += t.whole.velocity_1h;
      }
      if (plan.perTrend) g.trend = t;
    }
  } else {
    for (const b of buckets) {
      const t = b.trend_id === null ? undefined : byId.get(b.trend_id);
      const cells: Row = {};
      for (const d of plan.dimensions) {
        cells[d] = plan.buckets.includes(d as BucketDimension)
          ? bucketDimension(d as BucketDimension, b)
          : trendDimension(d, t);
      }
      const hours = b.hour !== null ? 1 : b.day !== null ? hoursOfDay(b.day, window) : windowHours;
      const g = groupFor(cells, b.trend_id, hours);
      g.volume += b.volume;
      g.sentimentSum += b.sentiment_sum;
      g.positive += b.positive;
      g.negative += b.negative;
      g.trends += b.trends;
      if (plan.perTrend && t) g.trend = t;
    }
  }
  if (plan.dimensions.length === 0 && groups.size === 0) groupFor({}, null, windowHours);
  return [...groups.values()].map((g) => {
    const row: Row = { ...g.cells };
    for (const metric of plan.metrics) row[metric] = metricValue(metric, g);
    return row;
  });
}

/** What a crisis report reads of one of the caller's events. */
export interface EventFacts {
  severity: string;
  status: string;
  review_status: string;
  freshness: string;
  detection_method: string;
  source_state: string | null;
  impacted_entity: string | null;
  detected_at: string;
  evidence_completeness: { score: number } | null;
}

export function crisisRows(plan: CrisisPlan, events: EventFacts[]): Row[] {
  const groups = new Map<string, { cells: Row; count: number; scoreSum: number; scored: number }>();
  for (const e of events) {
    const cells: Row = {};
    for (const d of plan.dimensions) cells[d] = d === 'day' ? e.detected_at.slice(0, 10) : (e[d] ?? null);
    const key = JSON.stringify(plan.dimensions.map((d) => cells[d]));
    let g = groups.get(key);
    if (!g) {
      g = { cells, count: 0, scoreSum: 0, scored: 0 };
      groups.set(key, g);
    }
    g.count += 1;
    if (e.evidence_completeness) {
      g.scoreSum += e.evidence_completeness.score;
      g.scored += 1;
    }
  }
  if (plan.dimensions.length === 0 && groups.size === 0) {
    groups.set('[]', { cells: {}, count: 0, scoreSum: 0, scored: 0 });
  }
  return [...groups.values()].map((g) => {
    const row: Row = { ...g.cells };
    for (const metric of plan.metrics) {
      row[metric] =
        metric === 'event_count'
          ? g.count
          : g.scored > 0
            ? Math.round((g.scoreSum / g.scored) * 10) / 10
            : null;
    }
    return row;
  });
}

function compareCells(a: Cell, b: Cell): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Rows ordered by `sortBy` (nulls last either way), ties broken by every column in order, ascending: the same
 * request always gives the same order.
 */
export function sortRows(rows: Row[], columns: string[], sortBy: string, order: 'asc' | 'desc'): Row[] {
  const sign = order === 'asc' ? 1 : -1;
  return rows.sort((x, y) => {
    const a = x[sortBy] ?? null;
    const b = y[sortBy] ?? null;
    let c = a === null || b === null ? compareCells(a, b) : sign * compareCells(a, b);
    for (let i = 0; c === 0 && i < columns.length; i++) {
      c = compareCells(x[columns[i]!] ?? null, y[columns[i]!] ?? null);
    }
    return c;
  });
}
