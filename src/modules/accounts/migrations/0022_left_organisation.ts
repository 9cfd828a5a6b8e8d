import type { Kysely } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// A member removed from an organisation (or who left it) remembers which one, so that organisation alone can
// invite the disabled account back. Null for everyone else, and again once the account rejoins; an
// organisation that is deleted is forgotten.
export function leftOrganisation(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('left_organisation_id', 'bigint', (c) =>
          c.references('organisations.id').onDelete('set null'),
        )
        .execute();
      // Deleting an organisation looks for accounts that left it.
      await db.schema
        .createIndex('users_left_organisation_idx')
        .on('users')
        .column('left_organisation_id')
        .execute();
    },
  };
}
