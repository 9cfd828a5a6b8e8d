// All SQL of the webhooks module.
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, DB } from '../../platform/db/index.ts';
import type { WebhookDeliveriesTable, WebhookExecutionsTable, WebhookSubscriptionsTable } from './tables.ts';

export type Executor = DB | Transaction<Database>;
export type SubscriptionRow = Selectable<WebhookSubscriptionsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type ExecutionRow = Selectable<WebhookExecutionsTable>;
export type ExecutionView = ExecutionRow & { event_id: string; event: string };

export class WebhooksStore {
  constructor(readonly db: DB) {}

  transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  async insertSubscription(row: Insertable<WebhookSubscriptionsTable>, trx: Executor = this.db) {
    return trx.insertInto('webhook_subscriptions').values(row).returningAll().executeTakeFirstOrThrow();
  }

  listForUser(userId: number): Promise<SubscriptionRow[]> {
    return this.db
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  findForUser(userId: number, id: number, trx: Executor = this.db): Promise<SubscriptionRow | undefined> {
    return trx
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  find(id: number, trx: Executor = this.db): Promise<SubscriptionRow | undefined> {
    return trx.selectFrom('webhook_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async update(id: number, patch: Updateable<WebhookSubscriptionsTable>, trx: Executor = this.db) {
    return trx
      .updateTable('webhook_subscriptions')
      .set(patch)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async deleteForUser(userId: number, id: number, trx: Executor = this.db): Promise<boolean> {
    const result = await trx
      .deleteFrom('webhook_subscriptions')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  activeByTrigger(triggerType: string, userId?: number): Promise<SubscriptionRow[]> {
    let query = this.db
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('trigger_type', '=', triggerType)
      .where('is_active', '=', 1);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    return query.orderBy('id').execute();
  }

  async activeThresholds(triggerType: string): Promise<number[]> {
    const rows = await this.db
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
    trx: Executor,
    subscriptionId: number,
    subject: string,
    now: number,
    cooldownMs: number,
  ): Promise<boolean> {
    const row = await trx
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
  async insertDelivery(trx: Executor, row: Insertable<WebhookDeliveriesTable>): Promise<number | undefined> {
    const inserted = await trx
      .insertInto('webhook_deliveries')
      .values(row)
      .onConflict((oc) => oc.columns(['subscription_id', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted ? Number(inserted.id) : undefined;
  }

  findDelivery(subscriptionId: number, eventId: string, trx: Executor = this.db) {
    return trx
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .where('event_id', '=', eventId)
      .executeTakeFirst();
  }

  getDelivery(id: number, trx: Executor = this.db) {
    return trx.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertExecution(trx: Executor, row: Insertable<WebhookExecutionsTable>): Promise<number> {
    const inserted = await trx
      .insertInto('webhook_executions')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  async updateExecution(
    trx: Executor,
    id: number,
    patch: Updateable<WebhookExecutionsTable>,
    onlyIfPending = true,
  ): Promise<boolean> {
    let query = trx.updateTable('webhook_executions').set(patch).where('id', '=', id);
    if (onlyIfPending) query = query.where('status', '=', 'pending');
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  getExecution(id: number, trx: Executor = this.db): Promise<ExecutionView | undefined> {
    return trx
      .selectFrom('webhook_executions as x')
      .innerJoin('webhook_deliveries as d', 'd.id', 'x.delivery_id')
      .selectAll('x')
      .select(['d.event_id', 'd.event'])
      .where('x.id', '=', id)
      .executeTakeFirst();
  }

  listExecutions(subscriptionId: number, limit: number): Promise<ExecutionView[]> {
    return this.db
      .selectFrom('webhook_executions as x')
      .innerJoin('webhook_deliveries as d', 'd.id', 'x.delivery_id')
      .selectAll('x')
      .select(['d.event_id', 'd.event'])
      .where('x.subscription_id', '=', subscriptionId)
      .orderBy('x.id', 'desc')
      .limit(limit)
      .execute();
  }

  async maxAttempt(deliveryId: number, trx: Executor = this.db): Promise<number> {
    const row = await trx
      .selectFrom('webhook_executions')
      .select((eb) => eb.fn.max('attempt').as('attempt'))
      .where('delivery_id', '=', deliveryId)
      .executeTakeFirst();
    return Number(row?.attempt ?? 0);
  }

  // ---------- digest

  async addDigestItem(
    trx: Executor,
    row: { subscription_id: number; event_id: string; body: string; created_at: number },
  ): Promise<boolean> {
    const inserted = await trx
      .insertInto('webhook_digest_items')
      .values(row)
      .onConflict((oc) => oc.columns(['subscription_id', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Opens a digest window when none is open; true when this call opened it. */
  async openDigestWindow(trx: Executor, subscriptionId: number, now: number): Promise<boolean> {
    const result = await trx
      .updateTable('webhook_subscriptions')
      .set({ digest_window_start: now })
      .where('id', '=', subscriptionId)
      .where('digest_window_start', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async takeDigestItems(trx: Executor, subscriptionId: number, before: number) {
    const rows = await trx
      .selectFrom('webhook_digest_items')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .where('created_at', '<', before)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    if (rows.length > 0) {
      await trx
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

  trendContext(trendId: number) {
    return this.db
      .selectFrom('trend_metrics')
      .select(['lifecycle_stage', 'sentiment_category'])
      .where('trend_id', '=', trendId)
      .where('period', '=', '24h')
      .executeTakeFirst();
  }
}

export type { Kysely };
