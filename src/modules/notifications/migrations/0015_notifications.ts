import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// The notifications module's tables: the in-app feed (newest first per user) and what each user was already
// notified of, so replayed events never notify twice.
export function notifications(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('notifications')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('type', 'varchar(64)', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('read_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notifications_user_idx')
        .on('notifications')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema
        .createIndex('notifications_user_unread_idx')
        .on('notifications')
        .columns(['user_id', 'is_read'])
        .execute();
      await db.schema
        .createIndex('notifications_created_idx')
        .on('notifications')
        .columns(['created_at'])
        .execute();

      await db.schema
        .createTable('notification_dedupe')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('dedupe_key', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_dedupe_pk', ['user_id', 'dedupe_key'])
        .execute();
      await db.schema
        .createIndex('notification_dedupe_created_idx')
        .on('notification_dedupe')
        .columns(['created_at'])
        .execute();
    },
  };
}
