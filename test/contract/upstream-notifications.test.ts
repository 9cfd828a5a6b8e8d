// The SDK's notification and dashboard methods (get_recent_notifications, mark_notifications_read,
// get_dashboard_overview) against Crestwatch: each request as client.py sends it, each answer held field by
// field against the SDK model that parses it (models.py: Notification, NotificationListResponse,
// DashboardStats, DashboardOverview), on a fixture with trends and notices of every kind.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.ts';
import { buildTestApp, call, createUser, type Json, type TestContext } from '../helpers/app.ts';
import { drainJobs } from '../helpers/jobs.ts';
import { seed } from '../modules/insights/fixtures.ts';
import { checkModel, MODELS } from './upstream-models.ts';

// models.py, as upstream-models.ts writes models down.
Object.assign(MODELS, {
  DashboardStats: { active_trends: 'int', alerts_today: 'int', topic_interests: 'int', avg_growth: 'float?' },
  Notification: {
    id: 'int',
    title: 'str',
    message: 'str',
    type: 'str',
    is_read: 'bool',
    created_at: 'datetime',
    status: 'str?',
    read_at: 'datetime?',
    data: 'dict?',
  },
  DashboardOverview: {
    stats: 'DashboardStats=',
    top_trends: 'list<TrendItem>=',
    recent_alerts: 'list<Notification>=',
    status: 'str?',
  },
  NotificationListResponse: { notifications: 'list<Notification>=', unread_count: 'int?' },
});

/** requests' headers for the SDK's session (see upstream.test.ts). */
const SDK_HEADERS = {
  'user-agent': 'python-requests/2.32.3',
  'accept-encoding': 'gzip, deflate',
  accept: 'application/json',
  connection: 'keep-alive',
  'content-type': 'application/json',
};

describe('the SDK’s notification and dashboard methods', () => {
  let ctx: TestContext;
  let user: { userId: number; key: string };
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));

  async function sdk(method: 'GET' | 'POST', url: string, json?: string) {
    const res = await ctx.app.inject({
      method,
      url,
      headers: { ...SDK_HEADERS, 'x-api-key': user.key },
      ...(json !== undefined ? { payload: json } : {}),
    });
    assert.equal(res.statusCode, 200, `${method} ${url}: ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as Json;
  }

  before(async () => {
    ctx = await buildTestApp({ clock });
    user = await createUser(ctx, 'enterprise');
    await seed(ctx, clock.now());
    await ctx.app.services.engine.tick();
    const res = await call(ctx.app, 'POST', '/api/user/interests', {
      key: user.key,
      body: { keyword: 'Zenith' },
    });
    assert.equal(res.statusCode, 201, res.body);
    // One notice of every kind.
    const { events, db } = ctx.app.services;
    const at = clock.now();
    await events.record(db, {
      id: 'trend.velocity.crossed:1:75:1',
      type: 'trend.velocity.crossed',
      occurred_at: at,
      data: {
        trend_id: 1,
        trend_name: 'Zenith Phone',
        category: 'Technology',
        velocity: 80,
        volume: 30,
        from_velocity: 10,
      },
    });
    for (const type of ['crisis.event.opened', 'crisis.event.escalated', 'crisis.event.resolved'] as const) {
      await events.record(db, {
        id: `${type}:5:1`,
        type,
        occurred_at: at,
        data: {
          crisis_event_id: 5,
          user_id: user.userId,
          title: 'Acme Cloud complaints',
          severity: 'high',
          status: 'active',
          impacted_entity: null,
          detected_at: new Date(at).toISOString(),
          summary: 'Negative mentions rose.',
          source_link: 'http://localhost:3000/api/intelligence/crisis-events/5',
          trend_id: null,
          source_keywords: [],
        },
      });
    }
    for (const type of ['export.run.finished', 'export.run.failed'] as const) {
      await events.record(db, {
        id: `${type}:9`,
        type,
        occurred_at: at,
        data: {
          user_id: user.userId,
          config_id: 2,
          history_id: 9,
          destination: 'gcp',
          row_count: type === 'export.run.finished' ? 3 : null,
          error_message: type === 'export.run.failed' ? 'Timed out.' : null,
        },
      });
    }
    const key = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'short-lived', expires_at: new Date(at + 86_400_000).toISOString() },
    });
    assert.equal(key.statusCode, 201, key.body);
    ctx.app.services.worker.start();
    await drainJobs(ctx);
    await ctx.app.services.notifications.checkExpiringKeys();
  });
  after(async () => ctx.close());

  test('get_recent_notifications(limit=10) parses as NotificationListResponse', async () => {
    const data = await sdk('GET', '/api/user/notifications/recent?limit=10');
    assert.deepEqual(checkModel(data, 'NotificationListResponse'), []);
    assert.deepEqual(data.notifications.map((n: Json) => n.type).sort(), [
      'api_key.expiring',
      'crisis.event.escalated',
      'crisis.event.opened',
      'crisis.event.resolved',
      'export.run.failed',
      'export.run.finished',
      'trend.alert.created',
    ]);
    assert.equal(data.unread_count, 7);
  });

  test('mark_notifications_read(ids) answers a dict that carries unread_count (no second request needed)', async () => {
    const recent = await sdk('GET', '/api/user/notifications/recent?limit=10');
    const ids = recent.notifications.slice(0, 2).map((n: Json) => n.id);
    // json.dumps({"ids": [a, b]})
    const data = await sdk('POST', '/api/user/notifications/mark-read', `{"ids": [${ids.join(', ')}]}`);
    assert.deepEqual(data, { success: true, updated: 2, unread_count: 5 });
    const after = await sdk('GET', '/api/user/notifications/recent?limit=10');
    assert.deepEqual(checkModel(after, 'NotificationListResponse'), []);
    assert.ok(after.notifications.some((n: Json) => n.is_read && n.read_at !== null));
  });

  test('mark_notifications_read() without ids sends {"ids": []}, which marks every notice read', async () => {
    const before = await sdk('GET', '/api/user/notifications/recent?limit=50');
    const unread = before.notifications.filter((n: Json) => !n.is_read).length;
    assert.ok(unread > 0);
    const data = await sdk('POST', '/api/user/notifications/mark-read', '{"ids": []}');
    assert.deepEqual(data, { success: true, updated: unread, unread_count: 0 });
    const after = await sdk('GET', '/api/user/notifications/recent?limit=50');
    assert.ok(after.notifications.every((n: Json) => n.is_read && n.read_at !== null));
    assert.equal(after.unread_count, 0);
  });

  test('get_dashboard_overview() parses as DashboardOverview', async () => {
    const data = await sdk('GET', '/dashboard/overview');
    assert.deepEqual(checkModel(data, 'DashboardOverview'), []);
    assert.ok(data.top_trends.length > 0);
    assert.equal(data.top_trends[0].title, 'Zenith Phone', 'the interest first');
    assert.equal(data.recent_alerts.length, 5);
    assert.equal(data.stats.topic_interests, 1);
    assert.equal(data.stats.alerts_today, 7);
  });
});
