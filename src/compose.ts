// The composition root's first half: the platform services, then every feature module from its factory
// (`create<Name>Module`, docs/architecture.md "Module shape and wiring") in dependency order: a module subscribes
// to what the ones built before it publish, never the other way round. src/app.ts then registers the platform
// plugins and the modules' routes.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { API_VERSION, type Config } from './config.ts';
import type { Database } from './database.ts';
import {
  type AccountsModule,
  type AccountsStore,
  apiKeyRecords,
  createAccountsModule,
} from './modules/accounts/index.ts';
import { type ContentModule, createContentModule } from './modules/content/index.ts';
import { type CrisisModule, type CrisisService, createCrisisModule } from './modules/crisis/index.ts';
import { createExportsModule, type ExportsModule } from './modules/exports/index.ts';
import { createInsightsModule, type InsightsModule } from './modules/insights/index.ts';
import {
  type AdsDeps,
  createIntegrationsModule,
  type IntegrationsModule,
} from './modules/integrations/index.ts';
import { createMcpModule, type McpModule } from './modules/mcp/index.ts';
import { createNotificationsModule, type NotificationsModule } from './modules/notifications/index.ts';
import {
  createOrganisationsModule,
  type OrganisationsModule,
  organisationMemberships,
} from './modules/organisations/index.ts';
import { createRecommendationsModule, type RecommendationsModule } from './modules/recommendations/index.ts';
import { createReportsModule, type ReportsModule } from './modules/reports/index.ts';
import { createSignalsModule, type SignalsModule } from './modules/signals/index.ts';
import { createStreamModule, type StreamModule } from './modules/stream/index.ts';
import { createNlpPool, type NlpPool } from './modules/text/index.ts';
import { createTrendsModule, type TrendsModule } from './modules/trends/index.ts';
import { createUnavailableModule, type UnavailableModule } from './modules/unavailable/index.ts';
import { createWebModule, type WebModule } from './modules/web/index.ts';
import { createWebhooksModule, type WebhooksModule } from './modules/webhooks/index.ts';
import { AuditLog } from './platform/audit.ts';
import { KeyCache } from './platform/auth.ts';
import type { Clock } from './platform/clock.ts';
import type { SecretBox } from './platform/crypto.ts';
import { type DatabaseHandle, platformTables } from './platform/db/index.ts';
import { DOMAIN_EVENT_JOB, type DomainEvent, DomainEvents } from './platform/events.ts';
import { IdempotencyStore } from './platform/idempotency.ts';
import { JobQueue, JobWorker } from './platform/jobs/index.ts';
import { LeaseStore, newInstanceId, Singletons } from './platform/leases.ts';
import { createMetrics } from './platform/metrics.ts';
import type { RoutePlugin } from './platform/module.ts';
import { OutboundClient } from './platform/outbound.ts';
import type { PubSub } from './platform/pubsub.ts';
import { QuotaSeedCoordinator } from './platform/quota-seeding.ts';
import { RateLimits } from './platform/ratelimit.ts';
import { RouteCatalogue } from './platform/route-catalogue.ts';
import { UsageCounter } from './platform/usage.ts';
import type { AppEvents, Services } from './services.ts';

/** Stand-ins a test gives `buildApp` for services it replaces; production passes none. */
export interface ServiceOverrides {
  /** What webhooks and the ad integrations read of a user's insights. */
  insights?: NonNullable<AdsDeps['insights']>;
  /** The crisis gate the ad integrations consult before a preview. */
  crisisGate?: Pick<CrisisService, 'blockingEventFor'>;
  /** Where signals are analysed (by default worker threads, NLP_WORKER_THREADS). */
  nlp?: NlpPool;
  /**
   * How long one engine pass works on pending signals (2 s by default). The test helper passes Infinity, so
   * `engine.tick()` processes everything pending however loaded the machine is.
   */
  drainBudgetMs?: number;
}

interface CompositionInput {
  config: Config;
  clock: Clock;
  handle: DatabaseHandle<Database>;
  box: SecretBox;
  redis?: Redis;
  pubsub: PubSub;
  log: FastifyBaseLogger;
  overrides?: ServiceOverrides;
}

