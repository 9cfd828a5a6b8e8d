import type { Kysely } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// The crisis detector takes the platform's leases (0020.1_leases) instead of its own cursor row.
export function detectorLease(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db
        .deleteFrom('crisis_cursor' as never)
        .where('name' as never, '=', 'lease' as never)
        .execute();
      await db.schema.alterTable('crisis_cursor').dropColumn('holder').execute();
    },
  };
}
