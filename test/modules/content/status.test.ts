import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dailyStatus, uptimePercent } from '../../../src/modules/content/status/history.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { buildTestApp, call } from '../../helpers/app.ts';
import { testRedisUrl } from '../../helpers/db.ts';

describe('status page', () => {
  test('/status lists live component checks with an overall status', async () => {
    const ctx = await buildTestApp();
    try {
      const res = await call(ctx.app, 'GET', '/status');
      assert.equal(res.statusCode, 200);
      assert.equal(res.data.overall_status, 'operational');
      const names = res.data.components.map((c: { name: string }) => c.name);
      assert.deepEqual(
        names,
        testRedisUrl ? ['api', 'database', 'redis', 'jobs'] : ['api', 'database', 'jobs'],
      );
      for (const component of res.data.components) {
        assert.ok(['operational', 'degraded', 'outage'].includes(component.status));
        assert.equal(typeof component.description, 'string');
      }
    } finally {
      await ctx.close();
    }
  });

  test('a failing component makes the overall status an outage', async () => {
    const ctx = await buildTestApp();
    try {
      ctx.app.services.status.register('feed', async () => {
        throw new Error('feed unreachable');
      });
      const res = await call(ctx.app, 'GET', '/status');
      assert.equal(res.data.overall_status, 'outage');
      const feed = res.data.components.find((c: { name: string }) => c.name === 'feed');
      assert.equal(feed.status, 'outage');
      assert.match(feed.description, /feed unreachable/);
    } finally {
      await ctx.close();
    }
  });

  test('an outage in 1 of 24 checks in a day shows ≈ 95.8 % uptime', async () => {
    const clock = new ManualClock(Date.parse('2026-11-20T00:30:00Z'));
    const ctx = await buildTestApp({ clock });
    try {
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
    } finally {
      await ctx.close();
    }
  });

  test('uptime and daily status formulas', () => {
    assert.equal(uptimePercent([]), 100);
    assert.equal(uptimePercent(['operational', 'degraded', 'outage', 'operational']), 75);
    assert.equal(dailyStatus(['operational', 'operational']), 'operational');
    assert.equal(dailyStatus(['operational', 'degraded']), 'degraded');
    assert.equal(dailyStatus(['outage', 'operational']), 'outage');
  });
});
