// Webhook subscriptions, triggering from domain events, and signed delivery with retries. No HTTP here.
import { API_VERSION } from '../../config.ts';
import { type Clock, isoString } from '../../platform/clock.ts';
import type { SecretBox } from '../../platform/crypto.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { DomainEvent } from '../../platform/events.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { JobContext } from '../../platform/jobs/worker.ts';
import { type OutboundClient, OutboundError, type OutboundResponse } from '../../platform/outbound.ts';
import { generateWebhookSecret, signatureHeaders } from '../../platform/signing.ts';
import type { Actor } from '../accounts/service.ts';
import { type AIInsight, recommendedNextSteps } from '../insights/analyzer.ts';
import {
  alertBody,
  type CrisisData,
  crisisBody,
  DIGEST_EVENT,
  derivedNextSteps,
  filtersMatch,
  type LifecycleData,
  lifecycleBody,
  messageId,
  severityOfVelocity,
  subscriptionEvents,
  TEST_EVENT,
  testBody,
  type VelocityData,
} from './payloads.ts';
import type {
  CreateWebhookInput,
  DeliveryMode,
  Filters,
  TriggerType,
  UpdateWebhookInput,
} from './schemas.ts';
import type { ExecutionView, Executor, SubscriptionRow, WebhooksStore } from './store.ts';

export const DELIVER_JOB = 'webhook.deliver';
export const DIGEST_JOB = 'webhook.digest';
export const USER_AGENT = `Crestwatch-Webhooks/${API_VERSION}`;
const DAY_MS = 86_400_000;
/** Retries stop this long after the first attempt; a subscription failing this long is disabled. */
export const RETRY_WINDOW_MS = DAY_MS;
export const ROTATION_GRACE_MS = DAY_MS;
const TIMEOUT_MS = 10_000;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_CAP_MS = 2 * 3_600_000;
const MAX_SUBSCRIPTIONS_PER_USER = 100;

export interface DeliverPayload {
  execution_id: number;
  /** Epoch ms after which a failed attempt is not retried. */
  retry_until: number;
}

export interface DigestPayload {
  subscription_id: number;
  window_start: number;
}

/** What the insights module offers, when it is there (it is optional to this module). */
export interface InsightsLookup {
  latestFor?(userId: number, trendId: number): Promise<unknown>;
}

export interface WebhooksDeps {
  store: WebhooksStore;
  clock: Clock;
  box: SecretBox;
  outbound: OutboundClient;
  jobs: JobQueue;
  /** Tells the local worker that jobs were committed (first attempt within a second). */
  poke: () => void;
  audit: (
    userId: number,
    actor: Actor,
    action: string,
    targetId: number,
    detail: string,
    executor?: Executor,
  ) => Promise<void>;
  publicBaseUrl: string;
  insights?: InsightsLookup;
  random?: () => number;
}

