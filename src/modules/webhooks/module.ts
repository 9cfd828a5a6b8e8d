// The webhooks module: subscriptions, triggering from domain events, signed delivery as jobs. It registers its
// subscriptions' velocity thresholds with the trends module, which then records crossings of them too.
import type { DB } from '../../database.ts';
import type { AuditLog } from '../../platform/audit.ts';
import type { Clock } from '../../platform/clock.ts';
import type { SecretBox } from '../../platform/crypto.ts';
import type { EventSubscriber } from '../../platform/events.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import { type Module, routes } from '../../platform/module.ts';
import type { OutboundClient } from '../../platform/outbound.ts';
import { type AlertEvents, CRISIS_EVENT_TYPES } from '../alerts/index.ts';
import { TREND_LIFECYCLE_EVENT, TREND_VELOCITY_EVENT, type TrendsModule } from '../trends/index.ts';
import { DELIVER_JOB, type DeliverPayload } from './delivery.ts';
import type { WebhooksDeps } from './deps.ts';
import { webhookRoutes } from './routes.ts';
import { WebhooksService } from './service.ts';
import { WebhooksStore } from './store.ts';
import { DIGEST_JOB, type DigestPayload } from './triggering.ts';

interface WebhooksModuleDeps {
  clock: Clock;
  db: DB;
  box: SecretBox;
  outbound: OutboundClient;
  jobs: JobQueue;
  worker: JobWorker;
  events: EventSubscriber<AlertEvents>;
  /** Tells the job worker that jobs were committed. */
  poke: () => void;
  audit: AuditLog;
  publicBaseUrl: string;
  /** Next steps in alert bodies come from the user's latest insight. */
  insights: WebhooksDeps['insights'];
  trends: Pick<TrendsModule['api'], 'watchVelocityLevels' | 'trends'>;
  /** Which users' accounts are enabled (the accounts module's AccountsService). */
  users: WebhooksDeps['users'];
}

export type WebhooksModule = Module<{ webhooks: WebhooksService }, 'webhooks'>;

export function createWebhooksModule(deps: WebhooksModuleDeps): WebhooksModule {
  const { events, worker } = deps;
  const webhooks = new WebhooksService({
    store: new WebhooksStore(deps.db),
    trends: deps.trends.trends,
    users: deps.users,
    clock: deps.clock,
    box: deps.box,
    outbound: deps.outbound,
    jobs: deps.jobs,
    poke: deps.poke,
    audit: deps.audit,
    publicBaseUrl: deps.publicBaseUrl,
    insights: deps.insights,
  });
  events.on(TREND_VELOCITY_EVENT, (event) => webhooks.onTrendVelocity(event));
  events.on(TREND_LIFECYCLE_EVENT, (event) => webhooks.onTrendLifecycle(event));
  for (const type of CRISIS_EVENT_TYPES) events.on(type, (event) => webhooks.onCrisis(event));
  worker.register<DeliverPayload>(DELIVER_JOB, (job) => webhooks.deliver(job), {
    prepare: (jobs) => webhooks.prepareDeliveries(jobs),
  });
  // A delivery's result is buffered; its job is marked done only once the buffer is written.
  worker.beforeMarkingDone(() => webhooks.flushDeliveries());
  worker.register<DigestPayload>(DIGEST_JOB, (job) => webhooks.closeDigest(job));
  deps.trends.watchVelocityLevels(() => webhooks.thresholds());
  return {
    api: { webhooks },
    routes: { webhooks: routes(webhookRoutes, { webhooks }) },
  };
}
