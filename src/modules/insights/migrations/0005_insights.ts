import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// AI insights and analysis tasks (issue 4).
export function insights(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('ai_insights')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('trend_id', 'bigint', (c) => c.notNull().references('trends.id').onDelete('cascade'))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('trend_name', 'text', (c) => c.notNull())
        .addColumn('sentiment_category', 'varchar(16)', (c) => c.notNull())
        .addColumn('topic_category', 'varchar(200)', (c) => c.notNull())
        .addColumn('themes_text', 'text', (c) => c.notNull())
        .addColumn('audience_text', 'text', (c) => c.notNull())
        .addColumn('llm_model_used', 'varchar(200)', (c) => c.notNull())
        .addColumn('is_latest', 'integer', (c) => c.notNull())
        .addColumn('generated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('ai_insights_user_trend_idx')
        .on('ai_insights')
        .columns(['user_id', 'trend_id', 'id'])
        .execute();
      await db.schema
        .createIndex('ai_insights_user_latest_idx')
        .on('ai_insights')
        .columns(['user_id', 'is_latest', 'generated_at'])
        .execute();

      await db.schema
        .createTable('insight_tasks')
        .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('trend_id', 'bigint', (c) => c.notNull().references('trends.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('charged', 'integer', (c) => c.notNull())
        .addColumn('insight_id', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('insight_tasks_user_trend_idx')
        .on('insight_tasks')
        .columns(['user_id', 'trend_id', 'status'])
        .execute();
      await db.schema
        .createIndex('insight_tasks_user_charged_idx')
        .on('insight_tasks')
        .columns(['user_id', 'charged', 'created_at'])
        .execute();
    },
  };
}
