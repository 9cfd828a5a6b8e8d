// The trend engine's heartbeat: turn pending signals into buckets, bring metric snapshots up to date,
// and once an hour apply retention. One pass at a time; the app calls `tick` every second. Every instance
// processes signals (each claims its own); recompute and retention run where their lease is held.
import type { Clock } from '../../platform/clock.ts';
import { HOUR_MS } from './metrics.ts';
import type { DrainResult, TrendProcessor } from './processor.ts';
import type { MetricsRecomputer } from './recompute.ts';
import type { TrendsStore } from './store.ts';

const DAY_MS = 24 * HOUR_MS;
/**
 * Hourly buckets older than this are rolled up into one bucket per day (stored at the day's first hour): past
 * the longest period (30 d) and the one it is compared with, and the 7 days of same-hour baselines before
 * them, no metric reads single hours any more (docs/metrics.md, "Retention").
 */
const ROLLUP_AFTER_DAYS = 70;

interface EngineOptions {
  retention: { signalDays: number; bucketDays: number };
  /** Deletes processed signals observed before the given instant (owned by the signals module). */
  pruneSignals: (before: number) => Promise<unknown>;
  /** Called after a pass that recorded events, so the job worker picks them up at once. */
  onEvents?: () => void;
  /** Runs at the end of every pass (the crisis detector reads the same signals). */
  afterPass?: () => Promise<unknown>;
  /**
   * Runs a loop that must run on one instance at a time if this instance holds its lease (undefined when
   * another does). Without it every loop runs here.
   */
  exclusive?: <T>(name: string, task: () => Promise<T>) => Promise<T | undefined>;
  /**
   * Longest a pass spends on pending signals before recomputing (the rest waits for the next pass); while a
   * backlog lasts, each following pass may spend twice as long, up to BACKLOG_BUDGET_GROWTH times this.
   */
  drainBudgetMs?: number;
}

/**
 * A pass processes pending signals for at most this long, so that when signals arrive faster than they are
 * processed, snapshots, alerts and crisis detection still move every few seconds.
 */
const DRAIN_BUDGET_MS = 2000;
/**
 * While signals stay pending pass after pass, the budget doubles up to this factor (8 s by default): a trend
 * every batch names is recomputed once a pass, so a firehose that kept passes at 2 s rewrote its busiest
 * trends' four snapshots every 2 s, work (and PostgreSQL WAL: about a third of it on the shared real posts) that
 * the next pass overwrote. Snapshots then move every 8 s at most while the backlog is worked off.
 */
const BACKLOG_BUDGET_GROWTH = 4;

/** Trends recomputed at a time (one transaction) while the drain waits for the NLP threads: more at once holds
 * reads up longer (250 took the read p99 on real posts from about 35 ms to 52). */
const WAIT_RECOMPUTE_TRENDS = 100;

/** The engine's background loops that run on one instance at a time. */
const ENGINE_LOOPS = { recompute: 'trend-recompute', retention: 'retention' } as const;

const runHere = <T>(_name: string, task: () => Promise<T>) => task();

interface TickResult extends DrainResult {
  /** Signals still pending or snapshots still out of date: the next pass follows at once. */
  backlog: boolean;
  recomputed: number;
  events: number;
}

/** Passes that new signals call for start at least this far apart (one pass per ingested batch is waste). */
const WAKE_SPACING_MS = 200;

export class TrendEngine {
  private running: Promise<TickResult> | null = null;
  private lastRetentionHour = -1;
  /** Hours before this were rolled up into days by this process (each start rolls the whole range once). */
  private rolledBefore = 0;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private lastStart = 0;
  /** New signals arrived during the running pass: another follows it. */
  private again = false;
  private onError: (error: unknown) => void = () => undefined;
  /** How many times the base drain budget the next pass may spend (grows while signals stay pending). */
  private budgetFactor = 1;

  constructor(
    private readonly processor: TrendProcessor,
    private readonly recomputer: MetricsRecomputer,
    private readonly store: TrendsStore,
    private readonly clock: Clock,
    private readonly options: EngineOptions,
  ) {}

