// The trend engine's heartbeat: turn pending signals into buckets, bring metric snapshots up to date,
// and once an hour apply retention. One pass at a time; the app calls `tick` every second.
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
}

interface TickResult extends ProcessResult {
  recomputed: number;
  events: number;
}

export class TrendEngine {
  private running: Promise<TickResult> | null = null;
  private lastRetentionHour = -1;

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
    const processed = await this.processor.drain();
    const { trends, events } = await this.recomputer.run();
    if (events > 0) this.options.onEvents?.();
    const hour = Math.floor(this.clock.now() / HOUR_MS);
    if (hour !== this.lastRetentionHour) {
      this.lastRetentionHour = hour;
      await this.applyRetention();
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

  /** Waits for a running pass (shutdown). */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }
}
