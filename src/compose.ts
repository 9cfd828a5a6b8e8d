// The composition root's first half: every store and service built once, in dependency order, with their
// domain-event and job wiring. src/app.ts then registers the platform plugins and the modules with these.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { API_VERSION, type Config } from './config.ts';
import { InterestsService } from './modules/accounts/interests/service.ts';
import { InterestsStore } from './modules/accounts/interests/store.ts';
import { AccountsService } from './modules/accounts/service.ts';
import { AccountsStore } from './modules/accounts/store.ts';
import { BlogService } from './modules/content/blog/service.ts';
import { BlogStore } from './modules/content/blog/store.ts';
import { loadChangelog } from './modules/content/releases/changelog.ts';
import { feedNames, ReleasesService } from './modules/content/releases/service.ts';
import { ReleaseFeedStore } from './modules/content/releases/store.ts';
import { llmCheck, sourceChecks } from './modules/content/status/checks.ts';
import { StatusService } from './modules/content/status/service.ts';
import { StatusStore } from './modules/content/status/store.ts';
import { CrisisDetector } from './modules/crisis/detector.ts';
import { CrisisService } from './modules/crisis/service.ts';
import { CrisisStore } from './modules/crisis/store.ts';
import { LlmProvider } from './modules/insights/llm.ts';
import { InsightsService } from './modules/insights/service.ts';
import { InsightsStore } from './modules/insights/store.ts';
import type { AdsDeps } from './modules/integrations/ads/service.ts';
import { createIntegrations } from './modules/integrations/index.ts';
import { N8nClient } from './modules/integrations/workflow/n8n.ts';
import { WorkflowService } from './modules/integrations/workflow/service.ts';
import { WorkflowStore } from './modules/integrations/workflow/store.ts';
import { SignalsService } from './modules/signals/service.ts';
import { createSources } from './modules/signals/sources/index.ts';
import { SourceRunner } from './modules/signals/sources/runner.ts';
import { SourceStateStore } from './modules/signals/sources/store.ts';
import { SignalsStore } from './modules/signals/store.ts';
import { registerStreamEvents, trendUpdates } from './modules/stream/events.ts';
import { StreamHub } from './modules/stream/hub.ts';
import { TrendEngine } from './modules/trends/engine.ts';
import { createNlpPool, type NlpPool } from './modules/trends/nlp-pool.ts';
import { TrendProcessor } from './modules/trends/processor.ts';
import { MetricsRecomputer } from './modules/trends/recompute.ts';
import { TrendsService } from './modules/trends/service.ts';
import { TrendsStore } from './modules/trends/store.ts';
import { WebhooksService } from './modules/webhooks/service.ts';
import { WebhooksStore } from './modules/webhooks/store.ts';
import { registerWebhookHandlers } from './modules/webhooks/wiring.ts';
import { KeyCache } from './platform/auth.ts';
import type { Clock } from './platform/clock.ts';
import type { SecretBox } from './platform/crypto.ts';
import type { DatabaseHandle } from './platform/db/index.ts';
import { DOMAIN_EVENT_JOB, type DomainEvent, DomainEvents } from './platform/events.ts';
import { IdempotencyStore } from './platform/idempotency.ts';
import { JobQueue, JobWorker } from './platform/jobs/index.ts';
import { createMetrics } from './platform/metrics.ts';
import { OutboundClient } from './platform/outbound.ts';
import type { PubSub } from './platform/pubsub.ts';
import { RateLimits } from './platform/ratelimit.ts';
import { UsageCounter } from './platform/usage.ts';
import type { Services } from './services.ts';

/** Stand-ins a test gives `buildApp` for services it replaces; production passes none. */
export interface ServiceOverrides {
  /** What webhooks and the ad integrations read of a user's insights. */
  insights?: NonNullable<AdsDeps['insights']>;
  /** The crisis gate the ad integrations consult before a preview. */
  crisisGate?: Pick<CrisisService, 'blockingEventFor'>;
}

export interface CompositionInput {
  config: Config;
  clock: Clock;
  handle: DatabaseHandle;
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
  crisisDetector: CrisisDetector;
  accountsStore: AccountsStore;
}