  /** Runs one pass, or joins the pass already running. */
  tick(): Promise<TickResult> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * The running service's schedule: a pass every `intervalMs`, another at once after one that left a
   * backlog, and one soon after new signals are stored (`wake`). Tests drive `tick` by hand instead.
   */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.onError = onError;
    this.timer = setInterval(() => this.run(), intervalMs);
    this.timer.unref();
  }

  /** New signals were stored: a pass starts within WAKE_SPACING_MS (after the one running, if any). */
  wake(): void {
    if (!this.timer || this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.wakeTimer) return;
    const delay = Math.max(0, this.lastStart + WAKE_SPACING_MS - performance.now());
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.run();
    }, delay);
    this.wakeTimer.unref();
  }

  private run(): void {
    if (this.stopping) return;
    if (!this.running) this.lastStart = performance.now();
    this.tick().then((pass) => {
      const again = this.again;
      this.again = false;
      if (pass.backlog) setImmediate(() => this.run());
      else if (again) this.wake();
    }, this.onError);
  }

  private async pass(): Promise<TickResult> {
    const exclusive = this.options.exclusive ?? runHere;
    let recomputedWhileWaiting = 0;
    let eventsWhileWaiting = 0;
    // While the NLP threads are behind (long texts naming many new phrases), the event loop would wait for
    // them: it recomputes snapshots meanwhile, so fewer are left for the end of the pass.
    const recomputeWhileWaiting = async () => {
      if (this.stopping) return false;
      const done = await exclusive(ENGINE_LOOPS.recompute, () =>
        this.recomputer.recomputeSome(WAIT_RECOMPUTE_TRENDS),
      );
      if (done === undefined) return false;
      recomputedWhileWaiting += done.trends;
      eventsWhileWaiting += done.events;
      return done.trends > 0;
    };
    const processed = await this.processor.drain(undefined, {
      budgetMs: (this.options.drainBudgetMs ?? DRAIN_BUDGET_MS) * this.budgetFactor,
      stop: () => this.stopping,
      whileWaiting: recomputeWhileWaiting,
    });
    this.budgetFactor = processed.backlog ? Math.min(BACKLOG_BUDGET_GROWTH, this.budgetFactor * 2) : 1;
    if (recomputedWhileWaiting > 0) this.recomputer.listsOutOfDate();
    const recomputed = (await exclusive(ENGINE_LOOPS.recompute, () => this.recomputer.run())) ?? {
      trends: 0,
      events: 0,
      backlog: false,
    };
    const trends = recomputed.trends + recomputedWhileWaiting;
    const events = recomputed.events + eventsWhileWaiting;
    if (events > 0) this.options.onEvents?.();
    const hour = Math.floor(this.clock.now() / HOUR_MS);
    if (hour !== this.lastRetentionHour) {
      this.lastRetentionHour = hour;
      await exclusive(ENGINE_LOOPS.retention, () => this.applyRetention());
    }
    await this.options.afterPass?.();
    // Out-of-date snapshots left over (a large ingest touched more trends than one pass recomputes) are a
    // backlog as pending signals are: the next pass follows at once rather than at the next interval.
    return { ...processed, backlog: processed.backlog || recomputed.backlog, recomputed: trends, events };
  }

  async applyRetention(): Promise<void> {
    const now = this.clock.now();
    await this.options.pruneSignals(now - this.options.retention.signalDays * DAY_MS);
    const keepFrom = Math.floor((now - this.options.retention.bucketDays * DAY_MS) / HOUR_MS);
    await this.store.buckets.pruneBefore(keepFrom);
    // Whole days only: a day is rolled up once all its hours are past the line.
    const rollBefore = Math.floor((now - ROLLUP_AFTER_DAYS * DAY_MS) / DAY_MS) * 24;
    const rollFrom = Math.ceil(Math.max(keepFrom, this.rolledBefore) / 24) * 24;
    await this.store.buckets.rollUpDays(rollFrom, rollBefore);
    this.rolledBefore = Math.max(this.rolledBefore, rollBefore);
  }

  /** Shutdown: a pass under way ends after the batch it is writing; the backlog waits for the next start. */
  stop(): void {
    this.stopping = true;
    clearInterval(this.timer);
    clearTimeout(this.wakeTimer);
  }

  /** Waits for a running pass (shutdown). */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }
}