/** Exponential backoff with jitter in [50 %, 100 %]: ~5 s, 10 s, 20 s … capped at 2 h. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const value = Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1), BACKOFF_CAP_MS);
  return Math.round(value * (0.5 + 0.5 * Math.min(Math.max(random(), 0), 1)));
}

/** `Retry-After` as epoch ms (seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | string[] | undefined, now: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  if (/^\d+$/.test(raw.trim())) return now + Number(raw.trim()) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(now, date);
}

function parseFilters(text: string): Filters {
  try {
    const value = JSON.parse(text) as Filters;
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

export function subscriptionView(row: SubscriptionRow) {
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

export function executionView(row: ExecutionView) {
  return {
    id: Number(row.id),
    event_id: row.event_id,
    event: row.event,
    attempt: Number(row.attempt),
    status: row.status as 'pending' | 'succeeded' | 'failed',
    response_status: row.response_status === null ? null : Number(row.response_status),
    duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
    error: row.error,
    created_at: isoString(Number(row.created_at))!,
    next_attempt_at: isoString(row.next_attempt_at === null ? null : Number(row.next_attempt_at)),
  };
}

function normaliseFilters(filters: Filters | undefined): Filters {
  if (!filters) return {};
  const out: Filters = {};
  if (filters.category !== undefined) {
    const category = filters.category.trim().replace(/\/+$/, '');
    if (!category) throw badRequest('filters.category must not be blank.', 'body.filters.category');
    out.category = category;
  }
  if (filters.keywords !== undefined) {
    const keywords = filters.keywords.map((k) => k.trim());
    const blank = keywords.findIndex((k) => k.length === 0);
    if (blank >= 0) throw badRequest('Keywords must not be blank.', `body.filters.keywords.${blank}`);
    out.keywords = [...new Set(keywords)];
  }
  if (filters.min_severity !== undefined) out.min_severity = filters.min_severity;
  return out;
}

function checkThreshold(triggerType: string, value: number): void {
  if (triggerType !== 'crisis_event' && value > 100) {
    throw badRequest(
      'threshold_value is a velocity score and must be between 0 and 100 for trend triggers.',
      'body.threshold_value',
    );
  }
}

type Outcome =
  | { kind: 'succeeded'; response: OutboundResponse }
  | {
      kind: 'failed';
      retry: boolean;
      disable?: string;
      response?: OutboundResponse;
      error: string;
      retryAt?: number;
    };

export class WebhooksService {
  private thresholdCache: { at: number; values: number[] } | undefined;
  private readonly random: () => number;

  constructor(private readonly deps: WebhooksDeps) {
    this.random = deps.random ?? Math.random;
  }

  private get store() {
    return this.deps.store;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  // ---------- subscriptions

  async create(userId: number, actor: Actor, input: CreateWebhookInput) {
    checkThreshold(input.trigger_type, input.threshold_value);
    await this.deps.outbound.policy.assertAllowed(input.url, 'body.url');
    const filters = normaliseFilters(input.filters);
    const existing = await this.store.listForUser(userId);
    if (existing.length >= MAX_SUBSCRIPTIONS_PER_USER) {
      throw conflict(
        `You already have ${MAX_SUBSCRIPTIONS_PER_USER} webhook subscriptions; delete one first.`,
        'webhook_limit_reached',
      );
    }
    const secret = generateWebhookSecret();
    const now = this.now();
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
      await this.deps.audit(
        userId,
        actor,
        'webhook.created',
        Number(inserted.id),
        `${input.trigger_type} → ${new URL(input.url).host}`,
        trx,
      );
      return inserted;
    });
    this.thresholdCache = undefined;
    return { ...subscriptionView(row), secret };
  }

  async list(userId: number) {
    return { webhooks: (await this.store.listForUser(userId)).map(subscriptionView) };
  }

  private async owned(userId: number, id: number): Promise<SubscriptionRow> {
    const row = await this.store.findForUser(userId, id);
    if (!row) throw notFound(`No webhook subscription has id ${id}.`);
    return row;
  }

  async update(userId: number, actor: Actor, id: number, patch: UpdateWebhookInput) {
    const current = await this.owned(userId, id);
    if (patch.threshold_value !== undefined) checkThreshold(current.trigger_type, patch.threshold_value);
    if (patch.url !== undefined) await this.deps.outbound.policy.assertAllowed(patch.url, 'body.url');
    const set: Record<string, unknown> = { updated_at: this.now() };
    const changed: string[] = [];
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.threshold_value !== undefined) set.threshold_value = patch.threshold_value;
    if (patch.cooldown_seconds !== undefined) set.cooldown_seconds = patch.cooldown_seconds;
    if (patch.filters !== undefined) set.filters = JSON.stringify(normaliseFilters(patch.filters));
    if (patch.is_active !== undefined) {
      set.is_active = patch.is_active ? 1 : 0;
      if (patch.is_active && Number(current.is_active) !== 1) {
        set.failure_count = 0;
        set.failing_since = null;
        set.disabled_reason = null;
      }
      if (!patch.is_active) set.disabled_reason = 'by_user';
    }
    for (const key of Object.keys(patch)) changed.push(key);
    const row = await this.store.transaction(async (trx) => {
      const updated = await this.store.update(id, set, trx);
      if (changed.length > 0) {
        await this.deps.audit(userId, actor, 'webhook.changed', id, `changed ${changed.join(', ')}`, trx);
      }
      return updated;
    });
    if (!row) throw notFound(`No webhook subscription has id ${id}.`);
    this.thresholdCache = undefined;
    return subscriptionView(row);
  }

  async remove(userId: number, actor: Actor, id: number): Promise<void> {
    await this.store.transaction(async (trx) => {
      const deleted = await this.store.deleteForUser(userId, id, trx);
      if (!deleted) throw notFound(`No webhook subscription has id ${id}.`);
      await this.deps.audit(userId, actor, 'webhook.deleted', id, 'deleted', trx);
    });
    this.thresholdCache = undefined;
  }

  async rotateSecret(userId: number, actor: Actor, id: number) {
    const current = await this.owned(userId, id);
    const secret = generateWebhookSecret();
    const now = this.now();
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
      await this.deps.audit(userId, actor, 'webhook.changed', id, 'rotated the signing secret', trx);
    });
    return { secret };
  }

  async executions(userId: number, id: number, limit = 20) {
    await this.owned(userId, id);
    return { executions: (await this.store.listExecutions(id, limit)).map(executionView) };
  }

  /** Sends the deterministic test body now and returns its execution. */
  async test(userId: number, id: number) {
    const sub = await this.owned(userId, id);
    const body = testBody(Number(sub.id), Number(sub.created_at), this.deps.publicBaseUrl);
    const eventId = body.id as string;
    const now = this.now();
    const executionId = await this.store.transaction(async (trx) => {
      let deliveryId = await this.store.insertDelivery(trx, {
        subscription_id: Number(sub.id),
        user_id: userId,
        event_id: eventId,
        event: TEST_EVENT,
        body: JSON.stringify(body),
        created_at: now,
      });
      deliveryId ??= Number((await this.store.findDelivery(Number(sub.id), eventId, trx))!.id);
      const attempt = (await this.store.maxAttempt(deliveryId, trx)) + 1;
      return this.store.insertExecution(trx, {
        delivery_id: deliveryId,
        subscription_id: Number(sub.id),
        attempt,
        status: 'pending',
        response_status: null,
        duration_ms: null,
        error: null,
        created_at: now,
        next_attempt_at: now,
      });
    });
    await this.attempt(executionId, { retryUntil: now, countsForSubscription: false });
    return executionView((await this.store.getExecution(executionId))!);
  }

  /** Sends a past execution's event again (same body, same `webhook-id`) as a new attempt. */
  async redeliver(userId: number, id: number, executionId: number) {
    const sub = await this.owned(userId, id);
    const execution = await this.store.getExecution(executionId);
    if (!execution || Number(execution.subscription_id) !== Number(sub.id)) {
      throw notFound(`Webhook subscription ${id} has no execution ${executionId}.`);
    }
    if (Number(sub.is_active) !== 1) {
      throw conflict(
        'This subscription is disabled; re-enable it (PATCH is_active: true) before redelivering.',
        'webhook_inactive',
      );
    }
    const now = this.now();
    const newId = await this.store.transaction(async (trx) => {
      const attempt = (await this.store.maxAttempt(Number(execution.delivery_id), trx)) + 1;
      const created = await this.store.insertExecution(trx, {
        delivery_id: Number(execution.delivery_id),
        subscription_id: Number(sub.id),
        attempt,
        status: 'pending',
        response_status: null,
        duration_ms: null,
        error: null,
        created_at: now,
        next_attempt_at: now,
      });
      await this.enqueueAttempt(trx, created, now, now + RETRY_WINDOW_MS);
      return created;
    });
    this.deps.poke();
    return executionView((await this.store.getExecution(newId))!);
  }

  // ---------- triggering

  /** Velocity thresholds of active subscriptions, for the metric recomputer (cached a few seconds). */
  async thresholds(): Promise<number[]> {
    const now = Date.now();
    if (this.thresholdCache && now - this.thresholdCache.at < 5000) return this.thresholdCache.values;
    const values = (await this.store.activeThresholds('trend_velocity')).filter((v) => v > 0 && v <= 100);
    this.thresholdCache = { at: now, values };
    return values;
  }

  private async nextSteps(
    userId: number,
    data: VelocityData,
    context: Awaited<ReturnType<WebhooksStore['trendContext']>>,
  ): Promise<string[]> {
    try {
      const insight = (await this.deps.insights?.latestFor?.(userId, data.trend_id)) as
        | AIInsight
        | null
        | undefined;
      // The insights module's own steps: brand-safety warning first, then call-to-action ideas and an angle.
      const steps = recommendedNextSteps(insight ?? null).filter((s) => s.trim().length > 0);
      if (steps.length > 0) return steps;
    } catch {
      // No insight (or the insights module failed): the metrics still give useful steps.
    }
    return derivedNextSteps(data, context ?? {});
  }

  async onTrendVelocity(event: DomainEvent): Promise<void> {
    const data = event.data as unknown as VelocityData;
    const subs = (await this.store.activeByTrigger('trend_velocity')).filter((sub) => {
      const threshold = Number(sub.threshold_value);
      return (
        data.from_velocity < threshold &&
        data.velocity >= threshold &&
        filtersMatch(parseFilters(sub.filters), {
          category: data.category,
          text: data.trend_name,
          severity: severityOfVelocity(data.velocity),
        })
      );
    });
    if (subs.length === 0) return;
    const context = await this.store.trendContext(data.trend_id);
    const bodies = new Map<number, Record<string, unknown>>();
    for (const sub of subs) {
      const steps = await this.nextSteps(Number(sub.user_id), data, context);
      bodies.set(
        Number(sub.id),
        alertBody(messageId(event.id, Number(sub.id)), event, data, this.deps.publicBaseUrl, steps),
      );
    }
    await this.fire(event, subs, `trend:${data.trend_id}`, (sub) => bodies.get(Number(sub.id))!);
  }

  async onTrendLifecycle(event: DomainEvent): Promise<void> {
    const data = event.data as unknown as LifecycleData;
    const subs = (await this.store.activeByTrigger('trend_lifecycle')).filter(
      (sub) =>
        data.velocity >= Number(sub.threshold_value) &&
        filtersMatch(parseFilters(sub.filters), {
          category: data.category,
          text: data.trend_name,
          severity: severityOfVelocity(data.velocity),
        }),
    );
    await this.fire(event, subs, `trend:${data.trend_id}`, (sub) =>
      lifecycleBody(messageId(event.id, Number(sub.id)), event, data, this.deps.publicBaseUrl),
    );
  }

  /** Crisis events go only to their owner's subscriptions. */
  async onCrisis(event: DomainEvent): Promise<void> {
    const data = event.data as unknown as CrisisData;
    if (!Number.isInteger(data.user_id)) return;
    const subs = (await this.store.activeByTrigger('crisis_event', data.user_id)).filter((sub) =>
      filtersMatch(parseFilters(sub.filters), {
        category: null,
        text: [data.title, ...(data.source_keywords ?? [])].join(' '),
        severity: data.severity,
      }),
    );
    await this.fire(event, subs, `crisis:${data.crisis_event_id}`, (sub) =>
      crisisBody(messageId(event.id, Number(sub.id)), event, data),
    );
  }

  /** Cooldown, then a delivery (instant) or a digest item, all in one transaction per event. */
  private async fire(
    event: DomainEvent,
    subs: SubscriptionRow[],
    subject: string,
    bodyOf: (sub: SubscriptionRow) => Record<string, unknown>,
  ): Promise<void> {
    if (subs.length === 0) return;
    const now = this.now();
    let enqueued = false;
    await this.store.transaction(async (trx) => {
      for (const sub of subs) {
        const subId = Number(sub.id);
        const body = bodyOf(sub);
        const eventId = body.id as string;
        // A repeated domain event (at-least-once) must not be sent twice nor spend the cooldown again.
        if (await this.store.findDelivery(subId, eventId, trx)) continue;
        const cooldownMs = Number(sub.cooldown_seconds) * 1000;
        if (
          !(await this.store.claimCooldown(trx, subId, subject.slice(0, 64), event.occurred_at, cooldownMs))
        )
          continue;
        if (sub.delivery_mode === 'digest') {
          await this.store.addDigestItem(trx, {
            subscription_id: subId,
            event_id: eventId,
            body: JSON.stringify(body),
            created_at: now,
          });
          if (await this.store.openDigestWindow(trx, subId, now)) {
            const windowMs = Math.max(cooldownMs, 1000);
            await this.deps.jobs.enqueue(trx, {
              type: DIGEST_JOB,
              payload: { subscription_id: subId, window_start: now } satisfies DigestPayload,
              runAt: now + windowMs,
            });
          }
          continue;
        }
        const deliveryId = await this.store.insertDelivery(trx, {
          subscription_id: subId,
          user_id: Number(sub.user_id),
          event_id: eventId,
          event: body.event as string,
          body: JSON.stringify(body),
          created_at: now,
        });
        if (deliveryId === undefined) continue;
        await this.createFirstAttempt(trx, deliveryId, subId, now);
        enqueued = true;
      }
    });
    if (enqueued) this.deps.poke();
  }

  private async createFirstAttempt(trx: Executor, deliveryId: number, subId: number, now: number) {
    const executionId = await this.store.insertExecution(trx, {
      delivery_id: deliveryId,
      subscription_id: subId,
      attempt: 1,
      status: 'pending',
      response_status: null,
      duration_ms: null,
      error: null,
      created_at: now,
      next_attempt_at: now,
    });
    await this.enqueueAttempt(trx, executionId, now, now + RETRY_WINDOW_MS);
  }

  private enqueueAttempt(trx: Executor, executionId: number, runAt: number, retryUntil: number) {
    return this.deps.jobs.enqueue(trx, {
      type: DELIVER_JOB,
      payload: { execution_id: executionId, retry_until: retryUntil } satisfies DeliverPayload,
      runAt,
      // Each attempt is its own job; extra job attempts only cover a crash mid-attempt.
      maxAttempts: 5,
    });
  }

  /** Job handler: the digest window closed; one POST with everything that matched in it. */
  async closeDigest(job: JobContext<DigestPayload>): Promise<void> {
    const { subscription_id: subId, window_start: windowStart } = job.payload;
    const now = this.now();
    let enqueued = false;
    await this.store.transaction(async (trx) => {
      const sub = await this.store.find(subId, trx);
      if (!sub) return;
      await this.store.update(subId, { digest_window_start: null }, trx);
      const items = await this.store.takeDigestItems(trx, subId, now + 1);
      if (items.length === 0 || Number(sub.is_active) !== 1) return;
      const body = {
        id: messageId('digest', subId, windowStart),
        event: DIGEST_EVENT,
        window_start: isoString(windowStart),
        window_end: isoString(now),
        events: items.map((item) => JSON.parse(item.body) as unknown),
      };
      const deliveryId = await this.store.insertDelivery(trx, {
        subscription_id: subId,
        user_id: Number(sub.user_id),
        event_id: body.id,
        event: DIGEST_EVENT,
        body: JSON.stringify(body),
        created_at: now,
      });
      if (deliveryId === undefined) return;
      await this.createFirstAttempt(trx, deliveryId, subId, now);
      enqueued = true;
    });
    if (enqueued) this.deps.poke();
  }

  // ---------- delivery

  /** Job handler: one attempt of one execution. */
  async deliver(job: JobContext<DeliverPayload>): Promise<void> {
    await this.attempt(job.payload.execution_id, {
      retryUntil: job.payload.retry_until,
      countsForSubscription: true,
    });
  }

  private secretsOf(sub: SubscriptionRow, now: number): string[] {
    const secrets = [this.deps.box.decrypt(sub.secret)];
    if (
      sub.previous_secret &&
      sub.previous_secret_expires_at !== null &&
      Number(sub.previous_secret_expires_at) > now
    ) {
      secrets.push(this.deps.box.decrypt(sub.previous_secret));
    }
    return secrets;
  }

  private async attempt(
    executionId: number,
    options: { retryUntil: number; countsForSubscription: boolean },
  ): Promise<void> {
    const execution = await this.store.getExecution(executionId);
    if (execution?.status !== 'pending') return;
    const delivery = await this.store.getDelivery(Number(execution.delivery_id));
    const sub = delivery && (await this.store.find(Number(delivery.subscription_id)));
    if (!delivery || !sub) return;
    if (options.countsForSubscription && Number(sub.is_active) !== 1) {
      await this.store.updateExecution(this.store.db, executionId, {
        status: 'failed',
        error: 'The subscription is disabled.',
        next_attempt_at: null,
      });
      return;
    }
    const started = this.now();
    const timestamp = Math.floor(started / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signatureHeaders(this.secretsOf(sub, started), delivery.event_id, timestamp, delivery.body),
    };
    const outcome = await this.send(sub.url, headers, delivery.body);
    await this.record(execution, sub, outcome, options);
  }

  private async send(url: string, headers: Record<string, string>, body: string): Promise<Outcome> {
    let response: OutboundResponse;
    try {
      response = await this.deps.outbound.request(url, {
        method: 'POST',
        headers,
        body,
        timeoutMs: TIMEOUT_MS,
        maxBodyBytes: 1024,
      });
    } catch (error) {
      if (error instanceof OutboundError) {
        const prefix = error.kind === 'refused' ? 'Destination refused by the outbound guard: ' : '';
        return { kind: 'failed', retry: true, error: `${prefix}${error.message}` };
      }
      return { kind: 'failed', retry: true, error: 'The request failed.' };
    }
    const status = response.status;
    if (status >= 200 && status < 300) return { kind: 'succeeded', response };
    if (status === 410)
      return {
        kind: 'failed',
        retry: false,
        disable: 'gone',
        response,
        error: 'The receiver answered 410 Gone.',
      };
    if (status === 429 || status >= 500) {
      return {
        kind: 'failed',
        retry: true,
        response,
        error: `The receiver answered ${status}.`,
        retryAt: retryAfterMs(response.headers['retry-after'], this.now()),
      };
    }
    const what = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
    return { kind: 'failed', retry: false, response, error: `The receiver answered ${status}${what}.` };
  }

  private async record(
    execution: ExecutionView,
    sub: SubscriptionRow,
    outcome: Outcome,
    options: { retryUntil: number; countsForSubscription: boolean },
  ): Promise<void> {
    const now = this.now();
    const subId = Number(sub.id);
    const executionId = Number(execution.id);
    let enqueued = false;
    await this.store.transaction(async (trx) => {
      if (outcome.kind === 'succeeded') {
        const updated = await this.store.updateExecution(trx, executionId, {
          status: 'succeeded',
          response_status: outcome.response.status,
          duration_ms: outcome.response.durationMs,
          error: null,
          next_attempt_at: null,
        });
        if (updated && options.countsForSubscription) {
          await this.store.update(
            subId,
            { failure_count: 0, failing_since: null, last_delivery_at: now },
            trx,
          );
        }
        return;
      }
      const current = options.countsForSubscription ? await this.store.find(subId, trx) : undefined;
      const failingSince = current ? Number(current.failing_since ?? now) : now;
      const tooLong = options.countsForSubscription && now - failingSince >= RETRY_WINDOW_MS;
      let nextAt: number | null = null;
      if (outcome.retry && !outcome.disable && !tooLong) {
        const candidate = Math.max(
          now + retryDelayMs(Number(execution.attempt), this.random),
          outcome.retryAt ?? 0,
        );
        if (candidate <= options.retryUntil) nextAt = candidate;
      }
      // Retries ran out after a day of failing without a success in between: stop sending altogether.
      const exhausted =
        options.countsForSubscription &&
        outcome.retry &&
        nextAt === null &&
        failingSince <= options.retryUntil - RETRY_WINDOW_MS;
      const updated = await this.store.updateExecution(trx, executionId, {
        status: 'failed',
        response_status: outcome.response?.status ?? null,
        duration_ms: outcome.response?.durationMs ?? null,
        error: outcome.error,
        next_attempt_at: nextAt,
      });
      if (!updated) return;
      if (nextAt !== null) {
        const next = await this.store.insertExecution(trx, {
          delivery_id: Number(execution.delivery_id),
          subscription_id: subId,
          attempt: Number(execution.attempt) + 1,
          status: 'pending',
          response_status: null,
          duration_ms: null,
          error: null,
          created_at: now,
          next_attempt_at: nextAt,
        });
        await this.enqueueAttempt(trx, next, nextAt, options.retryUntil);
        enqueued = true;
      }
      if (current) {
        const disable = outcome.disable ?? (tooLong || exhausted ? 'failing_24h' : undefined);
        await this.store.update(
          subId,
          {
            failure_count: Number(current.failure_count) + 1,
            failing_since: failingSince,
            ...(disable ? { is_active: 0, disabled_reason: disable } : {}),
          },
          trx,
        );
        if (disable) this.thresholdCache = undefined;
      }
    });
    if (enqueued) this.deps.poke();
  }
}
