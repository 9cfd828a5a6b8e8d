// Triggering: domain events → the active subscriptions they match → a queued delivery (instant) or a digest item,
// behind a per-subscription cooldown. Also the velocity thresholds this module asks the trends module to watch.
import type { JobContext } from '../../platform/jobs/worker.ts';
import {
  type AlertEvent,
  alertBody,
  type CRISIS_EVENT_TYPES,
  crisisBody,
  derivedNextSteps,
  lifecycleBody,
  messageId,
  severityOfVelocity,
  type VelocityData,
} from '../alerts/index.ts';
import { type AIInsight, recommendedNextSteps } from '../insights/index.ts';
import type { TREND_LIFECYCLE_EVENT, TREND_VELOCITY_EVENT } from '../trends/index.ts';
import type { WebhookDelivery } from './delivery.ts';
import type { TrendLabels, WebhooksDeps } from './deps.ts';
import { filtersMatch, parseFilters } from './filters.ts';
import { DIGEST_EVENT, digestBody } from './payloads.ts';
import type { SubscriptionRow } from './store.ts';

type CrisisEventName = (typeof CRISIS_EVENT_TYPES)[number];

export const DIGEST_JOB = 'webhook.digest';
const THRESHOLDS_TTL_MS = 5_000;

export interface DigestPayload {
  subscription_id: number;
  window_start: number;
}

export class WebhookTriggering {
  private thresholdCache: { at: number; values: number[] } | undefined;

  constructor(
    private readonly deps: Pick<
      WebhooksDeps,
      'store' | 'trends' | 'users' | 'clock' | 'jobs' | 'poke' | 'publicBaseUrl' | 'insights'
    >,
    private readonly delivery: Pick<WebhookDelivery, 'queueFirstAttempt' | 'queueFirstAttempts'>,
  ) {}

  private get store() {
    return this.deps.store;
  }

  /** Velocity thresholds of active subscriptions, for trends' VelocityLevels (cached a few seconds). */
  async thresholds(): Promise<number[]> {
    const now = this.deps.clock.now();
    const age = this.thresholdCache ? now - this.thresholdCache.at : Number.POSITIVE_INFINITY;
    // A clock set back (tests) counts as expired rather than keeping the cache until it catches up.
    if (this.thresholdCache && age >= 0 && age < THRESHOLDS_TTL_MS) return this.thresholdCache.values;
    const values = (await this.store.activeThresholds('trend_velocity')).filter((v) => v > 0 && v <= 100);
    this.thresholdCache = { at: now, values };
    return values;
  }

  /** The subscriptions whose owner's account is enabled (a removed organisation member's are not). */
  private async ofEnabledUsers(subs: SubscriptionRow[]): Promise<SubscriptionRow[]> {
    if (subs.length === 0) return subs;
    const enabled = await this.deps.users.activeAmong(subs.map((sub) => Number(sub.user_id)));
    return subs.filter((sub) => enabled.has(Number(sub.user_id)));
  }

  /** Subscriptions were created, changed, deleted or disabled. */
  forgetThresholds(): void {
    this.thresholdCache = undefined;
  }