export async function composeServices(input: CompositionInput): Promise<Composition> {
  const { config, clock, handle, box, redis, pubsub, log, overrides = {} } = input;
  const { db, dialect } = handle;

  // Platform services.
  const usage = new UsageCounter(db);
  const limits = new RateLimits({
    redis,
    prefix: config.redisKeyPrefix,
    ipPerMinute: config.publicRateLimitPerMinute,
    seed: (userId, date) => usage.storedCount(userId, date),
  });
  const keyCache = new KeyCache(pubsub, clock);
  await keyCache.start();
  const idempotency = new IdempotencyStore(db, clock);
  const jobs = new JobQueue({ db, dialect, clock });
  const worker = new JobWorker({ queue: jobs, log, concurrency: config.jobConcurrency });
  const events = new DomainEvents(jobs);
  worker.register<DomainEvent>(DOMAIN_EVENT_JOB, (job) => events.dispatch(job.payload));
  const metrics = createMetrics();
  const outbound = new OutboundClient({ allowlist: config.outboundAllowlist });
  const poke = () => worker.poke();

  // Accounts.
  const accountsStore = new AccountsStore(db);
  const accounts = new AccountsService(accountsStore, {
    clock,
    plans: config.plans,
    cache: keyCache,
    limits,
    usage,
  });
  const interests = new InterestsService(new InterestsStore(db), clock);
  const status = new StatusService(new StatusStore(db), { db, redis, jobs, clock, config });

  // Trends and signals.
  const trendsStore = new TrendsStore(db, dialect, handle.reader);
  const signalsStore = new SignalsStore(db);
  const nlp = createNlpPool(config.nlpWorkerThreads);
  const trendProcessor = new TrendProcessor(trendsStore, clock, nlp);
  const trends = new TrendsService(trendsStore, clock);
  const signals = new SignalsService(signalsStore, clock);

  // Insights: read by webhooks (next steps) and the ad integrations (previews).
  const insights = new InsightsService({
    store: new InsightsStore(db, dialect),
    trends,
    jobs,
    clock,
    plans: config.plans,
    llm: config.llm.baseUrl
      ? new LlmProvider({ baseUrl: config.llm.baseUrl, apiKey: config.llm.apiKey, model: config.llm.model })
      : null,
    onEnqueued: poke,
  });
  insights.register(worker);
  const insightsReader = overrides.insights ?? insights;

  // Alerts: webhooks and the live stream.
  const webhooks = new WebhooksService({
    store: new WebhooksStore(db),
    clock,
    box,
    outbound,
    jobs,
    poke,
    audit: (userId, actor, action, targetId, detail, executor) =>
      accounts.audit(userId, actor, action, 'webhook', targetId, detail, executor),
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
  const crisisDetector = new CrisisDetector(new CrisisStore(db), events, clock, config);
  const crisis = new CrisisService(new CrisisStore(db), crisisDetector, clock, config);
  const engine = new TrendEngine(trendProcessor, recomputer, trendsStore, clock, {
    retention: config.retention,
    pruneSignals: (before) => signalsStore.pruneProcessedBefore(before),
    onEvents: poke,
    afterPass: async () => {
      if ((await crisisDetector.run()) > 0) worker.poke();
    },
  });
  const sources = new SourceRunner({
    sources: createSources(config, clock.now(), {
      hazards: (observations) => crisisDetector.recordHazards(observations),
    }),
    store: new SourceStateStore(db),
    signals,
    clock,
    workerId: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
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
    client: new N8nClient(outbound, `Crestwatch-Workflow/${API_VERSION}`),
    outbound,
    box,
    clock,
    jobs,
    accounts,
    crisis,
    onQueued: poke,
  });
  workflow.register(events, worker);
  const integrations = createIntegrations({
    db,
    config,
    clock,
    box,
    accounts,
    jobs,
    worker,
    events,
    trends,
    crisis: overrides.crisisGate ?? crisis,
    insights: insightsReader,
    log,
  });

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
  };
  return { services, nlp, crisisDetector, accountsStore };
}
