// Polls the job table, runs handlers with bounded concurrency, and records each outcome. It never
// throws into the event loop: handler and database errors are logged and the loop carries on.
// - Claims come in batches, ahead of free slots (`prefetch`), so a slot that frees up starts the next job at
//   once; a handler may read for a whole claimed batch first (`prepare`).
// - A handler waiting on the network can give its slot up meanwhile (`job.idle`), so slow remote ends delay
//   their own jobs, not everyone's.
// - Successes are marked in batches: a finished job frees its slot at once and its `succeeded` is written with
//   the others that finished within a few milliseconds (stop() writes what is left), after the writes registered
//   with `beforeMarkingDone` (results a handler buffered). Until then the job stays leased, so a crash in between
//   only runs it again — the at-least-once the queue promises anyway.
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

/**
 * Thrown by a handler that has not started the job's work (e.g. its destination is busy): the job goes back to
 * the queue for `runAt` without counting an attempt, and its slot goes to other jobs.
 */
export class DeferJobError extends Error {
  override readonly name = 'DeferJobError';
  constructor(
    message: string,
    /** Epoch ms when the job may run again. */
    readonly runAt: number,
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
  /**
   * Waits for `work` (a network round trip, say) without holding a slot: another job runs meanwhile. Given
   * by the worker; a handler called another way may not have it.
   */
  idle?<T>(work: Promise<T>): Promise<T>;
}

type JobHandler<P = unknown> = (job: JobContext<P>) => Promise<void>;

interface HandlerOptions<P> {
  /**
   * Called with the jobs of this type a claim returned, before any of them starts: a handler can read what
   * they need in one query instead of one each. Its failure is logged; the handlers then run all the same.
   */
  prepare?: (jobs: JobContext<P>[]) => Promise<void>;
}

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
  /**
   * Claimed jobs kept waiting for a free slot, so a slot that frees up starts the next job at once and claims
   * come in batches. Default 8 × concurrency; 0 claims only what can start. A job that waited
   * PREFETCH_WAIT_MS without a slot goes back to the queue, where another worker may take it.
   */
  prefetch?: number;
  /** Idle poll interval. Default 250 ms. */
  pollIntervalMs?: number;
  /** How long a claimed job stays leased before another worker may take it over. Default 60 s. */
  leaseMs?: number;
  /** Upper bound on how long stop() waits for running handlers. Default 10 s. */
  stopTimeoutMs?: number;
  log?: WorkerLog;
}

const MAX_ERROR_DELAY_MS = 30_000;
/** Finished jobs are marked succeeded this long after the first of them, or at once when this many wait. */
const MARK_DELAY_MS = 25;
const MARK_BATCH = 500;
/** How long a prefetched job may wait for a slot here before it is given back to the queue. */
const PREFETCH_WAIT_MS = 2000;
/** Jobs in flight, idle ones included, at most this many times the concurrency. */
const IDLE_FACTOR = 8;

interface Claimed {
  job: JobContext;
  /** performance.now() when it was claimed. */
  at: number;
}

