// SQL for source_state: one row per configured source (cursor, health). Its lease is in `leases`.

import type { Selectable, Transaction } from 'kysely';
import type { Database, DB } from '../../../database.ts';
import type { SourceStateTable } from '../tables.ts';

export type SourceStateRow = Selectable<SourceStateTable>;

const MAX_ERROR_CHARS = 500;

export class SourceStateStore {
  constructor(private readonly db: DB) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async ensure(id: string): Promise<void> {
    await this.db
      .insertInto('source_state')
      .values({
        id,
        cursor: null,
        status: 'pending',
        last_attempt_at: null,
        last_success_at: null,
        last_error: null,
        fetch_duration_ms: null,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  get(id: string): Promise<SourceStateRow | undefined> {
    return this.db.selectFrom('source_state').selectAll().where('id', '=', id).executeTakeFirst();
  }

  all(): Promise<SourceStateRow[]> {
    return this.db.selectFrom('source_state').selectAll().execute();
  }

  async recordSuccess(
    id: string,
    at: {
      attemptAt: number;
      durationMs: number;
      cursor: string | null;
      stored: number;
      nextAttemptAt: number;
    },
  ): Promise<void> {
    await this.db
      .updateTable('source_state')
      .set((eb) => ({
        status: 'healthy',
        cursor: at.cursor,
        last_attempt_at: at.attemptAt,
        last_success_at: at.attemptAt + at.durationMs,
        last_error: null,
        fetch_duration_ms: at.durationMs,
        observation_count: eb('observation_count', '+', at.stored),
        consecutive_failures: 0,
        next_attempt_at: at.nextAttemptAt,
      }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * Returns the number of failures in a row, this one included. The count is incremented in the database (one
   * statement), so two writers can never both read n and store n + 1.
   */
  recordFailure(
    id: string,
    at: { attemptAt: number; durationMs: number; error: string; nextAttemptAt: (failures: number) => number },
  ): Promise<number> {
    return this.transaction(async (trx) => {
      const row = await trx
        .updateTable('source_state')
        .set((eb) => ({
          status: 'degraded',
          last_attempt_at: at.attemptAt,
          last_error: at.error.slice(0, MAX_ERROR_CHARS),
          fetch_duration_ms: at.durationMs,
          consecutive_failures: eb('consecutive_failures', '+', 1),
        }))
        .where('id', '=', id)
        .returning('consecutive_failures')
        .executeTakeFirst();
      const failures = Number(row?.consecutive_failures ?? 1);
      await trx
        .updateTable('source_state')
        .set({ next_attempt_at: at.nextAttemptAt(failures) })
        .where('id', '=', id)
        .execute();
      return failures;
    });
  }
}
