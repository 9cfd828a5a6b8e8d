// Schemas of the notification feed and the dashboard overview (upstream's Notification,
// NotificationListResponse, DashboardStats and DashboardOverview).
import Type from 'typebox';
import { DateTime, Nullable, StrictObject } from '../../platform/schemas.ts';

/** The most ids one mark-read call takes. */
const MAX_MARK_IDS = 1000;

export const NotificationSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String({ description: 'One line, e.g. `OpenAI is rising fast`.' }),
    message: Type.String({ description: 'A sentence or two with the numbers behind the notice.' }),
    type: Type.String({
      description:
        'What the notice is about: `trend.alert.created` (a trend matching one of your interests crossed ' +
        'velocity 50, 75 or 90), `crisis.event.opened`, `crisis.event.escalated`, `crisis.event.resolved` ' +
        '(one of your crisis events), `export.run.finished`, `export.run.failed` (one of your scheduled ' +
        'exports) and `api_key.expiring` (one of your keys expires within 7 days).',
      examples: ['trend.alert.created'],
    }),
    is_read: Type.Boolean(),
    created_at: DateTime(),
    status: Type.Enum(['unread', 'read'], { description: '`read` once marked read; mirrors `is_read`.' }),
    read_at: Nullable(DateTime({ description: 'When it was marked read; null while unread.' })),
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'The ids and numbers behind the notice, by type: trend alerts `trend_id, trend_name, category, ' +
          'velocity, from_velocity, level, volume, severity, interests, source_link`; crisis notices ' +
          '`crisis_event_id, severity, status, impacted_entity, detected_at, source_link`; export notices ' +
          '`config_id, history_id, destination, row_count, error_message`; key notices `key_id, name, prefix, ' +
          'expires_at`. Event-fed notices also carry the domain event’s `event_id`.',
      },
    ),
  },
  { $id: 'Notification', title: 'Notification' },
);

const NotificationRef = Type.Ref('Notification');

export const RecentQuery = StrictObject({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'How many notices (1–100).' }),
  ),
});

/** The overview takes no parameters (any given → 400 naming it). */
export const OverviewQuery = StrictObject({});

export const NotificationListResponse = Type.Object(
  {
    notifications: Type.Array(NotificationRef, { description: 'Newest first.' }),
    unread_count: Type.Integer({
      description: 'All your unread notices, not only those in this answer.',
    }),
  },
  { title: 'NotificationListResponse' },
);

export const MarkReadBody = StrictObject({
  ids: Type.Array(Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }), {
    maxItems: MAX_MARK_IDS,
    description:
      `Ids of your notices (at most ${MAX_MARK_IDS}; repeats count once). An empty list marks all of your ` +
      'notices read, as upstream’s SDK sends it for `mark_notifications_read()` without ids.',
  }),
});

export const MarkReadResponse = Type.Object(
  {
    success: Type.Boolean({ description: 'Always true: a call that cannot mark every id fails as a whole.' }),
    updated: Type.Integer({
      description: 'Notices that were unread and are now read (already read: not counted).',
    }),
    unread_count: Type.Integer({ description: 'Your unread notices after the change.' }),
  },
  { title: 'MarkNotificationsReadResponse' },
);

const DashboardStatsSchema = Type.Object(
  {
    active_trends: Type.Integer({
      description:
        'Trends with at least one mention in the last 24 hours: the `total` of `GET /api/trends` (period ' +
        '24h, no filters).',
    }),
    alerts_today: Type.Integer({
      description: 'Your notices (any type) created since 00:00 UTC today.',
    }),
    topic_interests: Type.Integer({
      description: 'Your topic interests: the length of `GET /api/user/interests`.',
    }),
    avg_growth: Nullable(
      Type.Number({
        description:
          'Mean `growth` (%, 24 h vs the previous 24 h) of the trends in `top_trends` that have one, rounded ' +
          'to 2 decimals; null when none has (no top trends, or none had mentions in the previous 24 h).',
      }),
    ),
  },
  { title: 'DashboardStats' },
);

export const DashboardOverviewSchema = Type.Object(
  {
    stats: DashboardStatsSchema,
    top_trends: Type.Array(Type.Ref('TrendItem'), {
      description:
        'Up to 5 trends of the last 24 hours: first those matching your interests (as `GET /api/trends?' +
        'interests=` matches them: whole words), by 24-hour volume; the remaining places go to the largest ' +
        'trends by 24-hour volume. Ties by id. Each is the TrendItem `GET /api/trends` returns.',
    }),
    recent_alerts: Type.Array(NotificationRef, {
      description: 'Your 5 newest notices (read or not), newest first.',
    }),
  },
  { title: 'DashboardOverview' },
);
