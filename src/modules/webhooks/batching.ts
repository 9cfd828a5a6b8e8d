// The delivery hot path in batches: the attempts of a claimed batch of jobs are read with one query before they
// start, and successes are written together in one transaction before the worker marks their jobs done.
import type { Clock } from '../../platform/clock.ts';
import type { AttemptRow, AttemptSubscription, SuccessRecord, WebhooksStore } from './store.ts';

/** An execution to attempt, its delivery's body, and its subscription. */
interface AttemptData {
  execution: AttemptRow;
  sub: AttemptSubscription;
}

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** How long an execution read ahead for a claimed job may be used; older, it is read again. */
const PRIMED_MAX_AGE_MS = 1000;

/**
 * Reads executions for attempts in batches: those of a claimed batch of jobs at once, ahead of their start
 * (`prime`), and the others asked for in the same tick together.
 */
export class AttemptLoader {
  private pending = new Map<number, Waiter<AttemptData | undefined>[]>();
  private scheduled = false;
  private readonly primed = new Map<number, { data: AttemptData; at: number }>();

  constructor(private readonly store: WebhooksStore) {}

  /** Reads the executions of jobs about to start, for `load` to take (within PRIMED_MAX_AGE_MS). */
  async prime(executionIds: number[]): Promise<void> {
    const now = performance.now();
    // Entries of jobs that never started (deferred, given back) are dropped once stale.
    for (const [id, entry] of this.primed) if (now - entry.at > PRIMED_MAX_AGE_MS) this.primed.delete(id);
    const rows = await this.store.attemptRows(executionIds);
    const at = performance.now();
    for (const execution of rows) {
      this.primed.set(Number(execution.id), { data: { execution, sub: subscriptionOf(execution) }, at });
    }
  }

  load(executionId: number): Promise<AttemptData | undefined> {
    const entry = this.primed.get(executionId);
    if (entry) {
      this.primed.delete(executionId);
      if (performance.now() - entry.at <= PRIMED_MAX_AGE_MS) return Promise.resolve(entry.data);
    }
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(executionId);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(executionId, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => void this.run());
      }
    });
  }

  private async run(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = new Map();
    try {
      const rows = new Map(
        (await this.store.attemptRows([...batch.keys()])).map((row) => [Number(row.id), row]),
      );
      for (const [id, waiters] of batch) {
        const execution = rows.get(id);
        const data = execution && { execution, sub: subscriptionOf(execution) };
        for (const waiter of waiters) waiter.resolve(data);
      }
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    }
  }
}

function subscriptionOf(row: AttemptRow): AttemptSubscription {
  return {
    id: row.sub_id,
    url: row.sub_url,
    is_active: row.sub_is_active,
    secret: row.sub_secret,
    previous_secret: row.sub_previous_secret,
    previous_secret_expires_at: row.sub_previous_secret_expires_at,
  };
}

/** Rows per write; beyond it the buffer is written at once. */
const MAX_BUFFERED = 500;
/** A backstop: the worker flushes before it marks jobs done (every few ms), so this rarely fires. */
const FLUSH_DELAY_MS = 100;

/**
 * Successful attempts waiting to be written, in one transaction per flush. The job worker flushes before it
 * marks finished jobs succeeded (`beforeMarkingDone`), so a delivery's job is done only once its row is written;
 * an attempt that failed flushes first, so a subscription's failure run stays in order. A failed write keeps
 * its rows for the next flush and rejects, and the worker then leaves those jobs to run again.
 */
export class SuccessWriter {
  private buffer: SuccessRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: WebhooksStore,
    private readonly clock: Clock,
  ) {}

  add(record: SuccessRecord): void {
    this.buffer.push(record);
    if (this.buffer.length >= MAX_BUFFERED) this.flush().catch(() => {});
    else this.backstop();
  }

  /** A flush soon, in case nothing else asks for one; it never keeps the process alive. */
  private backstop(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush().catch(() => {}), FLUSH_DELAY_MS);
    this.timer.unref();
  }

  /** Writes everything buffered so far (after any write in progress); rejects when it could not. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const run = this.writing.then(async () => {
      const batch = this.buffer.splice(0);
      if (batch.length === 0) return;
      try {
        const now = this.clock.now();
        await this.store.transaction((trx) => this.store.recordSuccesses(batch, now, trx));
      } catch (error) {
        // Kept for the next flush (the backstop retries even if no other job finishes); whoever waits for this
        // one hears of the failure.
        this.buffer.unshift(...batch);
        this.backstop();
        throw error;
      }
    });
    this.writing = run.catch(() => {});
    return run;
  }
}
