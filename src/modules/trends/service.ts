// Trends as the API shows them: metrics computed from the stored buckets with the formulas in metrics.ts.

import type { Selectable } from 'kysely';
import type { Executor } from '../../database.ts';
import { type Clock, isoString } from '../../platform/clock.ts';
import { dayRange } from '../../platform/dates.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { TimeSlicer } from '../../platform/scheduling.ts';
import { CATEGORIES, categoryByNameOrSlug, descendantsOf, normaliseKey } from '../text/index.ts';
import {
  computeTrendMetrics,
  growth as growthOf,
  HOUR_MS,
  hourIndex,
  PERIOD_HOURS,
  type PeriodName,
  type SentimentSums,
  type TrendMetrics,
  VELOCITY_HISTORY_HOURS,
  type VelocityWindow,
  velocityTrend,
} from './metrics.ts';
import type { ListFilter, ListSort, SnapshotRow, TrendsStore } from './store.ts';
import type { TrendSelection } from './stores/reports.ts';
import type { TrendsTable } from './tables.ts';

const MINUTE_MS = 60_000;
// The velocity windows look up to 4 weeks back from their own start (metrics.ts VELOCITY_HISTORY_HOURS).
const BASELINE_HOURS = VELOCITY_HISTORY_HOURS;
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
  /** Phrases folded into the trend, as written. */
  aliases: string[];
}

type TrendRow = Selectable<TrendsTable>;
type HourlyRow = Awaited<ReturnType<TrendsStore['hourlyRowsFor']>>[number];

function groupBy<R extends { trend_id: number }>(rows: R[]): Map<number, R[]> {
  const out = new Map<number, R[]>();
  for (const row of rows) {
    const list = out.get(row.trend_id);
    if (list) list.push(row);
    else out.set(row.trend_id, [row]);
  }
  return out;
}

/** A one-sentence summary with the numbers behind it. */
function describe(title: string, metrics: TrendMetrics, period: PeriodName | 'custom'): string {
  const span = period === 'custom' ? 'the chosen dates' : `the last ${PERIOD_WORDS[period]}`;
  const before = period === 'custom' ? 'as many days before' : `the previous ${PERIOD_WORDS[period]}`;
  const change =
    metrics.growth === null
      ? metrics.volume > 0
        ? ` (new: none in ${before})`
        : ''
      : ` (${metrics.growth >= 0 ? '+' : ''}${metrics.growth} % vs ${before})`;
  const top = Object.entries(metrics.platforms).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  const where = top ? `; most mentions on ${top[0]}` : '';
  return `${title}: ${metrics.volume} mentions in ${span}${change}${where}; ${metrics.lifecycle_stage}.`;
}

/** One window to compute metrics over: `periodHours` hours ending with hour `endHour` (inclusive). */
interface MetricWindow {
  /** What `meta_description` calls it and the snapshot row stores: a period name, or `custom`. */
  period: PeriodName | 'custom';
  periodHours: number;
  endHour: number;
  /** True when the window ends now: velocity_1h then comes from minute buckets. */
  live: boolean;
}

/**
 * The first hour a trend's series need: its first-seen hour within [fromHour, toHour], or fromHour when
 * unknown (then every hour counts as data).
 */
function seriesStart(firstSeenAt: number | null, fromHour: number, toHour: number): number {
  if (firstSeenAt === null) return fromHour;
  return Math.min(Math.max(fromHour, hourIndex(firstSeenAt)), toHour);
}

/** The window of a contract period ending now. */
export function periodWindow(period: PeriodName, now: number): MetricWindow {
  return { period, periodHours: PERIOD_HOURS[period], endHour: hourIndex(now), live: true };
}

// Trends whose buckets are read per query in `compute`: up to 60 days of hourly rows each, so a read stays short.
const CHUNK = 50;
const DAY_MS = 24 * HOUR_MS;

interface ListParams {
  search?: string;
  category?: string;
  period?: PeriodName;
  /** The caller's interest the list is filtered by (its id, echoed in `meta`)… */
  interest?: number;
  /** …and its normalised keyword. */
  interestKey?: string;
  /** Keywords (as written): trends whose name holds any of them as whole words. */
  interests?: string[];
  /** Sentiment categories to leave out. */
  exclude_sentiment?: string[];
  /** Trends observed in at least this many hourly buckets of the period. */
  min_snapshots?: number;
  sort_by?: ListSort;
  order?: 'asc' | 'desc';
  start_date?: string;
  end_date?: string;
  limit?: number;
  offset?: number;
}

