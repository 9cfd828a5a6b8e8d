// The webhooks service: subscriptions (subscriptions.ts), triggering from domain events (triggering.ts) and signed
// delivery (delivery.ts), composed behind one object for the routes, the job worker and the velocity levels the
// trends module watches.

import type { JobContext } from '../../platform/jobs/worker.ts';
import type { AlertEvent, CRISIS_EVENT_TYPES } from '../alerts/index.ts';
import type { TREND_LIFECYCLE_EVENT, TREND_VELOCITY_EVENT } from '../trends/index.ts';
import { type DeliverPayload, WebhookDelivery } from './delivery.ts';
import type { Actor, WebhooksDeps } from './deps.ts';
import type { CreateWebhookInput, UpdateWebhookInput } from './schemas.ts';
import { WebhookSubscriptions } from './subscriptions.ts';
import { type DigestPayload, WebhookTriggering } from './triggering.ts';

type CrisisEventName = (typeof CRISIS_EVENT_TYPES)[number];

export class WebhooksService {
  private readonly subscriptions: WebhookSubscriptions;
  private readonly triggering: WebhookTriggering;
  private readonly delivery: WebhookDelivery;

  constructor(deps: WebhooksDeps) {
    const forgetThresholds = () => this.triggering.forgetThresholds();
    this.delivery = new WebhookDelivery(deps, forgetThresholds);
    this.triggering = new WebhookTriggering(deps, this.delivery);
    this.subscriptions = new WebhookSubscriptions(deps, forgetThresholds);
  }

  // ---------- subscriptions

  create(userId: number, actor: Actor, input: CreateWebhookInput) {
    return this.subscriptions.create(userId, actor, input);
  }

  list(userId: number) {
    return this.subscriptions.list(userId);
  }

  update(userId: number, actor: Actor, id: number, patch: UpdateWebhookInput) {
    return this.subscriptions.update(userId, actor, id, patch);
  }

  remove(userId: number, actor: Actor, id: number): Promise<void> {
    return this.subscriptions.remove(userId, actor, id);
  }

  rotateSecret(userId: number, actor: Actor, id: number) {
    return this.subscriptions.rotateSecret(userId, actor, id);
  }

  // ---------- triggering

  thresholds(): Promise<number[]> {
    return this.triggering.thresholds();
  }

  onTrendVelocity(event: AlertEvent<typeof TREND_VELOCITY_EVENT>): Promise<void> {
    return this.triggering.onTrendVelocity(event);
  }

  onTrendLifecycle(event: AlertEvent<typeof TREND_LIFECYCLE_EVENT>): Promise<void> {
    return this.triggering.onTrendLifecycle(event);
  }

  onCrisis(event: AlertEvent<CrisisEventName>): Promise<void> {
    return this.triggering.onCrisis(event);
  }

  closeDigest(job: JobContext<DigestPayload>): Promise<void> {
    return this.triggering.closeDigest(job);
  }

  // ---------- delivery

  deliver(job: JobContext<DeliverPayload>): Promise<void> {
    return this.delivery.deliver(job);
  }

  /** Reads ahead what claimed delivery jobs need (register as the worker's `prepare` for them). */
  prepareDeliveries(jobs: JobContext<DeliverPayload>[]): Promise<void> {
    return this.delivery.prepareAttempts(jobs);
  }

  /** Writes the delivery results `deliver` buffered (register with the worker's `beforeMarkingDone`). */
  flushDeliveries(): Promise<void> {
    return this.delivery.flushSuccesses();
  }

  executions(userId: number, id: number, limit = 20) {
    return this.delivery.executions(userId, id, limit);
  }

  test(userId: number, id: number) {
    return this.delivery.test(userId, id);
  }

  redeliver(userId: number, id: number, executionId: number) {
    return this.delivery.redeliver(userId, id, executionId);
  }
}
