// The dashboard overview on a seeded fixture: each number checked against its definition, top trends with the
// caller's interests first, recent alerts per user; both paths; permissions.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import type { Services } from '../../../src/services.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';
import { drainJobs } from '../../helpers/jobs.ts';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-21T10:59:00Z');
const CURRENT_HOUR = Date.parse('2026-11-21T10:00:00Z');
const PATHS = ['/dashboard/overview', '/api/dashboard/overview'];

/** `perHour(k)` signals in the hour k hours before the current one (k = 0: the current hour), k = hours…0. */
function series(name: string, hours: number, perHour: (k: number) => number) {
  const out: Record<string, unknown>[] = [];
  for (let k = hours; k >= 0; k--) {
    const n = perHour(k);
    for (let i = 0; i < n; i++) {
      const at =
        k === 0 ? CURRENT_HOUR + Math.floor((i * 58 * 60_000) / n) : CURRENT_HOUR - k * HOUR + 30 * 60_000;
      out.push({
        source: i % 2 === 0 ? 'x' : 'reddit',
        external_id: `${name}-${k}-${i}`,
        text: `${name} update`,
        keywords: [name],
        observed_at: new Date(at).toISOString(),
      });
    }
  }
  return out;
}

// 24-hour volumes (previous 24 h): solar flare 480 (480), harbor marathon 360 (0), aurora borealis 330 (240),
// quantum widget 240 (240), retro console 115 (720), blue lagoon 72 (72), OpenAI 4 (0).
const SIGNALS = [
  ...series('solar flare', 48, () => 10 * 2),
  ...series('harbor marathon', 23, () => 15),
  ...series('aurora borealis', 48, (k) => (k === 0 ? 100 : 10)),
  ...series('quantum widget', 48, () => 10),
  ...series('retro console', 47, (k) => (k >= 24 ? 30 : k >= 1 ? 5 : 0)),
  ...series('blue lagoon', 48, () => 3),
  ...series('OpenAI', 3, () => 1),
];

