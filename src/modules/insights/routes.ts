// AI insight routes: read the latest, generate, analyze, task status and search.
import Type from 'typebox';
import { requirePrincipal } from '../../platform/auth.ts';
import type { App } from '../../platform/http.ts';
import { StrictObject } from '../../platform/schemas.ts';
import { TrendIdParams } from '../trends/index.ts';
import {
  AIInsightSchema,
  AnalysisResponseSchema,
  MaybeInsight,
  SearchQuery,
  SearchResponse,
  TaskAcceptedSchema,
  TaskIdParams,
  TaskStatusSchema,
} from './schemas.ts';
import type { InsightsService } from './service.ts';

// The body may be omitted; `force_refresh` is upstream's one field.
const GenerateBody = StrictObject(
  {
    force_refresh: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          '`true` always queues a new task (charged), even while one of yours for this trend is queued or ' +
          'running; `false` returns that pending task instead (not charged).',
      }),
    ),
  },
  { description: 'Optional; may be omitted.' },
);

export async function insightRoutes(app: App, { insights }: { insights: InsightsService }): Promise<void> {
  const read = { access: { permission: 'read' as const } };
  const write = { access: { permission: 'write' as const }, optionalBody: true };
  app.addSchema(AIInsightSchema);

  app.get(
    '/api/trends/ai-insights/status/:task_id',
    {
      config: read,
      schema: {
        tags: ['insights'],
        summary: 'Status of an insight or analysis task',
        description:
          '`queued` → `running` → `succeeded` | `failed` (with a readable `error`). Tasks of other users are 404.',
        params: TaskIdParams,
        response: { 200: TaskStatusSchema },
      },
    },
    async (request) => insights.status(requirePrincipal(request).userId, request.params.task_id),
  );

  app.get(
    '/api/trends/:trend_id/ai-insights',
    {
      config: read,
      schema: {
        tags: ['insights'],
        summary: 'Your latest AI insight for a trend',
        description:
          'The newest insight you generated for the trend, with `usage_count`/`usage_limit` for this UTC month; ' +
          'JSON `null` when you have none yet. Unknown trend → 404.',
        params: TrendIdParams,
        response: { 200: MaybeInsight },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      return insights.get(principal.userId, request.params.trend_id, principal.plan);
    },
  );

  app.post(
    '/api/trends/:trend_id/ai-insights/generate',
    {
      config: write,
      schema: {
        tags: ['insights'],
        summary: 'Generate an AI insight for a trend',
        description:
          'Queues a generation (offline analyzer, or the configured LLM with offline fallback) and answers 202 ' +
          'with the task to poll. Counts against your plan’s monthly generations: when spent, 429 ' +
          '`insight_limit_reached` whose rate-limit headers describe the monthly limit (Reset = start of next ' +
          'month). While one of yours is queued or running for the trend, that task is returned and not charged ' +
          '(unless `force_refresh` is true).',
        params: TrendIdParams,
        body: GenerateBody,
        response: { 202: TaskAcceptedSchema },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const accepted = await insights.request(
        principal.userId,
        principal.plan,
        request.params.trend_id,
        'generate',
        { forceRefresh: request.body.force_refresh },
      );
      return reply.code(202).send(accepted);
    },
  );

  app.post(
    '/api/trends/:trend_id/analyze',
    {
      config: write,
      schema: {
        tags: ['insights'],
        summary: 'Re-analyze a trend',
        description:
          'A full re-analysis: the trend’s metric snapshots are refreshed, a 24-hour volume forecast is added to ' +
          '`analysis_notes`, and a new insight is stored. Counts as a generation like `…/ai-insights/generate`; ' +
          'poll the status at `/api/trends/ai-insights/status/{task_id}`.',
        params: TrendIdParams,
        body: GenerateBody,
        response: { 202: AnalysisResponseSchema },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const accepted = await insights.request(
        principal.userId,
        principal.plan,
        request.params.trend_id,
        'analyze',
        { forceRefresh: request.body.force_refresh },
      );
      return reply.code(202).send({ task_id: accepted.task_id, status: accepted.status });
    },
  );

  app.get(
    '/api/insights/search',
    {
      config: read,
      schema: {
        tags: ['insights'],
        summary: 'Search your AI insights',
        description:
          'Your latest insight per trend matching every filter given, newest first. Text filters are ' +
          'case-insensitive substring matches; `topic_category` (a category name or slug, as `category` on ' +
          '`GET /api/trends`) matches the category and its children, and an unknown one is a 400.',
        querystring: SearchQuery,
        response: { 200: SearchResponse },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const { limit = 20, offset = 0, ...filters } = request.query;
      // Upstream's SDK sends its one search term as `q`.
      return insights.search(principal.userId, principal.plan, { ...filters, limit, offset });
    },
  );
}
