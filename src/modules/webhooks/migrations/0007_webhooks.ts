import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// Webhook subscriptions, deliveries (one body per event and subscription), executions (one per attempt),
// per-subject cooldowns and digest buffers (issue 6).
export function webhooks(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('webhook_subscriptions')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('trigger_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('delivery_mode', 'varchar(32)', (c) => c.notNull())
        .addColumn('threshold_value', 'double precision', (c) => c.notNull())
        .addColumn('cooldown_seconds', 'integer', (c) => c.notNull())
        .addColumn('filters', 'text', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failing_since', 'bigint')
        .addColumn('disabled_reason', 'varchar(64)')
        .addColumn('last_delivery_at', 'bigint')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_expires_at', 'bigint')
        .addColumn('digest_window_start', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_subscriptions_user_idx')
        .on('webhook_subscriptions')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema
        .createIndex('webhook_subscriptions_trigger_idx')
        .on('webhook_subscriptions')
        .columns(['trigger_type', 'is_active'])
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .$call((t) => withId(t, dialect))
        .addColumn('subscription_id', 'bigint', (c) =>
          c.notNull().references('webhook_subscriptions.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('event', 'varchar(64)', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('webhook_deliveries_event_uq', ['subscription_id', 'event_id'])
        .execute();

      await db.schema
        .createTable('webhook_executions')
        .$call((t) => withId(t, dialect))
        .addColumn('delivery_id', 'bigint', (c) =>
          c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
        )
        .addColumn('subscription_id', 'bigint', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('duration_ms', 'integer')
        .addColumn('error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('webhook_executions_subscription_idx')
        .on('webhook_executions')
        .columns(['subscription_id', 'id'])
        .execute();
      await db.schema
        .createIndex('webhook_executions_delivery_idx')
        .on('webhook_executions')
        .columns(['delivery_id'])
        .execute();

      await db.schema
        .createTable('webhook_cooldowns')
        .addColumn('subscription_id', 'bigint', (c) =>
          c.notNull().references('webhook_subscriptions.id').onDelete('cascade'),
        )
        .addColumn('subject', 'varchar(64)', (c) => c.notNull())
        .addColumn('last_fired_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_cooldowns_pk', ['subscription_id', 'subject'])
        .execute();

      await db.schema
        .createTable('webhook_digest_items')
        .$call((t) => withId(t, dialect))
        .addColumn('subscription_id', 'bigint', (c) =>
          c.notNull().references('webhook_subscriptions.id').onDelete('cascade'),
        )
        .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('webhook_digest_items_uq', ['subscription_id', 'event_id'])
        .execute();
    },
  };
}
