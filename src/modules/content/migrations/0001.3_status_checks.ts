import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// The status page's check history (the last part of 0001_foundation).
export function statusChecks(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('status_checks')
        .$call((t) => withId(t, dialect))
        .addColumn('component', 'varchar(64)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('detail', 'text')
        .addColumn('latency_ms', 'integer')
        .addColumn('checked_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('status_checks_time_idx')
        .on('status_checks')
        .columns(['checked_at', 'component'])
        .execute();
    },
  };
}
