// buildApp(config, options) → a ready Fastify instance with every platform plugin and module registered.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import sjson from 'secure-json-parse';
import { API_VERSION, type Config } from './config.ts';
import { interestRoutes } from './modules/accounts/interests/routes.ts';
import { InterestsService } from './modules/accounts/interests/service.ts';
import { InterestsStore } from './modules/accounts/interests/store.ts';
import { accountRoutes } from './modules/accounts/routes.ts';
import { AccountsService } from './modules/accounts/service.ts';
import { AccountsStore } from './modules/accounts/store.ts';
import { blogRoutes } from './modules/content/blog/routes.ts';
import { BlogService } from './modules/content/blog/service.ts';
import { BlogStore } from './modules/content/blog/store.ts';
import { loadChangelog } from './modules/content/releases/changelog.ts';
import { releaseRoutes } from './modules/content/releases/routes.ts';
import { feedNames, ReleasesService } from './modules/content/releases/service.ts';
import { ReleaseFeedStore } from './modules/content/releases/store.ts';
import { llmCheck, sourceChecks } from './modules/content/status/checks.ts';
import { statusRoutes } from './modules/content/status/routes.ts';
import { StatusService } from './modules/content/status/service.ts';
import { StatusStore } from './modules/content/status/store.ts';
import { CrisisDetector } from './modules/crisis/detector.ts';
import { crisisRoutes } from './modules/crisis/routes.ts';
import { CrisisService } from './modules/crisis/service.ts';
import { CrisisStore } from './modules/crisis/store.ts';
import { LlmProvider } from './modules/insights/llm.ts';
import { insightRoutes } from './modules/insights/routes.ts';
import { InsightsService } from './modules/insights/service.ts';
import { InsightsStore } from './modules/insights/store.ts';
import { createIntegrations, type Integrations } from './modules/integrations/index.ts';
import { integrationRoutes } from './modules/integrations/routes.ts';
import { N8nClient } from './modules/integrations/workflow/n8n.ts';
import { workflowRoutes } from './modules/integrations/workflow/routes.ts';
import { WorkflowService } from './modules/integrations/workflow/service.ts';
import { WorkflowStore } from './modules/integrations/workflow/store.ts';
import { signalRoutes } from './modules/signals/routes.ts';
import { SignalsService } from './modules/signals/service.ts';
import { createSources } from './modules/signals/sources/index.ts';
import { SourceRunner } from './modules/signals/sources/runner.ts';
import { SourceStateStore } from './modules/signals/sources/store.ts';
import { SignalsStore } from './modules/signals/store.ts';
import { registerStreamEvents, trendUpdates } from './modules/stream/events.ts';
import { StreamHub } from './modules/stream/hub.ts';
import { streamRoutes } from './modules/stream/routes.ts';
import { TrendEngine } from './modules/trends/engine.ts';
import { createNlpPool } from './modules/trends/nlp-pool.ts';
import { TrendProcessor } from './modules/trends/processor.ts';
import { MetricsRecomputer } from './modules/trends/recompute.ts';
import { trendRoutes } from './modules/trends/routes.ts';
import { TrendsService } from './modules/trends/service.ts';
import { TrendsStore } from './modules/trends/store.ts';
import { unavailableRoutes } from './modules/unavailable/routes.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { WebhooksService } from './modules/webhooks/service.ts';
import { WebhooksStore } from './modules/webhooks/store.ts';
import { registerWebhookHandlers } from './modules/webhooks/wiring.ts';
import { authPlugin, hookFor, KeyCache, publicLimiter } from './platform/auth.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import { loadOrCreateSecretKey, SecretBox } from './platform/crypto.ts';
import {
  type DatabaseHandle,
  type DB,
  type Dialect,
  migrateToLatest,
  openDatabase,
} from './platform/db/index.ts';
import { registerErrorHandling, sendProblem } from './platform/error-handler.ts';
import { ApiError, badRequest, unavailable } from './platform/errors.ts';
import { DOMAIN_EVENT_JOB, type DomainEvent, DomainEvents } from './platform/events.ts';
import { type App, asArray } from './platform/http.ts';
import { IdempotencyStore, idempotencyPlugin } from './platform/idempotency.ts';
import { requestId } from './platform/ids.ts';
import { JobQueue, JobWorker } from './platform/jobs/index.ts';
import { createMetrics, type Metrics, registerMetrics } from './platform/metrics.ts';
import { decorateRouteSchema, registerOpenApi } from './platform/openapi.ts';
import { OutboundClient } from './platform/outbound.ts';
import { OverloadMonitor } from './platform/overload.ts';
import { LocalPubSub, type PubSub, RedisPubSub } from './platform/pubsub.ts';
import { RateLimits } from './platform/ratelimit.ts';
import { connectRedis } from './platform/redis.ts';
import { closeRefusedUpgrade, registerUpgradeGuard } from './platform/upgrade.ts';
import { UsageCounter } from './platform/usage.ts';
import { validatorCompiler } from './platform/validation.ts';

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

