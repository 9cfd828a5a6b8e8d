// Durable job queue on the `jobs` table, shared by SQLite (embedded) and PostgreSQL (scale-out).
// Jobs are leased, not deleted: a worker that dies mid-job leaves a lease that expires and the job is
// claimed again, so delivery is at-least-once.
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import { type Dialect, type PlatformDb, type PlatformTables, platformTables } from '../db/index.ts';
import type { JobRow } from '../db/schema.ts';
import { type BackoffPolicy, backoffMs } from '../retry.ts';

const JOB_STATUSES = ['queued', 'running', 'succeeded', 'dead'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const DEFAULT_MAX_ATTEMPTS = 10;
const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 3_600_000;
// Columns are varchar(64) / text; keep stored strings bounded so PostgreSQL never rejects an update.
const MAX_TYPE_LENGTH = 64;
const MAX_WORKER_ID_LENGTH = 64;
const MAX_ERROR_LENGTH = 4000;

export interface Job<P = unknown> {
  id: number;
  type: string;
  payload: P;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAt: number;
  lockedUntil: number | null;
  lockedBy: string | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

interface EnqueueOptions {
  type: string;
  payload: unknown;
  /** Epoch ms; defaults to now. */
  runAt?: number;
  maxAttempts?: number;
}

interface JobStats {
  counts: Record<JobStatus, number>;
  /** now − run_at of the oldest queued job that is due; null when none is waiting. */
  oldestDueAgeMs: number | null;
}

type FailOutcome = 'retry' | 'dead';

interface JobQueueOptions {
  db: PlatformDb;
  dialect: Dialect;
  clock: Clock;
  /** Source of jitter; injectable for deterministic tests. */
  random?: () => number;
}

/** Failing jobs: 1 s, 2 s, 4 s … capped at 1 h, each jittered into [50 %, 100 %] so they do not retry in lockstep. */
const JOB_BACKOFF: BackoffPolicy = { baseMs: BACKOFF_BASE_MS, capMs: BACKOFF_CAP_MS };

/** The delay before a job's next attempt after failure number `attempt` (1 = the first). */
export function jobBackoffMs(attempt: number, random: () => number = Math.random): number {
  return backoffMs(attempt, JOB_BACKOFF, random);
}

export class JobQueue {
  readonly db: PlatformDb;
  readonly dialect: Dialect;
  readonly clock: Clock;
  private readonly random: () => number;
  private readonly listeners = new Set<() => void>();

  constructor(options: JobQueueOptions) {
    this.db = options.db;
    this.dialect = options.dialect;
    this.clock = options.clock;
    this.random = options.random ?? Math.random;
  }

  /**
   * Adds a job. Pass the transaction that makes the state change so both commit (or roll back) together.
   * In-process listeners (a worker) are told at once when `executor` is not a transaction; after a
   * transaction commits, call the worker's `poke()` for the same low latency.
   */
  async enqueue<T extends PlatformTables>(
    into: Kysely<T> | Transaction<T>,
    options: EnqueueOptions,
  ): Promise<number> {
    const executor = platformTables(into);
    const { type } = options;
    if (typeof type !== 'string' || type.length === 0 || type.length > MAX_TYPE_LENGTH) {
      throw new TypeError(`job type must be a string of 1 to ${MAX_TYPE_LENGTH} characters`);
    }
    const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
      throw new RangeError('maxAttempts must be an integer >= 1');
    const now = this.clock.now();
    const runAt = options.runAt ?? now;
    if (!Number.isFinite(runAt)) throw new RangeError('runAt must be epoch milliseconds');
    const row = await executor
      .insertInto('jobs')
      .values({
        type,
        payload: JSON.stringify(options.payload ?? null),
        status: 'queued',
        attempts: 0,
        max_attempts: maxAttempts,
        run_at: Math.round(runAt),
        locked_until: null,
        locked_by: null,
        last_error: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (!executor.isTransaction) this.notify();
    return Number(row.id);
  }

  /** Called after a non-transactional enqueue; returns an unsubscribe function. */
  onEnqueue(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Atomically leases up to `limit` due jobs: queued ones whose run_at has come, and running ones whose
   * lease expired (their worker died). One statement, so two workers never get the same job.
   */
  async claim(workerId: string, limit: number, leaseMs: number): Promise<Job[]> {
    checkWorkerId(workerId);
    if (!Number.isInteger(limit) || limit < 1) return [];
    const now = this.clock.now();
    let due = this.db
      .selectFrom('jobs')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
          eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
        ]),
      )
      .orderBy('run_at')
      .orderBy('id')
      .limit(limit);
    // Concurrent claimers on PostgreSQL skip each other's rows instead of queueing behind the locks.
    if (this.dialect === 'postgres') due = due.forUpdate().skipLocked();
    const rows = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        attempts: eb('attempts', '+', 1),
        locked_by: workerId,
        locked_until: now + Math.max(0, Math.round(leaseMs)),
        updated_at: now,
      }))
      .where('id', 'in', due)
      .returningAll()
      .execute();
    rows.sort((a, b) => Number(a.run_at) - Number(b.run_at) || Number(a.id) - Number(b.id));
    const jobs: Job[] = [];
    for (const row of rows) {
      const job = toJob(row);
      if (job) jobs.push(job);
      else await this.bury(Number(row.id), workerId, 'payload is not valid JSON');
    }
    return jobs;
  }

  /** Marks a leased job done. False when this worker no longer holds the lease (nothing is changed). */
  async complete(id: number, workerId: string): Promise<boolean> {
    const now = this.clock.now();
    const result = await this.db
      .updateTable('jobs')
      .set({ status: 'succeeded', locked_until: null, finished_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Records a failed attempt: back to 'queued' at `retryAt` (or now + backoff) while attempts remain,
   * otherwise 'dead'. Null when this worker no longer holds the lease (nothing is changed).
   */
  async fail(
    id: number,
    workerId: string,
    error: string,
    options: { retryAt?: number } = {},
  ): Promise<FailOutcome | null> {
    const row = await this.db
      .selectFrom('jobs')
      .select(['attempts', 'max_attempts'])
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .executeTakeFirst();
    if (!row) return null;
    const now = this.clock.now();
    const attempts = Number(row.attempts);
    const lastError = truncate(error);
    const outcome: FailOutcome = attempts < Number(row.max_attempts) ? 'retry' : 'dead';
    const update =
      outcome === 'retry'
        ? {
            status: 'queued',
            run_at: Math.round(
              options.retryAt !== undefined && Number.isFinite(options.retryAt)
                ? Math.max(options.retryAt, now)
                : now + jobBackoffMs(attempts, this.random),
            ),
            locked_by: null,
            locked_until: null,
            last_error: lastError,
            updated_at: now,
          }
        : { status: 'dead', locked_until: null, last_error: lastError, finished_at: now, updated_at: now };
    // Re-check the lease and attempt count: another worker may have reclaimed the job since the read.
    const result = await this.db
      .updateTable('jobs')
      .set(update)
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .where('attempts', '=', attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? outcome : null;
  }

  async get(id: number): Promise<Job | undefined> {
    const row = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return toJob(row) ?? { ...toJobFields(row), payload: row.payload };
  }

  async stats(): Promise<JobStats> {
    const now = this.clock.now();
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => ['status', eb.fn.countAll().as('n')])
      .groupBy('status')
      .execute();
    const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
    for (const row of rows) counts[row.status as JobStatus] = Number(row.n);
    const oldest = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('run_at').as('run_at'))
      .where('status', '=', 'queued')
      .where('run_at', '<=', now)
      .executeTakeFirst();
    const oldestRunAt = oldest?.run_at;
    return {
      counts,
      oldestDueAgeMs: oldestRunAt === null || oldestRunAt === undefined ? null : now - Number(oldestRunAt),
    };
  }

  private async bury(id: number, workerId: string, error: string): Promise<void> {
    const now = this.clock.now();
    await this.db
      .updateTable('jobs')
      .set({ status: 'dead', locked_until: null, last_error: error, finished_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .execute();
  }

  private notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A listener's bug must not fail the enqueue that already committed.
      }
    }
  }
}

function checkWorkerId(workerId: string): void {
  if (typeof workerId !== 'string' || workerId.length === 0 || workerId.length > MAX_WORKER_ID_LENGTH) {
    throw new TypeError(`workerId must be a string of 1 to ${MAX_WORKER_ID_LENGTH} characters`);
  }
}

function truncate(text: string): string {
  const s = String(text);
  return s.length > MAX_ERROR_LENGTH ? `${s.slice(0, MAX_ERROR_LENGTH - 1)}…` : s;
}

function toJobFields(row: JobRow): Omit<Job, 'payload'> {
  const nullableNumber = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: Number(row.id),
    type: row.type,
    status: row.status as JobStatus,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAt: Number(row.run_at),
    lockedUntil: nullableNumber(row.locked_until),
    lockedBy: row.locked_by,
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    finishedAt: nullableNumber(row.finished_at),
  };
}

/** Undefined when the stored payload is not JSON (only possible if something bypassed enqueue). */
function toJob(row: JobRow): Job | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    return undefined;
  }
  return { ...toJobFields(row), payload };
}
