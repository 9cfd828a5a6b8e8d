// Runs the configured sources: polls each on its interval (streams stay connected), stores what they return
// through the same validation and dedup as POST /api/signals, keeps each cursor and its health in
// source_state, and backs off a failing source without touching the others. With several instances on one
// database, each source is a background loop with its own lease (`source:<id>`): one instance at a time polls
// it or holds its stream, and another takes over when that instance dies.
import type { Clock } from '../../../platform/clock.ts';
import { isoString } from '../../../platform/clock.ts';
import { backoffMs } from '../../../platform/retry.ts';
import type { SignalsService } from '../service.ts';
import type { SourceStateRow, SourceStateStore } from './store.ts';
import type { PollingSource, Source, SourceSignal, StreamingSource } from './types.ts';

const MAX_BACKOFF_MS = 3_600_000;
const STREAM_RECONNECT_MS = 1000;
/** While another instance holds a stream, how often to look whether it still does. */
const STREAM_STANDBY_MS = 5000;
/** How often a connected stream checks it still holds its lease (it disconnects at once when not). */
const STREAM_LEASE_CHECK_MS = 1000;
/** A scheduled poll finding the next attempt further away than this was done by another instance: skip. */
const POLLED_ELSEWHERE_MS = 1000;

/** The leases the runner needs (src/platform/leases.ts's Singletons). */
interface SourceLeases {
  register(name: string): void;
  holds(name: string): boolean;
  run<T>(name: string, task: () => Promise<T>): Promise<T | undefined>;
}

/** The background-loop name of a source's lease. */
function sourceLeaseName(sourceId: string): string {
  return `source:${sourceId}`;
}
const MAX_REJECTIONS_LOGGED = 3;

export type SourceHealth = 'pending' | 'healthy' | 'degraded';

export interface SourceView {
  id: string;
  name: string;
  attribution: string;
  licence_url: string;
  coverage: string;
  status: SourceHealth;
  last_attempt_at: string | null;
  last_success_at: string | null;
  observation_count: number;
  fetch_duration_ms: number | null;
  last_error: string | null;
}

interface RunnerLog {
  warn(details: object, message: string): void;
  info?(details: object, message: string): void;
}

interface SourceRunnerOptions {
  sources: Source[];
  store: SourceStateStore;
  signals: SignalsService;
  clock: Clock;
  leases: SourceLeases;
  fetch?: typeof fetch;
  log?: RunnerLog;
  random?: () => number;
}

/**
 * Delay before the next attempt after `failures` failures in a row: interval · 2^failures, ≤ 1 h, times a
 * factor from [0.75, 1.25].
 */
export function retryDelayMs(
  intervalMs: number,
  failures: number,
  random: () => number = Math.random,
): number {
  // backoffMs's first attempt waits the base (2^0): attempt `failures + 1` waits interval · 2^failures.
  return backoffMs(failures + 1, { baseMs: intervalMs, capMs: MAX_BACKOFF_MS, jitter: [0.75, 1.25] }, random);
}

/** A source signal as a `POST /api/signals` item (null fields left out, time as ISO). */
export function toIngestItem(signal: SourceSignal): Record<string, unknown> {
  const item: Record<string, unknown> = {
    source: signal.source,
    external_id: signal.external_id,
    text: signal.text,
    observed_at: isoString(signal.observed_at),
  };
  for (const field of [
    'title',
    'url',
    'author',
    'lang',
    'location',
    'category',
    'keywords',
    'engagement',
  ] as const) {
    const value = signal[field];
    if (value !== null && value !== undefined) item[field] = value;
  }
  return item;
}

export class SourceRunner {
  private readonly controller = new AbortController();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<unknown>>();
  private readonly fetch: typeof fetch;
  private readonly random: () => number;
  private started = false;

  constructor(private readonly options: SourceRunnerOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.random = options.random ?? Math.random;
    for (const source of options.sources) options.leases.register(sourceLeaseName(source.id));
  }

  /** The sources' lease names this instance holds now (for /metrics). */
  held(): string[] {
    return this.options.sources
      .map((source) => sourceLeaseName(source.id))
      .filter((name) => this.options.leases.holds(name));
  }