  private async nextSteps(
    userId: number,
    data: VelocityData,
    context: Awaited<ReturnType<TrendLabels['alertLabels']>>,
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

  async onTrendVelocity(event: AlertEvent<typeof TREND_VELOCITY_EVENT>): Promise<void> {
    const { data } = event;
    const matching = (await this.store.activeByTrigger('trend_velocity')).filter((sub) => {
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
    const subs = await this.ofEnabledUsers(matching);
    if (subs.length === 0) return;
    const context = await this.deps.trends.alertLabels(data.trend_id);
    const bodies = new Map<number, Record<string, unknown>>();
    // The steps depend on the user, not the subscription: one insight lookup per subscriber.
    const stepsByUser = new Map<number, string[]>();
    for (const sub of subs) {
      const userId = Number(sub.user_id);
      let steps = stepsByUser.get(userId);
      if (!steps) {
        steps = await this.nextSteps(userId, data, context);
        stepsByUser.set(userId, steps);
      }
      bodies.set(
        Number(sub.id),
        alertBody(messageId(event.id, Number(sub.id)), event, data, this.deps.publicBaseUrl, steps),
      );
    }
    await this.fire(event, subs, `trend:${data.trend_id}`, (sub) => bodies.get(Number(sub.id))!);
  }

  async onTrendLifecycle(event: AlertEvent<typeof TREND_LIFECYCLE_EVENT>): Promise<void> {
    const { data } = event;
    const subs = await this.ofEnabledUsers(
      (await this.store.activeByTrigger('trend_lifecycle')).filter(
        (sub) =>
          data.velocity >= Number(sub.threshold_value) &&
          filtersMatch(parseFilters(sub.filters), {
            category: data.category,
            text: data.trend_name,
            severity: severityOfVelocity(data.velocity),
          }),
      ),
    );
    await this.fire(event, subs, `trend:${data.trend_id}`, (sub) =>
      lifecycleBody(messageId(event.id, Number(sub.id)), event, data, this.deps.publicBaseUrl),
    );
  }

  /** Crisis events go only to their owner's subscriptions. */
  async onCrisis(event: AlertEvent<CrisisEventName>): Promise<void> {
    const { data } = event;
    if (!Number.isInteger(data.user_id)) return;
    const subs = await this.ofEnabledUsers(
      (await this.store.activeByTrigger('crisis_event', data.user_id)).filter((sub) =>
        filtersMatch(parseFilters(sub.filters), {
          category: null,
          text: [data.title, ...(data.source_keywords ?? [])].join(' '),
          severity: data.severity,
        }),
      ),
    );
    await this.fire(event, subs, `crisis:${data.crisis_event_id}`, (sub) =>
      crisisBody(messageId(event.id, Number(sub.id)), event, data),
    );
  }

  /**
   * Cooldown, then a delivery (instant) or a digest item, all in one transaction per event. The checks and
   * inserts for instant deliveries are multi-row statements, so a fan-out to many subscriptions costs a few
   * statements rather than a few per subscription.
   */
  private async fire(
    event: AlertEvent,
    subs: SubscriptionRow[],
    subject: string,
    bodyOf: (sub: SubscriptionRow) => Record<string, unknown>,
  ): Promise<void> {
    if (subs.length === 0) return;
    const now = this.deps.clock.now();
    const candidates = subs.map((sub) => {
      const body = bodyOf(sub);
      return { sub, subId: Number(sub.id), body, eventId: body.id as string };
    });
    let enqueued = false;
    await this.store.transaction(async (trx) => {
      // A repeated domain event (at-least-once) must not be sent twice nor spend the cooldown again.
      const seen = await this.store.existingDeliveries(
        candidates.map((c) => ({ subscriptionId: c.subId, eventId: c.eventId })),
        trx,
      );
      const fresh = candidates.filter((c) => !seen.has(`${c.subId}:${c.eventId}`));
      const byCooldown = new Map<number, number[]>();
      for (const c of fresh) {
        const cooldownMs = Number(c.sub.cooldown_seconds) * 1000;
        const group = byCooldown.get(cooldownMs);
        if (group) group.push(c.subId);
        else byCooldown.set(cooldownMs, [c.subId]);
      }
      const firing = new Set<number>();
      for (const [cooldownMs, ids] of byCooldown) {
        const won = await this.store.claimCooldowns(
          ids,
          subject.slice(0, 64),
          event.occurred_at,
          cooldownMs,
          trx,
        );
        for (const id of won) firing.add(id);
      }
      const instant: typeof candidates = [];
      for (const c of fresh) {
        if (!firing.has(c.subId)) continue;
        if (c.sub.delivery_mode !== 'digest') {
          instant.push(c);
          continue;
        }
        await this.store.addDigestItem(
          { subscription_id: c.subId, event_id: c.eventId, body: JSON.stringify(c.body), created_at: now },
          trx,
        );
        if (await this.store.openDigestWindow(c.subId, now, trx)) {
          const windowMs = Math.max(Number(c.sub.cooldown_seconds) * 1000, 1000);
          await this.deps.jobs.enqueue(trx, {
            type: DIGEST_JOB,
            payload: { subscription_id: c.subId, window_start: now } satisfies DigestPayload,
            runAt: now + windowMs,
          });
        }
      }
      if (instant.length === 0) return;
      const deliveryIds = await this.store.insertDeliveries(
        instant.map((c) => ({
          subscription_id: c.subId,
          user_id: Number(c.sub.user_id),
          event_id: c.eventId,
          event: c.body.event as string,
          body: JSON.stringify(c.body),
          created_at: now,
        })),
        trx,
      );
      const queued = instant.flatMap((c) => {
        const deliveryId = deliveryIds.get(c.subId);
        return deliveryId === undefined ? [] : [{ deliveryId, subscriptionId: c.subId }];
      });
      await this.delivery.queueFirstAttempts(queued, now, trx);
      enqueued = queued.length > 0;
    });
    if (enqueued) this.deps.poke();
  }

  /** Job handler: the digest window closed; one POST with everything that matched in it. */
  async closeDigest(job: JobContext<DigestPayload>): Promise<void> {
    const { subscription_id: subId, window_start: windowStart } = job.payload;
    const now = this.deps.clock.now();
    let enqueued = false;
    await this.store.transaction(async (trx) => {
      const sub = await this.store.find(subId, trx);
      if (!sub) return;
      await this.store.update(subId, { digest_window_start: null }, trx);
      const items = await this.store.takeDigestItems(subId, now + 1, trx);
      if (items.length === 0 || Number(sub.is_active) !== 1) return;
      const body = digestBody(
        subId,
        windowStart,
        now,
        items.map((item) => item.body),
      );
      const deliveryId = await this.store.insertDelivery(
        {
          subscription_id: subId,
          user_id: Number(sub.user_id),
          event_id: body.id,
          event: DIGEST_EVENT,
          body: JSON.stringify(body),
          created_at: now,
        },
        trx,
      );
      if (deliveryId === undefined) return;
      await this.delivery.queueFirstAttempt(deliveryId, subId, now, trx);
      enqueued = true;
    });
    if (enqueued) this.deps.poke();
  }
}
