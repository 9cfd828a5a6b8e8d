// All SQL of the webhooks module. Methods that may run inside a transaction take the executor last.

import type { Insertable, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import type { WebhookDeliveriesTable, WebhookExecutionsTable, WebhookSubscriptionsTable } from './tables.ts';

export type SubscriptionRow = Selectable<WebhookSubscriptionsTable>;
type ExecutionRow = Selectable<WebhookExecutionsTable>;
export type ExecutionView = ExecutionRow & { event_id: string; event: string };

export class WebhooksStore {
  constructor(readonly db: DB) {}

  transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  async insertSubscription(row: Insertable<WebhookSubscriptionsTable>, executor: Executor = this.db) {
    return executor.insertInto('webhook_subscriptions').values(row).returningAll().executeTakeFirstOrThrow();
  }

  listForUser(userId: number, executor: Executor = this.db): Promise<SubscriptionRow[]> {
    return executor
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  findForUser(
    userId: number,
    id: number,
    executor: Executor = this.db,
  ): Promise<SubscriptionRow | undefined> {
    return executor
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  find(id: number, executor: Executor = this.db): Promise<SubscriptionRow | undefined> {
    return executor.selectFrom('webhook_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async update(id: number, patch: Updateable<WebhookSubscriptionsTable>, executor: Executor = this.db) {
    return executor
      .updateTable('webhook_subscriptions')
      .set(patch)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async deleteForUser(userId: number, id: number, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .deleteFrom('webhook_subscriptions')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  activeByTrigger(
    triggerType: string,
    userId?: number,
    executor: Executor = this.db,
  ): Promise<SubscriptionRow[]> {
    let query = executor
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('trigger_type', '=', triggerType)
      .where('is_active', '=', 1)
      // A disabled account (e.g. a removed organisation member) gets nothing delivered.
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('users')
            .select('users.id')
            .whereRef('users.id', '=', 'webhook_subscriptions.user_id')
            .where('users.is_active', '=', 1),
        ),
      );
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    return query.orderBy('id').execute();
  }

  async activeThresholds(triggerType: string, executor: Executor = this.db): Promise<number[]> {
    const rows = await executor
      .selectFrom('webhook_subscriptions')
      .select('threshold_value')
      .distinct()
      .where('trigger_type', '=', triggerType)
      .where('is_active', '=', 1)
      .execute();
    return rows.map((r) => Number(r.threshold_value));
  }

  /**
   * Takes the cooldown slot of (subscription, subject) when it is free: true when this caller may fire.
   * One statement, so two workers racing for the same slot cannot both win.
   */
  async claimCooldown(
    subscriptionId: number,
    subject: string,
    now: number,
    cooldownMs: number,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const row = await executor
      .insertInto('webhook_cooldowns')
      .values({ subscription_id: subscriptionId, subject, last_fired_at: now })
      .onConflict((oc) =>
        oc
          .columns(['subscription_id', 'subject'])
          .doUpdateSet({ last_fired_at: now })
          .where('webhook_cooldowns.last_fired_at', '<=', now - cooldownMs),
      )
      .returning('subscription_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Undefined when this event was already recorded for the subscription (a repeated domain event). */
  async insertDelivery(
    row: Insertable<WebhookDeliveriesTable>,
    executor: Executor = this.db,
  ): Promise<number | undefined> {
    const inserted = await executor
      .insertInto('webhook_deliveries')
      .values(row)
      .onConflict((oc) => oc.columns(['subscription_id', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted ? Number(inserted.id) : undefined;
  }

  findDelivery(subscriptionId: number, eventId: string, executor: Executor = this.db) {
    return executor
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .where('event_id', '=', eventId)
      .executeTakeFirst();
  }

  getDelivery(id: number, executor: Executor = this.db) {
    return executor.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertExecution(
    row: Insertable<WebhookExecutionsTable>,
    executor: Executor = this.db,
  ): Promise<number> {
    const inserted = await executor
      .insertInto('webhook_executions')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  /** Updates an execution while it is pending; false when it no longer was (another attempt recorded it). */
  async updatePendingExecution(
    id: number,
    patch: Updateable<WebhookExecutionsTable>,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('webhook_executions')
      .set(patch)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  getExecution(id: number, executor: Executor = this.db): Promise<ExecutionView | undefined> {
    return executor
      .selectFrom('webhook_executions as x')
      .innerJoin('webhook_deliveries as d', 'd.id', 'x.delivery_id')
      .selectAll('x')
      .select(['d.event_id', 'd.event'])
      .where('x.id', '=', id)
      .executeTakeFirst();
  }

  listExecutions(
    subscriptionId: number,
    limit: number,
    executor: Executor = this.db,
  ): Promise<ExecutionView[]> {
    return executor
      .selectFrom('webhook_executions as x')
      .innerJoin('webhook_deliveries as d', 'd.id', 'x.delivery_id')
      .selectAll('x')
      .select(['d.event_id', 'd.event'])
      .where('x.subscription_id', '=', subscriptionId)
      .orderBy('x.id', 'desc')
      .limit(limit)
      .execute();
  }

  async maxAttempt(deliveryId: number, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('webhook_executions')
      .select((eb) => eb.fn.max('attempt').as('attempt'))
      .where('delivery_id', '=', deliveryId)
      .executeTakeFirst();
    return Number(row?.attempt ?? 0);
  }

  // ---------- digest

  async addDigestItem(
    row: { subscription_id: number; event_id: string; body: string; created_at: number },
    executor: Executor = this.db,
  ): Promise<boolean> {
    const inserted = await executor
      .insertInto('webhook_digest_items')
      .values(row)
      .onConflict((oc) => oc.columns(['subscription_id', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Opens a digest window when none is open; true when this call opened it. */
  async openDigestWindow(
    subscriptionId: number,
    now: number,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('webhook_subscriptions')
      .set({ digest_window_start: now })
      .where('id', '=', subscriptionId)
      .where('digest_window_start', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Removes and returns the subscription's digest items created before `before`, oldest first. */
  async takeDigestItems(subscriptionId: number, before: number, executor: Executor = this.db) {
    const rows = await executor
      .selectFrom('webhook_digest_items')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .where('created_at', '<', before)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    if (rows.length > 0) {
      await executor
        .deleteFrom('webhook_digest_items')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    }
    return rows;
  }

  // ---------- trend context (read-only view of the trend module's snapshot)

  trendContext(trendId: number, executor: Executor = this.db) {
    return executor
      .selectFrom('trend_metrics')
      .select(['lifecycle_stage', 'sentiment_category'])
      .where('trend_id', '=', trendId)
      .where('period', '=', '24h')
      .executeTakeFirst();
  }
}
