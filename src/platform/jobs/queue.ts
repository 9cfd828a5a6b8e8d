// Durable job queue on the `jobs` table, shared by SQLite (embedded) and PostgreSQL (scale-out).
// Jobs are leased, not deleted: a worker that dies mid-job leaves a lease that expires and the job is
// claimed again, so delivery is at-least-once.
import { CompiledQuery, type Kysely, sql, type Transaction } from 'kysely';
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
// Rows per multi-row insert (12 parameters each) and ids per IN list: well under SQLite's and PostgreSQL's
// parameter limits.
const INSERT_CHUNK = 500;
const ID_CHUNK = 1000;

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
    const [id] = await this.enqueueMany(into, [options]);
    return id!;
  }

  /**
   * Adds several jobs with multi-row inserts (a fan-out of deliveries costs a few statements, not one per job);
   * ids in the order given. Same transaction and notification rules as `enqueue`.
   */
  async enqueueMany<T extends PlatformTables>(
    into: Kysely<T> | Transaction<T>,
    list: EnqueueOptions[],
  ): Promise<number[]> {
    const executor = platformTables(into);
    const now = this.clock.now();
    const rows = list.map((options) => jobRow(options, now));
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      const inserted = await executor.insertInto('jobs').values(chunk).returning('id').execute();
      // Ids are drawn in VALUES order (SQLite's rowid, PostgreSQL's sequence); RETURNING's order is not
      // promised, so sorting maps them back to the rows given.
      ids.push(...inserted.map((r) => Number(r.id)).sort((a, b) => a - b));
    }
    if (ids.length > 0 && !executor.isTransaction) this.notify();
    return ids;
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
    const lockedUntil = now + Math.max(0, Math.round(leaseMs));
    // A prepared text (see CLAIM_SQL): building this statement with Kysely cost more than running it.
    const parameters =
      this.dialect === 'postgres'
        ? [workerId, lockedUntil, now, limit]
        : [workerId, lockedUntil, now, now, limit, now, limit, limit];
    const { rows } = await this.db.executeQuery<JobRow>(
      CompiledQuery.raw(CLAIM_SQL[this.dialect], parameters),
    );
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
    return (await this.completeMany([id], workerId)).length > 0;
  }

  /** Marks leased jobs done in one statement per chunk; returns the ids whose lease this worker still held. */
  async completeMany(ids: number[], workerId: string): Promise<number[]> {
    const now = this.clock.now();
    const done: number[] = [];
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      // A template, not the builder: this runs for every few finished jobs, and compiles in a fraction.
      const { rows } = await sql<{ id: number }>`update jobs
        set status = 'succeeded', locked_until = null, finished_at = ${now}, updated_at = ${now}
        where id in (${sql.join(padded(ids.slice(i, i + ID_CHUNK)))}) and status = 'running'
          and locked_by = ${workerId}
        returning id`.execute(this.db);
      for (const row of rows) done.push(Number(row.id));
    }
    return done;
  }

  /**
   * Gives leased jobs that never started back to the queue, as they were (same run_at, attempt not counted).
   * Returns how many this worker still held.
   */
  async releaseMany(ids: number[], workerId: string): Promise<number> {
    const now = this.clock.now();
    let released = 0;
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const result = await this.db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'queued',
          attempts: eb('attempts', '-', 1),
          locked_by: null,
          locked_until: null,
          updated_at: now,
        }))
        .where('id', 'in', padded(ids.slice(i, i + ID_CHUNK)))
        .where('status', '=', 'running')
        .where('locked_by', '=', workerId)
        .where('attempts', '>', 0)
        .executeTakeFirst();
      released += Number(result.numUpdatedRows);
    }
    return released;
  }

  /**
   * Gives a leased job back without counting the attempt (its handler did not start the work, e.g. the
   * destination was busy): queued again at `runAt`. False when this worker no longer holds the lease.
   */
  async release(id: number, workerId: string, runAt: number): Promise<boolean> {
    const now = this.clock.now();
    const result = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'queued',
        attempts: eb('attempts', '-', 1),
        run_at: Math.round(Number.isFinite(runAt) ? Math.max(runAt, now) : now),
        locked_by: null,
        locked_until: null,
        updated_at: now,
      }))
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .where('attempts', '>', 0)
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

/**
 * An id list repeated at its end up to a power of two: IN lists then come in a few lengths, so SQLite's
 * statement cache keeps a few texts instead of preparing one per batch size (a repeated id changes nothing).
 */
function padded<T>(list: T[]): T[] {
  if (list.length === 0) return list;
  let size = 1;
  while (size < list.length) size *= 2;
  const out = [...list];
  while (out.length < size) out.push(list[list.length - 1]!);
  return out;
}

/** The row of a new job; throws on invalid options before anything is written. */
function jobRow(options: EnqueueOptions, now: number) {
  const { type } = options;
  if (typeof type !== 'string' || type.length === 0 || type.length > MAX_TYPE_LENGTH) {
    throw new TypeError(`job type must be a string of 1 to ${MAX_TYPE_LENGTH} characters`);
  }
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new RangeError('maxAttempts must be an integer >= 1');
  const runAt = options.runAt ?? now;
  if (!Number.isFinite(runAt)) throw new RangeError('runAt must be epoch milliseconds');
  return {
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
  };
}

/**
 * The claim: leases up to `limit` due jobs — queued ones whose run_at has come and running ones whose lease
 * expired (their worker died) — oldest run_at first, in one statement. On PostgreSQL concurrent claimers skip
 * each other's rows instead of queueing behind the locks. SQLite would answer the OR by collecting every due
 * row and sorting them all; each half on its own walks the (status, run_at) index in order and stops at the
 * limit, so a backlog does not make each claim slower.
 */
const CLAIM_SQL: Record<Dialect, string> = {
  postgres:
    "update jobs set status = 'running', attempts = attempts + 1, locked_by = $1, locked_until = $2, " +
    'updated_at = $3 where id in (select id from jobs ' +
    "where (status = 'queued' and run_at <= $3) or (status = 'running' and locked_until < $3) " +
    'order by run_at, id limit $4 for update skip locked) returning *',
  sqlite:
    "update jobs set status = 'running', attempts = attempts + 1, locked_by = ?, locked_until = ?, " +
    'updated_at = ? where id in (select id from (' +
    "select * from (select id, run_at from jobs where status = 'queued' and run_at <= ? " +
    'order by run_at, id limit ?) union all ' +
    "select * from (select id, run_at from jobs where status = 'running' and locked_until < ? " +
    'order by run_at, id limit ?)) order by run_at, id limit ?) returning *',
};

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
