// The integrations module's public entry: builds the OAuth integrations (chat, forum ads, social ads) and wires
// their jobs and event listeners; exports what code outside the module uses (the workflow tool included).

import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import type { AuditLog } from '../../platform/audit.ts';
import type { Clock } from '../../platform/clock.ts';
import type { SecretBox } from '../../platform/crypto.ts';
import type { EventSubscriber } from '../../platform/events.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import { type AlertEvents, CRISIS_EVENT_TYPES } from '../alerts/index.ts';
import type { TrendsService } from '../trends/index.ts';
import { TREND_LIFECYCLE_EVENT, TREND_VELOCITY_EVENT } from '../trends/index.ts';
import { type AdsDeps, AdsService } from './ads/service.ts';
import { CHAT_POST_JOB, ChatService } from './chat/service.ts';
import { FORUM_ADS_DELIVERY_JOB, ForumAdsService } from './forum-ads/service.ts';
import { OAuthService } from './oauth.ts';
import { MetaClient } from './providers/meta.ts';
import { RedditClient } from './providers/reddit.ts';
import { SlackClient } from './providers/slack.ts';
import type { IntegrationServices } from './routes.ts';
import { IntegrationsStore } from './store.ts';

export type { AdsDeps } from './ads/service.ts';
export { chatLink, escapeChat } from './chat/messages.ts';
export { PAGE_CSP } from './pages.ts';
export { integrationRoutes } from './routes.ts';
export { N8nClient } from './workflow/n8n.ts';
export { workflowRoutes } from './workflow/routes.ts';
export { WorkflowService } from './workflow/service.ts';
export { WorkflowStore } from './workflow/store.ts';

export interface Integrations extends IntegrationServices {
  store: IntegrationsStore;
}

export function createIntegrations(deps: {
  db: DB;
  config: Config;
  clock: Clock;
  box: SecretBox;
  audit: AuditLog;
  jobs: JobQueue;
  worker: JobWorker;
  events: EventSubscriber<AlertEvents>;
  trends: TrendsService;
  /** Users' emails and whether their accounts are enabled (the accounts module's AccountsService). */
  users: {
    identities(userIds: readonly number[]): Promise<Map<number, { email: string }>>;
    activeAmong(userIds: readonly number[]): Promise<Set<number>>;
  };
  insights?: AdsDeps['insights'];
  crisis?: AdsDeps['crisis'];
  log?: { warn(obj: object, msg: string): void };
}): Integrations {
  const now = () => deps.clock.now();
  const store = new IntegrationsStore(deps.db);
  const oauth = new OAuthService({
    store,
    users: deps.users,
    box: deps.box,
    clock: deps.clock,
    audit: deps.audit,
    publicBaseUrl: deps.config.publicBaseUrl,
    log: deps.log,
  });
  const slack = new SlackClient(deps.config.chat, now);
  const reddit = new RedditClient(deps.config.forumAds, now);
  const meta = new MetaClient(deps.config.socialAds);
  oauth.register(slack);
  oauth.register(reddit);
  oauth.register(meta);
  const poke = () => deps.worker.poke();
  const chat = new ChatService({
    store,
    users: deps.users,
    oauth,
    slack,
    jobs: deps.jobs,
    clock: deps.clock,
    poke,
    log: deps.log,
  });
  const forumAds = new ForumAdsService({
    store,
    oauth,
    reddit,
    jobs: deps.jobs,
    clock: deps.clock,
    poke,
    log: deps.log,
  });
  const ads = new AdsService({
    store,
    oauth,
    meta,
    clock: deps.clock,
    audit: deps.audit,
    trends: deps.trends,
    insights: deps.insights,
    crisis: deps.crisis,
  });

  deps.worker.register(CHAT_POST_JOB, (job) => chat.deliver(job as Parameters<ChatService['deliver']>[0]));
  deps.worker.register(FORUM_ADS_DELIVERY_JOB, (job) =>
    forumAds.deliver(job as Parameters<ForumAdsService['deliver']>[0]),
  );
  deps.events.on(TREND_VELOCITY_EVENT, (event) => chat.onTrendEvent(event));
  deps.events.on(TREND_LIFECYCLE_EVENT, (event) => chat.onTrendEvent(event));
  for (const type of CRISIS_EVENT_TYPES) deps.events.on(type, (event) => chat.onCrisisEvent(event));
  return { store, oauth, chat, forumAds, ads };
}
