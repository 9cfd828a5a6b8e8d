// The services one composition root builds (src/compose.ts), as types only: modules never import this file;
// they receive what they need as their factory's deps. Tests and tools reach the running set as `app.services`.
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { DB } from './database.ts';
import type { AccountsService, InterestsService } from './modules/accounts/index.ts';
import type { BlogService, ReleasesService, StatusService } from './modules/content/index.ts';
import type { CrisisEvents, CrisisService } from './modules/crisis/index.ts';
import type { ExportEvents, ExportsService } from './modules/exports/index.ts';
import type { InsightsService } from './modules/insights/index.ts';
import type { Integrations, WorkflowService } from './modules/integrations/index.ts';
import type { NotificationsService } from './modules/notifications/index.ts';
import type { OrganisationsService } from './modules/organisations/index.ts';
import type { RecommendationsService } from './modules/recommendations/index.ts';
import type { ReportsService } from './modules/reports/index.ts';
import type { SignalsService, SourceRunner } from './modules/signals/index.ts';
import type { StreamHub } from './modules/stream/index.ts';
import type {
  MetricsRecomputer,
  TrendEngine,
  TrendEvents,
  TrendProcessor,
  TrendsService,
} from './modules/trends/index.ts';
import type { WebhooksService } from './modules/webhooks/index.ts';
import type { KeyCache } from './platform/auth.ts';
import type { Clock } from './platform/clock.ts';
import type { SecretBox } from './platform/crypto.ts';
import type { Dialect } from './platform/db/index.ts';
import type { DomainEvents } from './platform/events.ts';
import type { IdempotencyStore } from './platform/idempotency.ts';
import type { JobQueue, JobWorker } from './platform/jobs/index.ts';
import type { Singletons } from './platform/leases.ts';
import type { Metrics } from './platform/metrics.ts';
import type { OutboundClient } from './platform/outbound.ts';
import type { PubSub } from './platform/pubsub.ts';
import type { RateLimits } from './platform/ratelimit.ts';
import type { UsageCounter } from './platform/usage.ts';

/** Every domain event the app records: the trends, crisis and exports modules'. */
export type AppEvents = TrendEvents & CrisisEvents & ExportEvents;

export interface Services {
  config: Config;
  clock: Clock;
  db: DB;
  dialect: Dialect;
  redis?: Redis;
  pubsub: PubSub;
  limits: RateLimits;
  usage: UsageCounter;
  keyCache: KeyCache;
  box: SecretBox;
  accounts: AccountsService;
  idempotency: IdempotencyStore;
  jobs: JobQueue;
  worker: JobWorker;
  status: StatusService;
  blog: BlogService;
  releases: ReleasesService;
  metrics: Metrics;
  signals: SignalsService;
  trendProcessor: TrendProcessor;
  trends: TrendsService;
  events: DomainEvents<AppEvents>;
  interests: InterestsService;
  insights: InsightsService;
  sources: SourceRunner;
  recomputer: MetricsRecomputer;
  /** Processing, snapshot recompute and retention, one pass per tick. */
  engine: TrendEngine;
  /** Crisis events: detection (after each engine pass), evidence, reviews, the push gate. */
  crisis: CrisisService;
  /** The workflow-automation integration (n8n): connection, selection, pushes. */
  workflow: WorkflowService;
  /** OAuth integrations: team chat, forum ads conversions, social ads targeting. */
  integrations: Integrations;
  /** The one SSRF-guarded client for user-given URLs (webhooks, the workflow tool). */
  outbound: OutboundClient;
  /** Webhook subscriptions, triggering and signed delivery. */
  webhooks: WebhooksService;
  /** The live WebSocket stream's fan-out. */
  stream: StreamHub;
  /** Organisations: members, roles, invites. */
  organisations: OrganisationsService;
  /** Recommendations with decision briefs. */
  recommendations: RecommendationsService;
  /** The in-app notification feed and the dashboard overview. */
  notifications: NotificationsService;
  /** Scheduled exports and their history. */
  dataExports: ExportsService;
  /** Custom reports, session info, public demo signals. */
  reports: ReportsService;
  /** Leases of the background loops that run on one instance at a time. */
  singletons: Singletons;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
