// The trends module: the pipeline (processor, recompute, engine) and the trend API. It subscribes its engine to
// the signals module's stored-signals notice, and publishes what others build on: the snapshots each recompute
// writes, steps to run after each engine pass, and the velocity levels it watches (VelocityLevels).
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Dialect } from '../../platform/db/index.ts';
import type { EventRecorder } from '../../platform/events.ts';
import { Hooks, Listeners, type Module, routes } from '../../platform/module.ts';
import type { NlpPool } from '../text/index.ts';
import { type CandidatePool, MemoryCandidates, registerCandidateMetrics } from './candidates.ts';
import { RedisCandidates } from './candidates-redis.ts';
import { TrendEngine } from './engine.ts';
import type { TrendEvents } from './events.ts';
import { RedisEvidence } from './evidence-store.ts';
import { type VelocityLevelSource, VelocityLevels } from './levels.ts';
import { type SignalQueue, TrendProcessor } from './processor.ts';
import { MetricsRecomputer } from './recompute.ts';
import { trendRoutes } from './routes.ts';
import { type TrendItemView, TrendsService } from './service.ts';
import { TrendsStore } from './store.ts';

interface TrendsModuleDeps {
  config: Pick<Config, 'retention' | 'redisKeyPrefix' | 'trendCandidates'>;
  clock: Clock;
  db: DB;
  dialect: Dialect;
  /** The connection for reads that serve requests. */
  reader: DB;
  /** Evidence units are shared through Redis when it is configured (several instances process signals). */
  redis?: Redis;
  nlp: NlpPool;
  events: EventRecorder<TrendEvents>;
  /** Tells the job worker that events were recorded. */
  poke: () => void;
  /** Runs a loop on one instance at a time (the lease's holder). */
  exclusive: <T>(name: string, task: () => Promise<T>) => Promise<T | undefined>;
  log: { warn(details: object, message: string): void };
  /** How long one pass works on pending signals (the engine's default when undefined). */
  drainBudgetMs?: number;
  signals: {
    onPending(listener: () => void): unknown;
    pruneProcessedBefore(before: number): Promise<unknown>;
    /** Pending signals, claimed in the processor's transaction (the signals module's store). */
    store: SignalQueue;
  };
  /** Where the candidates' fill, promotions and evictions are reported (/metrics). */
  registry?: Registry;
  /** Resolves the trend list's `interest` filter. */
  interests: {
    get(userId: number, id: number): Promise<{ key: string }>;
    /** Every user's active interests: posts naming one count towards its trend at once. */
    watched(): Promise<{ key: string; keyword: string }[]>;
  };
}

export type TrendsModule = Module<
  {
    trends: TrendsService;
    processor: TrendProcessor;
    recomputer: MetricsRecomputer;
    engine: TrendEngine;
    /** Phrases held until enough independent posts name them (their fill and evictions are in /metrics). */
    candidates: CandidatePool;
    /** `listener` receives the default-period views of each recompute batch (trends with mentions). */
    onSnapshots(listener: (views: TrendItemView[]) => unknown): () => void;
    /** Adds a step to the end of every engine pass (awaited; its failure is the pass's). */
    afterEachPass(step: () => Promise<unknown>): void;
    /** Adds levels whose upward crossing the recompute records as a velocity event. */
    watchVelocityLevels(source: VelocityLevelSource): void;
  },
  'trends'
>;

export function createTrendsModule(deps: TrendsModuleDeps): TrendsModule {
  const { config, clock, log } = deps;
  const store = new TrendsStore(deps.db, deps.dialect, deps.reader);
  const rules = {
    minPosts: config.trendCandidates.minPosts,
    capacity: config.trendCandidates.maxCandidates,
  };
  // Shared when Redis is configured: every instance's posts count towards the same candidates.
  const candidates: CandidatePool = deps.redis
    ? new RedisCandidates(deps.redis, config.redisKeyPrefix, rules)
    : new MemoryCandidates(rules);
  if (deps.registry) registerCandidateMetrics(deps.registry, candidates);
  const processor = new TrendProcessor(store, deps.signals.store, clock, deps.nlp, {
    candidates: { pool: candidates, minPosts: rules.minPosts },
    interests: () => deps.interests.watched(),
    sharedEvidence: deps.redis ? new RedisEvidence(deps.redis, config.redisKeyPrefix, clock) : undefined,
    onSharedEvidenceError: (error) =>
      log.warn(
        { err: error },
        'shared evidence (Redis) unavailable: this batch is judged by this instance alone',
      ),
  });
  const trends = new TrendsService(store, clock);
  const levels = new VelocityLevels();
  const snapshots = new Listeners<TrendItemView[]>((error) =>
    log.warn({ err: error }, 'a listener of trend snapshots failed'),
  );
  const recomputer = new MetricsRecomputer(store, trends, deps.events, clock, {
    levels,
    onSnapshots: (views) => snapshots.notify(views),
  });
  const afterPass = new Hooks();
  const engine = new TrendEngine(processor, recomputer, store, clock, {
    retention: config.retention,
    pruneSignals: (before) => deps.signals.pruneProcessedBefore(before),
    onEvents: deps.poke,
    exclusive: deps.exclusive,
    afterPass: () => afterPass.run(),
    drainBudgetMs: deps.drainBudgetMs,
  });
  deps.signals.onPending(() => engine.wake());
  return {
    api: {
      trends,
      processor,
      recomputer,
      engine,
      candidates,
      onSnapshots: (listener) => snapshots.subscribe(listener),
      afterEachPass: (step) => afterPass.add(step),
      watchVelocityLevels: (source) => levels.watch(source),
    },
    routes: { trends: routes(trendRoutes, { trends, interests: deps.interests }) },
  };
}