describe('dashboard overview', () => {
  let ctx: TestContext;
  let services: Services;
  const clock = new ManualClock(NOW);
  let fan: { key: string; userId: number };
  let plain: { key: string; userId: number };
  let other: { key: string; userId: number };

  async function overview(key: string, path = PATHS[0]!): Promise<Json> {
    const res = await call(ctx.app, 'GET', path, { key });
    assert.equal(res.statusCode, 200, res.body);
    return res.data;
  }

  async function trendList(query: string, key: string): Promise<Json> {
    const res = await call(ctx.app, 'GET', `/api/trends?${query}`, { key });
    assert.equal(res.statusCode, 200, res.body);
    return res.data;
  }

  before(async () => {
    ctx = await buildTestApp({ clock });
    services = ctx.app.services;
    fan = await createUser(ctx, 'enterprise');
    plain = await createUser(ctx, 'enterprise');
    other = await createUser(ctx, 'enterprise');
  });
  after(async () => ctx.close());

  test('before any signal: zeros, no trends, avg_growth null', async () => {
    for (const path of PATHS) {
      assert.deepEqual(await overview(plain.key, path), {
        stats: { active_trends: 0, alerts_today: 0, topic_interests: 0, avg_growth: null },
        top_trends: [],
        recent_alerts: [],
      });
    }
  });

  test('seeded: the numbers as defined, interests first, then the largest trends', async () => {
    const feeder = (await createUser(ctx, 'enterprise', ['ingest'])).key;
    for (let i = 0; i < SIGNALS.length; i += 1000) {
      const res = await call(ctx.app, 'POST', '/api/signals', {
        key: feeder,
        body: { signals: SIGNALS.slice(i, i + 1000) },
      });
      assert.equal(res.statusCode, 202, res.body);
    }
    await services.engine.tick();
    for (const keyword of ['console', 'OpenAI', 'zebra']) {
      const res = await call(ctx.app, 'POST', '/api/user/interests', { key: fan.key, body: { keyword } });
      assert.equal(res.statusCode, 201, res.body);
    }

    const all = await trendList('limit=100', plain.key);
    const byTitle = new Map<string, Json>(all.trends.map((t: Json) => [t.title.toLowerCase(), t]));
    assert.deepEqual(
      [
        'solar flare',
        'harbor marathon',
        'aurora borealis',
        'quantum widget',
        'retro console',
        'blue lagoon',
        'openai',
      ].map((t) => byTitle.get(t)?.volume),
      [480, 360, 330, 240, 115, 72, 4],
    );

    // Without interests: the five largest by 24-hour volume.
    const mine = await overview(plain.key);
    assert.deepEqual(
      mine.top_trends.map((t: Json) => t.title.toLowerCase()),
      ['solar flare', 'harbor marathon', 'aurora borealis', 'quantum widget', 'retro console'],
    );
    assert.equal(mine.stats.active_trends, all.total);
    assert.ok(all.total >= 7);
    assert.equal(mine.stats.topic_interests, 0);
    // Growth: solar flare 0, harbor marathon null (nothing the day before), aurora 37.5, quantum widget 0,
    // retro console (115 − 720) / 720.
    const growths = mine.top_trends.map((t: Json) => t.growth);
    assert.equal(growths[1], null);
    assert.equal(growths[2], 37.5);
    const known = growths.filter((g: number | null) => g !== null) as number[];
    assert.equal(known.length, 4);
    assert.equal(mine.stats.avg_growth, Math.round((known.reduce((a, b) => a + b, 0) / 4) * 100) / 100);
    assert.ok(mine.stats.avg_growth < 0);
    // Each item is the trend list's TrendItem.
    for (const item of mine.top_trends) assert.deepEqual(item, byTitle.get(item.title.toLowerCase()));

    // With interests: the matching trends first (by volume), then the largest others.
    const fans = await overview(fan.key);
    assert.deepEqual(
      fans.top_trends.map((t: Json) => t.title.toLowerCase()),
      ['retro console', 'openai', 'solar flare', 'harbor marathon', 'aurora borealis'],
    );
    assert.equal(fans.stats.topic_interests, 3);
    assert.equal(fans.stats.active_trends, all.total);
    const fanGrowths = fans.top_trends.map((t: Json) => t.growth).filter((g: number | null) => g !== null);
    assert.equal(fanGrowths.length, 3, 'OpenAI and harbor marathon had no previous period');
    assert.equal(
      fans.stats.avg_growth,
      Math.round((fanGrowths.reduce((a: number, b: number) => a + b, 0) / 3) * 100) / 100,
    );
    // Both paths answer the same.
    assert.deepEqual(await overview(fan.key, PATHS[1]), fans);
  });

  test('alerts_today counts the caller’s notices since 00:00 UTC; recent_alerts are their 5 newest', async () => {
    // The seeded surge raised real velocity events (queued until now): a follower of the surging trend gets
    // one notice with the trend's own numbers, from the real pipeline.
    const watcher = await createUser(ctx, 'enterprise');
    const follow = await call(ctx.app, 'POST', '/api/user/interests', {
      key: watcher.key,
      body: { keyword: 'Aurora' },
    });
    assert.equal(follow.statusCode, 201, follow.body);
    services.worker.start();
    await drainJobs(ctx);
    const aurora = (await trendList('search=aurora', plain.key)).trends[0];
    const watched = await call(ctx.app, 'GET', '/api/user/notifications/recent', { key: watcher.key });
    assert.equal(watched.data.notifications.length, 1, watched.body);
    const [alert] = watched.data.notifications;
    assert.equal(alert.type, 'trend.alert.created');
    assert.deepEqual(
      [alert.data.trend_id, alert.data.velocity, alert.data.volume, alert.data.level],
      [aurora.id, aurora.velocity_score, aurora.volume, 90],
    );
    assert.equal((await overview(fan.key)).stats.alerts_today, 0, 'nothing the fan follows surged');
    await services.db.deleteFrom('notifications').execute();
    const notice = async (userId: number, historyId: number) => {
      await services.events.record(services.db, {
        id: `export.run.finished:${historyId}`,
        type: 'export.run.finished',
        occurred_at: clock.now(),
        data: {
          user_id: userId,
          config_id: 1,
          history_id: historyId,
          destination: 'email',
          row_count: historyId,
          error_message: null,
        },
      });
      await drainJobs(ctx);
    };
    clock.set('2026-11-20T23:59:59Z');
    await notice(fan.userId, 1);
    clock.set('2026-11-21T00:00:00Z');
    for (let i = 2; i <= 7; i++) {
      clock.advance(60_000);
      await notice(fan.userId, i);
    }
    await notice(other.userId, 100);
    clock.set(NOW);

    const fans = await overview(fan.key);
    assert.equal(fans.stats.alerts_today, 6);
    assert.deepEqual(
      fans.recent_alerts.map((n: Json) => n.data.history_id),
      [7, 6, 5, 4, 3],
    );
    const feed = await call(ctx.app, 'GET', '/api/user/notifications/recent?limit=5', { key: fan.key });
    assert.deepEqual(fans.recent_alerts, feed.data.notifications);
    // Another user's notices stay theirs.
    const others = await overview(other.key);
    assert.equal(others.stats.alerts_today, 1);
    assert.deepEqual(
      others.recent_alerts.map((n: Json) => n.data.history_id),
      [100],
    );
    assert.equal((await overview(plain.key)).stats.alerts_today, 0);
  });

  test('no key → 401; a key without read → 403', async () => {
    const ingest = await createUser(ctx, 'enterprise', ['ingest']);
    for (const path of PATHS) {
      assertProblem(await call(ctx.app, 'GET', path), 401);
      assertProblem(await call(ctx.app, 'GET', path, { key: ingest.key }), 403);
      assertProblem(await call(ctx.app, 'GET', `${path}?limit=5`, { key: plain.key }), 400);
    }
  });
});
