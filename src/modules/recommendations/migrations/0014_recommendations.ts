import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// The recommendations module's tables (issue 16): one row per user, source and type.
export function recommendations(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('recommendations')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('source_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('source_trend_id', 'varchar(64)')
        .addColumn('source_trend_name', 'text')
        .addColumn('source_words', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('priority', 'varchar(16)', (c) => c.notNull())
        .addColumn('priority_rank', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('user_feedback', 'text')
        .addColumn('brief', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
        .addColumn('trigger_level', 'integer', (c) => c.notNull())
        .addColumn('acted_level', 'integer')
        .addColumn('fresh_until', 'bigint')
        .addColumn('lapsed_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('recommendations_user_source_type_uq', ['user_id', 'source_key', 'type'])
        .execute();
      await db.schema
        .createIndex('recommendations_user_status_idx')
        .on('recommendations')
        .columns(['user_id', 'status', 'priority_rank', 'created_at'])
        .execute();
      await db.schema
        .createIndex('recommendations_user_created_idx')
        .on('recommendations')
        .columns(['user_id', 'created_at'])
        .execute();
    },
  };
}
