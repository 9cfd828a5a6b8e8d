// Custom reports over trends (the shared feed) and the caller's own crisis events; session info; the public
// demo signals. Reports read and compute; they change nothing.
import type { Config } from '../../config.ts';
import { type Clock, isoString } from '../../platform/clock.ts';
import { dayRange } from '../../platform/dates.ts';
import { badRequest } from '../../platform/errors.ts';
import { oneParameter } from '../../platform/query.ts';
import { type CrisisService, FRESHNESS_WINDOWS_MS } from '../crisis/index.ts';
import type { SignalsService } from '../signals/index.ts';
import { categoryByNameOrSlug, descendantsOf, normaliseKey } from '../text/index.ts';
import {
  hourIndex,
  PERIOD_HOURS,
  type PeriodName,
  type TrendSelection,
  type TrendsService,
} from '../trends/index.ts';
import {
  crisisRows,
  type EventFacts,
  type Row,
  sortRows,
  type TrendFacts,
  trendRows,
  trendSentimentCategory,
} from './aggregate.ts';
import { type CrisisPlan, MAX_HOURLY_WINDOW_HOURS, planReport, type TrendPlan } from './catalogue.ts';
import { type DemoMode, DemoSignals, type DemoSignalsResponse } from './demo-signals.ts';
import { DEFAULT_REPORT_ROWS } from './schemas.ts';

const HOUR_MS = 3_600_000;
const PERIOD_MS_OF = (period: PeriodName) => PERIOD_HOURS[period] * HOUR_MS;
/** Trends a report may read for one request (their window sums). */
const MAX_TRENDS = 20_000;
/** Trends whose metrics a report over dates may compute (velocity and stability need each trend's series). */
const MAX_COMPUTED_TRENDS = 2_000;
/** Bucket groups (before merging into rows) a report may read. */
const MAX_BUCKET_ROWS = 200_000;
/** Crisis events a report may read. */
const MAX_EVENTS = 10_000;
const EVENT_PAGE = 100;

interface ReportsDeps {
  config: Pick<Config, 'defaultCountry'>;
  clock: Clock;
  /** The trends module's data: reports query no trend table themselves. */
  trends: Pick<
    TrendsService,
    'compute' | 'reportTotals' | 'reportBuckets' | 'reportSnapshots' | 'reportTrendRows'
  >;
  crisis: Pick<CrisisService, 'list' | 'hazardsSince'>;
  signals: Pick<SignalsService, 'recentWithLinks'>;
}

type OneOrMany<T> = T | T[];

interface ReportBody {
  dataset?: 'trends' | 'crisis_events';
  dimensions?: string[];
  metrics?: string[];
  filters?: {
    category?: OneOrMany<string>;
    search?: string;
    keyword?: string;
    keywords?: string[];
    type?: OneOrMany<string>;
    platform?: OneOrMany<string>;
    min_volume?: number;
    sentiment_category?: OneOrMany<string>;
    lifecycle_stage?: OneOrMany<string>;
    trend_id?: OneOrMany<number>;
    severity?: string;
    status?: string;
    review_status?: string;
    freshness?: string;
    source?: string;
    location?: string;
  };
  time_period?: PeriodName;
  period?: PeriodName;
  start_date?: string;
  end_date?: string;
  sort_by?: string;
  order?: 'asc' | 'desc';
  limit?: number;
}

interface CustomReport {
  columns: string[];
  rows: Row[];
  meta: {
    row_count: number;
    limit_applied: number | null;
    time_period: string;
    start_date: string | null;
    end_date: string | null;
    usage_count: null;
    usage_limit: null;
    dataset: 'trends' | 'crisis_events';
    total_rows: number;
    sort_by: string;
    order: 'asc' | 'desc';
    window_start: string;
    window_end: string;
    generated_at: string;
  };
}

