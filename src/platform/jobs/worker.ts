// Polls the job table, runs handlers with bounded concurrency, and records each outcome. It never
// throws into the event loop: handler and database errors are logged and the loop carries on.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { JobQueue } from './queue.ts';

/** Thrown by a handler to retry at a given time (e.g. a provider's Retry-After) instead of the backoff. */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';
  constructor(
    message: string,
    /** Epoch ms of the next attempt. */
    readonly retryAt: number,
  ) {
    super(message);
  }
}

export interface JobContext<P = unknown> {
  id: number;
  type: string;
  payload: P;
  /** 1 on the first run. */
  attempts: number;
  maxAttempts: number;
}

type JobHandler<P = unknown> = (job: JobContext<P>) => Promise<void>;

interface WorkerLog {
  error(obj: object, msg: string): void;
  warn?(obj: object, msg: string): void;
}

interface JobWorkerOptions {
  queue: JobQueue;
  /** Recorded in jobs.locked_by; unique per process by default. At most 64 characters. */
  workerId?: string;
  /** Handlers running at once. Default 4. */
  concurrency?: number;
  /** Idle poll interval. Default 250 ms. */
  pollIntervalMs?: number;
  /** How long a claimed job stays leased before another worker may take it over. Default 60 s. */
  leaseMs?: number;
  /** Upper bound on how long stop() waits for running handlers. Default 10 s. */
  stopTimeoutMs?: number;
  log?: WorkerLog;
}

const MAX_ERROR_DELAY_MS = 30_000;

function defaultWorkerId(): string {
  return `${os.hostname().slice(0, 40)}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

export class JobWorker {
  readonly workerId: string;
  private readonly queue: JobQueue;
  private readonly concurrency: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly stopTimeoutMs: number;
  private readonly log: WorkerLog | undefined;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private pokedWhilePolling = false;
  private errorStreak = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(options: JobWorkerOptions) {
    this.queue = options.queue;
    this.workerId = options.workerId ?? defaultWorkerId();
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
    this.pollIntervalMs = Math.max(10, options.pollIntervalMs ?? 250);
    this.leaseMs = Math.max(1, options.leaseMs ?? 60_000);
    this.stopTimeoutMs = Math.max(0, options.stopTimeoutMs ?? 10_000);
    this.log = options.log;
  }

  register<P = unknown>(type: string, handler: JobHandler<P>): this {
    if (this.handlers.has(type)) throw new Error(`a handler for job type "${type}" is already registered`);
    this.handlers.set(type, handler as JobHandler);
    return this;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Jobs whose handlers are running now. */
  get activeCount(): number {
    return this.inFlight.size;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.errorStreak = 0;
    this.unsubscribe = this.queue.onEnqueue(() => this.poke());
    this.schedule(0);
  }

  /** Polls now instead of at the next interval (call after committing a transaction that enqueued). */
  poke(): void {
    if (!this.running) return;
    if (this.polling) {
      // The job may have committed after the running claim read the table: look again once it ends.
      this.pokedWhilePolling = true;
      return;
    }
    this.schedule(0);
  }

  /**
   * Stops polling and waits for running handlers, at most `timeoutMs`. Resolves true when all finished;
   * false when some were still running (their leases expire and another worker retries those jobs).
   */
  async stop(timeoutMs: number = this.stopTimeoutMs): Promise<boolean> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let deadline: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      deadline = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      // A claim in progress may still hand out jobs; they join inFlight before it settles.
      const drained = (async () => {
        if (this.polling) await this.polling;
        while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
        return true as const;
      })();
      return await Promise.race([drained, timedOut]);
    } finally {
      clearTimeout(deadline);
    }
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.running || this.polling) return;
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
      });
    }, delayMs);
  }

  private async poll(): Promise<void> {
    let next = this.pollIntervalMs;
    try {
      const free = this.concurrency - this.inFlight.size;
      if (free > 0) {
        const jobs = await this.queue.claim(this.workerId, free, this.leaseMs);
        // When these finish, launch() pokes, so a backlog drains without waiting for the interval.
        for (const job of jobs) this.launch(job);
        this.errorStreak = 0;
      }
    } catch (err) {
      this.errorStreak += 1;
      // Back off while the database is failing so the log is not flooded and the loop is not hot.
      next = Math.min(this.pollIntervalMs * 2 ** Math.min(this.errorStreak, 10), MAX_ERROR_DELAY_MS);
      this.logError({ err, workerId: this.workerId }, 'job claim failed');
    }
    if (!this.running) return;
    if (this.pokedWhilePolling) {
      this.pokedWhilePolling = false;
      if (this.errorStreak === 0) next = 0;
    }
    this.schedule(next);
  }

  private launch(job: {
    id: number;
    type: string;
    payload: unknown;
    attempts: number;
    maxAttempts: number;
  }): void {
    const run = this.run(job).finally(() => {
      this.inFlight.delete(run);
      // A slot freed up: there may be due jobs waiting for it.
      if (this.running) this.poke();
    });
    this.inFlight.add(run);
  }

  private async run(job: JobContext): Promise<void> {
    const handler = this.handlers.get(job.type);
    const context: JobContext = {
      id: job.id,
      type: job.type,
      payload: job.payload,
      attempts: job.attempts,
      maxAttempts: job.maxAttempts,
    };
    try {
      if (!handler) throw new Error(`no handler is registered for job type "${job.type}"`);
      await handler(context);
    } catch (err) {
      await this.recordFailure(job, err);
      return;
    }
    try {
      const done = await this.queue.complete(job.id, this.workerId);
      if (!done) this.logWarn({ jobId: job.id, type: job.type }, 'job finished after its lease was lost');
    } catch (err) {
      // The lease expires and the job runs again: at-least-once.
      this.logError({ err, jobId: job.id, type: job.type }, 'could not mark job succeeded');
    }
  }

  private async recordFailure(job: JobContext, err: unknown): Promise<void> {
    const retryAt = isRetryLater(err) ? err.retryAt : undefined;
    try {
      const outcome = await this.queue.fail(job.id, this.workerId, describe(err), { retryAt });
      const detail = { jobId: job.id, type: job.type, attempts: job.attempts, error: describe(err) };
      if (outcome === 'dead') this.logError(detail, 'job failed for the last time');
      else if (outcome === 'retry') this.logWarn(detail, 'job failed; will retry');
      else this.logWarn(detail, 'job failed after its lease was lost');
    } catch (dbErr) {
      this.logError({ err: dbErr, jobId: job.id, type: job.type }, 'could not record job failure');
    }
  }

  private logError(obj: object, msg: string): void {
    try {
      this.log?.error(obj, msg);
    } catch {
      // A broken logger must not stop the worker.
    }
  }

  private logWarn(obj: object, msg: string): void {
    try {
      if (this.log?.warn) this.log.warn(obj, msg);
      else this.log?.error(obj, msg);
    } catch {
      // A broken logger must not stop the worker.
    }
  }
}

function isRetryLater(err: unknown): err is RetryLaterError {
  // Also match by shape in case two copies of this module are loaded.
  return (
    err instanceof RetryLaterError ||
    (err instanceof Error &&
      err.name === 'RetryLaterError' &&
      typeof (err as RetryLaterError).retryAt === 'number')
  );
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const prefix = err.name && err.name !== 'Error' ? `${err.name}: ` : '';
    return `${prefix}${err.message}`;
  }
  try {
    return typeof err === 'string' ? err : `non-error thrown: ${JSON.stringify(err)}`;
  } catch {
    return `non-error thrown: ${String(err)}`;
  }
}
