import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// The workflow-automation integration: connection, selection and pushes (issue 7).
export function workflow(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('workflow_connections')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('api_base_url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('api_key_sealed', 'text', (c) => c.notNull())
        .addColumn('signing_secret_sealed', 'text', (c) => c.notNull())
        .addColumn('include_metadata', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('workflow_id', 'varchar(64)')
        .addColumn('workflow_name', 'varchar(200)')
        .addColumn('webhook_url', 'varchar(4096)')
        .addColumn('default_event', 'varchar(32)')
        .addColumn('selected_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('workflow_connections_user_uq', ['user_id'])
        .execute();
      await db.schema
        .createIndex('workflow_connections_event_idx')
        .on('workflow_connections')
        .columns(['default_event', 'user_id'])
        .execute();

      await db.schema
        .createTable('workflow_deliveries')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('event', 'varchar(100)', (c) => c.notNull())
        .addColumn('origin', 'varchar(16)', (c) => c.notNull())
        .addColumn('event_id', 'varchar(300)')
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('response_status', 'integer')
        .addColumn('error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at', 'bigint')
        .addUniqueConstraint('workflow_deliveries_event_uq', ['user_id', 'event_id'])
        .execute();
      await db.schema
        .createIndex('workflow_deliveries_user_idx')
        .on('workflow_deliveries')
        .columns(['user_id', 'id'])
        .execute();
    },
  };
}
