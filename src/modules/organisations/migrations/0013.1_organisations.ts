import { type Kysely, sql } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';
import { usersForMigration } from '../../accounts/migrations/index.ts';

// Organisations (issue 16): every user belongs to exactly one, with a role (owner, admin, member); invites
// carry only the SHA-256 of their one-time token. Existing users each get an organisation of their own, as
// owner (the accounts module's 0013.2_owner_role then records that role on the user).
export function organisations(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('organisations')
        .$call((t) => withId(t, dialect))
        .addColumn('name', 'varchar(320)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('organisation_members')
        .$call((t) => withId(t, dialect))
        .addColumn('organisation_id', 'bigint', (c) =>
          c.notNull().references('organisations.id').onDelete('cascade'),
        )
        // One organisation per user.
        .addColumn('user_id', 'bigint', (c) =>
          c.notNull().unique().references('users.id').onDelete('cascade'),
        )
        .addColumn('role', 'varchar(16)', (c) => c.notNull())
        .addColumn('joined_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('organisation_members_org_idx')
        .on('organisation_members')
        .columns(['organisation_id', 'id'])
        .execute();

      await db.schema
        .createTable('organisation_invites')
        .$call((t) => withId(t, dialect))
        .addColumn('organisation_id', 'bigint', (c) =>
          c.notNull().references('organisations.id').onDelete('cascade'),
        )
        .addColumn('email', 'varchar(320)', (c) => c.notNull())
        .addColumn('role', 'varchar(16)', (c) => c.notNull())
        .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('invited_by', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('accepted_at', 'bigint')
        .addColumn('accepted_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('organisation_invites_org_idx')
        .on('organisation_invites')
        .columns(['organisation_id', 'status', 'id'])
        .execute();
      // At most one pending invite per organisation and email (an expired one is marked `expired` first).
      await db.schema
        .createIndex('organisation_invites_pending_uq')
        .on('organisation_invites')
        .columns(['organisation_id', 'email'])
        .unique()
        .where(sql.ref('status'), '=', 'pending')
        .execute();

      // Backfill: each existing user becomes the owner of an organisation of their own.
      for (const user of await usersForMigration(db)) {
        const org = await sql<{ id: number }>`
          insert into organisations (name, created_at)
          values (${organisationName(user)}, ${Number(user.created_at)}) returning id`.execute(db);
        await sql`
          insert into organisation_members (organisation_id, user_id, role, joined_at)
          values (${Number(org.rows[0]!.id)}, ${Number(user.id)}, 'owner', ${Number(user.created_at)})`.execute(
          db,
        );
      }
    },
  };
}

/** The same name the accounts module gives a new user's organisation. */
function organisationName(user: { email: string; full_name: string | null }): string {
  return user.full_name ?? user.email;
}
