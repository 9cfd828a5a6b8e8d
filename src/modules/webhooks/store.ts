// All SQL of the webhooks module. Methods that may run inside a transaction take the executor last.

import { type Insertable, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import type { WebhookDeliveriesTable, WebhookExecutionsTable, WebhookSubscriptionsTable } from './tables.ts';

export type SubscriptionRow = Selectable<WebhookSubscriptionsTable>;
type ExecutionRow = Selectable<WebhookExecutionsTable>;
export type ExecutionView = ExecutionRow & { event_id: string; event: string };
/** What an attempt needs of its subscription. */
export type AttemptSubscription = Pick<
  SubscriptionRow,
  'id' | 'url' | 'is_active' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'
>;
/** An execution with what its attempt sends: the delivery's body and the subscription's destination and keys. */
export type AttemptRow = ExecutionView & {
  body: string;
  sub_id: number;
  sub_url: string;
  sub_is_active: number;
  sub_secret: string;
  sub_previous_secret: string | null;
  sub_previous_secret_expires_at: number | null;
};

/** A successful attempt, as `recordSuccesses` writes it. */
export interface SuccessRecord {
  executionId: number;
  responseStatus: number;
  durationMs: number;
}

// Rows per multi-row insert and ids per IN list: well under SQLite's and PostgreSQL's parameter limits.
const ROW_CHUNK = 400;
const ID_CHUNK = 1000;

/**
 * A list repeated at its end up to a power of two: IN and VALUES lists then come in a few lengths, so SQLite's
 * statement cache keeps a few texts instead of preparing one per batch size (a repeated id or row changes
 * nothing in the lookups and updates that use this).
 */
function padded<T>(list: T[]): T[] {
  if (list.length === 0) return list;
  let size = 1;
  while (size < list.length) size *= 2;
  const out = [...list];
  while (out.length < size) out.push(list[list.length - 1]!);
  return out;
}

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

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

  /** Active subscriptions of a trigger (all users', or `userId`'s); the caller leaves out disabled accounts. */
  activeByTrigger(
    triggerType: string,
    userId?: number,
    executor: Executor = this.db,
  ): Promise<SubscriptionRow[]> {
    let query = executor
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('trigger_type', '=', triggerType)
      .where('is_active', '=', 1);
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
   * Takes the cooldown slot of (subscription, subject) for subscriptions sharing one cooldown, where it is free;
   * returns the subscriptions that may fire. One statement per chunk, so two workers racing for the same slot
   * cannot both win.
   */
  async claimCooldowns(
    subscriptionIds: number[],
    subject: string,
    now: number,
    cooldownMs: number,
    executor: Executor = this.db,
  ): Promise<Set<number>> {
    const won = new Set<number>();
    for (const part of chunks(subscriptionIds, ROW_CHUNK)) {
      const rows = await executor
        .insertInto('webhook_cooldowns')
        .values(part.map((id) => ({ subscription_id: id, subject, last_fired_at: now })))
        .onConflict((oc) =>
          oc
            .columns(['subscription_id', 'subject'])
            .doUpdateSet({ last_fired_at: now })
            .where('webhook_cooldowns.last_fired_at', '<=', now - cooldownMs),
        )
        .returning('subscription_id')
        .execute();
      for (const row of rows) won.add(Number(row.subscription_id));
    }
    return won;
  }

  /** `subscriptionId:eventId` of the pairs that already have a delivery (repeated domain events). */
  async existingDeliveries(
    pairs: { subscriptionId: number; eventId: string }[],
    executor: Executor = this.db,
  ): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of chunks(pairs, ROW_CHUNK)) {
      const rows = await executor
        .selectFrom('webhook_deliveries')
        .select(['subscription_id', 'event_id'])
        // Pairs, not two IN lists: two lists make the unique index probe every combination of them.
        .where((eb) =>
          eb(
            eb.refTuple('subscription_id', 'event_id'),
            'in',
            part.map((p) => eb.tuple(p.subscriptionId, p.eventId)),
          ),
        )
        .execute();
      for (const row of rows) found.add(`${Number(row.subscription_id)}:${row.event_id}`);
    }
    return found;
  }

  /**
   * `insertDelivery` for many rows: the ids of the inserted ones by subscription id (a subscription appears at
   * most once per call); rows whose event was already recorded are skipped.
   */
  async insertDeliveries(
    rows: Insertable<WebhookDeliveriesTable>[],
    executor: Executor = this.db,
  ): Promise<Map<number, number>> {
    const ids = new Map<number, number>();
    for (const part of chunks(rows, ROW_CHUNK)) {
      const inserted = await executor
        .insertInto('webhook_deliveries')
        .values(part)
        .onConflict((oc) => oc.columns(['subscription_id', 'event_id']).doNothing())
        .returning(['id', 'subscription_id'])
        .execute();
      for (const row of inserted) ids.set(Number(row.subscription_id), Number(row.id));
    }
    return ids;
  }

  /** `insertExecution` for many rows: execution ids by delivery id (one execution per delivery per call). */
  async insertExecutions(
    rows: Insertable<WebhookExecutionsTable>[],
    executor: Executor = this.db,
  ): Promise<Map<number, number>> {
    const ids = new Map<number, number>();
    for (const part of chunks(rows, ROW_CHUNK)) {
      const inserted = await executor
        .insertInto('webhook_executions')
        .values(part)
        .returning(['id', 'delivery_id'])
        .execute();
      for (const row of inserted) ids.set(Number(row.delivery_id), Number(row.id));
    }
    return ids;
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

  /** Executions with their delivery's body and subscription, for attempts; ids that do not exist are left out. */
  async attemptRows(ids: number[], executor: Executor = this.db): Promise<AttemptRow[]> {
    const rows: AttemptRow[] = [];
    for (const part of chunks(ids, ID_CHUNK)) {
      rows.push(
        ...(await executor
          .selectFrom('webhook_executions as x')
          .innerJoin('webhook_deliveries as d', 'd.id', 'x.delivery_id')
          .innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
          .selectAll('x')
          .select([
            'd.event_id',
            'd.event',
            'd.body',
            's.id as sub_id',
            's.url as sub_url',
            's.is_active as sub_is_active',
            's.secret as sub_secret',
            's.previous_secret as sub_previous_secret',
            's.previous_secret_expires_at as sub_previous_secret_expires_at',
          ])
          .where('x.id', 'in', padded(part))
          .execute()),
      );
    }
    return rows;
  }

  /**
   * Marks pending executions succeeded and, for the subscriptions whose execution was still pending, resets
   * the failure run and sets `last_delivery_at` — one statement each, in the caller's transaction.
   */
  async recordSuccesses(records: SuccessRecord[], now: number, executor: Executor): Promise<void> {
    for (const part of chunks(records, ROW_CHUNK)) {
      // One statement for rows of different statuses and durations: an update joined to a VALUES list (a
      // template, cheap to compile; the casts type PostgreSQL's parameters).
      const values = padded(part).map(
        (r) =>
          sql`(cast(${r.executionId} as bigint), cast(${r.responseStatus} as integer), cast(${r.durationMs} as integer))`,
      );
      const { rows } = await sql<{ subscription_id: number }>`update webhook_executions
        set status = 'succeeded', response_status = r.column2, duration_ms = r.column3, error = null,
          next_attempt_at = null
        from (values ${sql.join(values)}) as r
        where webhook_executions.id = r.column1 and webhook_executions.status = 'pending'
        returning webhook_executions.subscription_id`.execute(executor);
      const subscriptions = [...new Set(rows.map((r) => Number(r.subscription_id)))];
      if (subscriptions.length === 0) continue;
      await sql`update webhook_subscriptions
        set failure_count = 0, failing_since = null, last_delivery_at = ${now}
        where id in (${sql.join(padded(subscriptions))})`.execute(executor);
    }
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
}
