import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// Every user owned the organisation of their own that 0013.1_organisations gave them: `users.organization_role`
// is the copy of that membership's role the verified key's cached user row carries.
export function ownerRole(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`update users set organization_role = 'owner'`.execute(db);
    },
  };
}
