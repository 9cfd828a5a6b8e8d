import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock, utcDate } from '../../src/platform/clock.ts';
import { buildTestApp, call, createUser } from '../helpers/app.ts';

describe('usage report', () => {
  test('after N counted requests today the report shows N, limit − N and today in daily_usage; counts survive a restart', async () => {
    const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
    const first = await buildTestApp({ clock });
    const user = await createUser(first, 'advantage');
    const n = 7;
    for (let i = 0; i < n; i++)
      assert.equal((await call(first.app, 'GET', '/api/user/profile', { key: user.key })).statusCode, 200);
    const report = await call(first.app, 'GET', '/api/user/api-usage', { key: user.key });
    assert.equal(report.statusCode, 200);
    assert.equal(report.data.summary.requests_today, n);
    assert.equal(report.data.summary.plan_daily_limit, 10_000);
    assert.equal(report.data.summary.remaining_today, 10_000 - n);
    assert.equal(report.data.daily_usage.length, 30);
    assert.deepEqual(report.data.daily_usage.at(-1), { date: '2026-11-21', request_count: n });
    assert.equal(report.data.daily_usage[0].date, utcDate(Date.parse('2026-10-23T00:00:00Z')));
    assert.equal(report.data.total_requests_last_30_days, n);
    assert.equal(report.data.summary.cost_estimated_today, 0.0035);
    assert.equal(report.data.cost_estimated_today, 0.0035);

    // A graceful restart flushes the counter; the next process seeds its counter from the database.
    await first.app.close();
    const second = await buildTestApp({ clock, database: first.database, operatorKey: first.operatorKey });
    try {
      const after = await call(second.app, 'GET', '/api/user/api-usage', { key: user.key });
      assert.equal(after.data.summary.requests_today, n);
      await call(second.app, 'GET', '/api/user/profile', { key: user.key });
      const more = await call(second.app, 'GET', '/api/user/api-usage', { key: user.key });
      assert.equal(more.data.summary.requests_today, n + 1);

      // Yesterday's counts come from the database once the day has turned.
      clock.set('2026-11-22T08:00:00Z');
      await second.app.services.usage.flush();
      const nextDay = await call(second.app, 'GET', '/api/user/api-usage', { key: user.key });
      assert.equal(nextDay.data.summary.requests_today, 0);
      assert.deepEqual(nextDay.data.daily_usage.at(-2), { date: '2026-11-21', request_count: n + 1 });
      assert.equal(nextDay.data.total_requests_last_30_days, n + 1);
    } finally {
      await second.close();
      await first.database.drop();
    }
  });

  test("usage is per user: one user's requests never show in another's report", async () => {
    const ctx = await buildTestApp();
    try {
      const a = await createUser(ctx);
      const b = await createUser(ctx);
      for (let i = 0; i < 3; i++) await call(ctx.app, 'GET', '/api/user/profile', { key: a.key });
      const report = await call(ctx.app, 'GET', '/api/user/api-usage', { key: b.key });
      assert.equal(report.data.summary.requests_today, 0);
      assert.equal(report.data.summary.cost_estimated_today, 0);
    } finally {
      await ctx.close();
    }
  });
});
