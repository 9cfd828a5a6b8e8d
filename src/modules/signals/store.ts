// SQL for stored signals.
import type { Insertable } from 'kysely';
import type { DB } from '../../platform/db/index.ts';
import type { SignalsTable } from '../../platform/db/schema.ts';

export type NewSignal = Insertable<SignalsTable>;

const CHUNK = 200;

export class SignalsStore {
  constructor(private readonly db: DB) {}

  /** Inserts what is new; returns how many rows were new (the rest were already stored). */
  async insertNew(rows: NewSignal[]): Promise<number> {
    let inserted = 0;
    for (let i = 0; i < rows.length; i += CHUNK) {
      const result = await this.db
        .insertInto('signals')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns(['source', 'external_id']).doNothing())
        .returning('id')
        .execute();
      inserted += result.length;
    }
    return inserted;
  }

  count(): Promise<number> {
    return this.db
      .selectFrom('signals')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
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
