// The integrations module: the workflow tool (n8n) and the OAuth integrations (team chat, forum ads, social
// ads), with their jobs and event listeners. Every request to a user-given URL goes through the SSRF-guarded client.
import type { Config } from '../../config.ts';
import { API_VERSION } from '../../config.ts';
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
import { TREND_LIFECYCLE_EVENT, TREND_VELOCITY_EVENT, type TrendsService } from '../trends/index.ts';
import { type AdsDeps, AdsService } from './ads/service.ts';
import { CHAT_POST_JOB, ChatService } from './chat/service.ts';
import { FORUM_ADS_DELIVERY_JOB, ForumAdsService } from './forum-ads/service.ts';
import { OAuthService } from './oauth.ts';
import { MetaClient } from './providers/meta.ts';
import { RedditClient } from './providers/reddit.ts';
import { SlackClient } from './providers/slack.ts';
import { type IntegrationServices, integrationRoutes } from './routes.ts';
import { IntegrationsStore } from './store.ts';
import { N8nClient } from './workflow/n8n.ts';
import { workflowRoutes } from './workflow/routes.ts';
import { WorkflowService } from './workflow/service.ts';
import { WorkflowStore } from './workflow/store.ts';

export interface Integrations extends IntegrationServices {
  store: IntegrationsStore;
}

type CrisisGate = NonNullable<AdsDeps['crisis']>;

interface IntegrationsModuleDeps {
  config: Config;
  clock: Clock;
  db: DB;
  box: SecretBox;
  audit: AuditLog;
  jobs: JobQueue;
  worker: JobWorker;
  events: EventSubscriber<AlertEvents>;
  outbound: OutboundClient;
  /** Tells the job worker that jobs were committed. */
  poke: () => void;
  trends: TrendsService;
  /** Users' e-mails and whether their accounts are enabled (the accounts module's AccountsService). */
  users: {
    identities(userIds: readonly number[]): Promise<Map<number, { email: string }>>;
    activeAmong(userIds: readonly number[]): Promise<Set<number>>;
  };
  /** Blocks workflow pushes during a crisis. */
  crisis: CrisisGate;
  /** What the ad integrations consult before a preview (the crisis service unless a test stands in). */
  adsCrisisGate?: CrisisGate;
  /** What the ad integrations read of a user's insights. */
  insights?: AdsDeps['insights'];
  log?: { warn(obj: object, msg: string): void };
}

export type IntegrationsModule = Module<
  { workflow: WorkflowService; integrations: Integrations },
  'workflow' | 'integrations'
>;

export function createIntegrationsModule(deps: IntegrationsModuleDeps): IntegrationsModule {
  const { config, clock, box, audit, jobs, worker, events, poke } = deps;
  const workflow = new WorkflowService({
    store: new WorkflowStore(deps.db),
    trends: deps.trends,
    users: deps.users,
    client: new N8nClient(deps.outbound, `Crestwatch-Workflow/${API_VERSION}`),
    outbound: deps.outbound,
    box,
    clock,
    jobs,
    audit,
    crisis: deps.crisis,
    onQueued: poke,
  });
  workflow.register(events, worker);

  const now = () => clock.now();
  const store = new IntegrationsStore(deps.db);
  const oauth = new OAuthService({
    store,
    users: deps.users,
    box,
    clock,
    audit,
    publicBaseUrl: config.publicBaseUrl,
    log: deps.log,
  });
  const slack = new SlackClient(config.chat, now);
  const reddit = new RedditClient(config.forumAds, now);
  const meta = new MetaClient(config.socialAds);
  oauth.register(slack);
  oauth.register(reddit);
  oauth.register(meta);
  const chat = new ChatService({ store, users: deps.users, oauth, slack, jobs, clock, poke, log: deps.log });
  const forumAds = new ForumAdsService({ store, oauth, reddit, jobs, clock, poke, log: deps.log });
  const ads = new AdsService({
    store,
    oauth,
    meta,
    clock,
    audit,
    trends: deps.trends,
    insights: deps.insights,
    crisis: deps.adsCrisisGate ?? deps.crisis,
  });

  worker.register(CHAT_POST_JOB, (job) => chat.deliver(job as Parameters<ChatService['deliver']>[0]));
  worker.register(FORUM_ADS_DELIVERY_JOB, (job) =>
    forumAds.deliver(job as Parameters<ForumAdsService['deliver']>[0]),
  );
  events.on(TREND_VELOCITY_EVENT, (event) => chat.onTrendEvent(event));
  events.on(TREND_LIFECYCLE_EVENT, (event) => chat.onTrendEvent(event));
  for (const type of CRISIS_EVENT_TYPES) events.on(type, (event) => chat.onCrisisEvent(event));

  const integrations = { store, oauth, chat, forumAds, ads };
  return {
    api: { workflow, integrations },
    routes: {
      workflow: routes(workflowRoutes, { workflow }),
      integrations: routes(integrationRoutes, { integrations }),
    },
  };
}
