// The trend engine's heartbeat: turn pending signals into buckets, bring metric snapshots up to date,
// and once an hour apply retention. One pass at a time; the app calls `tick` every second. Every instance
// processes signals (each claims its own); recompute and retention run where their lease is held.
import type { Clock } from '../../platform/clock.ts';
import { HOUR_MS } from './metrics.ts';
import type { ProcessResult, TrendProcessor } from './processor.ts';
import type { MetricsRecomputer } from './recompute.ts';
import type { TrendsStore } from './store.ts';

const DAY_MS = 24 * HOUR_MS;

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
  /** Longest a pass spends on pending signals before recomputing (the rest waits for the next pass). */
  drainBudgetMs?: number;
}

/**
 * A pass processes pending signals for at most this long, so that when signals arrive faster than they are
 * processed, snapshots, alerts and crisis detection still move every few seconds.
 */
const DRAIN_BUDGET_MS = 2000;

/** The engine's background loops that run on one instance at a time. */
const ENGINE_LOOPS = { recompute: 'trend-recompute', retention: 'retention' } as const;

const runHere = <T>(_name: string, task: () => Promise<T>) => task();

interface TickResult extends ProcessResult {
  recomputed: number;
  events: number;
}

export class TrendEngine {
  private running: Promise<TickResult> | null = null;
  private lastRetentionHour = -1;
  private stopping = false;

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

  private async pass(): Promise<TickResult> {
    const exclusive = this.options.exclusive ?? runHere;
    const processed = await this.processor.drain(undefined, {
      budgetMs: this.options.drainBudgetMs ?? DRAIN_BUDGET_MS,
      stop: () => this.stopping,
    });
    const { trends, events } = (await exclusive(ENGINE_LOOPS.recompute, () => this.recomputer.run())) ?? {
      trends: 0,
      events: 0,
    };
    if (events > 0) this.options.onEvents?.();
    const hour = Math.floor(this.clock.now() / HOUR_MS);
    if (hour !== this.lastRetentionHour) {
      this.lastRetentionHour = hour;
      await exclusive(ENGINE_LOOPS.retention, () => this.applyRetention());
    }
    await this.options.afterPass?.();
    return { ...processed, recomputed: trends, events };
  }

  async applyRetention(): Promise<void> {
    const now = this.clock.now();
    await this.options.pruneSignals(now - this.options.retention.signalDays * DAY_MS);
    await this.store.pruneHourlyBefore(
      Math.floor((now - this.options.retention.bucketDays * DAY_MS) / HOUR_MS),
    );
  }

  /** Shutdown: a pass under way ends after the batch it is writing; the backlog waits for the next start. */
  stop(): void {
    this.stopping = true;
  }

  /** Waits for a running pass (shutdown). */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }
}
