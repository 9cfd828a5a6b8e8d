// Keeps the metric snapshots (trend_metrics, one row per trend and period) current and records domain
// events when a trend's velocity crosses a level or its lifecycle stage changes, in the same transaction as
// the snapshot write. Trends are recomputed when ingestion touched them, every minute while they had
// mentions in the last hour (velocity_1h slides), and every hour while seen in the last 61 days (hour
// windows move). Each run handles a bounded batch; the engine calls it every second.
import type { Clock } from '../../platform/clock.ts';
import type { EventOf, EventRecorder } from '../../platform/events.ts';
import { TimeSlicer, yieldToEventLoop } from '../../platform/scheduling.ts';
import { TREND_LIFECYCLE_EVENT, TREND_VELOCITY_EVENT, type TrendEvents } from './events.ts';
import { VelocityLevels } from './levels.ts';
import { HOUR_MS, PERIOD_HOURS, type PeriodName } from './metrics.ts';
import { periodWindow, type TrendItemView, type TrendsService } from './service.ts';
import type { SnapshotRow, TrendsStore } from './store.ts';

const MINUTE_MS = 60_000;
const SNAPSHOTS_PER_STATEMENT = 300;
const SNAPSHOT_PERIODS = Object.keys(PERIOD_HOURS) as PeriodName[];
/** Events describe the default period's snapshot. */
const EVENT_PERIOD: PeriodName = '24h';
/** Below this many mentions in 24 h a trend raises no events: one-off phrases are not news. */
export const MIN_EVENT_VOLUME = 5;
// Trends are stale after the longest window (30 d) plus the previous one it is compared with.
const STALE_AFTER_MS = 2 * PERIOD_HOURS['30d'] * HOUR_MS + HOUR_MS;

interface RecomputeOptions {
  /** The velocity levels whose crossing is an event (by default the fixed ones alone). */
  levels?: VelocityLevels;
  batchSize?: number;
  /** Trends one run recomputes at most (the rest wait for the next run; default 5,000). */
  maxTrendsPerRun?: number;
  /** Called after each committed batch with the new default-period views (live `trend.update` messages). */
  onSnapshots?: (views: TrendItemView[]) => void;
}

/** The events a snapshot change raises (pure, exported for tests). */
export function eventsFor(
  previous: Pick<SnapshotRow, 'velocity_score' | 'lifecycle_stage'> | undefined,
  next: TrendItemView,
  levels: readonly number[],
  now: number,
): EventOf<TrendEvents>[] {
  if (next.volume < MIN_EVENT_VOLUME) return [];
  const events: EventOf<TrendEvents>[] = [];
  const from = previous?.velocity_score ?? 0;
  const base = {
    trend_id: next.id,
    trend_name: next.title,
    category: next.category,
    velocity: next.velocity_score,
    velocity_window: next.velocity_window,
    volume: next.volume,
  };
  const crossed = levels.filter((level) => from < level && next.velocity_score >= level);
  if (crossed.length > 0) {
    const level = Math.max(...crossed);
    events.push({
      id: `${TREND_VELOCITY_EVENT}:${next.id}:${level}:${now}`,
      type: TREND_VELOCITY_EVENT,
      occurred_at: now,
      data: { ...base, from_velocity: from, levels: crossed },
    });
  }
  const fromStage = previous?.lifecycle_stage ?? null;
  if (fromStage !== next.lifecycle_stage && !(fromStage === null && next.lifecycle_stage === 'stable')) {
    events.push({
      id: `${TREND_LIFECYCLE_EVENT}:${next.id}:${next.lifecycle_stage}:${now}`,
      type: TREND_LIFECYCLE_EVENT,
      occurred_at: now,
      data: { ...base, from_stage: fromStage, to_stage: next.lifecycle_stage },
    });
  }
  return events;
}

/** The stored row of a view for one period (exported for tests). */
export function snapshotRow(view: TrendItemView, period: PeriodName, now: number): SnapshotRow {
  return {
    trend_id: view.id,
    period,
    volume: view.volume,
    previous_volume: view.previous_volume,
    absolute_change: view.absolute_change,
    growth: view.growth,
    average_velocity: view.average_velocity,
    trend_stability: view.trend_stability,
    overall_trend: view.overall_trend,
    velocity_score: view.velocity_score,
    velocity_1h: view.velocity_1h,
    lifecycle_stage: view.lifecycle_stage,
    velocity_window: view.velocity_window,
    sentiment: view.sentiment,
    sentiment_category: view.sentiment_category,
    platforms: JSON.stringify(view.platforms),
    meta_description: view.meta_description,
    computed_at: now,
  };
}

/**
 * Whether a stored snapshot already holds what `next` would write: every column but computed_at (which nothing
 * reads) is equal. Such a row is not written again (pure, exported for tests).
 */
export function sameSnapshot(stored: SnapshotRow | undefined, next: SnapshotRow): boolean {
  if (stored === undefined) return false;
  for (const column of Object.keys(next) as (keyof SnapshotRow)[]) {
    if (column !== 'computed_at' && stored[column] !== next[column]) return false;
  }
  return true;
}

