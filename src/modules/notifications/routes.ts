// /api/user/notifications (the in-app feed) and the dashboard overview (/dashboard/overview, as upstream serves
// it, and /api/dashboard/overview).
import { requirePrincipal } from '../../platform/auth.ts';
import type { App } from '../../platform/http.ts';
import { TrendItemSchema } from '../trends/index.ts';
import {
  DashboardOverviewSchema,
  MarkReadBody,
  MarkReadResponse,
  NotificationListResponse,
  NotificationSchema,
  OverviewQuery,
  RecentQuery,
} from './schemas.ts';
import type { NotificationsService } from './service.ts';

const read = { access: { permission: 'read' as const } };
const write = { access: { permission: 'write' as const } };

const OVERVIEW_DESCRIPTION =
  'Key numbers, top trends and your newest notices in one answer. `stats.active_trends`: trends with mentions ' +
  'in the last 24 hours (the `total` of `GET /api/trends`); `stats.alerts_today`: your notices created since ' +
  '00:00 UTC; `stats.topic_interests`: your interests; `stats.avg_growth`: the mean 24-hour growth (%) of ' +
  '`top_trends` that have one, or null. `top_trends`: up to 5 trends by 24-hour volume, those matching your ' +
  'interests first. `recent_alerts`: your 5 newest notices. Served at `/dashboard/overview` (upstream’s path) ' +
  'and `/api/dashboard/overview`.';

export async function notificationRoutes(
  app: App,
  { notifications }: { notifications: NotificationsService },
): Promise<void> {
  app.addSchema(NotificationSchema);
  // The trends module's TrendItem, registered in this plugin's scope too (plugins do not see each other's).
  app.addSchema(TrendItemSchema);

  app.get(
    '/api/user/notifications/recent',
    {
      config: read,
      schema: {
        tags: ['notifications'],
        summary: 'Your newest notifications',
        description:
          'Your in-app feed, newest first, with the count of all your unread notices. Notices are made from ' +
          'the same events as webhooks: a trend matching one of your interests (whole words) crossing velocity ' +
          '50, 75 or 90 (at most one per trend, level and UTC day; `volume_above`/`growth_above` interests only ' +
          'when their threshold holds), your crisis events opening, escalating or subsiding, your scheduled ' +
          'exports finishing or failing, and your API keys expiring within 7 days. Each is created once, however ' +
          'often its event is delivered. The feed keeps your newest 1,000 notices, none older than 90 days.',
        querystring: RecentQuery,
        response: { 200: NotificationListResponse },
      },
    },
    async (request) => notifications.recent(requirePrincipal(request).userId, request.query.limit ?? 10),
  );

  app.post(
    '/api/user/notifications/mark-read',
    {
      config: write,
      schema: {
        tags: ['notifications'],
        summary: 'Mark notifications read',
        description:
          'Marks the given notices read (`read_at` set once). All or nothing: an id that is not one of your ' +
          'notices (another user’s, or one no longer kept) → 404 `notification_not_found` naming it, and none ' +
          'is marked. Ids already read are accepted and not counted in `updated`.',
        body: MarkReadBody,
        response: { 200: MarkReadResponse },
      },
    },
    async (request) => notifications.markRead(requirePrincipal(request).userId, request.body.ids),
  );

  for (const url of ['/dashboard/overview', '/api/dashboard/overview']) {
    app.get(
      url,
      {
        config: read,
        schema: {
          tags: ['dashboard'],
          summary: 'Dashboard overview: stats, top trends and recent alerts',
          description: OVERVIEW_DESCRIPTION,
          querystring: OverviewQuery,
          response: { 200: DashboardOverviewSchema },
        },
      },
      async (request) => notifications.overview(requirePrincipal(request).userId),
    );
  }
}
