import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// Scheduled exports (issue 16): configurations with their encrypted destination secrets and the next run time
// the scheduler claims, and the history of runs.
export function dataExports(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('export_configs')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('destination', 'varchar(16)', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('secrets', 'text')
        .addColumn('schedule', 'varchar(16)', (c) => c.notNull())
        .addColumn('schedule_time', 'varchar(5)', (c) => c.notNull())
        .addColumn('schedule_day', 'integer')
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('selected_fields', 'text', (c) => c.notNull())
        .addColumn('next_run_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('export_configs_user_idx')
        .on('export_configs')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema
        .createIndex('export_configs_due_idx')
        .on('export_configs')
        .columns(['is_active', 'next_run_at'])
        .execute();

      await db.schema
        .createTable('export_history')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('config_id', 'bigint', (c) => c.references('export_configs.id').onDelete('set null'))
        .addColumn('destination', 'varchar(16)', (c) => c.notNull())
        .addColumn('origin', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('file_url', 'text')
        .addColumn('row_count', 'integer')
        .addColumn('error_message', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('completed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('export_history_user_idx')
        .on('export_history')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema
        .createIndex('export_history_config_idx')
        .on('export_history')
        .columns(['config_id', 'completed_at'])
        .execute();
    },
  };
}
