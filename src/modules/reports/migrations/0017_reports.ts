import type { Kysely } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// The reports module's tables: none. Reports read the trend buckets and snapshots and the caller's crisis events,
// session info reads the configuration, and the demo signals are kept in memory for a minute.
export function reports(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