/** Every feature module, by name (a route's key is `<module>.<route name>`). */
interface Modules {
  accounts: AccountsModule;
  signals: SignalsModule;
  trends: TrendsModule;
  insights: InsightsModule;
  webhooks: WebhooksModule;
  stream: StreamModule;
  crisis: CrisisModule;
  content: ContentModule;
  integrations: IntegrationsModule;
  organisations: OrganisationsModule;
  recommendations: RecommendationsModule;
  exports: ExportsModule;
  notifications: NotificationsModule;
  reports: ReportsModule;
  mcp: McpModule;
  web: WebModule;
  unavailable: UnavailableModule;
}

/** `<module>.<route name>` of every module's routes. */
export type RouteKey = {
  [M in keyof Modules]: `${M}.${keyof Modules[M]['routes'] & string}`;
}[keyof Modules];

export interface Composition {
  services: Services;
  /** Every module's route plugins, keyed `<module>.<route name>` (app.ts registers them in its order). */
  routes: ReadonlyMap<string, RoutePlugin>;
  /** Every route as registered: app.ts records them, the MCP tools read them. */
  catalogue: RouteCatalogue;
  /** Parts the app stops on close beyond what `services` names. */
  nlp: NlpPool;
  insightAnalysis: InsightsModule['api']['analysis'];
  accountsStore: AccountsStore;
}

