// buildApp(config, options) → a ready Fastify instance. The composition root: services and modules are built
// once (compose.ts), then registered in stages: platform plugins first (input, hooks, errors, auth, idempotency,
// OpenAPI, metrics), then every module's route plugins, bound to their options, in ROUTE_ORDER.
import { hostname } from 'node:os';
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { type Composition, composeServices, type RouteKey, type ServiceOverrides } from './compose.ts';
import type { Config } from './config.ts';
import type { Database } from './database.ts';
import { migrateAppToLatest } from './migrations.ts';
import { backgroundCheck } from './modules/content/index.ts';
import { webhookEventsDocument } from './modules/webhooks/index.ts';
import { authPlugin, hookFor, publicLimiter } from './platform/auth.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import { loadOrCreateSecretKey, SecretBox } from './platform/crypto.ts';
import { type DatabaseHandle, isDatabaseUnavailable, openDatabase } from './platform/db/index.ts';
import { answerClientError, registerErrorHandling, sendProblem } from './platform/error-handler.ts';
import { ApiError, unavailable } from './platform/errors.ts';
import { type App, asArray } from './platform/http.ts';
import { idempotencyPlugin } from './platform/idempotency.ts';
import { requestId } from './platform/ids.ts';
import { declareNoInput, guardInput, registerJsonBodies } from './platform/input.ts';
import { registerLeaseMetrics } from './platform/leases.ts';
import { redactUrl } from './platform/log-redaction.ts';
import { outageLogHook } from './platform/log-throttle.ts';
import { registerMetrics } from './platform/metrics.ts';
import { routesInOrder } from './platform/module.ts';
import { decorateRouteSchema, registerOpenApi } from './platform/openapi.ts';
import { OverloadMonitor } from './platform/overload.ts';
import { LocalPubSub, type PubSub, RedisPubSub } from './platform/pubsub.ts';
import { declareQueryAliases } from './platform/query.ts';
import { connectRedis, isRedisUnavailable } from './platform/redis.ts';
import { SHARED_SCHEMAS } from './platform/schemas.ts';
import { buildSerializer } from './platform/serialization.ts';
import { closeRefusedUpgrade, registerUpgradeGuard } from './platform/upgrade.ts';
import { buildValidator } from './platform/validation.ts';

export type { ServiceOverrides } from './compose.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Flushes usage counted in memory and gives up the leases this instance holds; safe to call at any time and
     * more than once. `close()` does it; the process entry calls it too when shutdown overruns its deadline.
     */
    persistBeforeExit(): Promise<void>;
  }
}

interface BuildOptions {
  clock?: Clock;
  /** Pino options, or false for silence (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Timers and the job worker; tests that drive them by hand turn this off. */
  background?: boolean;
  /** Stand-ins for services a test replaces (never set in production). */
  overrides?: ServiceOverrides;
}

const MIB = 1024 * 1024;
/** While closing, how often connections that have become idle are closed. */
const IDLE_SWEEP_MS = 50;

/** While a dependency is away, each background failure message is logged once per this window. */
const OUTAGE_LOG_WINDOW_MS = 10_000;

export function loggerOptions(config: Config, now: () => number = Date.now): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    hooks: {
      logMethod: outageLogHook(
        (error) => isDatabaseUnavailable(error) || isRedisUnavailable(error),
        OUTAGE_LOG_WINDOW_MS,
        now,
      ),
    },
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
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}

/** Trust the nearest `hops` proxies (proxy-addr's hop count, as a function: Fastify's types take no number). */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

