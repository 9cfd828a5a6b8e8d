import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// Users and their API keys (the first part of 0001_foundation, now the accounts module's).
export function users(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('users')
        .$call((t) => withId(t, dialect))
        .addColumn('email', 'varchar(320)', (c) => c.notNull().unique())
        .addColumn('full_name', 'varchar(200)')
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('organization_role', 'varchar(32)', (c) => c.notNull())
        .addColumn('plan', 'varchar(32)', (c) => c.notNull())
        .addColumn('subscription_status', 'varchar(32)', (c) => c.notNull())
        .addColumn('current_period_end', 'bigint')
        .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
        .addColumn('key_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('permissions', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addColumn('expires_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .addColumn('rotated_to_id', 'bigint')
        .execute();
      await db.schema.createIndex('api_keys_user_idx').on('api_keys').columns(['user_id', 'id']).execute();
    },
  };
}
