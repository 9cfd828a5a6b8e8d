// SQL for topic interests.

import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Database, DB } from '../../../database.ts';
import type { TopicInterestsTable } from '../tables.ts';

export type InterestRow = Selectable<TopicInterestsTable>;

export class InterestsStore {
  constructor(private readonly db: DB) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  list(userId: number): Promise<InterestRow[]> {
    return this.db
      .selectFrom('topic_interests')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  find(userId: number, id: number): Promise<InterestRow | undefined> {
    return this.db
      .selectFrom('topic_interests')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async count(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('topic_interests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Inserts unless the user already follows the key; undefined when they do. */
  async insert(row: Insertable<TopicInterestsTable>): Promise<InterestRow | undefined> {
    return this.db
      .insertInto('topic_interests')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('topic_interests')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
