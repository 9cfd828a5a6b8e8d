// Trend routes: the list, one trend, its analytics, autocomplete and the category taxonomy.
import { requirePrincipal } from '../../platform/auth.ts';
import { badRequest } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { commaList } from '../../platform/query.ts';
import {
  AnalyticsQuery,
  AnalyticsResponse,
  AutocompleteQuery,
  AutocompleteResponse,
  CategoryListResponse,
  TrendDetailQuery,
  TrendIdParams,
  TrendItemSchema,
  TrendListQuery,
  TrendListResponse,
} from './schemas.ts';
import type { TrendsService } from './service.ts';

const SENTIMENT_CATEGORIES = ['positive', 'negative', 'neutral', 'mixed'] as const;

interface TrendRoutesOptions {
  trends: TrendsService;
  /** Resolves the `interest` filter: one of the caller's interests (404 for anyone else's). */
  interests: { get(userId: number, id: number): Promise<{ key: string }> };
}

export async function trendRoutes(app: App, { trends, interests }: TrendRoutesOptions): Promise<void> {
  const read = { access: { permission: 'read' as const } };
  app.addSchema(TrendItemSchema);

  app.get(
    '/api/trends',
    {
      config: read,
      schema: {
        tags: ['trends'],
        summary: 'Trends with their metrics, filtered, sorted and paged',
        description:
          'Trends with at least one mention in the period (default 24h), from metric snapshots kept at most ' +
          'a few seconds behind ingestion. `start_date`/`end_date` (whole UTC days) replace `period`, which ' +
          '`meta` then reports as `custom`; such ranges are computed from the hourly buckets. `meta` echoes ' +
          'every parameter with its default. Formulas: docs/metrics.md.',
        querystring: TrendListQuery,
        response: { 200: TrendListResponse },
      },
    },
    async (request, reply) => {
      // Upstream's names (`sort_dir`, `page`, `startDate`, …) arrive as ours (platform/query.ts).
      const { interest, interests: interestList, exclude_sentiment, ...rest } = request.query;
      const query = {
        ...rest,
        limit: rest.limit ?? 20,
        interests: commaList(interestList, 'query.interests'),
        exclude_sentiment: commaList(exclude_sentiment, 'query.exclude_sentiment', {
          allowed: SENTIMENT_CATEGORIES,
        }),
      };
      const interestKey =
        interest === undefined
          ? undefined
          : (await interests.get(requirePrincipal(request).userId, interest)).key;
      reply.type('application/json; charset=utf-8');
      // Serialised by this route's response schema (the service keeps a period's body until the next
      // recompute pass): sent as it is.
      const body = await trends.listBody(
        { ...query, interest, interestKey },
        (list) => reply.serialize(list) as string,
      );
      return reply.send(body as never);
    },
  );

  app.get(
    '/api/trends/autocomplete',
    {
      config: read,
      schema: {
        tags: ['trends'],
        summary: 'Trend names starting with a prefix',
        description:
          'Prefix matches on the normalised name (`#Open` finds `OpenAI`), largest 24-hour volume first.',
        querystring: AutocompleteQuery,
        response: { 200: AutocompleteResponse },
      },
    },
    async (request) => {
      const { query: text, limit } = request.query;
      if (text === undefined)
        throw badRequest('query.query is required (upstream clients send it as q).', 'query.query');
      return trends.autocomplete(text, limit);
    },
  );

  app.get(
    '/api/trends/categories',
    {
      config: read,
      schema: {
        tags: ['trends'],
        summary: 'The category taxonomy with trend counts',
        description:
          'Every category, those without trends included (`trend_count` 0). Names are slash paths.',
        response: { 200: CategoryListResponse },
      },
    },
    async () => trends.categories(),
  );

  app.get(
    '/api/trends/:trend_id',
    {
      config: read,
      schema: {
        tags: ['trends'],
        summary: 'One trend with its metrics',
        description:
          'Computed from the hourly buckets at the time of the request, over `period` (default 24h), with the ' +
          'formulas in docs/metrics.md.',
        params: TrendIdParams,
        querystring: TrendDetailQuery,
        response: { 200: { $ref: 'TrendItem#' } },
      },
    },
    async (request) => trends.get(request.params.trend_id, request.query.period),
  );

  app.get(
    '/api/trends/:trend_id/analytics',
    {
      config: read,
      schema: {
        tags: ['trends'],
        summary: 'A trend’s volume over time',
        description:
          '`data` covers the window: minutes of the current hour for 1h, hours for 24h and 7d (and ranges of ' +
          'up to 7 days), days beyond. The points add up to `current_volume`.',
        params: TrendIdParams,
        querystring: AnalyticsQuery,
        response: { 200: AnalyticsResponse },
      },
    },
    async (request) => trends.analytics(request.params.trend_id, request.query),
  );
}