export interface BuildOptions {
  clock?: Clock;
  /** Pino options, or false for silence (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Timers and the job worker; tests that drive them by hand turn this off. */
  background?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

const MIB = 1024 * 1024;

/** Optional bodies become `{}`; NUL in query or path strings is refused (PostgreSQL cannot store it). */
function guardInput(request: FastifyRequest, _reply: unknown, done: (error?: Error) => void): void {
  if (request.body === undefined && request.routeOptions.config.optionalBody) request.body = {};
  for (const [part, values] of [
    ['query', request.query],
    ['path', request.params],
  ] as const) {
    for (const [name, value] of Object.entries((values ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'string' && value.includes('\u0000')) {
        done(badRequest(`${part}.${name} must not contain NUL characters.`, `${part}.${name}`));
        return;
      }
    }
  }
  done();
}

// PostgreSQL cannot store NUL in text, and no field has a use for it: refuse it alike on both databases.
function rejectNul(key: string, value: unknown): unknown {
  if (key.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000'))) {
    throw new ApiError(
      400,
      'invalid_request',
      'Strings in the request body must not contain NUL (\\u0000) characters.',
    );
  }
  return value;
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        'headers.authorization',
      ],
      censor: '[redacted]',
    },
    serializers: {
      // Never log headers, and never the live stream's `token` query value.
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: req.url.replace(/([?&](?:token|api_key|code|state)=)[^&]*/gi, '$1[redacted]'),
        remoteAddress: req.ip,
      }),
    },
  };
}

