import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// One row per background loop that must run on one instance at a time (trend recompute, retention, crisis
// detection, status checks, scheduled exports, each signal source, …): who holds it and until when. The signal
// sources' and the crisis detector's own leases give way to it (0020.2, 0020.3).
export function leases(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('leases')
        .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('holder', 'varchar(100)')
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('acquired_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