/** The hours a trends report covers, as `GET /api/trends` counts them. */
interface Window {
  label: string;
  period: PeriodName | null;
  fromHour: number;
  toHour: number;
  /** The window ends with the current (partial) hour. */
  live: boolean;
  startDate: string | null;
  endDate: string | null;
  startMs: number;
  endMs: number;
}

const list = <T>(value: OneOrMany<T> | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? [...new Set(value)] : [value];

function resolveWindow(body: ReportBody, now: number, fallback: PeriodName): Window {
  const chosen = oneParameter({ time_period: body.time_period, period: body.period }, 'body');
  if (body.start_date !== undefined || body.end_date !== undefined) {
    const range = dayRange(body.start_date, body.end_date, now);
    const live = range.endsToday;
    return {
      label: 'custom',
      period: null,
      fromHour: hourIndex(range.startMs),
      toHour: live ? hourIndex(now) : hourIndex(range.endMs - 1),
      live,
      startDate: range.startDate,
      endDate: range.endDate,
      startMs: range.startMs,
      endMs: live ? now : range.endMs,
    };
  }
  const period = chosen ?? fallback;
  const toHour = hourIndex(now);
  const fromHour = toHour - PERIOD_HOURS[period] + 1;
  return {
    label: period,
    period,
    fromHour,
    toHour,
    live: true,
    startDate: null,
    endDate: null,
    startMs: fromHour * HOUR_MS,
    endMs: now,
  };
}

export class ReportsService {
  private readonly demo: DemoSignals;

  constructor(private readonly deps: ReportsDeps) {
    this.demo = new DemoSignals({
      clock: deps.clock,
      signals: deps.signals,
      hazards: deps.crisis,
      freshnessWindows: FRESHNESS_WINDOWS_MS,
    });
  }

  /** `GET /api/user/session-info`: the configured country (no geo-IP lookup). */
  sessionInfo(): { country: string } {
    return { country: this.deps.config.defaultCountry };
  }

  /** `GET /api/v1/public/demo-signals`. */
  demoSignals(mode: DemoMode): Promise<DemoSignalsResponse> {
    return this.demo.get(mode);
  }

  /** `POST /api/reports/custom` for `userId` (whose crisis events are the only ones a crisis report reads). */
  async custom(userId: number, body: ReportBody): Promise<CustomReport> {
    const plan = planReport({
      dataset: body.dataset,
      dimensions: body.dimensions,
      metrics: body.metrics,
      filters: body.filters as Record<string, unknown> | undefined,
    });
    const columns: string[] = [...plan.dimensions, ...plan.metrics];
    const timeDimension = plan.dimensions.find((d) => d === 'day' || d === 'hour');
    if (body.sort_by !== undefined && !columns.includes(body.sort_by)) {
      throw badRequest(
        `sort_by "${body.sort_by}" is not a column of this report; its columns are: ${columns.join(', ')}.`,
        'sort_by',
      );
    }
    const sortBy = body.sort_by ?? timeDimension ?? plan.metrics[0]!;
    const order = body.order ?? (body.sort_by === undefined && timeDimension !== undefined ? 'asc' : 'desc');
    const now = this.deps.clock.now();
    let rows: Row[];
    let window: Window;
    if (plan.dataset === 'trends') {
      window = resolveWindow(body, now, '24h');
      rows = await this.trendReport(plan, body.filters ?? {}, window, now);
    } else {
      window = resolveWindow(body, now, '30d');
      if (window.period !== null) window.startMs = now - PERIOD_MS_OF(window.period);
      rows = await this.crisisReport(plan, userId, body, window);
    }
    const limit = body.limit ?? DEFAULT_REPORT_ROWS;
    const sorted = sortRows(rows, columns, sortBy, order);
    const page = sorted.slice(0, limit);
    return {
      columns,
      rows: page,
      meta: {
        row_count: page.length,
        limit_applied: sorted.length > limit ? limit : null,
        time_period: window.label,
        start_date: window.startDate,
        end_date: window.endDate,
        usage_count: null,
        usage_limit: null,
        dataset: plan.dataset,
        total_rows: sorted.length,
        sort_by: sortBy,
        order,
        window_start: isoString(window.startMs)!,
        window_end: isoString(window.endMs)!,
        generated_at: isoString(now)!,
      },
    };
  }

  /** The trend-level part of the filters as a selection the store can apply. */
  private selection(filters: NonNullable<ReportBody['filters']>): TrendSelection {
    const selection: TrendSelection = {};
    const categories = list(filters.category);
    if (categories !== undefined) {
      const names = new Set<string>();
      for (const given of categories) {
        const category = categoryByNameOrSlug(given);
        if (category === null) {
          throw badRequest(
            `filters.category "${given}" is not in the taxonomy; GET /api/trends/categories lists names and slugs.`,
            'filters.category',
          );
        }
        for (const name of descendantsOf(category.name)) names.add(name);
      }
      selection.categories = [...names];
    }
    const search = oneParameter({ search: filters.search, keyword: filters.keyword }, 'body.filters');
    if (search !== undefined) {
      const text = search.trim().replace(/^#/, '');
      if (text !== '') selection.search = text;
    }
    if (filters.keywords !== undefined) {
      const keys = new Set<string>();
      filters.keywords.forEach((keyword, i) => {
        const key = normaliseKey(keyword.trim().replace(/^#/, ''));
        if (key === null) {
          throw badRequest(
            `filters.keywords[${i}] "${keyword}" has no words a trend could be named by (only stop-words, a URL ` +
              'or too short).',
            `filters.keywords[${i}]`,
          );
        }
        keys.add(key);
      });
      selection.anyKeys = [...keys];
    }
    selection.types = list(filters.type);
    selection.platforms = list(filters.platform);
    selection.trendIds = list(filters.trend_id);
    return selection;
  }

  private async trendReport(
    plan: TrendPlan,
    filters: NonNullable<ReportBody['filters']>,
    window: Window,
    now: number,
  ): Promise<Row[]> {
    const span = window.toHour - window.fromHour + 1;
    const hourAt = plan.dimensions.indexOf('hour');
    if (hourAt >= 0 && span > MAX_HOURLY_WINDOW_HOURS) {
      throw badRequest(
        `dimensions[${hourAt}] "hour" needs a window of at most ${MAX_HOURLY_WINDOW_HOURS / 24} days; this one ` +
          `spans ${Math.ceil(span / 24)} days (use day, or shorten the window).`,
        `dimensions[${hourAt}]`,
        'unsupported_combination',
      );
    }
    const selection = this.selection(filters);
    const totals = await this.deps.trends.reportTotals(
      selection,
      { fromHour: window.fromHour, toHour: window.toHour, previous: plan.previous },
      MAX_TRENDS + 1,
    );
    if (totals.length > MAX_TRENDS) {
      throw badRequest(
        `More than ${MAX_TRENDS.toLocaleString('en')} trends have mentions in this window; narrow the report ` +
          '(filters.category, filters.search, filters.keywords, filters.min_volume) or shorten the window.',
        'filters',
        'report_too_large',
      );
    }
    let facts: TrendFacts[] = totals;
    if (filters.min_volume !== undefined) facts = facts.filter((t) => t.volume >= filters.min_volume!);
    const sentiments = list(filters.sentiment_category);
    if (sentiments !== undefined) facts = facts.filter((t) => sentiments.includes(trendSentimentCategory(t)));
    if (plan.whole) await this.attachWholeMetrics(facts, window, now);
    const stages = list(filters.lifecycle_stage);
    if (stages !== undefined)
      facts = facts.filter((t) => t.whole && stages.includes(t.whole.lifecycle_stage));
    if (plan.buckets.length === 0) return trendRows(plan, window, facts, null);
    const byTrend = plan.dimensions.some((d) => !plan.buckets.includes(d as (typeof plan.buckets)[number]));
    const buckets = await this.deps.trends.reportBuckets(
      facts.map((t) => t.trend_id),
      window,
      {
        byTrend,
        platform: plan.buckets.includes('platform'),
        day: plan.buckets.includes('day'),
        hour: plan.buckets.includes('hour'),
      },
      selection.platforms,
      MAX_BUCKET_ROWS,
    );
    if (buckets.length > MAX_BUCKET_ROWS) {
      throw badRequest(
        `This report splits into more than ${MAX_BUCKET_ROWS.toLocaleString('en')} trend and time buckets; ` +
          'narrow the filters, drop a dimension, or use day instead of hour.',
        'dimensions',
        'report_too_large',
      );
    }
    return trendRows(plan, window, facts, buckets);
  }

  /**
   * Each trend's computed metrics for the window: the stored snapshot `GET /api/trends` lists for a period (the
   * trends module computes any that is missing), computed from the buckets for dates.
   */
  private async attachWholeMetrics(facts: TrendFacts[], window: Window, now: number): Promise<void> {
    let missing = facts;
    if (window.period !== null) {
      const snapshots = await this.deps.trends.reportSnapshots(
        facts.map((t) => t.trend_id),
        window.period,
      );
      for (const t of facts) t.whole = snapshots.get(t.trend_id);
      missing = facts.filter((t) => t.whole === undefined);
    }
    if (missing.length === 0) return;
    if (missing.length > MAX_COMPUTED_TRENDS) {
      throw badRequest(
        `Velocity, stability and lifecycle over dates are computed per trend, for at most ` +
          `${MAX_COMPUTED_TRENDS.toLocaleString('en')} trends; ${missing.length.toLocaleString('en')} match. ` +
          'Narrow the filters (filters.category, filters.min_volume, filters.trend_id) or use time_period.',
        'filters',
        'report_too_large',
      );
    }
    const rows = await this.deps.trends.reportTrendRows(missing.map((t) => t.trend_id));
    const views = await this.deps.trends.compute(
      rows,
      [
        {
          period: window.period ?? 'custom',
          periodHours: window.toHour - window.fromHour + 1,
          endHour: window.toHour,
          live: window.live,
        },
      ],
      now,
    );
    for (const t of missing) {
      const view = views.get(t.trend_id)?.[0];
      if (view) {
        t.whole = {
          velocity_score: view.velocity_score,
          velocity_1h: view.velocity_1h,
          trend_stability: view.trend_stability,
          lifecycle_stage: view.lifecycle_stage,
        };
      }
    }
  }

  /** The caller's own events in the window (through the crisis module, which walls them by owner). */
  private async crisisReport(plan: CrisisPlan, userId: number, body: ReportBody, window: Window) {
    const filters = body.filters ?? {};
    const keyword = oneParameter({ search: filters.search, keyword: filters.keyword }, 'body.filters');
    const query = {
      ...(window.period !== null
        ? { period: window.period }
        : { start_date: window.startDate!, end_date: window.endDate! }),
      severity: filters.severity,
      status: filters.status,
      review_status: filters.review_status,
      freshness: filters.freshness,
      source: filters.source,
      keyword,
      location: filters.location,
    };
    const events: EventFacts[] = [];
    for (let offset = 0; ; offset += EVENT_PAGE) {
      const page = await this.deps.crisis.list(userId, { ...query, limit: EVENT_PAGE, offset });
      if (page.meta.total > MAX_EVENTS) {
        throw badRequest(
          `More than ${MAX_EVENTS.toLocaleString('en')} of your crisis events fall in this window; shorten it or ` +
            'add filters.',
          'filters',
          'report_too_large',
        );
      }
      events.push(...page.events);
      if (page.events.length < EVENT_PAGE || events.length >= page.meta.total) break;
    }
    return crisisRows(plan, events);
  }
}
