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

  /** Every user's active interests whose key is one of `keys`. */
  activeWithKeys(keys: string[]): Promise<InterestRow[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return (
      this.db
        .selectFrom('topic_interests')
        .selectAll()
        .where('key', 'in', keys)
        .where('status', '=', 'active')
        // A disabled account (e.g. a removed organisation member) gets nothing delivered.
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('users')
              .select('users.id')
              .whereRef('users.id', '=', 'topic_interests.user_id')
              .where('users.is_active', '=', 1),
          ),
        )
        .orderBy('user_id')
        .orderBy('id')
        .execute()
    );
  }

  /** Active interests of every user, in the order they were created (the crisis detector's watch list). */
  watched(): Promise<{ user_id: number; keyword: string; key: string }[]> {
    return this.db
      .selectFrom('topic_interests')
      .select(['user_id', 'keyword', 'key'])
      .where('status', '=', 'active')
      .orderBy('id')
      .execute();
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