function defaultWorkerId(): string {
  return `${os.hostname().slice(0, 40)}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

export class JobWorker {
  readonly workerId: string;
  private readonly queue: JobQueue;
  private readonly concurrency: number;
  private readonly prefetch: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly stopTimeoutMs: number;
  private readonly log: WorkerLog | undefined;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly preparers = new Map<string, (jobs: JobContext[]) => Promise<void>>();
  private readonly inFlight = new Set<Promise<void>>();
  /** In-flight jobs waiting in `idle()`: they hold no slot. */
  private idling = 0;
  /** Claimed (leased) jobs waiting for a slot, oldest first. */
  private readonly ready: Claimed[] = [];
  private fillScheduled = false;
  /** Handlers that ended since the last claim: whether claiming ahead of a free slot is worth it. */
  private endedSinceClaim = 0;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private pokedWhilePolling = false;
  private errorStreak = 0;
  private unsubscribe: (() => void) | undefined;
  /** Jobs whose handlers succeeded and whose `succeeded` is not written yet. */
  private readonly finished: JobContext[] = [];
  private markTimer: NodeJS.Timeout | undefined;
  private marking: Promise<void> = Promise.resolve();
  private readonly beforeDone: (() => Promise<void>)[] = [];

  constructor(options: JobWorkerOptions) {
    this.queue = options.queue;
    this.workerId = options.workerId ?? defaultWorkerId();
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
    this.prefetch = Math.max(0, Math.floor(options.prefetch ?? this.concurrency * 8));
    this.pollIntervalMs = Math.max(10, options.pollIntervalMs ?? 250);
    this.leaseMs = Math.max(1, options.leaseMs ?? 60_000);
    this.stopTimeoutMs = Math.max(0, options.stopTimeoutMs ?? 10_000);
    this.log = options.log;
  }

  register<P = unknown>(type: string, handler: JobHandler<P>, options: HandlerOptions<P> = {}): this {
    if (this.handlers.has(type)) throw new Error(`a handler for job type "${type}" is already registered`);
    this.handlers.set(type, handler as JobHandler);
    if (options.prepare) this.preparers.set(type, options.prepare as (jobs: JobContext[]) => Promise<void>);
    return this;
  }

  /**
   * Registers a write that must be durable before finished jobs are marked succeeded: a handler may buffer its
   * result and return, and the worker runs `flush` before marking it (and every job finished with it) done. When
   * `flush` fails, those jobs are left leased and run again once the lease expires.
   */
  beforeMarkingDone(flush: () => Promise<void>): this {
    this.beforeDone.push(flush);
    return this;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Jobs whose handlers are running now (idle or not) or that are claimed and waiting for a slot. */
  get activeCount(): number {
    return this.inFlight.size + this.ready.length;
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
      // A claim in progress may still hand out jobs; they join the ready list before it settles. Those that
      // never started go back to the queue at once rather than when their leases expire.
      const drained = (async () => {
        if (this.polling) await this.polling;
        await this.giveBack(this.ready.splice(0));
        while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
        await this.markFinished();
        return true as const;
      })();
      const outcome = await Promise.race([drained, timedOut]);
      // Past the deadline, still write the successes already known (one statement) rather than run them again.
      if (!outcome) await Promise.race([this.markFinished(), new Promise((r) => setTimeout(r, 250))]);
      return outcome;
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
      await this.giveBackStale();
      const room = this.concurrency + this.prefetch - this.busy - this.ready.length;
      // Claim once the ready list is down to half: claims come in batches, and a slot that frees up has a job.
      // Ahead of a free slot only while jobs are finishing: slow jobs holding every slot leave the rest to
      // other workers.
      const moving = this.busy < this.concurrency || this.endedSinceClaim > 0;
      if (this.ready.length <= this.prefetch / 2 && room > 0 && moving) {
        this.endedSinceClaim = 0;
        const jobs = (await this.queue.claim(this.workerId, room, this.leaseMs)).map(context);
        await this.prepare(jobs);
        const at = performance.now();
        for (const job of jobs) this.ready.push({ job, at });
        // When these finish, launch() pokes, so a backlog drains without waiting for the interval.
        this.fill();
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

  private async prepare(jobs: JobContext[]): Promise<void> {
    for (const [type, prepare] of this.preparers) {
      const ofType = jobs.filter((job) => job.type === type);
      if (ofType.length === 0) continue;
      try {
        await prepare(ofType);
      } catch (err) {
        this.logWarn({ err, type }, 'preparing claimed jobs failed; they run unprepared');
      }
    }
  }

  /** Slots in use: in-flight jobs that are not idle. */
  private get busy(): number {
    return this.inFlight.size - this.idling;
  }

  /** Starts ready jobs while slots are free. */
  private fill(): void {
    while (
      this.running &&
      this.busy < this.concurrency &&
      this.inFlight.size < this.concurrency * IDLE_FACTOR &&
      this.ready.length > 0
    ) {
      this.launch(this.ready.shift()!.job);
    }
  }

  private launch(job: JobContext): void {
    job.idle = (work) => this.whileIdle(work);
    const run = this.run(job).finally(() => {
      this.inFlight.delete(run);
      this.endedSinceClaim++;
      this.slotFreed();
    });
    this.inFlight.add(run);
  }

  private async whileIdle<T>(work: Promise<T>): Promise<T> {
    this.idling++;
    this.slotFreed();
    try {
      return await work;
    } finally {
      // Back to work even if every slot is taken meanwhile: it is finishing what it started.
      this.idling--;
    }
  }

  /** A slot freed up: the next ready job takes it (slots freed in the same turn are filled together). */
  private slotFreed(): void {
    if (!this.running || this.fillScheduled) return;
    this.fillScheduled = true;
    setImmediate(() => {
      this.fillScheduled = false;
      this.fill();
      // There may be more due jobs than are ready.
      if (this.ready.length <= this.prefetch / 2) this.poke();
    });
  }

  /** Ready jobs that waited too long for a slot (the running ones are slow) go back for other workers. */
  private async giveBackStale(): Promise<void> {
    const cutoff = performance.now() - PREFETCH_WAIT_MS;
    let stale = 0;
    while (stale < this.ready.length && this.ready[stale]!.at < cutoff) stale++;
    if (stale > 0) await this.giveBack(this.ready.splice(0, stale));
  }

  private async giveBack(claimed: Claimed[]): Promise<void> {
    if (claimed.length === 0) return;
    try {
      await this.queue.releaseMany(
        claimed.map((c) => c.job.id),
        this.workerId,
      );
    } catch (err) {
      // Their leases expire and they are claimed again then.
      this.logError({ err, jobIds: claimed.map((c) => c.job.id) }, 'could not give back unstarted jobs');
    }
  }

  private async run(job: JobContext): Promise<void> {
    const handler = this.handlers.get(job.type);
    try {
      if (!handler) throw new Error(`no handler is registered for job type "${job.type}"`);
      await handler(job);
    } catch (err) {
      if (isDeferral(err)) await this.release(job, err.runAt);
      else await this.recordFailure(job, err);
      return;
    }
    this.finished.push(job);
    if (this.finished.length >= MARK_BATCH) void this.markFinished();
    else if (!this.markTimer) this.markTimer = setTimeout(() => void this.markFinished(), MARK_DELAY_MS);
  }

  /** Writes `succeeded` for the finished jobs; one write at a time, so stop() can wait for the last. */
  private markFinished(): Promise<void> {
    clearTimeout(this.markTimer);
    this.markTimer = undefined;
    this.marking = this.marking.then(async () => {
      const batch = this.finished.splice(0);
      if (batch.length === 0) return;
      try {
        for (const flush of this.beforeDone) await flush();
      } catch (err) {
        const jobIds = batch.map((job) => job.id);
        this.logError({ err, jobIds }, 'could not write job results; the jobs run again after their leases');
        return;
      }
      try {
        const done = new Set(
          await this.queue.completeMany(
            batch.map((job) => job.id),
            this.workerId,
          ),
        );
        for (const job of batch) {
          if (!done.has(job.id))
            this.logWarn({ jobId: job.id, type: job.type }, 'job finished after its lease was lost');
        }
      } catch (err) {
        // The leases expire and the jobs run again: at-least-once.
        const jobIds = batch.map((job) => job.id);
        this.logError({ err, jobIds }, 'could not mark jobs succeeded');
      }
    });
    return this.marking;
  }

  private async release(job: JobContext, runAt: number): Promise<void> {
    try {
      if (!(await this.queue.release(job.id, this.workerId, runAt)))
        this.logWarn({ jobId: job.id, type: job.type }, 'job deferred after its lease was lost');
    } catch (err) {
      // The lease expires and the job runs then instead.
      this.logError({ err, jobId: job.id, type: job.type }, 'could not defer job');
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

/** What a handler sees of a claimed job. */
function context(job: JobContext): JobContext {
  return {
    id: job.id,
    type: job.type,
    payload: job.payload,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
  };
}

function isDeferral(err: unknown): err is DeferJobError {
  return (
    err instanceof DeferJobError ||
    (err instanceof Error && err.name === 'DeferJobError' && typeof (err as DeferJobError).runAt === 'number')
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
