import type { Kysely } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// Signal sources take the platform's leases (0020.1_leases) instead of their own.
export function sourceLeases(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('source_state').dropColumn('leased_by').execute();
      await db.schema.alterTable('source_state').dropColumn('leased_until').execute();
    },
  };
}
