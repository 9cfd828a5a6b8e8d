// Trend routes (the list, analytics and autocomplete routes come with the metric snapshots).
import type { Services } from '../../app.ts';
import type { App } from '../../platform/http.ts';
import { CategoryListResponse, TrendIdParams, TrendItemSchema } from './schemas.ts';

export async function trendRoutes(app: App, { trends }: Services): Promise<void> {
  const read = { access: { permission: 'read' as const } };

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
        summary: 'One trend with its metrics over the last 24 hours',
        description: 'Every number is computed from hourly buckets with the formulas in docs/metrics.md.',
        params: TrendIdParams,
        response: { 200: TrendItemSchema },
      },
    },
    async (request) => trends.get(request.params.trend_id),
  );
}
