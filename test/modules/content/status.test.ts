import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dailyStatus, overallStatus, uptimePercent } from '../../../src/modules/content/status/history.ts';
import type { PollingSource } from '../../../src/modules/signals/sources/types.ts';
import { DAY_MS, ManualClock } from '../../../src/platform/clock.ts';
import { build, call } from '../../helpers/app.ts';
import { testRedisUrl } from '../../helpers/db.ts';
import { send, standIn } from '../signals/sources/stand-in.ts';

describe('status page', () => {
  test('/status lists live component checks with an overall status', async (t) => {
    const ctx = await build(t);
    const res = await call(ctx.app, 'GET', '/status');
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.overall_status, 'operational');
    const names = res.data.components.map((c: { name: string }) => c.name);
    assert.deepEqual(
      names,
      testRedisUrl ? ['api', 'database', 'redis', 'jobs'] : ['api', 'database', 'jobs'],
    );
    for (const component of res.data.components) {
      assert.equal(component.status, 'operational', component.name);
      assert.ok(component.description.length > 0, `${component.name} says what was checked`);
    }
  });

  test('a failing component makes the overall status an outage', async (t) => {
    const ctx = await build(t);
    ctx.app.services.status.register('feed', async () => {
      throw new Error('feed unreachable');
    });
    const res = await call(ctx.app, 'GET', '/status');
    assert.equal(res.data.overall_status, 'outage');
    const feed = res.data.components.find((c: { name: string }) => c.name === 'feed');
    assert.equal(feed.status, 'outage');
    assert.match(feed.description, /feed unreachable/);
  });

  test('a component marked as degrading only (Redis) makes the overall status degraded, not an outage', async (t) => {
    const ctx = await build(t);
    ctx.app.services.status.register('cache', async () => ({ status: 'outage', description: 'down' }), {
      outageDegradesOverall: true,
    });
    const res = await call(ctx.app, 'GET', '/status');
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.overall_status, 'degraded');
    assert.equal(res.data.components.find((c: { name: string }) => c.name === 'cache').status, 'outage');
    assert.equal(
      overallStatus([
        { status: 'outage', degradesOnly: false },
        { status: 'degraded', degradesOnly: true },
      ]),
      'outage',
    );
    assert.equal(
      overallStatus([
        { status: 'operational', degradesOnly: false },
        { status: 'outage', degradesOnly: true },
      ]),
      'degraded',
    );
  });

  test('an outage in 1 of 24 checks in a day shows ≈ 95.8 % uptime', async (t) => {
    const clock = new ManualClock(Date.parse('2026-11-20T00:30:00Z'));
    const ctx = await build(t, { clock });
    let calls = 0;
    ctx.app.services.status.register('feed', async () => {
      calls++;
      return calls === 5
        ? { status: 'outage', description: 'down' }
        : { status: 'operational', description: 'up' };
    });
    for (let hour = 0; hour < 24; hour++) {
      await ctx.app.services.status.recordChecks();
      clock.advance(3600_000);
    }
    const res = await call(ctx.app, 'GET', '/status/history');
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.uptime_percentages.feed, 95.83);
    assert.equal(res.data.uptime_percentages.database, 100);
    assert.equal(res.data.daily_statuses['2026-11-20'].feed, 'degraded');
    assert.equal(res.data.daily_statuses['2026-11-20'].api, 'operational');
  });

  test('each configured source is a component, degraded while it fails', async (t) => {
    let failing = true;
    const server = await standIn((_req, res) =>
      failing
        ? send(res, 502, 'bad gateway')
        : send(res, 200, '<rss version="2.0"><channel><title>T</title></channel></rss>'),
    );
    const clock = new ManualClock(Date.parse('2026-11-20T00:00:00Z'));
    const ctx = await build(t, { clock, env: { SOURCES: 'rss', RSS_FEEDS: `news=${server.url}/feed` } });
    t.after(() => server.close());
    const component = async () =>
      (await call(ctx.app, 'GET', '/status')).data.components.find((c: { name: string }) => c.name === 'rss');
    assert.equal((await component()).status, 'operational');
    const source = ctx.app.services.sources.sources[0] as PollingSource;
    await ctx.app.services.sources.pollOnce(source);
    clock.advance(3000); // past the 2 s /status cache
    const failed = await component();
    assert.equal(failed.status, 'degraded');
    assert.match(failed.description, /answered 502/);
    failing = false;
    await ctx.app.services.sources.pollOnce(source);
    clock.advance(3000);
    assert.equal((await component()).status, 'operational');
  });

  test('the LLM provider is a component when configured: its /models answers decide', async (t) => {
    let answer = 200;
    const server = await standIn((req, res) => {
      assert.equal(req.url, '/v1/models');
      assert.equal(req.headers.authorization, 'Bearer sk-test');
      send(res, answer, answer === 200 ? '{"object":"list","data":[]}' : '{"error":"no"}', {
        'content-type': 'application/json',
      });
    });
    const clock = new ManualClock(Date.parse('2026-11-20T00:00:00Z'));
    const ctx = await build(t, {
      clock,
      env: { LLM_BASE_URL: `${server.url}/v1`, LLM_API_KEY: 'sk-test', LLM_MODEL: 'test' },
    });
    const llm = async () => {
      clock.advance(31_000); // past the status and provider caches
      return (await call(ctx.app, 'GET', '/status')).data.components.find(
        (c: { name: string }) => c.name === 'llm',
      );
    };
    assert.equal((await llm()).status, 'operational');
    answer = 401;
    const refused = await llm();
    assert.equal(refused.status, 'outage');
    assert.match(refused.description, /refused the API key/);
    assert.doesNotMatch(refused.description, /sk-test/);
    answer = 429;
    assert.equal((await llm()).status, 'degraded');
    await server.close();
    assert.equal((await llm()).status, 'outage');
  });

  test('no llm component without LLM_BASE_URL', async (t) => {
    const ctx = await build(t);
    const res = await call(ctx.app, 'GET', '/status');
    assert.ok(!res.data.components.some((c: { name: string }) => c.name === 'llm'));
  });

  test('history keeps 30 days of stored checks', async (t) => {
    const clock = new ManualClock(Date.parse('2026-10-01T12:00:00Z'));
    const ctx = await build(t, { clock });
    await ctx.app.services.status.recordChecks();
    clock.advance(40 * DAY_MS);
    await ctx.app.services.status.recordChecks();
    const res = await call(ctx.app, 'GET', '/status/history');
    assert.deepEqual(Object.keys(res.data.daily_statuses), ['2026-11-10']);
    const stored = await ctx.app.services.db.selectFrom('status_checks').select('checked_at').execute();
    assert.ok(stored.every((row) => Number(row.checked_at) >= clock.now() - 31 * DAY_MS));
  });

  test('uptime and daily status formulas', () => {
    assert.equal(uptimePercent([]), 100);
    assert.equal(uptimePercent(['operational', 'degraded', 'outage', 'operational']), 75);
    assert.equal(dailyStatus(['operational', 'operational']), 'operational');
    assert.equal(dailyStatus(['operational', 'degraded']), 'degraded');
    assert.equal(dailyStatus(['outage', 'operational']), 'outage');
  });
});
