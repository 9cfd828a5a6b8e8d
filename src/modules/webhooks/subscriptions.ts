// Webhook subscriptions: create, list, change, delete, rotate the signing secret; every change audited.
import { isoString } from '../../platform/clock.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { generateWebhookSecret } from '../../platform/signing.ts';
import type { Actor, WebhooksDeps } from './deps.ts';
import { normaliseFilters, parseFilters } from './filters.ts';
import { subscriptionEvents } from './payloads.ts';
import type { CreateWebhookInput, DeliveryMode, TriggerType, UpdateWebhookInput } from './schemas.ts';
import type { SubscriptionRow, WebhooksStore } from './store.ts';

const DAY_MS = 86_400_000;
/** After a rotation deliveries carry the previous secret's signature too, for this long. */
const ROTATION_GRACE_MS = DAY_MS;
const MAX_SUBSCRIPTIONS_PER_USER = 100;

function subscriptionView(row: SubscriptionRow) {
  const trigger = row.trigger_type as TriggerType;
  const mode = row.delivery_mode as DeliveryMode;
  return {
    id: Number(row.id),
    url: row.url,
    target_url: row.url,
    events: subscriptionEvents(trigger, mode),
    trigger_type: trigger,
    delivery_mode: mode,
    threshold_value: Number(row.threshold_value),
    cooldown_seconds: Number(row.cooldown_seconds),
    filters: parseFilters(row.filters),
    is_active: Number(row.is_active) === 1,
    failure_count: Number(row.failure_count),
    last_delivery_at: isoString(row.last_delivery_at === null ? null : Number(row.last_delivery_at)),
    created_at: isoString(Number(row.created_at))!,
  };
}

function checkThreshold(triggerType: string, value: number): void {
  if (triggerType !== 'crisis_event' && value > 100) {
    throw badRequest(
      'threshold_value is a velocity score and must be between 0 and 100 for trend triggers.',
      'threshold_value',
    );
  }
}

/** The caller's subscription, or 404 (another user's id answers the same). */
export async function ownedSubscription(
  store: WebhooksStore,
  userId: number,
  id: number,
): Promise<SubscriptionRow> {
  const row = await store.findForUser(userId, id);
  if (!row) throw notFound(`No webhook subscription has id ${id}.`);
  return row;
}

export class WebhookSubscriptions {
  constructor(
    private readonly deps: Pick<WebhooksDeps, 'store' | 'clock' | 'box' | 'outbound' | 'audit'>,
    /** Subscriptions changed: the triggering side's cached velocity thresholds are stale. */
    private readonly changed: () => void,
  ) {}

  private get store() {
    return this.deps.store;
  }

  async create(userId: number, actor: Actor, input: CreateWebhookInput) {
    checkThreshold(input.trigger_type, input.threshold_value);
    // The guard's detail sentence names the field with its place (a test reads it): keep `body.url`.
    await this.deps.outbound.policy.assertAllowed(input.url, 'body.url');
    const filters = normaliseFilters(input.filters, input.trigger_type);
    const existing = await this.store.listForUser(userId);
    if (existing.length >= MAX_SUBSCRIPTIONS_PER_USER) {
      throw conflict(
        `You already have ${MAX_SUBSCRIPTIONS_PER_USER} webhook subscriptions; delete one first.`,
        'webhook_limit_reached',
      );
    }
    const secret = generateWebhookSecret();
    const now = this.deps.clock.now();
    const row = await this.store.transaction(async (trx) => {
      const inserted = await this.store.insertSubscription(
        {
          user_id: userId,
          url: input.url,
          trigger_type: input.trigger_type,
          delivery_mode: input.delivery_mode,
          threshold_value: input.threshold_value,
          cooldown_seconds: input.cooldown_seconds,
          filters: JSON.stringify(filters),
          is_active: 1,
          failure_count: 0,
          failing_since: null,
          disabled_reason: null,
          last_delivery_at: null,
          secret: this.deps.box.encrypt(secret),
          previous_secret: null,
          previous_secret_expires_at: null,
          digest_window_start: null,
          created_at: now,
          updated_at: now,
        },
        trx,
      );
      await this.deps.audit.record(
        userId,
        actor,
        'webhook.created',
        'webhook',
        Number(inserted.id),
        `${input.trigger_type} → ${new URL(input.url).host}`,
        trx,
      );
      return inserted;
    });
    this.changed();
    return { ...subscriptionView(row), secret };
  }

  async list(userId: number) {
    return { webhooks: (await this.store.listForUser(userId)).map(subscriptionView) };
  }

  async update(userId: number, actor: Actor, id: number, patch: UpdateWebhookInput) {
    const current = await ownedSubscription(this.store, userId, id);
    if (patch.threshold_value !== undefined) checkThreshold(current.trigger_type, patch.threshold_value);
    if (patch.url !== undefined) await this.deps.outbound.policy.assertAllowed(patch.url, 'body.url');
    const set: Record<string, unknown> = { updated_at: this.deps.clock.now() };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.threshold_value !== undefined) set.threshold_value = patch.threshold_value;
    if (patch.cooldown_seconds !== undefined) set.cooldown_seconds = patch.cooldown_seconds;
    if (patch.filters !== undefined)
      set.filters = JSON.stringify(normaliseFilters(patch.filters, current.trigger_type));
    if (patch.is_active !== undefined) {
      set.is_active = patch.is_active ? 1 : 0;
      if (patch.is_active && Number(current.is_active) !== 1) {
        set.failure_count = 0;
        set.failing_since = null;
        set.disabled_reason = null;
      }
      if (!patch.is_active) set.disabled_reason = 'by_user';
    }
    const changed = Object.keys(patch);
    const row = await this.store.transaction(async (trx) => {
      const updated = await this.store.update(id, set, trx);
      if (changed.length > 0) {
        await this.deps.audit.record(
          userId,
          actor,
          'webhook.changed',
          'webhook',
          id,
          `changed ${changed.join(', ')}`,
          trx,
        );
      }
      return updated;
    });
    if (!row) throw notFound(`No webhook subscription has id ${id}.`);
    this.changed();
    return subscriptionView(row);
  }

  async remove(userId: number, actor: Actor, id: number): Promise<void> {
    await this.store.transaction(async (trx) => {
      const deleted = await this.store.deleteForUser(userId, id, trx);
      if (!deleted) throw notFound(`No webhook subscription has id ${id}.`);
      await this.deps.audit.record(userId, actor, 'webhook.deleted', 'webhook', id, 'deleted', trx);
    });
    this.changed();
  }

  async rotateSecret(userId: number, actor: Actor, id: number) {
    const current = await ownedSubscription(this.store, userId, id);
    const secret = generateWebhookSecret();
    const now = this.deps.clock.now();
    await this.store.transaction(async (trx) => {
      await this.store.update(
        id,
        {
          secret: this.deps.box.encrypt(secret),
          previous_secret: current.secret,
          previous_secret_expires_at: now + ROTATION_GRACE_MS,
          updated_at: now,
        },
        trx,
      );
      await this.deps.audit.record(
        userId,
        actor,
        'webhook.changed',
        'webhook',
        id,
        'rotated the signing secret',
        trx,
      );
    });
    return { secret };
  }
}