  get sources(): readonly Source[] {
    return this.options.sources;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const source of this.options.sources) {
      await this.options.store.ensure(source.id);
      if (source.kind === 'poll') this.schedule(source, 0);
      else this.track(this.keepStreaming(source));
    }
  }

  async stop(): Promise<void> {
    this.controller.abort();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  /** Configured sources with their health, in configuration order. */
  async list(): Promise<SourceView[]> {
    const rows = new Map((await this.options.store.all()).map((r) => [r.id, r]));
    return this.options.sources.map((source) => view(source, rows.get(source.id)));
  }

  /**
   * One poll now, whatever the schedule (tests, CLI): stores what it returns and records health. Returns
   * false when another instance holds the source's lease.
   */
  async pollOnce(source: PollingSource): Promise<boolean> {
    return this.poll(source, true);
  }

  /** A poll under the source's lease; unless forced, skipped when another instance polled it already. */
  private async poll(source: PollingSource, force: boolean): Promise<boolean> {
    const { store, clock } = this.options;
    await store.ensure(source.id);
    const ran = await this.options.leases.run(sourceLeaseName(source.id), async () => {
      const now = clock.now();
      const state = await store.get(source.id);
      if (!force && state && state.next_attempt_at > now + POLLED_ELSEWHERE_MS) return true;
      const started = performance.now();
      try {
        const result = await source.poll({
          cursor: state?.cursor ?? null,
          now,
          signal: this.controller.signal,
          fetch: this.fetch,
        });
        const stored = await this.store(source, result.signals);
        await store.recordSuccess(source.id, {
          attemptAt: now,
          durationMs: Math.round(performance.now() - started),
          cursor: result.cursor,
          stored,
          nextAttemptAt: clock.now() + source.intervalMs,
        });
      } catch (error) {
        if (!this.controller.signal.aborted) await this.recordFailure(source, now, started, error);
      }
      return true;
    });
    return ran === true;
  }

  private schedule(source: PollingSource, delayMs: number): void {
    if (this.controller.signal.aborted) return;
    const timer = setTimeout(() => {
      this.timers.delete(source.id);
      this.track(
        (async () => {
          await this.poll(source, false).catch((error) =>
            this.options.log?.warn({ err: error, source: source.id }, 'source poll failed'),
          );
          const state = await this.options.store.get(source.id).catch(() => undefined);
          const next = state ? state.next_attempt_at - this.options.clock.now() : source.intervalMs;
          this.schedule(source, Math.max(source.intervalMs / 10, Math.min(next, MAX_BACKOFF_MS)));
        })(),
      );
    }, delayMs);
    timer.unref();
    this.timers.set(source.id, timer);
  }

  private async keepStreaming(source: StreamingSource): Promise<void> {
    const { store, clock, leases } = this.options;
    const stopped = this.controller.signal;
    const name = sourceLeaseName(source.id);
    while (!stopped.aborted) {
      let delay = STREAM_RECONNECT_MS;
      const held = await leases.run(name, async () => {
        // Connected only while the lease holds: losing it (another instance took over) disconnects.
        const connection = new AbortController();
        const disconnect = () => connection.abort();
        stopped.addEventListener('abort', disconnect, { once: true });
        const check = setInterval(() => {
          if (!leases.holds(name)) disconnect();
        }, STREAM_LEASE_CHECK_MS);
        check.unref();
        const now = clock.now();
        const state = await store.get(source.id);
        const started = performance.now();
        try {
          await source.run({
            cursor: state?.cursor ?? null,
            now,
            signal: connection.signal,
            fetch: this.fetch,
            emit: async (signals, cursor) => {
              const at = clock.now();
              const stored = await this.store(source, signals);
              await store.recordSuccess(source.id, {
                attemptAt: at,
                durationMs: 0,
                cursor,
                stored,
                nextAttemptAt: at,
              });
            },
          });
        } catch (error) {
          if (connection.signal.aborted) return true;
          const failures = await this.recordFailure(source, now, started, error);
          delay = retryDelayMs(STREAM_RECONNECT_MS, failures, this.random);
        } finally {
          clearInterval(check);
          stopped.removeEventListener('abort', disconnect);
        }
        return true;
      });
      if (held === undefined) delay = STREAM_STANDBY_MS;
      await sleep(delay, stopped);
    }
  }

  private async store(source: Source, signals: SourceSignal[]): Promise<number> {
    if (signals.length === 0) return 0;
    let stored = 0;
    for (let i = 0; i < signals.length; i += 1000) {
      const result = await this.options.signals.ingest(signals.slice(i, i + 1000).map(toIngestItem));
      stored += result.accepted;
      if (result.rejected.length > 0) {
        this.options.log?.warn(
          {
            source: source.id,
            rejected: result.rejected.length,
            examples: result.rejected.slice(0, MAX_REJECTIONS_LOGGED),
          },
          'source produced invalid signals',
        );
      }
    }
    return stored;
  }

  private async recordFailure(source: Source, attemptAt: number, started: number, error: unknown) {
    const message = error instanceof Error ? error.message : String(error);
    const interval = source.kind === 'poll' ? source.intervalMs : STREAM_RECONNECT_MS;
    this.options.log?.warn({ source: source.id, error: message }, 'source failed');
    return this.options.store.recordFailure(source.id, {
      attemptAt,
      durationMs: Math.round(performance.now() - started),
      error: message,
      nextAttemptAt: (failures) => this.options.clock.now() + retryDelayMs(interval, failures, this.random),
    });
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((error) => this.options.log?.warn({ err: error }, 'source runner error'));
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }
}

function view(source: Source, row: SourceStateRow | undefined): SourceView {
  return {
    id: source.id,
    name: source.name,
    attribution: source.attribution,
    licence_url: source.licence_url,
    coverage: source.coverage,
    status: (row?.status ?? 'pending') as SourceHealth,
    last_attempt_at: isoString(row?.last_attempt_at ?? null),
    last_success_at: isoString(row?.last_success_at ?? null),
    observation_count: row?.observation_count ?? 0,
    fetch_duration_ms: row?.fetch_duration_ms ?? null,
    last_error: row?.last_error ?? null,
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref();
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
