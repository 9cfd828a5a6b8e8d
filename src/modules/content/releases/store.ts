// SQL for release_feeds: each configured feed's cached entries and health.

import type { Selectable, Transaction } from 'kysely';
import type { Database, DB } from '../../../database.ts';
import type { ReleaseFeedsTable } from '../tables.ts';

export type ReleaseFeedRow = Selectable<ReleaseFeedsTable>;

const MAX_ERROR_CHARS = 500;

export class ReleaseFeedStore {
  constructor(private readonly db: DB) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Creates the feed's row; a feed whose URL changed starts over (its old entries were another feed's). */
  async ensure(name: string, url: string): Promise<void> {
    await this.db
      .insertInto('release_feeds')
      .values({
        name,
        url,
        entries: '[]',
        etag: null,
        modified: null,
        last_attempt_at: null,
        last_success_at: null,
        last_error: null,
        consecutive_failures: 0,
        next_attempt_at: 0,
      })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    await this.db
      .updateTable('release_feeds')
      .set({
        url,
        entries: '[]',
        etag: null,
        modified: null,
        last_attempt_at: null,
        last_success_at: null,
        last_error: null,
        consecutive_failures: 0,
        next_attempt_at: 0,
      })
      .where('name', '=', name)
      .where('url', '<>', url)
      .execute();
  }

  all(): Promise<ReleaseFeedRow[]> {
    return this.db.selectFrom('release_feeds').selectAll().execute();
  }

  get(name: string): Promise<ReleaseFeedRow | undefined> {
    return this.db.selectFrom('release_feeds').selectAll().where('name', '=', name).executeTakeFirst();
  }

  async recordSuccess(
    name: string,
    at: {
      attemptAt: number;
      entries: string | null;
      etag: string | null;
      modified: string | null;
      nextAttemptAt: number;
    },
  ): Promise<void> {
    await this.db
      .updateTable('release_feeds')
      .set({
        ...(at.entries !== null ? { entries: at.entries, etag: at.etag, modified: at.modified } : {}),
        last_attempt_at: at.attemptAt,
        last_success_at: at.attemptAt,
        last_error: null,
        consecutive_failures: 0,
        next_attempt_at: at.nextAttemptAt,
      })
      .where('name', '=', name)
      .execute();
  }

  /** Returns the failures in a row, this one included (incremented in one statement, as sources do). */
  recordFailure(
    name: string,
    at: { attemptAt: number; error: string; nextAttemptAt: (failures: number) => number },
  ): Promise<number> {
    return this.transaction(async (trx) => {
      const row = await trx
        .updateTable('release_feeds')
        .set((eb) => ({
          last_attempt_at: at.attemptAt,
          last_error: at.error.slice(0, MAX_ERROR_CHARS),
          consecutive_failures: eb('consecutive_failures', '+', 1),
        }))
        .where('name', '=', name)
        .returning('consecutive_failures')
        .executeTakeFirst();
      const failures = Number(row?.consecutive_failures ?? 1);
      await trx
        .updateTable('release_feeds')
        .set({ next_attempt_at: at.nextAttemptAt(failures) })
        .where('name', '=', name)
        .execute();
      return failures;
    });
  }
}
