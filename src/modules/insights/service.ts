// AI insights: generate/analyze tasks on the job table, the offline analyzer (optionally improved by an
// LLM), monthly generation limits, the caller's latest insight and insight search.
import { randomUUID } from 'node:crypto';
import { type Clock, DAY_MS, nextUtcMonthStart } from '../../platform/clock.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import type { JobContext, JobQueue, JobWorker } from '../../platform/jobs/index.ts';
import type { PlanTable } from '../../platform/plans.ts';
import { normaliseKey, normaliseTokens } from '../text/index.ts';
import { requireCategory, type TrendsService } from '../trends/index.ts';
import { createInsightAnalysis, type InsightAnalysis } from './analysis-pool.ts';
import type { AIInsight, AnalyzerSignal } from './analyzer.ts';
import { LlmError, type LlmProvider, mergeReply } from './llm.ts';
import type { InsightRow, InsightsStore, SearchFilter, TaskRow } from './store.ts';

const INSIGHT_JOB = 'insights.task';
type TaskKind = 'generate' | 'analyze';
type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed';

const WINDOW_DAYS = 7;
const SAMPLE_LIMIT = 500;
const CANDIDATE_LIMIT = 2000;
const SURFACES = 8;
const MAX_ATTEMPTS = 3;

interface TaskAccepted {
  task_id: string;
  status: 'queued' | 'running';
  message: string;
}

interface SearchMeta {
  total: number;
  limit: number;
  offset: number;
  q: string | null;
  key_theme: string | null;
  audience_keyword: string | null;
  sentiment_category: string | null;
  topic_category: string | null;
  trend_name: string | null;
}

/** Recent signals that mention a trend (the signals module's SignalsService). */
interface SignalSearch {
  containing(
    needles: string[],
    since: number,
    limit: number,
  ): Promise<(AnalyzerSignal & { keywords: string | null })[]>;
}

interface InsightsServiceOptions {
  store: InsightsStore;
  /** Trends, their surface forms and snapshots: read and marked out of date through the trends module. */
  trends: TrendsService;
  signals: SignalSearch;
  /** A user's plan when the caller does not know it (the accounts module's AccountsService). */
  users: { planOf(userId: number): Promise<string | undefined> };
  jobs: JobQueue;
  clock: Clock;
  plans: PlanTable;
  llm?: LlmProvider | null;
  /** Called after a task was enqueued and committed (the in-process worker polls at once). */
  onEnqueued?: () => void;
  /** Where the offline analysis runs (a worker thread in the server); the calling thread by default. */
  analysis?: InsightAnalysis;
}

function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

