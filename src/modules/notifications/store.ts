// All SQL of the notifications module. Methods that may run inside a transaction take the executor last.
import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import type { NotificationsTable } from './tables.ts';

export type NotificationRow = Selectable<NotificationsTable>;

export class NotificationsStore {
  constructor(private readonly db: DB) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Records that the user is notified of `key`; false when they already were. */
  async claim(userId: number, key: string, now: number, executor: Executor = this.db): Promise<boolean> {
    const row = await executor
      .insertInto('notification_dedupe')
      .values({ user_id: userId, dedupe_key: key, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(row: Insertable<NotificationsTable>, executor: Executor = this.db): Promise<void> {
    await executor.insertInto('notifications').values(row).execute();
  }

  /** Drops the user's notices beyond the newest `keep` and those created before `before`. */
  async pruneUser(userId: number, keep: number, before: number, executor: Executor = this.db): Promise<void> {
    await executor
      .deleteFrom('notifications')
      .where('user_id', '=', userId)
      .where((eb) =>
        eb.or([
          eb('created_at', '<', before),
          eb(
            'id',
            '<',
            eb
              .selectFrom('notifications')
              .select('id')
              .where('user_id', '=', userId)
              .orderBy('id', 'desc')
              .limit(1)
              .offset(keep - 1),
          ),
        ]),
      )
      .execute();
  }

  /** The user's newest notices first. */
  recent(userId: number, limit: number): Promise<NotificationRow[]> {
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async unreadCount(userId: number, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('is_read', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countSince(userId: number, since: number): Promise<number> {
    const row = await this.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Which of `ids` are the user's notices. */
  async ownedIds(userId: number, ids: number[], executor: Executor = this.db): Promise<Set<number>> {
    const rows = await executor
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** Marks the user's unread notices among `ids` read; returns how many changed. */
  async markRead(userId: number, ids: number[], now: number, executor: Executor = this.db): Promise<number> {
    const result = await executor
      .updateTable('notifications')
      .set({ is_read: 1, read_at: now })
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .where('is_read', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Marks every unread notice of the user read; returns how many. */
  async markAllRead(userId: number, now: number, executor: Executor = this.db): Promise<number> {
    const result = await executor
      .updateTable('notifications')
      .set({ is_read: 1, read_at: now })
      .where('user_id', '=', userId)
      .where('is_read', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Deletes up to `limit` notices created before `before` (every user's); returns how many. */
  async deleteNoticesBefore(before: number, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('notifications')
      .where('id', 'in', (eb) =>
        eb.selectFrom('notifications').select('id').where('created_at', '<', before).limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes dedupe keys recorded before `before`, about `limit` at a time (ties at the edge go too). */
  async deleteKeysBefore(before: number, limit: number): Promise<number> {
    const edge = await this.db
      .selectFrom('notification_dedupe')
      .select('created_at')
      .where('created_at', '<', before)
      .orderBy('created_at')
      .limit(1)
      .offset(limit - 1)
      .executeTakeFirst();
    const result = await this.db
      .deleteFrom('notification_dedupe')
      .where('created_at', edge ? '<=' : '<', edge ? edge.created_at : before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
