import type { Kysely } from 'kysely';
import { type Dialect, withId } from './helpers.ts';

// The platform's own tables: the audit log, daily usage, idempotency keys and the job queue (rows are per user:
// they reference users, created just before by the accounts module's 0001.1_users).
export function foundation(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audit_log')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('actor_user_id', 'bigint')
        .addColumn('action', 'varchar(64)', (c) => c.notNull())
        .addColumn('target_type', 'varchar(64)', (c) => c.notNull())
        .addColumn('target_id', 'varchar(64)')
        .addColumn('detail', 'text')
        .addColumn('request_id', 'varchar(128)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_user_idx').on('audit_log').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('usage_daily')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('date', 'varchar(10)', (c) => c.notNull())
        .addColumn('request_count', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_daily_pk', ['user_id', 'date'])
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('idempotency_key', 'varchar(255)', (c) => c.notNull())
        .addColumn('request_hash', 'char(64)', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_headers', 'text')
        .addColumn('response_body', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('idempotency_keys_user_key_uq', ['user_id', 'idempotency_key'])
        .execute();
      await db.schema
        .createIndex('idempotency_keys_expiry_idx')
        .on('idempotency_keys')
        .column('expires_at')
        .execute();

      await db.schema
        .createTable('jobs')
        .$call((t) => withId(t, dialect))
        .addColumn('type', 'varchar(64)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_at', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('locked_by', 'varchar(64)')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema.createIndex('jobs_claim_idx').on('jobs').columns(['status', 'run_at']).execute();
    },
  };
}