type InsightsLookup = NonNullable<Parameters<typeof createIntegrations>[0]['insights']>;
function insightsOf(services: Services | undefined): InsightsLookup | undefined {
  return (services as { insights?: InsightsLookup } | undefined)?.insights;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const clock = options.clock ?? systemClock;
  const background = options.background ?? true;
  const handle: DatabaseHandle = openDatabase(config.database, { reader: true });
  try {
    await migrateToLatest(handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
  const { db, dialect } = handle;
  const secretKey = config.secretKey ?? loadOrCreateSecretKey(config.dataDir);
  const box = new SecretBox(secretKey);

  let redis: Redis | undefined;
  let pubsub: PubSub;
  if (config.redisUrl) {
    redis = await connectRedis(config.redisUrl, 'main');
    const subscriber = await connectRedis(config.redisUrl, 'subscriber');
    pubsub = new RedisPubSub(redis, subscriber, config.redisKeyPrefix);
  } else {
    pubsub = new LocalPubSub();
  }

  const usage = new UsageCounter(db);
  const limits = new RateLimits({
    redis,
    prefix: config.redisKeyPrefix,
    ipPerMinute: config.publicRateLimitPerMinute,
    seed: (userId, date) => usage.storedCount(userId, date),
  });
  const keyCache = new KeyCache(pubsub);
  await keyCache.start();
  const accountsStore = new AccountsStore(db);
  const accounts = new AccountsService(accountsStore, {
    clock,
    plans: config.plans,
    cache: keyCache,
    limits,
    usage,
  });
  const idempotency = new IdempotencyStore(db, clock);
  const jobs = new JobQueue({ db, dialect, clock });
  const metrics = createMetrics();
  const status = new StatusService(new StatusStore(db), { db, redis, jobs, clock, config });

  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    genReqId: (req) => requestId(req.headers['x-request-id']),
    requestIdHeader: false,
    bodyLimit: MIB,
    return503OnClosing: false,
    // Errors Fastify answers before routing (bad percent-encoding, overlong path segments) are problems too.
    frameworkErrors: (error, request, reply) => {
      reply.header('X-Request-Id', request.id);
      closeRefusedUpgrade(request, reply);
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      sendProblem(
        reply,
        tooLong ? 414 : 400,
        tooLong ? 'uri_too_long' : 'bad_url',
        tooLong
          ? 'A path segment of the URL is too long.'
          : 'The request URL is malformed (bad percent-encoding).',
      );
    },
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 500 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const worker = new JobWorker({ queue: jobs, log: app.log, concurrency: config.jobConcurrency });
  const trendsStore = new TrendsStore(db, dialect, handle.reader);
  const signalsStore = new SignalsStore(db);
  const events = new DomainEvents(jobs);
  worker.register<DomainEvent>(DOMAIN_EVENT_JOB, (job) => events.dispatch(job.payload));
  const nlp = createNlpPool(config.nlpWorkerThreads);
  const trendProcessor = new TrendProcessor(trendsStore, clock, nlp);
  const trends = new TrendsService(trendsStore, clock);
  const outbound = new OutboundClient({ allowlist: config.outboundAllowlist });
  const webhooks = new WebhooksService({
    store: new WebhooksStore(db),
    clock,
    box,
    outbound,
    jobs,
    poke: () => worker.poke(),
    audit: (userId, actor, action, targetId, detail, executor) =>
      accounts.audit(userId, actor, action, 'webhook', targetId, detail, executor),
    publicBaseUrl: config.publicBaseUrl,
    insights: () => insightsOf(services),
  });
  registerWebhookHandlers(webhooks, events, worker);
  const stream = new StreamHub(pubsub, clock);
  await stream.start();
  registerStreamEvents(events, stream, config.publicBaseUrl);
  const recomputer = new MetricsRecomputer(trendsStore, trends, events, clock, {
    thresholds: () => webhooks.thresholds(),
    onSnapshots: (views) => {
      stream
        .publishMany(trendUpdates(views))
        .catch((error) => app.log.warn({ err: error }, 'trend updates not published'));
    },
  });
  const crisisDetector = new CrisisDetector(new CrisisStore(db), events, clock, config);
  const crisis = new CrisisService(new CrisisStore(db), crisisDetector, clock, config);
  const engine = new TrendEngine(trendProcessor, recomputer, trendsStore, clock, {
    retention: config.retention,
    pruneSignals: (before) => signalsStore.pruneProcessedBefore(before),
    onEvents: () => worker.poke(),
    afterPass: async () => {
      if ((await crisisDetector.run()) > 0) worker.poke();
    },
  });
  const signals = new SignalsService(signalsStore, clock);
  const sources = new SourceRunner({
    sources: createSources(config, clock.now(), {
      hazards: (observations) => crisisDetector.recordHazards(observations),
    }),
    store: new SourceStateStore(db),
    signals,
    clock,
    workerId: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    log: app.log,
  });
  // Status components beyond the platform's: each source, the LLM provider, each release feed.
  for (const [name, check] of sourceChecks(sources)) status.register(name, check);
  const llm = llmCheck(config.llm, clock);
  if (llm) status.register('llm', llm);
  const changelog = loadChangelog();
  if (changelog.error) app.log.warn({ error: changelog.error }, 'CHANGELOG.md could not be read');
  const releases = new ReleasesService({
    store: new ReleaseFeedStore(db),
    clock,
    changelog: changelog.releases,
    feeds: feedNames(config.feeds.releaseFeeds, status.names()),
    log: app.log,
  });
  for (const feed of releases.feeds) status.register(feed.name, () => releases.check(feed.name));
  // Every request to the user-given workflow tool URL goes through the SSRF-guarded client.
  const workflow = new WorkflowService({
    store: new WorkflowStore(db),
    client: new N8nClient(outbound, `Crestwatch-Workflow/${API_VERSION}`),
    outbound,
    box,
    clock,
    jobs,
    accounts,
    crisis: () => crisis,
    onQueued: () => worker.poke(),
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
    crisis,
    // The insights module may not be wired in every build; looked up when a preview needs it.
    insights: {
      latestFor: async (userId, trendId) =>
        (await insightsOf(services)?.latestFor?.(userId, trendId)) ?? null,
      offlineInsight: async (trendId) => (await insightsOf(services)?.offlineInsight?.(trendId)) ?? null,
    },
    log: app.log,
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
    blog: new BlogService(new BlogStore(db), clock),
    releases,
    metrics,
    signals,
    sources,
    trendProcessor,
    trends,
    events,
    interests: new InterestsService(new InterestsStore(db), clock),
    insights: new InsightsService({
      store: new InsightsStore(db, dialect),
      trends,
      jobs,
      clock,
      plans: config.plans,
      llm: config.llm.baseUrl
        ? new LlmProvider({ baseUrl: config.llm.baseUrl, apiKey: config.llm.apiKey, model: config.llm.model })
        : null,
      onEnqueued: () => worker.poke(),
    }),
    recomputer,
    engine,
    crisis,
    workflow,
    integrations,
    outbound,
    webhooks,
    stream,
  };
  app.decorate('services', services);
  services.insights.register(worker);
  app.setValidatorCompiler(validatorCompiler);

  // JSON only: anything else is a 415. An empty body is "no body", for routes that take none.
  app.removeAllContentTypeParsers();
  const parseJson = (
    _req: unknown,
    body: string | Buffer,
    done: (err: Error | null, body?: unknown) => void,
  ) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, sjson.parse(text, rejectNul, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      if (error instanceof ApiError) return done(error, undefined);
      const reason = error instanceof SyntaxError ? ` (${error.message.slice(0, 200)})` : '';
      done(new ApiError(400, 'invalid_json', `The request body is not valid JSON${reason}.`), undefined);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  app.addContentTypeParser(/^application\/[\w.+-]+\+json$/, { parseAs: 'string' }, parseJson);

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback-style hooks: they run on every request, and skip a promise each.
  const overload = new OverloadMonitor(config.overloadEventLoopDelayMs);
  const limitUnknownRoute = hookFor(publicLimiter(limits, clock));
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    reply.header('X-Content-Type-Options', 'nosniff');
    if (closing) {
      reply.header('Connection', 'close');
      return done(unavailable('The service is shutting down; retry shortly.', 2));
    }
    if (overload.overloaded) {
      return done(
        new ApiError(503, 'overloaded', 'The service is overloaded; retry after a few seconds.', {
          headers: { 'Retry-After': 5 },
        }),
      );
    }
    // Routes carry their own access hooks; unknown routes are public and limited per IP here.
    if (request.is404) return limitUnknownRoute(request, reply, done);
    done();
  });
  app.addHook('onRoute', (route) => {
    decorateRouteSchema(route);
    const schema = route.schema as { querystring?: unknown; params?: unknown } | undefined;
    if (route.config?.optionalBody || schema?.querystring || schema?.params) {
      route.preValidation = [...asArray(route.preValidation), guardInput];
    }
  });
  registerErrorHandling(app);
  registerUpgradeGuard(app);
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
      exposedHeaders: [
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
      ],
    });
  }
  // Before any route (the docs UI's included), so every route gets its access hook.
  await app.register(authPlugin, {
    lookup: accountsStore,
    cache: keyCache,
    limits,
    usage,
    clock,
    plans: config.plans,
  });
  await app.register(idempotencyPlugin, { store: idempotency, box, clock });
  await registerOpenApi(app, config);
  registerMetrics(app, metrics, config.metricsToken);

  app.get(
    '/api/openapi.json',
    {
      config: { access: 'public' },
      schema: {
        tags: ['meta'],
        summary: 'This OpenAPI 3.1 document',
        response: { 200: { description: 'OpenAPI document', type: 'object', additionalProperties: true } },
      },
    },
    async () => app.swagger() as unknown as Record<string, unknown>,
  );

  await accountRoutes(app, services);
  await signalRoutes(app, services);
  await interestRoutes(app, services);
  await trendRoutes(app, services);
  await insightRoutes(app, services);
  await statusRoutes(app, services);
  await crisisRoutes(app, services);
  await workflowRoutes(app, services);
  await integrationRoutes(app, integrations);
  await blogRoutes(app, services);
  await releaseRoutes(app, services);
  await webhookRoutes(app, services);
  await streamRoutes(app, services, stream);
  await unavailableRoutes(app);

  const bootstrapFile = await accounts.bootstrap({
    bootstrapApiKey: config.bootstrapApiKey,
    embedded: dialect === 'sqlite',
    dataDir: config.dataDir,
  });
  if (bootstrapFile) app.log.info({ file: bootstrapFile }, `Operator API key written to ${bootstrapFile}`);

  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, task: () => Promise<unknown>, what: string) => {
    const timer = setInterval(() => {
      task().catch((error) => app.log.warn({ err: error }, `${what} failed`));
    }, ms);
    timer.unref();
    timers.push(timer);
  };
  if (background) {
    every(config.usageFlushIntervalMs, () => usage.flush(), 'usage flush');
    every(3600_000, () => idempotency.purgeExpired(), 'idempotency purge');
    every(config.statusCheckIntervalSeconds * 1000, () => status.recordChecks(), 'status checks');
    every(1000, () => engine.tick(), 'trend engine');
    if (releases.feeds.length > 0) {
      every(60_000, () => releases.refreshDue(), 'release feeds');
      void releases.refreshDue();
    }
    await sources.start();
    worker.start();
    status.recordChecks().catch((error) => app.log.warn({ err: error }, 'status checks failed'));
  }

  app.addHook('onClose', async () => {
    overload.stop();
    for (const timer of timers) clearInterval(timer);
    await releases.stop();
    await sources.stop();
    await engine.idle();
    await crisisDetector.release().catch(() => undefined);
    await nlp.close();
    await worker.stop();
    await stream.close();
    await outbound.close();
    try {
      await usage.flush();
    } catch (error) {
      app.log.error({ err: error }, 'usage flush on shutdown failed');
    }
    await pubsub.close();
    redis?.disconnect();
    await handle.close();
  });

  await app.ready();
  overload.start();
  return app;
}