export async function composeServices(input: CompositionInput): Promise<Composition> {
  const { config, clock, handle, box, redis, pubsub, log, overrides = {} } = input;
  const { db, dialect } = handle;

  // Platform services.
  // The platform's persistence sees its own tables only.
  const platformDb = platformTables(db);
  // Users and their keys are the accounts module's tables: usage and idempotency reach them through its records.
  const keyRecords = apiKeyRecords(db, dialect);
  const usage = new UsageCounter(platformDb, keyRecords);
  // A quota counter Redis lost is rebuilt from the database once every instance has flushed its usage.
  const quotaSeeding = redis
    ? new QuotaSeedCoordinator(redis, pubsub, config.redisKeyPrefix, usage, (error) =>
        log.warn({ err: error }, 'usage flush asked for by another instance failed'),
      )
    : null;
  await quotaSeeding?.start();
  const limits = new RateLimits({
    redis,
    prefix: config.redisKeyPrefix,
    ipPerMinute: config.publicRateLimitPerMinute,
    seed: async (userId, date) => {
      await quotaSeeding?.flushEverywhere();
      return usage.storedCount(userId, date);
    },
  });
  const keyCache = new KeyCache(pubsub, clock);
  await keyCache.start();
  const idempotency = new IdempotencyStore(platformDb, clock, keyRecords);
  const jobs = new JobQueue({ db: platformDb, dialect, clock });
  const worker = new JobWorker({
    queue: jobs,
    log,
    concurrency: config.jobConcurrency,
    leaseMs: config.jobLeaseMs,
  });
  const events = new DomainEvents<AppEvents>(jobs);
  worker.register<DomainEvent>(DOMAIN_EVENT_JOB, (job) => events.dispatch(job.payload));
  const metrics = createMetrics();
  const outbound = new OutboundClient({
    allowlist: config.outboundAllowlist,
    perOriginLimit: config.outboundConcurrencyPerDestination,
  });
  const audit = new AuditLog(platformDb, clock);
  const poke = () => worker.poke();
  // Background loops that must run on one instance at a time hold a lease each (src/platform/leases.ts).
  const singletons = new Singletons(new LeaseStore(platformDb), clock, newInstanceId(), {
    onError: (error) => log.warn({ err: error }, 'lease renewal failed'),
  });
  const exclusive = <T>(name: string, task: () => Promise<T>) => singletons.run(name, task);

  const catalogue = new RouteCatalogue();
  const nlp = overrides.nlp ?? createNlpPool(config.nlpWorkerThreads);

  // Feature modules, in dependency order: each subscribes to what the ones before it publish.
  const accounts = createAccountsModule({
    db,
    dialect,
    memberships: organisationMemberships(db, dialect),
    clock,
    plans: config.plans,
    keyCache,
    limits,
    usage,
    audit,
  });
  const signals = createSignalsModule({ config, clock, db, reader: handle.reader, leases: singletons, log });
  const trends = createTrendsModule({
    config,
    clock,
    db,
    dialect,
    reader: handle.reader,
    redis,
    nlp,
    events,
    poke,
    exclusive,
    log,
    signals: signals.api,
    interests: accounts.api.interests,
    drainBudgetMs: overrides.drainBudgetMs,
    registry: metrics.registry,
  });
  const insights = createInsightsModule({
    config,
    clock,
    db,
    dialect,
    jobs,
    worker,
    poke,
    trends: trends.api.trends,
    signals: signals.api.signals,
    users: accounts.api.accounts,
  });
  // What webhooks and the ad integrations read of a user's insights (next steps, previews).
  const insightsReader = overrides.insights ?? insights.api.insights;
  const webhooks = createWebhooksModule({
    clock,
    db,
    box,
    outbound,
    jobs,
    worker,
    events,
    poke,
    audit,
    publicBaseUrl: config.publicBaseUrl,
    insights: insightsReader,
    trends: trends.api,
    users: accounts.api.accounts,
  });
  const stream = await createStreamModule({
    pubsub,
    clock,
    events,
    publicBaseUrl: config.publicBaseUrl,
    log,
    trends: trends.api,
  });
  const crisis = createCrisisModule({
    config,
    clock,
    db,
    events,
    poke,
    exclusive,
    signals: signals.api,
    trends: trends.api,
    interests: accounts.api.interests,
  });
  const content = createContentModule({ config, clock, db, redis, jobs, log, sources: signals.api.sources });
  const integrations = createIntegrationsModule({
    config,
    clock,
    db,
    box,
    audit,
    jobs,
    worker,
    events,
    outbound,
    poke,
    trends: trends.api.trends,
    users: accounts.api.accounts,
    crisis: crisis.api.crisis,
    adsCrisisGate: overrides.crisisGate,
    insights: insightsReader,
    log,
  });
  const core = {
    config,
    clock,
    db,
    dialect,
    events,
    trends: trends.api.trends,
    crisis: crisis.api.crisis,
  };
  const organisations = createOrganisationsModule({
    ...core,
    audit,
    keyCache,
    accounts: accounts.api.accounts,
  });
  const recommendations = createRecommendationsModule({
    ...core,
    log,
    interests: accounts.api.interests,
    insights: insights.api.insights,
  });
  const dataExports = createExportsModule({
    ...core,
    box,
    jobs,
    worker,
    outbound,
    audit,
    poke,
    accounts: accounts.api.accounts,
  });
  const notifications = createNotificationsModule({
    ...core,
    accounts: accounts.api.accounts,
    interests: accounts.api.interests,
  });
  const reports = createReportsModule({ ...core, signals: signals.api.signals });
  const mcp = createMcpModule({ catalogue, crisis: crisis.api.crisis, clock, version: API_VERSION });

  const modules: Modules = {
    accounts,
    signals,
    trends,
    insights,
    webhooks,
    stream,
    crisis,
    content,
    integrations,
    organisations,
    recommendations,
    exports: dataExports,
    notifications,
    reports,
    mcp,
    web: createWebModule(),
    unavailable: createUnavailableModule(),
  };
  const routes = new Map<string, RoutePlugin>();
  for (const [name, module] of Object.entries(modules)) {
    for (const [route, plugin] of Object.entries<RoutePlugin>(module.routes))
      routes.set(`${name}.${route}`, plugin);
  }

  const services: Services = {
    config,
    clock,
    db,
    dialect,
    redis,
    pubsub,
    limits,
    usage,
    keyCache,
    box,
    accounts: accounts.api.accounts,
    idempotency,
    jobs,
    worker,
    status: content.api.status,
    blog: content.api.blog,
    releases: content.api.releases,
    metrics,
    signals: signals.api.signals,
    sources: signals.api.sources,
    trendProcessor: trends.api.processor,
    trends: trends.api.trends,
    events,
    interests: accounts.api.interests,
    insights: insights.api.insights,
    recomputer: trends.api.recomputer,
    engine: trends.api.engine,
    crisis: crisis.api.crisis,
    workflow: integrations.api.workflow,
    integrations: integrations.api.integrations,
    outbound,
    webhooks: webhooks.api.webhooks,
    stream: stream.api.hub,
    organisations: organisations.api.organisations,
    recommendations: recommendations.api.recommendations,
    notifications: notifications.api.notifications,
    dataExports: dataExports.api.dataExports,
    reports: reports.api.reports,
    singletons,
  };
  return {
    services,
    routes,
    catalogue,
    nlp,
    insightAnalysis: insights.api.analysis,
    accountsStore: accounts.api.keys,
  };
}