function createServer(config: Config, options: BuildOptions): App {
  return Fastify({
    logger: options.logger ?? loggerOptions(config, options.clock && (() => options.clock!.now())),
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
    clientErrorHandler: answerClientError,
    forceCloseConnections: 'idle',
    // Behind a load balancer, request.ip (per-IP limits, failed-authentication lockout, logs) is the client's
    // address from X-Forwarded-For, as far as the configured proxies vouch for it.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    routerOptions: { maxParamLength: 500 },
    // As a factory, not setValidatorCompiler: a module adding its own schemas would otherwise get a default Ajv.
    schemaController: { compilersFactory: { buildValidator, buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();
}

/** Stage 1: what every route relies on, registered before any route. */
async function registerPlatform(
  app: App,
  { services, accountsStore }: Composition,
  overload: OverloadMonitor,
): Promise<void> {
  const { config, clock, limits, keyCache, usage, idempotency, box, metrics } = services;
  registerJsonBodies(app);

  let closing = false;
  let idleSweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing = true;
    // Fastify closes the connections idle when close starts; a keep-alive connection whose request was in
    // flight then would sit idle until its keep-alive timeout and hold server.close() past the deadline.
    idleSweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    idleSweep.unref();
  });
  app.addHook('onClose', async () => clearInterval(idleSweep));
  // Answers finished while closing tell the client not to reuse the connection.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
  // Callback-style hooks: they run on every request, and skip a promise each.
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
    // First, so the document lists the 400 a route without declared input can now answer.
    declareNoInput(route);
    declareQueryAliases(route);
    decorateRouteSchema(route);
    const schema = route.schema as { querystring?: unknown; params?: unknown } | undefined;
    if (route.config?.optionalBody || route.config?.noBody || schema?.querystring || schema?.params) {
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
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await registerOpenApi(app, config, webhookEventsDocument());
  registerMetrics(app, metrics, config.metricsToken);
}

/**
 * The order modules' routes are registered in: it is the OpenAPI document's order of paths and tags, so it is
 * fixed here rather than following the order modules are built in. MCP comes last: its tools take their input
 * schemas from the routes before it.
 */
const ROUTE_ORDER: readonly RouteKey[] = [
  'accounts.accounts',
  'signals.signals',
  'accounts.interests',
  'trends.trends',
  'insights.insights',
  'content.status',
  'crisis.crisis',
  'integrations.workflow',
  'integrations.integrations',
  'content.blog',
  'content.releases',
  'webhooks.webhooks',
  'stream.stream',
  'unavailable.unavailable',
  'organisations.organisations',
  'recommendations.recommendations',
  'notifications.notifications',
  'exports.exports',
  'reports.reports',
  'web.web',
  'mcp.mcp',
];

/** Stage 2: each module's route plugins, encapsulated, bound to exactly the services they use. */
async function registerModules(app: App, routes: Composition['routes']): Promise<void> {
  for (const plugin of routesInOrder(routes, ROUTE_ORDER)) await plugin.register(app);
}

async function connectPubSub(config: Config): Promise<{ redis?: Redis; pubsub: PubSub }> {
  if (!config.redisUrl) return { pubsub: new LocalPubSub() };
  const redis = await connectRedis(config.redisUrl, 'main');
  const subscriber = await connectRedis(config.redisUrl, 'subscriber');
  return { redis, pubsub: new RedisPubSub(redis, subscriber, config.redisKeyPrefix) };
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const clock = options.clock ?? systemClock;
  const background = options.background ?? true;
  const handle: DatabaseHandle<Database> = openDatabase<Database>(config.database, { reader: true });
  try {
    await migrateAppToLatest(handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
  const box = new SecretBox(config.secretKey ?? loadOrCreateSecretKey(config.dataDir));
  const { redis, pubsub } = await connectPubSub(config);

  const app = createServer(config, options);
  if (background) {
    handle.checkpointInBackground({
      onError: (error) =>
        app.log.error({ err: error }, 'the WAL checkpoint thread failed; commits checkpoint again'),
    });
  }
  const composition = await composeServices({
    config,
    clock,
    handle,
    box,
    redis,
    pubsub,
    log: app.log,
    overrides: options.overrides,
  });
  const { services, nlp, insightAnalysis } = composition;
  app.decorate('services', services);

  const overload = new OverloadMonitor(config.overloadEventLoopDelayMs);
  app.addHook('onRoute', (route) => composition.catalogue.record(route));
  await registerPlatform(app, composition, overload);
  await registerModules(app, composition.routes);

  const {
    accounts,
    usage,
    idempotency,
    status,
    engine,
    releases,
    sources,
    worker,
    stream,
    outbound,
    singletons,
  } = services;
  const bootstrapFile = await accounts.bootstrap({
    bootstrapApiKey: config.bootstrapApiKey,
    embedded: handle.dialect === 'sqlite',
    dataDir: config.dataDir,
  });
  if (bootstrapFile) app.log.info({ file: bootstrapFile }, `Operator API key written to ${bootstrapFile}`);

  const timers: NodeJS.Timeout[] = [];
  // A loop with a lease name runs on one instance at a time (whichever holds the lease); the rest on each.
  const every = (ms: number, task: () => Promise<unknown>, what: string, lease?: string) => {
    if (lease) singletons.register(lease);
    const run = lease ? () => singletons.run(lease, task) : task;
    const timer = setInterval(() => {
      run().catch((error) => app.log.warn({ err: error }, `${what} failed`));
    }, ms);
    timer.unref();
    timers.push(timer);
    return run;
  };
  registerLeaseMetrics(services.metrics.registry, singletons, [sources], hostname());
  if (background) {
    every(config.usageFlushIntervalMs, () => usage.flush(), 'usage flush');
    every(3600_000, () => idempotency.purgeExpired(), 'idempotency purge', 'idempotency-purge');
    const recordChecks = every(
      config.statusCheckIntervalSeconds * 1000,
      () => status.recordChecks(),
      'status checks',
      'status-checks',
    );
    engine.start(1000, (error) => app.log.warn({ err: error }, 'trend engine failed'));
    // The NLP threads load their model now, not when the first signals are waiting for them.
    nlp.warm().catch((error) => app.log.warn({ err: error }, 'NLP threads failed to start'));
    every(60_000, () => services.dataExports.scheduleDue(), 'scheduled exports', 'scheduled-exports');
    const noticeExpiringKeys = every(
      3600_000,
      () => services.notifications.checkExpiringKeys(),
      'key expiry notices',
      'key-expiry-notices',
    );
    const refreshReleases =
      releases.feeds.length > 0
        ? every(60_000, () => releases.refreshDue(), 'release feeds', 'release-feeds')
        : null;
    // Takes the free leases before the loops first run, so the first instance up runs them at once.
    await singletons.start();
    status.register('background', () => backgroundCheck(singletons));
    if (refreshReleases)
      void refreshReleases().catch((error) => app.log.warn({ err: error }, 'release feeds failed'));
    await sources.start();
    worker.start();
    recordChecks().catch((error) => app.log.warn({ err: error }, 'status checks failed'));
    noticeExpiringKeys().catch((error) => app.log.warn({ err: error }, 'key expiry notices failed'));
  }

  // What must reach the database before the process ends, however the shutdown goes: the usage counted in
  // memory, and the leases this instance holds (so another takes over at once, not when they expire).
  const persist = async () => {
    const outcomes = await Promise.allSettled([usage.flush(), singletons.release()]);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        app.log.error({ err: outcome.reason }, 'persisting on shutdown failed');
    }
  };
  app.decorate('persistBeforeExit', persist);

  app.addHook('onClose', async () => {
    overload.stop();
    for (const timer of timers) clearInterval(timer);
    // First: every request has been answered by now, and nothing below may stand between the counts and
    // the database. No background loop starts another pass here; the leases are given up once the passes
    // under way have ended, so another instance never runs one alongside them.
    singletons.stop();
    // A failure keeps the counts for the flush below, which reports it.
    await usage.flush().catch(() => undefined);
    await releases.stop();
    await sources.stop();
    engine.stop();
    await engine.idle();
    await nlp.close();
    await worker.stop();
    // After the job worker: an insight task under way finishes its analysis first.
    await insightAnalysis.close();
    await stream.close();
    await outbound.close();
    // Deliveries count no usage; what the passes above counted is flushed with the leases given up.
    await persist();
    await pubsub.close();
    redis?.disconnect();
    await handle.close();
  });

  await app.ready();
  overload.start();
  return app;
}
