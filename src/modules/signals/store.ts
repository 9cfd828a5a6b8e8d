// SQL for stored signals.

import type { Insertable, Transaction } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import type { SignalsTable } from './tables.ts';

export type NewSignal = Insertable<SignalsTable>;

const CHUNK = 200;

export class SignalsStore {
  constructor(private readonly db: DB) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Inserts what is new; returns how many rows were new (the rest were already stored). */
  async insertNew(rows: NewSignal[], executor: Executor = this.db): Promise<number> {
    let inserted = 0;
    for (let i = 0; i < rows.length; i += CHUNK) {
      const result = await executor
        .insertInto('signals')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns(['source', 'external_id']).doNothing())
        .returning('id')
        .execute();
      inserted += result.length;
    }
    return inserted;
  }

  /**
   * The newest signals observed in [since, until] that carry a URL, newest first, leaving out `exceptSources`
   * (walks the observed_at index backwards, so it stops after `limit` matches).
   */
  recentWithUrl(query: { since: number; until: number; exceptSources: string[]; limit: number }) {
    return this.db
      .selectFrom('signals')
      .select(['id', 'source', 'title', 'text', 'url', 'observed_at'])
      .where('observed_at', '>=', query.since)
      .where('observed_at', '<=', query.until)
      .where('url', 'is not', null)
      .$if(query.exceptSources.length > 0, (qb) => qb.where('source', 'not in', query.exceptSources))
      .orderBy('observed_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .execute();
  }

  /** Signals not yet turned into trend buckets. */
  async countPending(): Promise<number> {
    const row = await this.db
      .selectFrom('signals')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('processed_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Retention: deletes signals observed before `before` (ms) that were already turned into buckets. */
  async pruneProcessedBefore(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('signals')
      .where('observed_at', '<', before)
      .where('processed_at', 'is not', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