export class MetricsRecomputer {
  private lastMinute = -1;
  private lastHour = -1;
  private readonly batchSize: number;
  private readonly maxTrendsPerRun: number;
  private readonly levels: VelocityLevels;

  constructor(
    private readonly store: TrendsStore,
    private readonly trends: TrendsService,
    private readonly events: EventRecorder<TrendEvents>,
    private readonly clock: Clock,
    private readonly options: RecomputeOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.maxTrendsPerRun = options.maxTrendsPerRun ?? 5000;
    this.levels = options.levels ?? new VelocityLevels();
  }

  /** Marks trends whose windows moved since the last call. */
  async markTimeDirty(): Promise<void> {
    const now = this.clock.now();
    const hour = Math.floor(now / HOUR_MS);
    const minute = Math.floor(now / MINUTE_MS);
    if (hour !== this.lastHour) {
      await this.store.dirty.markSeenSince(now - STALE_AFTER_MS);
      this.lastHour = hour;
      this.lastMinute = minute;
    } else if (minute !== this.lastMinute) {
      await this.store.dirty.markRecentlyActive();
      this.lastMinute = minute;
    }
  }

  /**
   * Recomputes up to `maxTrends` out-of-date trends; returns how many it recomputed, and `backlog` when it
   * stopped at that bound with more out of date (the engine then runs its next pass at once).
   */
  async run(maxTrends = this.maxTrendsPerRun): Promise<{ trends: number; events: number; backlog: boolean }> {
    await this.markTimeDirty();
    const done = { trends: 0, events: 0, backlog: false };
    while (done.trends < maxTrends) {
      const batch = await this.recomputeBatch();
      await yieldToEventLoop();
      done.trends += batch.trends;
      done.events += batch.events;
      if (batch.trends < this.batchSize) return done;
    }
    done.backlog = true;
    return done;
  }

  /**
   * Recomputes one batch of at most `limit` out-of-date trends with fewer than MIN_EVENT_VOLUME mentions in
   * all, for the engine to fill time it would otherwise wait in; returns how many it recomputed (0: none was
   * out of date). Those are the one-off phrases a batch of real posts is full of: no later batch is likely to
   * touch them again, and they raise no events. A busy trend waits for the end of the pass, as a later batch
   * would leave it out of date again. Cached lists are not dropped here but by `run` or `listsOutOfDate` (many
   * small batches in a row would leave every read to query afresh).
   */
  recomputeSome(limit: number): Promise<{ trends: number; events: number }> {
    return this.recomputeBatch(Math.min(limit, this.batchSize), false, MIN_EVENT_VOLUME);
  }

  /** Cached lists are out of date (after `recomputeSome`). */
  listsOutOfDate(): void {
    this.trends.snapshotsChanged();
  }

  private async recomputeBatch(
    limit = this.batchSize,
    dropLists = true,
    fewerMentionsThan?: number,
  ): Promise<{ trends: number; events: number }> {
    const dirty =
      fewerMentionsThan === undefined
        ? await this.store.dirty.list(limit)
        : await this.store.dirty.oneOffs(limit, fewerMentionsThan);
    if (dirty.length === 0) return { trends: 0, events: 0 };
    const now = this.clock.now();
    const ids = dirty.map((d) => d.id);
    const rows = await this.store.trendsByIds(ids);
    const windows = SNAPSHOT_PERIODS.map((p) => periodWindow(p, now));
    const views = await this.trends.compute(rows, windows, now);
    const levels = await this.levels.current();
    let recorded = 0;
    await this.store.transaction(async (trx) => {
      const previous = await this.store.snapshots(ids, trx);
      const snapshots: SnapshotRow[] = [];
      const events: EventOf<TrendEvents>[] = [];
      for (const [id, list] of views) {
        const stored = previous.get(id);
        list.forEach((view, i) => {
          const period = SNAPSHOT_PERIODS[i]!;
          const row = snapshotRow(view, period, now);
          // Trends are recomputed every minute while active and every hour while seen in 61 days; most such
          // rows come out as they were, and rewriting them was most of a quiet service's writes.
          if (!sameSnapshot(stored?.get(period), row)) snapshots.push(row);
          if (period === EVENT_PERIOD) events.push(...eventsFor(stored?.get(period), view, levels, now));
        });
      }
      // Four snapshots per trend (one per period): cut into statements with the event loop handed back between them.
      const slicer = new TimeSlicer();
      for (let i = 0; i < snapshots.length; i += SNAPSHOTS_PER_STATEMENT) {
        await slicer.maybeYield();
        await this.store.upsertSnapshots(snapshots.slice(i, i + SNAPSHOTS_PER_STATEMENT), trx);
      }
      for (const event of events) await this.events.record(trx, event);
      await this.store.dirty.clear(dirty, trx);
      recorded = events.length;
    });
    if (dropLists) this.trends.snapshotsChanged();
    if (this.options.onSnapshots) {
      const index = SNAPSHOT_PERIODS.indexOf(EVENT_PERIOD);
      this.options.onSnapshots([...views.values()].map((list) => list[index]!).filter((v) => v.volume > 0));
    }
    return { trends: dirty.length, events: recorded };
  }
}
