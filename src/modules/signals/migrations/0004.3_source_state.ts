import type { Kysely } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// The state of each signal source: cursor, health, lease (the last part of 0004_trend_metrics).
export function sourceState(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('source_state')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('cursor', 'text')
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('last_attempt_at', 'bigint')
        .addColumn('last_success_at', 'bigint')
        .addColumn('last_error', 'text')
        .addColumn('observation_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('fetch_duration_ms', 'integer')
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('leased_by', 'varchar(64)')
        .addColumn('leased_until', 'bigint')
        .execute();
    },
  };
}
