// Connects the webhooks service to the domain events and the job worker.

import type { EventSubscriber } from '../../platform/events.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import { type AlertEvents, CRISIS_EVENT_TYPES } from '../alerts/index.ts';
import { TREND_LIFECYCLE_EVENT, TREND_VELOCITY_EVENT } from '../trends/index.ts';
import { DELIVER_JOB, type DeliverPayload } from './delivery.ts';
import type { WebhooksService } from './service.ts';
import { DIGEST_JOB, type DigestPayload } from './triggering.ts';

export function registerWebhookHandlers(
  webhooks: WebhooksService,
  events: EventSubscriber<AlertEvents>,
  worker: JobWorker,
): void {
  events.on(TREND_VELOCITY_EVENT, (event) => webhooks.onTrendVelocity(event));
  events.on(TREND_LIFECYCLE_EVENT, (event) => webhooks.onTrendLifecycle(event));
  for (const type of CRISIS_EVENT_TYPES) events.on(type, (event) => webhooks.onCrisis(event));
  worker.register<DeliverPayload>(DELIVER_JOB, (job) => webhooks.deliver(job), {
    prepare: (jobs) => webhooks.prepareDeliveries(jobs),
  });
  // A delivery's result is buffered; its job is marked done only once the buffer is written.
  worker.beforeMarkingDone(() => webhooks.flushDeliveries());
  worker.register<DigestPayload>(DIGEST_JOB, (job) => webhooks.closeDigest(job));
}
