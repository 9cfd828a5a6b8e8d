import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// Integration connections, OAuth states and provider deliveries (issue 7).
export function integrations(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('integration_oauth_states')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'varchar(32)', (c) => c.notNull())
        .addColumn('state_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('verifier_sealed', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('integration_oauth_states_expires_idx')
        .on('integration_oauth_states')
        .column('expires_at')
        .execute();

      await db.schema
        .createTable('integration_connections')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('broken_reason', 'varchar(200)')
        .addColumn('access_token_sealed', 'text', (c) => c.notNull())
        .addColumn('refresh_token_sealed', 'text')
        .addColumn('token_expires_at', 'bigint')
        .addColumn('scope', 'text')
        .addColumn('account_id', 'varchar(200)')
        .addColumn('account_name', 'varchar(500)')
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('selection', 'text')
        .addColumn('settings', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('integration_connections_user_provider_uq', ['user_id', 'provider'])
        .execute();
      await db.schema
        .createIndex('integration_connections_provider_idx')
        .on('integration_connections')
        .columns(['provider', 'status'])
        .execute();

      await db.schema
        .createTable('forum_ads_deliveries')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('event_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('conversion_id', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('response_status', 'integer')
        .addColumn('error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('forum_ads_deliveries_user_idx')
        .on('forum_ads_deliveries')
        .columns(['user_id', 'id'])
        .execute();

      await db.schema
        .createTable('ads_previews')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('platform', 'varchar(32)', (c) => c.notNull())
        .addColumn('trend_id', 'bigint', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('blocked', 'integer', (c) => c.notNull())
        .addColumn('blocked_reasons', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('ads_applies')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('platform', 'varchar(32)', (c) => c.notNull())
        .addColumn('preview_id', 'bigint', (c) =>
          c.notNull().unique().references('ads_previews.id').onDelete('cascade'),
        )
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('rolled_back_at', 'bigint')
        .execute();

      await db.schema
        .createTable('chat_alerts')
        .addColumn('connection_id', 'bigint', (c) =>
          c.notNull().references('integration_connections.id').onDelete('cascade'),
        )
        .addColumn('event_id', 'varchar(300)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_alerts_pk', ['connection_id', 'event_id'])
        .execute();
    },
  };
}