function containsTokens(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

export class InsightsService {
  private readonly store: InsightsStore;
  private readonly trends: TrendsService;
  private readonly signals: SignalSearch;
  private readonly users: InsightsServiceOptions['users'];
  private readonly jobs: JobQueue;
  private readonly clock: Clock;
  private readonly plans: PlanTable;
  private readonly llm: LlmProvider | null;
  private readonly onEnqueued: () => void;
  private readonly analysis: InsightAnalysis;

  constructor(options: InsightsServiceOptions) {
    this.store = options.store;
    this.trends = options.trends;
    this.signals = options.signals;
    this.users = options.users;
    this.jobs = options.jobs;
    this.clock = options.clock;
    this.plans = options.plans;
    this.llm = options.llm ?? null;
    this.onEnqueued = options.onEnqueued ?? (() => undefined);
    this.analysis = options.analysis ?? createInsightAnalysis(false);
  }

  register(worker: JobWorker): void {
    worker.register<{ task_id: string }>(INSIGHT_JOB, (job) => this.runTask(job));
  }

  private async requireTrend(trendId: number) {
    const trend = await this.trends.find(trendId);
    if (!trend) throw notFound(`No trend has id ${trendId}.`);
    return trend;
  }

  private limitOf(plan: string): number | null {
    const p = this.plans[plan as keyof PlanTable];
    return p ? p.insight_generations_per_month : null;
  }

  /** Generations charged to the user this UTC month, and the plan's limit (null = unlimited). */
  async usage(userId: number, plan?: string): Promise<{ count: number; limit: number | null }> {
    const planName = plan ?? (await this.users.planOf(userId)) ?? 'developer';
    const count = await this.store.chargedSince(userId, monthStart(this.clock.now()));
    return { count, limit: this.limitOf(planName) };
  }

  private withUsage(row: InsightRow, usage: { count: number; limit: number | null }): AIInsight {
    const insight = JSON.parse(row.content) as AIInsight;
    return { ...insight, usage_count: usage.count, usage_limit: usage.limit };
  }

  /** The caller's latest stored insight for the trend (null when none), with this month's usage. */
  async latestFor(userId: number, trendId: number, plan?: string): Promise<AIInsight | null> {
    const row = await this.store.latestInsight(userId, trendId);
    if (!row) return null;
    return this.withUsage(row, await this.usage(userId, plan));
  }

  /** GET …/ai-insights: 404 for an unknown trend, null when the caller has none yet. */
  async get(userId: number, trendId: number, plan: string): Promise<AIInsight | null> {
    await this.requireTrend(trendId);
    return this.latestFor(userId, trendId, plan);
  }

  /**
   * Queues a generate or analyze task. A pending task of the same user, trend and kind is returned as it
   * is (not charged again) unless `forceRefresh`; otherwise the task counts against the monthly limit (429
   * when spent).
   */
  async request(
    userId: number,
    plan: string,
    trendId: number,
    kind: TaskKind,
    options: { forceRefresh?: boolean } = {},
  ): Promise<TaskAccepted> {
    await this.requireTrend(trendId);
    const limit = this.limitOf(plan);
    const now = this.clock.now();
    const result = await this.store.transaction(async (trx) => {
      await this.store.lockUser(userId, trx);
      const pending = options.forceRefresh
        ? undefined
        : await this.store.pendingTask(userId, trendId, kind, trx);
      if (pending) return { task: pending, created: false };
      if (limit !== null) {
        const used = await this.store.chargedSince(userId, monthStart(now), trx);
        if (used >= limit) {
          const reset = nextUtcMonthStart(now);
          throw new ApiError(
            429,
            'insight_limit_reached',
            `The ${plan} plan includes ${limit} AI insight generation${limit === 1 ? '' : 's'} per month and ${limit === 1 ? 'it is' : 'they are'} used up; the limit resets at the start of next month (UTC).`,
            {
              headers: {
                'Retry-After': Math.max(1, Math.ceil((reset - now) / 1000)),
                'X-RateLimit-Limit': limit,
                'X-RateLimit-Remaining': 0,
                'X-RateLimit-Reset': Math.ceil(reset / 1000),
              },
            },
          );
        }
      }
      const task: TaskRow = {
        id: randomUUID(),
        user_id: userId,
        trend_id: trendId,
        kind,
        status: 'queued',
        error: null,
        charged: 1,
        insight_id: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      };
      await this.store.insertTask(task, trx);
      await this.jobs.enqueue(trx, {
        type: INSIGHT_JOB,
        payload: { task_id: task.id },
        maxAttempts: MAX_ATTEMPTS,
      });
      return { task, created: true };
    });
    if (result.created) this.onEnqueued();
    const { task, created } = result;
    const what = kind === 'analyze' ? 'Re-analysis' : 'Insight generation';
    return {
      task_id: task.id,
      status: task.status === 'running' ? 'running' : 'queued',
      message: created
        ? `${what} queued; poll GET /api/trends/ai-insights/status/${task.id}.`
        : `${what} for this trend is already ${task.status}; this is that task (not charged again).`,
    };
  }

  async status(userId: number, taskId: string): Promise<{ status: TaskStatus; error: string | null }> {
    const task = await this.store.getTask(taskId);
    if (!task || Number(task.user_id) !== userId) throw notFound(`No analysis task has id ${taskId}.`);
    return { status: task.status as TaskStatus, error: task.error };
  }

  /** The signals behind a trend: recent ones that mention it as the trend engine would key it. */
  async signalsFor(trend: { id: number; key: string; title: string }): Promise<AnalyzerSignal[]> {
    const surfaces = await this.trends.topSurfaces(trend.id, SURFACES);
    const needles = [
      ...new Set(
        [trend.key, trend.title, ...surfaces]
          .map((s) => s.replace(/^[#@]/, '').toLowerCase().trim())
          .filter((s) => s.length >= 2),
      ),
    ];
    // A needle containing a shorter needle finds nothing more: keep the query's OR list short.
    const minimal = needles.filter((n) => !needles.some((m) => m !== n && n.includes(m)));
    const since = this.clock.now() - WINDOW_DAYS * DAY_MS;
    const rows = await this.signals.containing(minimal, since, CANDIDATE_LIMIT);
    const keyTokens = trend.key.split(' ');
    const out: AnalyzerSignal[] = [];
    for (const row of rows) {
      let keywords: unknown = null;
      try {
        keywords = row.keywords ? JSON.parse(row.keywords) : null;
      } catch {
        keywords = null;
      }
      const byKeyword =
        Array.isArray(keywords) &&
        keywords.some((k) => typeof k === 'string' && normaliseKey(k) === trend.key);
      const tokens = normaliseTokens(`${row.title ?? ''} \n ${row.text}`);
      if (!byKeyword && !containsTokens(tokens, keyTokens)) continue;
      out.push({
        text: row.text,
        title: row.title,
        source: row.source,
        observed_at: Number(row.observed_at),
        url: row.url,
        location: row.location,
        lang: row.lang,
      });
      if (out.length >= SAMPLE_LIMIT) break;
    }
    return out;
  }

  /** The offline analysis of a trend, now, neither stored nor charged (used by ad previews). */
  async offlineInsight(trendId: number): Promise<AIInsight> {
    const trend = await this.requireTrend(trendId);
    return (await this.compute(trend)).insight;
  }

  private async compute(
    trend: NonNullable<Awaited<ReturnType<TrendsService['find']>>>,
  ): Promise<{ insight: AIInsight; signals: AnalyzerSignal[] }> {
    let view = await this.trends.view(trend, '24h');
    if (view.volume === 0) view = { ...view, platforms: (await this.trends.view(trend, '7d')).platforms };
    const signals = await this.signalsFor({ id: Number(trend.id), key: trend.key, title: trend.title });
    const insight = await this.analysis.analyze({
      trend: { id: Number(trend.id), title: trend.title, key: trend.key, category: trend.category },
      // Only what the analysis reads crosses to its thread.
      metrics: {
        volume: view.volume,
        velocity_score: view.velocity_score,
        velocity_1h: view.velocity_1h,
        lifecycle_stage: view.lifecycle_stage,
        growth: view.growth,
        platforms: view.platforms,
      },
      signals,
      windowDays: WINDOW_DAYS,
      now: this.clock.now(),
    });
    return { insight, signals };
  }

  /** A simple volume forecast for the next 24 h (re-analysis): half last-hour run rate, half growth trend. */
  private forecastNote(view: { volume: number; velocity_1h: number; growth: number | null }): string {
    const factor = view.growth === null ? 1 : Math.max(0, Math.min(3, 1 + view.growth / 100));
    const forecast = Math.round(0.5 * view.velocity_1h * 24 + 0.5 * view.volume * factor);
    return `Forecast: about ${forecast} mentions in the next 24 h (mean of the last hour's run rate × 24 and the last 24 h volume × its growth factor ${factor.toFixed(2)}).`;
  }

  private async runTask(job: JobContext<{ task_id: string }>): Promise<void> {
    const taskId = job.payload?.task_id;
    if (typeof taskId !== 'string') return;
    const task = await this.store.getTask(taskId);
    if (!task || task.status === 'succeeded' || task.status === 'failed') return;
    const now = this.clock.now();
    await this.store.updateTask(taskId, { status: 'running', updated_at: now });
    try {
      const trend = await this.trends.find(Number(task.trend_id));
      if (!trend) {
        await this.finish(taskId, 'failed', 'The trend no longer exists.');
        return;
      }
      if (task.kind === 'analyze') await this.trends.markDirty(Number(trend.id));
      const { insight: offline, signals } = await this.compute(trend);
      let insight = offline;
      if (this.llm) {
        try {
          const { reply, model } = await this.llm.complete(offline, signals);
          insight = mergeReply(offline, reply, model);
        } catch (error) {
          const reason = error instanceof LlmError ? error.message : 'the LLM call failed';
          insight = {
            ...offline,
            analysis_notes: `LLM fallback: ${reason}; the offline analyzer wrote this insight. ${offline.analysis_notes}`,
          };
        }
      }
      if (task.kind === 'analyze') {
        const view = await this.trends.view(trend, '24h');
        insight = { ...insight, analysis_notes: `${insight.analysis_notes} ${this.forecastNote(view)}` };
      }
      const finishedAt = this.clock.now();
      insight = {
        ...insight,
        generated_at: new Date(finishedAt).toISOString(),
        usage_count: null,
        usage_limit: null,
      };
      const themes = insight.key_themes.map((t) => t.toLowerCase());
      const audience = [
        ...(insight.audience_injection?.interest_keywords ?? []),
        ...(insight.ad_platform_targeting.primary_audience_keywords ?? []),
        ...(insight.ad_platform_targeting.secondary_audience_keywords ?? []),
      ].map((k) => String(k).toLowerCase());
      await this.store.transaction(async (trx) => {
        const insightId = await this.store.insertInsight(
          {
            user_id: Number(task.user_id),
            trend_id: Number(trend.id),
            content: JSON.stringify(insight),
            trend_name: trend.title,
            sentiment_category: insight.sentiment_category ?? 'neutral',
            topic_category: insight.overall_topic_category_llm ?? trend.category,
            themes_text: `\n${themes.join('\n')}\n`,
            audience_text: `\n${audience.join('\n')}\n`,
            llm_model_used: insight.llm_model_used ?? 'unknown',
            generated_at: finishedAt,
          },
          trx,
        );
        await this.store.updateTask(
          taskId,
          { status: 'succeeded', insight_id: insightId, updated_at: finishedAt, finished_at: finishedAt },
          trx,
        );
      });
    } catch (error) {
      // Transient trouble (database) is retried by the job; the last attempt fails the task readably.
      if (job.attempts < job.maxAttempts) {
        await this.store
          .updateTask(taskId, { status: 'queued', updated_at: this.clock.now() })
          .catch(() => undefined);
        throw error;
      }
      await this.finish(
        taskId,
        'failed',
        `The analysis failed after ${job.attempts} attempts; try again later.`,
      );
    }
  }

  private async finish(taskId: string, status: TaskStatus, error: string | null): Promise<void> {
    const now = this.clock.now();
    await this.store.updateTask(taskId, { status, error, updated_at: now, finished_at: now });
  }

  async search(
    userId: number,
    plan: string,
    filter: SearchFilter,
  ): Promise<{
    trends: (AIInsight & { id: number; title: string })[];
    total: number;
    meta: SearchMeta;
  }> {
    // Read as GET /api/trends reads `category`: a path or slug, unknown → 400; the store matches the
    // canonical path and its children.
    const topic =
      filter.topic_category === undefined
        ? undefined
        : requireCategory(filter.topic_category, 'topic_category').name;
    const { rows, total } = await this.store.search(userId, { ...filter, topic_category: topic });
    const usage = await this.usage(userId, plan);
    return {
      trends: rows.map((row) => ({ id: row.trend_id, title: row.trend_name, ...this.withUsage(row, usage) })),
      total,
      meta: {
        total,
        limit: filter.limit,
        offset: filter.offset,
        q: filter.q ?? null,
        key_theme: filter.key_theme ?? null,
        audience_keyword: filter.audience_keyword ?? null,
        sentiment_category: filter.sentiment_category ?? null,
        topic_category: filter.topic_category ?? null,
        trend_name: filter.trend_name ?? null,
      },
    };
  }
}
