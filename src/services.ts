// The services one composition root builds (src/compose.ts), as types only: modules never import this file;
// they receive what they need as plugin options. Tests and tools reach the running set as `app.services`.
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { InterestsService } from './modules/accounts/interests/service.ts';
import type { AccountsService } from './modules/accounts/service.ts';
import type { BlogService } from './modules/content/blog/service.ts';
import type { ReleasesService } from './modules/content/releases/service.ts';
import type { StatusService } from './modules/content/status/service.ts';
import type { CrisisService } from './modules/crisis/service.ts';
import type { InsightsService } from './modules/insights/service.ts';
import type { Integrations } from './modules/integrations/index.ts';
import type { WorkflowService } from './modules/integrations/workflow/service.ts';
import type { SignalsService } from './modules/signals/service.ts';
import type { SourceRunner } from './modules/signals/sources/runner.ts';
import type { StreamHub } from './modules/stream/hub.ts';
import type { TrendEngine } from './modules/trends/engine.ts';
import type { TrendProcessor } from './modules/trends/processor.ts';
import type { MetricsRecomputer } from './modules/trends/recompute.ts';
import type { TrendsService } from './modules/trends/service.ts';
import type { WebhooksService } from './modules/webhooks/service.ts';
import type { KeyCache } from './platform/auth.ts';
import type { Clock } from './platform/clock.ts';
import type { SecretBox } from './platform/crypto.ts';
import type { DB, Dialect } from './platform/db/index.ts';
import type { DomainEvents } from './platform/events.ts';
import type { IdempotencyStore } from './platform/idempotency.ts';
import type { JobQueue, JobWorker } from './platform/jobs/index.ts';
import type { Metrics } from './platform/metrics.ts';
import type { OutboundClient } from './platform/outbound.ts';
import type { PubSub } from './platform/pubsub.ts';
import type { RateLimits } from './platform/ratelimit.ts';
import type { UsageCounter } from './platform/usage.ts';

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
  events: DomainEvents;
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
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
