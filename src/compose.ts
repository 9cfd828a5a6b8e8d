// The composition root's first half: every store and service built once, in dependency order, with their
// domain-event and job wiring. src/app.ts then registers the platform plugins and the modules with these.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { API_VERSION, type Config } from './config.ts';
import type { Database } from './database.ts';
import {
  AccountsService,
  AccountsStore,
  InterestsService,
  InterestsStore,
} from './modules/accounts/index.ts';
import {
  BlogService,
  BlogStore,
  feedNames,
  llmCheck,
  loadChangelog,
  ReleaseFeedStore,
  ReleasesService,
  StatusService,
  StatusStore,
  sourceChecks,
} from './modules/content/index.ts';
import { CrisisDetector, CrisisService, CrisisStore } from './modules/crisis/index.ts';
import { ExportsService } from './modules/exports/index.ts';
import {
  createInsightAnalysis,
  type InsightAnalysis,
  InsightsService,
  InsightsStore,
  LlmProvider,
} from './modules/insights/index.ts';
import type { AdsDeps } from './modules/integrations/index.ts';
import {
  createIntegrations,
  N8nClient,
  WorkflowService,
  WorkflowStore,
} from './modules/integrations/index.ts';
import { NotificationsService } from './modules/notifications/index.ts';
import { OrganisationsService, OrganisationsStore } from './modules/organisations/index.ts';
import { RecommendationsService } from './modules/recommendations/index.ts';
import { ReportsService } from './modules/reports/index.ts';
import {
  createSources,
  SignalsService,
  SignalsStore,
  SourceRunner,
  SourceStateStore,
} from './modules/signals/index.ts';
import { registerStreamEvents, StreamHub, trendUpdates } from './modules/stream/index.ts';
import { createNlpPool, type NlpPool } from './modules/text/index.ts';
import {
  MetricsRecomputer,
  RedisEvidence,
  TrendEngine,
  TrendProcessor,
  TrendsService,
  TrendsStore,
} from './modules/trends/index.ts';
import { registerWebhookHandlers, WebhooksService, WebhooksStore } from './modules/webhooks/index.ts';
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
import { OutboundClient } from './platform/outbound.ts';
import type { PubSub } from './platform/pubsub.ts';
import { QuotaSeedCoordinator } from './platform/quota-seeding.ts';
import { RateLimits } from './platform/ratelimit.ts';
import { UsageCounter } from './platform/usage.ts';
import type { AppEvents, Services } from './services.ts';

/** The crisis detector's background loop (one instance at a time). */
const CRISIS_DETECTION_LOOP = 'crisis-detection';

