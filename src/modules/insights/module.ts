// The insights module: the offline analyzer (in a worker thread when NLP threads are on), the LLM provider,
// insight tasks (run as jobs) and search.
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Dialect } from '../../platform/db/index.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import { type Module, routes } from '../../platform/module.ts';
import type { TrendsService } from '../trends/index.ts';
import { createInsightAnalysis, type InsightAnalysis } from './analysis-pool.ts';
import { LlmProvider } from './llm.ts';
import { insightRoutes } from './routes.ts';
import { InsightsService } from './service.ts';
import { InsightsStore } from './store.ts';

interface InsightsModuleDeps {
  config: Pick<Config, 'nlpWorkerThreads' | 'plans' | 'llm'>;
  clock: Clock;
  db: DB;
  dialect: Dialect;
  jobs: JobQueue;
  worker: JobWorker;
  /** Tells the job worker that a task was queued. */
  poke: () => void;
  trends: TrendsService;
  /** Recent signals that mention a trend (the signals module's SignalsService). */
  signals: InsightsServiceOptions['signals'];
  /** A user's plan (the accounts module's AccountsService). */
  users: InsightsServiceOptions['users'];
}

type InsightsServiceOptions = ConstructorParameters<typeof InsightsService>[0];

export type InsightsModule = Module<
  {
    insights: InsightsService;
    /** The analyzer's worker thread (closed after the job worker stops). */
    analysis: InsightAnalysis;
  },
  'insights'
>;

export function createInsightsModule(deps: InsightsModuleDeps): InsightsModule {
  const { config } = deps;
  const analysis = createInsightAnalysis(config.nlpWorkerThreads > 0);
  const insights = new InsightsService({
    store: new InsightsStore(deps.db, deps.dialect),
    trends: deps.trends,
    signals: deps.signals,
    users: deps.users,
    jobs: deps.jobs,
    clock: deps.clock,
    plans: config.plans,
    llm: config.llm.baseUrl
      ? new LlmProvider({ baseUrl: config.llm.baseUrl, apiKey: config.llm.apiKey, model: config.llm.model })
      : null,
    onEnqueued: deps.poke,
    analysis,
  });
  insights.register(deps.worker);
  return {
    api: { insights, analysis },
    routes: { insights: routes(insightRoutes, { insights }) },
  };
}
