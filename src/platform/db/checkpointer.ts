// WAL checkpoints of a SQLite file in a thread of their own. SQLite's default runs a checkpoint inside the
// commit that takes the log past 1,000 pages: on the API's event loop (better-sqlite3 is synchronous) that
// commit then copies and syncs the pages, 10–30 ms measured while signals are ingested, where a commit
// otherwise takes about 1.5 ms. With the checkpointer the connections never checkpoint on commit; if its
// thread fails they do again, so the log never grows without bound.
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** How often the thread checkpoints: at full ingest rate the log grows by about 1,000 pages in 100 ms. */
const CHECKPOINT_INTERVAL_MS = 100;
/** SQLite's own default, restored when the thread is gone. */
const AUTOCHECKPOINT_PAGES = 1000;

/** One checkpoint's outcome: frames in the log and frames copied into the database so far. */
export interface CheckpointReport {
  frames: number;
  copied: number;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  /** The thread failed: checkpoints run on commit again. */
  onError?: (error: unknown) => void;
  /** After each checkpoint (tests, metrics). */
  onCheckpoint?: (report: CheckpointReport) => void;
}

/** An Error for the thread's failure (an error thrown in a thread may arrive as a plain object). */
function threadError(failure: unknown, code: number): Error {
  if (failure instanceof Error) return failure;
  const message = (failure as { message?: unknown } | undefined)?.message;
  return new Error(
    typeof message === 'string'
      ? `the WAL checkpoint thread failed: ${message}`
      : `the WAL checkpoint thread exited with code ${code}`,
  );
}

export class WalCheckpointer {
  private readonly worker: Worker;
  private closing = false;
  private readonly exited: Promise<void>;

  constructor(
    file: string,
    private readonly connections: SQLite.Database[],
    options: CheckpointerOptions = {},
  ) {
    for (const connection of connections) connection.pragma('wal_autocheckpoint = 0');
    this.worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
      workerData: {
        file,
        intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
        report: options.onCheckpoint !== undefined,
      },
      // Plain JavaScript: the thread needs none of the process's loaders (tsx).
      execArgv: [],
    });
    // The thread never keeps the process alive by itself.
    this.worker.unref();
    let failure: unknown;
    this.worker.on('message', (message: { type: string } & CheckpointReport) => {
      if (message.type === 'checkpoint')
        options.onCheckpoint?.({ frames: message.frames, copied: message.copied });
    });
    this.worker.on('error', (error) => {
      failure = error;
    });
    this.exited = new Promise((resolve) => {
      this.worker.on('exit', (code) => {
        if (!this.closing) {
          this.checkpointOnCommit();
          options.onError?.(threadError(failure, code));
        }
        resolve();
      });
    });
  }

  /** Stops the thread after a last checkpoint; the connections checkpoint on commit again. */
  async close(): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      // Held until it has exited: the last checkpoint and the connection's close run in the thread.
      this.worker.ref();
      this.worker.postMessage('close');
    }
    await this.exited;
    this.checkpointOnCommit();
  }

  private checkpointOnCommit(): void {
    for (const connection of this.connections) {
      if (connection.open) connection.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    }
  }
}