/** Stand-ins a test gives `buildApp` for services it replaces; production passes none. */
export interface ServiceOverrides {
  /** What webhooks and the ad integrations read of a user's insights. */
  insights?: NonNullable<AdsDeps['insights']>;
  /** The crisis gate the ad integrations consult before a preview. */
  crisisGate?: Pick<CrisisService, 'blockingEventFor'>;
  /** Where signals are analysed (by default worker threads, NLP_WORKER_THREADS). */
  nlp?: NlpPool;
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

export interface Composition {
  services: Services;
  /** Parts the app stops on close beyond what `services` names. */
  nlp: NlpPool;
  insightAnalysis: InsightAnalysis;
  accountsStore: AccountsStore;
}

export async function composeServices(input: CompositionInput): Promise<Composition> {
  const { config, clock, handle, box, redis, pubsub, log, overrides = {} } = input;
  const { db, dialect } = handle;

  // Platform services.
  // The platform's persistence sees its own tables only.
  const platformDb = platformTables(db);
  // Users and their keys are the accounts module's tables: usage and idempotency reach them through its store.
  const accountsStore = new AccountsStore(db, dialect);
  const usage = new UsageCounter(platformDb, accountsStore);
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
  const idempotency = new IdempotencyStore(platformDb, clock, accountsStore);
  const jobs = new JobQueue({ db: platformDb, dialect, clock });
  const worker = new JobWorker({ queue: jobs, log, concurrency: config.jobConcurrency });
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

  // Accounts.
  const accounts = new AccountsService(accountsStore, {
    clock,
    plans: config.plans,
    cache: keyCache,
    limits,
    usage,
    audit,
    memberships: new OrganisationsStore(db, dialect),
  });
  const interests = new InterestsService(new InterestsStore(db), clock);
  const status = new StatusService(new StatusStore(db), { db, redis, jobs, clock, config });

  // Trends and signals.
  const trendsStore = new TrendsStore(db, dialect, handle.reader);
  const signalsStore = new SignalsStore(db, handle.reader);
  const nlp = overrides.nlp ?? createNlpPool(config.nlpWorkerThreads);
  // Evidence units are shared through Redis when it is configured (several instances process signals).
  const trendProcessor = new TrendProcessor(trendsStore, signalsStore, clock, nlp, {
    sharedEvidence: redis ? new RedisEvidence(redis, config.redisKeyPrefix, clock) : undefined,
    onSharedEvidenceError: (error) =>
      log.warn(
        { err: error },
        'shared evidence (Redis) unavailable: this batch is judged by this instance alone',
      ),
  });
  const trends = new TrendsService(trendsStore, clock);
  const signals = new SignalsService(signalsStore, clock, () => engine.wake(), config.ingestMaxPending);

  // Insights: read by webhooks (next steps) and the ad integrations (previews).
  const insightAnalysis = createInsightAnalysis(config.nlpWorkerThreads > 0);
  const insights = new InsightsService({
    store: new InsightsStore(db, dialect),
    trends,
    signals,
    users: accounts,
    jobs,
    clock,
    plans: config.plans,
    llm: config.llm.baseUrl
      ? new LlmProvider({ baseUrl: config.llm.baseUrl, apiKey: config.llm.apiKey, model: config.llm.model })
      : null,
    onEnqueued: poke,
    analysis: insightAnalysis,
  });
  insights.register(worker);
  const insightsReader = overrides.insights ?? insights;

  // Alerts: webhooks and the live stream.
  const webhooks = new WebhooksService({
    store: new WebhooksStore(db),
    trends,
    users: accounts,
    clock,
    box,
    outbound,
    jobs,
    poke,
    audit,
    publicBaseUrl: config.publicBaseUrl,
    insights: insightsReader,
  });
  registerWebhookHandlers(webhooks, events, worker);
  const stream = new StreamHub(pubsub, clock);
  await stream.start();
  registerStreamEvents(events, stream, config.publicBaseUrl);

  // The trend engine: processing, recompute (with the stream's trend updates), crisis detection.
  const recomputer = new MetricsRecomputer(trendsStore, trends, events, clock, {
    thresholds: () => webhooks.thresholds(),
    onSnapshots: (views) => {
      stream
        .publishMany(trendUpdates(views))
        .catch((error) => log.warn({ err: error }, 'trend updates not published'));
    },
  });
  const crisisDetector = new CrisisDetector(new CrisisStore(db), events, clock, config, {
    signals: signalsStore,
    interests,
    trends,
  });
  const crisis = new CrisisService(new CrisisStore(db), crisisDetector, clock, config);
  const engine = new TrendEngine(trendProcessor, recomputer, trendsStore, clock, {
    retention: config.retention,
    pruneSignals: (before) => signalsStore.pruneProcessedBefore(before),
    onEvents: poke,
    exclusive,
    afterPass: async () => {
      if (((await exclusive(CRISIS_DETECTION_LOOP, () => crisisDetector.run())) ?? 0) > 0) worker.poke();
    },
  });
  const sources = new SourceRunner({
    sources: createSources(config, clock.now(), {
      hazards: (observations) => crisisDetector.recordHazards(observations),
    }),
    store: new SourceStateStore(db),
    signals,
    clock,
    leases: singletons,
    log,
  });

  // Content and the status page: components beyond the platform's are each source, the LLM provider and
  // each release feed.
  for (const [name, check] of sourceChecks(sources)) status.register(name, check);
  const llm = llmCheck(config.llm, clock);
  if (llm) status.register('llm', llm);
  const changelog = loadChangelog();
  if (changelog.error) log.warn({ error: changelog.error }, 'CHANGELOG.md could not be read');
  const releases = new ReleasesService({
    store: new ReleaseFeedStore(db),
    clock,
    changelog: changelog.releases,
    feeds: feedNames(config.feeds.releaseFeeds, status.names()),
    log,
  });
  for (const feed of releases.feeds) status.register(feed.name, () => releases.check(feed.name));
  const blog = new BlogService(new BlogStore(db), clock);

  // Integrations. Every request to the user-given workflow tool URL goes through the SSRF-guarded client.
  const workflow = new WorkflowService({
    store: new WorkflowStore(db),
    trends,
    users: accounts,
    client: new N8nClient(outbound, `Crestwatch-Workflow/${API_VERSION}`),
    outbound,
    box,
    clock,
    jobs,
    audit,
    crisis,
    onQueued: poke,
  });
  workflow.register(events, worker);
  const integrations = createIntegrations({
    db,
    config,
    clock,
    box,
    audit,
    jobs,
    worker,
    events,
    trends,
    users: accounts,
    crisis: overrides.crisisGate ?? crisis,
    insights: insightsReader,
    log,
  });

  // Modules built on the core ones: each takes what it needs from one context.
  const context = {
    config,
    clock,
    db,
    dialect,
    box,
    jobs,
    worker,
    events,
    outbound,
    audit,
    poke,
    log,
    keyCache,
    accounts,
    accountsStore,
    interests,
    signals,
    trends,
    insights,
    crisis,
  };
  const organisations = new OrganisationsService(context);
  const recommendations = new RecommendationsService(context);
  const dataExports = new ExportsService(context);
  const notifications = new NotificationsService(context);
  const reports = new ReportsService(context);

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
    accounts,
    idempotency,
    jobs,
    worker,
    status,
    blog,
    releases,
    metrics,
    signals,
    sources,
    trendProcessor,
    trends,
    events,
    interests,
    insights,
    recomputer,
    engine,
    crisis,
    workflow,
    integrations,
    outbound,
    webhooks,
    stream,
    organisations,
    recommendations,
    notifications,
    dataExports,
    reports,
    singletons,
  };
  return { services, nlp, insightAnalysis, accountsStore };
}