interface ListMeta {
  total: number;
  limit: number;
  offset: number;
  period: string;
  sort_by: ListSort;
  order: 'asc' | 'desc';
  search: string | null;
  category: string | null;
  start_date: string | null;
  end_date: string | null;
  interest: number | null;
  interests: string[] | null;
  exclude_sentiment: string[] | null;
  min_snapshots: number | null;
}

interface TrendList {
  trends: TrendItemView[];
  total: number;
  meta: ListMeta;
}

/**
 * `interests` keywords as trend keys (normalised as trends are); a keyword no trend could be named by is a 400,
 * not a filter that silently matches nothing.
 */
function interestKeys(keywords: string[]): string[] {
  const keys = new Set<string>();
  for (const keyword of keywords) {
    const key = normaliseKey(keyword.trim().replace(/^#/, ''));
    if (key === null) {
      throw badRequest(
        `interests: "${keyword}" has no words a trend could be named by (only stop-words, a URL or too short).`,
        'interests',
      );
    }
    keys.add(key);
  }
  return [...keys];
}

/**
 * The category a filter parameter names by path or slug (`Technology/AI`, `technology-ai`); a parent covers its
 * children through `descendantsOf`. One outside the taxonomy is a 400 naming the parameter, never a filter that
 * silently matches nothing.
 */
export function requireCategory(value: string, field: string) {
  const category = categoryByNameOrSlug(value);
  if (category === null) {
    throw badRequest(
      `${field} "${value}" is not in the taxonomy; GET /api/trends/categories lists names and slugs.`,
      field,
    );
  }
  return category;
}

/** A custom date range as a window: whole UTC days, up to now when it ends today. */
function rangeWindow(
  startDate: string | undefined,
  endDate: string | undefined,
  now: number,
): MetricWindow & { startDate: string; endDate: string } {
  const range = dayRange(startDate, endDate, now);
  const live = range.endsToday;
  const endHour = live ? hourIndex(now) : hourIndex(range.endMs - 1);
  const fromHour = hourIndex(range.startMs);
  return {
    period: 'custom',
    periodHours: endHour - fromHour + 1,
    endHour,
    live,
    startDate: range.startDate,
    endDate: range.endDate,
  };
}

/** A stored snapshot joined with its trend, as a TrendItem. */
function fromSnapshot(
  row: SnapshotRow & { title: string; type: string; category: string; last_seen_at: number; aliases: string },
): TrendItemView {
  return {
    id: row.trend_id,
    title: row.title,
    aliases: JSON.parse(row.aliases) as string[],
    volume: row.volume,
    timestamp: isoString(row.last_seen_at)!,
    category: row.category,
    sentiment: row.sentiment,
    sentiment_category: row.sentiment_category as TrendItemView['sentiment_category'],
    type: row.type as TrendType,
    meta_description: row.meta_description,
    growth: row.growth,
    previous_volume: row.previous_volume,
    absolute_change: row.absolute_change,
    average_velocity: row.average_velocity,
    trend_stability: row.trend_stability,
    overall_trend: row.overall_trend as TrendItemView['overall_trend'],
    velocity_score: row.velocity_score,
    velocity_1h: row.velocity_1h,
    lifecycle_stage: row.lifecycle_stage as TrendItemView['lifecycle_stage'],
    velocity_window: row.velocity_window as VelocityWindow,
    platforms: JSON.parse(row.platforms) as Record<string, number>,
  };
}

function compareBy(sortBy: ListSort, order: 'asc' | 'desc') {
  const sign = order === 'asc' ? 1 : -1;
  return (a: TrendItemView, b: TrendItemView): number => {
    let c = 0;
    switch (sortBy) {
      case 'volume':
        c = sign * (a.volume - b.volume);
        break;
      case 'velocity':
        c = sign * (a.velocity_score - b.velocity_score || a.velocity_1h - b.velocity_1h);
        break;
      case 'growth':
        if (a.growth === null || b.growth === null)
          c = (a.growth === null ? 1 : 0) - (b.growth === null ? 1 : 0);
        else c = sign * (a.growth - b.growth);
        break;
      case 'timestamp':
        c = sign * a.timestamp.localeCompare(b.timestamp);
        break;
      case 'name': {
        const x = a.title.toLowerCase();
        const y = b.title.toLowerCase();
        c = sign * (x < y ? -1 : x > y ? 1 : 0);
        break;
      }
    }
    return c || sign * (a.id - b.id);
  };
}

/** List answers kept in memory; they are dropped whenever snapshots change, and after 1 s. */
const LIST_CACHE_SIZE = 256;
const LIST_CACHE_MS = 1000;

/** A list answer and, once asked for, its serialised form. */
interface ListEntry {
  at: number;
  version: number;
  list: TrendList;
  body?: string;
}

export class TrendsService {
  // Snapshots change at most once per recompute pass (every second), while the list is the hottest read and
  // its JSON the biggest cost: a period's answer (and its JSON) is served from memory until the next pass,
  // or for 1 s (snapshots another instance wrote). Date ranges are computed from the buckets every time.
  private readonly lists = new Map<string, ListEntry>();
  private version = 0;

  constructor(
    private readonly store: TrendsStore,
    private readonly clock: Clock,
  ) {}

  /** Called when snapshots were rewritten: cached lists are out of date. */
  snapshotsChanged(): void {
    this.version++;
    this.lists.clear();
  }

  /**
   * `GET /api/trends` serialised by `serialize`: snapshots for a period (a cached answer keeps its serialised
   * form, so a repeat costs a lookup, without a promise); a date range is computed from the buckets.
   */
  listBody(params: ListParams, serialize: (list: TrendList) => string): string | Promise<string> {
    const cacheable = params.start_date === undefined && params.end_date === undefined;
    const key = cacheable ? JSON.stringify(params) : '';
    const now = this.clock.now();
    const hit = cacheable ? this.lists.get(key) : undefined;
    if (hit && hit.version === this.version && now >= hit.at && now - hit.at < LIST_CACHE_MS) {
      hit.body ??= serialize(hit.list);
      return hit.body;
    }
    return this.freshList(params, cacheable ? key : undefined, now).then((entry) => {
      entry.body ??= serialize(entry.list);
      return entry.body;
    });
  }

  /** Computes a list answer and keeps it under `key` unless snapshots changed meanwhile. */
  private async freshList(params: ListParams, key: string | undefined, now: number): Promise<ListEntry> {
    const version = this.version;
    const entry: ListEntry = { at: now, version, list: await this.compileList(params) };
    if (key !== undefined && version === this.version) {
      this.lists.delete(key);
      if (this.lists.size >= LIST_CACHE_SIZE) this.lists.delete(this.lists.keys().next().value!);
      this.lists.set(key, entry);
    }
    return entry;
  }

  /** The list answer as objects, uncached (for modules that compose trends into their own answers). */
  list(params: ListParams): Promise<TrendList> {
    return this.compileList(params);
  }

  async get(id: number, period: PeriodName = '24h'): Promise<TrendItemView> {
    const trend = await this.store.findTrend(id);
    if (!trend) throw notFound(`No trend has id ${id}.`);
    return this.view(trend, period);
  }

  async view(trend: TrendRow, period: PeriodName): Promise<TrendItemView> {
    const now = this.clock.now();
    const views = await this.compute([trend], [periodWindow(period, now)], now);
    return views.get(trend.id)![0]!;
  }

  /**
   * TrendItems of the given trends in each window (same order as `windows`), computed from the stored
   * buckets with the formulas in metrics.ts. Loads buckets for up to 200 trends per query.
   */
  async compute(
    trends: TrendRow[],
    windows: MetricWindow[],
    now: number,
  ): Promise<Map<number, TrendItemView[]>> {
    const out = new Map<number, TrendItemView[]>();
    if (trends.length === 0 || windows.length === 0) return out;
    const spanOf = (w: MetricWindow) => Math.max(2 * w.periodHours, BASELINE_HOURS);
    const fromHour = Math.min(...windows.map((w) => w.endHour - spanOf(w) + 1));
    const toHour = Math.max(...windows.map((w) => w.endHour));
    const nowMinute = Math.floor(now / MINUTE_MS);
    const needMinutes = windows.some((w) => w.live);
    // Hundreds of trends × four windows is a long computation: let requests in between.
    const slicer = new TimeSlicer();
    for (let i = 0; i < trends.length; i += CHUNK) {
      const part = trends.slice(i, i + CHUNK);
      const ids = part.map((t) => t.id);
      const hourlyByTrend = groupBy(await this.store.hourlyRowsFor(ids, fromHour, toHour));
      const minutesByTrend = needMinutes
        ? groupBy(await this.store.minuteRowsFor(ids, nowMinute - 59, nowMinute))
        : new Map();
      for (const trend of part) {
        await slicer.maybeYield();
        const rows = hourlyByTrend.get(trend.id) ?? [];
        // The series start at the trend's first hour: the metrics drop the hours before it anyway (they are
        // "no data", metrics.ts computeTrendMetrics), and a new trend then costs arrays of a few hours, not
        // 60 days' worth per window.
        const seriesFrom = seriesStart(trend.first_seen_at, fromHour, toHour);
        const totals = new Array<number>(toHour - seriesFrom + 1).fill(0);
        const evidence = new Array<number>(toHour - seriesFrom + 1).fill(0);
        for (const row of rows) {
          if (row.hour < seriesFrom) continue;
          totals[row.hour - seriesFrom]! += Number(row.mentions);
          evidence[row.hour - seriesFrom]! += Number(row.evidence);
        }
        const minuteCounts = new Array<number>(60).fill(0);
        const minuteEvidence = new Array<number>(60).fill(0);
        for (const row of minutesByTrend.get(trend.id) ?? []) {
          minuteCounts[row.minute - (nowMinute - 59)]! += Number(row.mentions);
          minuteEvidence[row.minute - (nowMinute - 59)]! += Number(row.evidence);
        }
        const series = {
          totals,
          evidence,
          minuteCounts,
          minuteEvidence,
          timestamp: isoString(trend.last_seen_at)!,
        };
        out.set(
          trend.id,
          windows.map((w) => this.viewIn(trend, w, rows, series, seriesFrom, now)),
        );
      }
    }
    return out;
  }

  private viewIn(
    trend: TrendRow,
    w: MetricWindow,
    rows: HourlyRow[],
    series: {
      totals: number[];
      evidence: number[];
      minuteCounts: number[];
      minuteEvidence: number[];
      /** The trend's last_seen_at as an ISO string (the same in every window). */
      timestamp: string;
    },
    seriesFrom: number,
    now: number,
  ): TrendItemView {
    const span = Math.max(2 * w.periodHours, BASELINE_HOURS);
    // The window's hours that the series holds (hours before it were never seen: see seriesStart).
    const start = w.endHour - span + 1 - seriesFrom;
    const end = start + span;
    const hourly = end <= 0 ? [] : series.totals.slice(Math.max(0, start), end);
    const evidence = end <= 0 ? [] : series.evidence.slice(Math.max(0, start), end);
    const platforms: Record<string, number> = {};
    const sentiment: SentimentSums = { sum: 0, count: 0, positive: 0, negative: 0 };
    for (const row of rows) {
      if (row.hour > w.endHour - w.periodHours && row.hour <= w.endHour) {
        platforms[row.platform] = (platforms[row.platform] ?? 0) + row.mentions;
        sentiment.sum += row.sentiment_sum;
        sentiment.count += row.mentions;
        sentiment.positive += row.positive;
        sentiment.negative += row.negative;
      }
    }
    const metrics = computeTrendMetrics({
      hourly,
      endHour: w.endHour,
      minuteCounts: w.live ? series.minuteCounts : undefined,
      evidence,
      evidenceMinutes: w.live ? series.minuteEvidence : undefined,
      periodHours: w.periodHours,
      now: w.live ? now : undefined,
      firstSeenAt: trend.first_seen_at,
      sentiment,
      platforms,
    });
    return {
      id: trend.id,
      title: trend.title,
      timestamp: series.timestamp,
      category: trend.category,
      type: trend.type as TrendType,
      meta_description: describe(trend.title, metrics, w.period),
      aliases: JSON.parse(trend.aliases) as string[],
      ...metrics,
    };
  }

  /** The list answer itself: a page of snapshots, or of a date range computed from the buckets. */
  private async compileList(params: ListParams): Promise<TrendList> {
    const limit = params.limit ?? 20;
    const offset = params.offset ?? 0;
    const sortBy = params.sort_by ?? 'volume';
    const order = params.order ?? 'desc';
    const filter: ListFilter = {};
    if (params.category !== undefined) {
      filter.categories = descendantsOf(requireCategory(params.category, 'category').name);
    }
    if (params.search !== undefined) {
      filter.search = params.search.trim().replace(/^#/, '');
      // Nothing left to look for would match every trend: a filter that silently filters nothing.
      if (filter.search === '')
        throw badRequest('search must hold more than spaces or a lone "#".', 'search');
    }
    if (params.interestKey !== undefined) filter.interestKey = params.interestKey;
    if (params.interests !== undefined) filter.anyKeys = interestKeys(params.interests);
    if (params.exclude_sentiment !== undefined) filter.excludeSentiments = params.exclude_sentiment;
    const meta = {
      limit,
      offset,
      sort_by: sortBy,
      order,
      search: params.search ?? null,
      category: params.category ?? null,
      interest: params.interest ?? null,
      interests: params.interests ?? null,
      exclude_sentiment: params.exclude_sentiment ?? null,
      min_snapshots: params.min_snapshots ?? null,
    };
    if (params.start_date === undefined && params.end_date === undefined) {
      const period = params.period ?? '24h';
      if (params.min_snapshots !== undefined) {
        const { endHour, periodHours } = periodWindow(period, this.clock.now());
        filter.activeHours = {
          min: params.min_snapshots,
          fromHour: endHour - periodHours + 1,
          toHour: endHour,
        };
      }
      const { rows, total } = await this.store.listSnapshots({
        ...filter,
        period,
        sortBy,
        order,
        limit,
        offset,
      });
      return {
        trends: rows.map(fromSnapshot),
        total,
        meta: { total, ...meta, period, start_date: null, end_date: null },
      };
    }
    const now = this.clock.now();
    const window = rangeWindow(params.start_date, params.end_date, now);
    const span = window.periodHours;
    if (params.min_snapshots !== undefined) {
      filter.activeHours = {
        min: params.min_snapshots,
        fromHour: window.endHour - span + 1,
        toHour: window.endHour,
      };
    }
    const candidates = await this.store.volumesBetween(filter, window.endHour - span + 1, window.endHour);
    const rows: TrendRow[] = [];
    for (let i = 0; i < candidates.length; i += CHUNK) {
      const ids = candidates.slice(i, i + CHUNK).map((c) => c.trend_id);
      rows.push(...(await this.store.readTrendsByIds(ids)));
    }
    const pageMeta = { ...meta, period: 'custom', start_date: window.startDate, end_date: window.endDate };
    let page: TrendItemView[];
    let total = candidates.length;
    const excluded = new Set(params.exclude_sentiment);
    if (sortBy === 'velocity' || excluded.size > 0) {
      // velocity_score and sentiment need every candidate's buckets.
      const views = await this.compute(rows, [window], now);
      const kept = [...views.values()].map((v) => v[0]!).filter((v) => !excluded.has(v.sentiment_category));
      total = kept.length;
      page = kept.sort(compareBy(sortBy, order)).slice(offset, offset + limit);
    } else {
      const byId = new Map(candidates.map((c) => [c.trend_id, c]));
      const light = rows.map((row) => {
        const c = byId.get(row.id)!;
        return {
          id: row.id,
          title: row.title,
          timestamp: isoString(row.last_seen_at)!,
          volume: c.volume,
          growth: growthOf(c.volume, c.previous_volume),
          velocity_score: 0,
          velocity_1h: 0,
        } as TrendItemView;
      });
      const ids = light
        .sort(compareBy(sortBy, order))
        .slice(offset, offset + limit)
        .map((v) => v.id);
      const chosen = rows.filter((r) => ids.includes(r.id));
      const views = await this.compute(chosen, [window], now);
      page = ids.map((id) => views.get(id)![0]!);
    }
    return { trends: page, total, meta: { total, ...pageMeta } };
  }

  /** `GET /api/trends/{id}/analytics`: the window's volume as a series. */
  async analytics(id: number, params: { period?: PeriodName; start_date?: string; end_date?: string }) {
    const trend = await this.store.findTrend(id);
    if (!trend) throw notFound(`No trend has id ${id}.`);
    const now = this.clock.now();
    const custom = params.start_date !== undefined || params.end_date !== undefined;
    const window = custom
      ? rangeWindow(params.start_date, params.end_date, now)
      : periodWindow(params.period ?? '7d', now);
    const view = (await this.compute([trend], [window], now)).get(id)![0]!;
    const fromHour = window.endHour - window.periodHours + 1;
    const hourly = new Array<number>(window.periodHours).fill(0);
    for (const row of await this.store.hourlyRows(id, fromHour, window.endHour)) {
      hourly[row.hour - fromHour]! += row.mentions;
    }
    let data: { timestamp: string; volume: number }[];
    if (window.periodHours === 1 && window.live) {
      // The current hour by minute, up to now.
      const firstMinute = window.endHour * 60;
      const nowMinute = Math.floor(now / MINUTE_MS);
      const minutes = new Array<number>(nowMinute - firstMinute + 1).fill(0);
      for (const row of await this.store.minuteRows(id, firstMinute, nowMinute)) {
        minutes[row.minute - firstMinute]! += row.mentions;
      }
      data = minutes.map((volume, i) => ({ timestamp: isoString((firstMinute + i) * MINUTE_MS)!, volume }));
    } else if (window.periodHours <= PERIOD_HOURS['7d']) {
      data = hourly.map((volume, i) => ({ timestamp: isoString((fromHour + i) * HOUR_MS)!, volume }));
    } else {
      // Daily points, each the sum of its UTC day's hours within the window.
      const days = new Map<number, number>();
      hourly.forEach((volume, i) => {
        const day = Math.floor(((fromHour + i) * HOUR_MS) / DAY_MS);
        days.set(day, (days.get(day) ?? 0) + volume);
      });
      data = [...days].map(([day, volume]) => ({ timestamp: isoString(day * DAY_MS)!, volume }));
    }
    return {
      trend_id: id,
      name: trend.title,
      period: window.period,
      current_volume: view.volume,
      previous_volume: view.previous_volume,
      volume_change_percent: view.growth,
      data,
      velocity_per_hour: view.average_velocity,
      velocity_trend: velocityTrend(hourly),
    };
  }

  /** `GET /api/trends/autocomplete`: trends whose normalised name starts with the query. */
  async autocomplete(query: string, limit = 10) {
    const text = query.trim().replace(/^#/, '');
    // Normalise as trend keys are; a lone stop-word or too-short query is matched as typed (lowercase).
    const prefix = normaliseKey(text) ?? text.toLowerCase();
    if (prefix === '') return { results: [] };
    const rows = await this.store.autocomplete(prefix, limit);
    return {
      results: rows.map((r) => ({
        name: r.title,
        category: r.category,
        volume: r.volume ?? 0,
        suggestion: r.key,
      })),
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

  // ---------- what other modules read of trends (they query no trend table themselves)

  /** The stored trend, or undefined. */
  find(id: number): Promise<TrendRow | undefined> {
    return this.store.findTrend(id);
  }

  /** The best trend for an interest key (crisis events link it), read in the caller's transaction when given. */
  trendForKey(key: string, executor?: Executor): Promise<{ id: number; title: string } | null> {
    return this.store.trendForKey(key, executor);
  }

  /** A trend's most frequent surface forms, at most `limit` (insights search signals by them). */
  topSurfaces(trendId: number, limit: number): Promise<string[]> {
    return this.store.topSurfaces(trendId, limit);
  }

  /** Marks a trend's metric snapshots out of date: the next recompute pass refreshes them. */
  markDirty(trendId: number): Promise<void> {
    return this.store.markDirty(trendId);
  }

  /** The 24-hour snapshot's lifecycle stage and sentiment category of a trend (alert bodies). */
  alertLabels(trendId: number) {
    return this.store.snapshotLabels(trendId, '24h');
  }

  /** Custom reports: each selected trend's sums in the window (TrendsStore.reportTotals). */
  reportTotals(
    selection: TrendSelection,
    window: { fromHour: number; toHour: number; previous: boolean },
    limit: number,
  ) {
    return this.store.reports.reportTotals(selection, window, limit);
  }

  /** Custom reports: sums of the given trends' buckets, grouped (TrendsStore.reportBuckets). */
  reportBuckets(
    trendIds: number[],
    window: { fromHour: number; toHour: number },
    group: { byTrend: boolean; platform: boolean; day: boolean; hour: boolean },
    platforms: string[] | undefined,
    limit: number,
  ) {
    return this.store.reports.reportBuckets(trendIds, window, group, platforms, limit);
  }

  /** Custom reports: the stored snapshots of one period for the given trends. */
  reportSnapshots(trendIds: number[], period: string) {
    return this.store.reports.reportSnapshots(trendIds, period);
  }

  /** Custom reports: whole trend rows, to compute metrics over dates from (`compute`). */
  reportTrendRows(trendIds: number[]): Promise<TrendRow[]> {
    return this.store.reports.reportTrendRows(trendIds);
  }
}
