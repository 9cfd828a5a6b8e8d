import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// Users' topic interests (the second part of 0004_trend_metrics).
export function topicInterests(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('topic_interests')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('keyword', 'varchar(100)', (c) => c.notNull())
        .addColumn('key', 'varchar(200)', (c) => c.notNull())
        .addColumn('alert_condition_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('volume_threshold_value', 'bigint')
        .addColumn('percentage_growth_value', 'double precision')
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('topic_interests_user_key_uq', ['user_id', 'key'])
        .execute();
    },
  };
}
