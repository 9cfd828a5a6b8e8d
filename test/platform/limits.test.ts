import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock, nextUtcMidnight } from '../../src/platform/clock.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../helpers/app.ts';
import { testRedisUrl, usingPostgres } from '../helpers/db.ts';

function assertRateHeaders(res: { headers: Record<string, unknown> }, now: number): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    assert.match(String(res.headers[name]), /^\d+$/, `${name} is an integer`);
  }
  const reset = Number(res.headers['x-ratelimit-reset']) * 1000;
  assert.ok(reset > now, 'Reset is in the future');
  assert.ok(reset <= nextUtcMidnight(now), 'Reset is no later than the next 00:00 UTC');
}

describe('daily quota', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T22:30:00Z'));
  before(async () => {
    // A roomy burst limit so only the daily quota is exercised here.
    ctx = await buildTestApp({
      clock,
      env: { PLANS: JSON.stringify({ developer: { burst_per_second: 10_000 } }) },
    });
  });
  after(async () => ctx.close());

  test("a developer-plan user's 101st counted request of the UTC day answers 429 with Retry-After", async () => {
    const user = await createUser(ctx, 'developer');
    for (let i = 1; i <= 100; i++) {
      const res = await call(ctx.app, 'GET', '/api/user/profile', { key: user.key });
      assert.equal(res.statusCode, 200, `request ${i}`);
      assertRateHeaders(res, clock.now());
      assert.equal(res.headers['x-ratelimit-limit'], '100');
      assert.equal(res.headers['x-ratelimit-remaining'], String(100 - i));
    }
    const refused = await call(ctx.app, 'GET', '/api/user/profile', { key: user.key });
    assertProblem(refused, 429);
    assert.equal(refused.data.code, 'quota_exceeded');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.equal(refused.headers['x-ratelimit-limit'], '100');
    assertRateHeaders(refused, clock.now());
    const retryAfter = Number(refused.headers['retry-after']);
    assert.equal(retryAfter, Math.ceil((nextUtcMidnight(clock.now()) - clock.now()) / 1000));

    // The usage route is never counted nor refused, and refused requests were not counted.
    const usage = await call(ctx.app, 'GET', '/api/user/api-usage', { key: user.key });
    assert.equal(usage.statusCode, 200);
    assertRateHeaders(usage, clock.now());
    assert.equal(usage.data.summary.requests_today, 100);
    assert.equal(usage.data.summary.remaining_today, 0);

    // A new UTC day brings a fresh quota.
    clock.set('2026-11-22T00:00:01Z');
    const tomorrow = await call(ctx.app, 'GET', '/api/user/profile', { key: user.key });
    assert.equal(tomorrow.statusCode, 200);
    assert.equal(tomorrow.headers['x-ratelimit-remaining'], '99');
    clock.set('2026-11-21T22:30:00Z');
  });

  test('plans without a daily quota describe the burst limit in the headers', async () => {
    const res = await call(ctx.app, 'GET', '/api/user/profile', { key: ctx.operatorKey });
    assert.equal(res.statusCode, 200);
    // Enterprise has no daily quota: the headers describe its 100/s burst limit.
    assert.equal(res.headers['x-ratelimit-limit'], '100');
    assertRateHeaders(res, clock.now());
  });
});

describe('burst limit per key', () => {
  test('the 11th request within a second on the developer plan answers 429 rate_limited', async () => {
    const ctx = await buildTestApp();
    try {
      const user = await createUser(ctx, 'developer');
      const results = await Promise.all(
        Array.from({ length: 11 }, () => call(ctx.app, 'GET', '/api/user/profile', { key: user.key })),
      );
      const limited = results.filter((r) => r.statusCode === 429);
      assert.ok(limited.length >= 1, 'at least one request was limited');
      assertProblem(limited[0]!, 429);
      assert.equal(limited[0]!.data.code, 'rate_limited');
      assert.equal(limited[0]!.headers['x-ratelimit-limit'], '10');
      assert.ok(Number(limited[0]!.headers['retry-after']) >= 1);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const usage = await call(ctx.app, 'GET', '/api/user/api-usage', { key: user.key });
      assert.equal(
        usage.data.summary.requests_today,
        11 - limited.length,
        'burst-refused requests are not counted',
      );
    } finally {
      await ctx.close();
    }
  });
});

describe('per-IP limit on public routes', () => {
  test('past PUBLIC_RATE_LIMIT_PER_MINUTE a public route answers 429', async () => {
    const ctx = await buildTestApp({ env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await call(ctx.app, 'GET', '/api/plans')).statusCode, 200);
      const res = await call(ctx.app, 'GET', '/api/plans');
      assertProblem(res, 429);
      assert.ok(Number(res.headers['retry-after']) >= 1);
    } finally {
      await ctx.close();
    }
  });
});

describe('one quota across instances', {
  skip: !(usingPostgres && testRedisUrl) && 'needs PostgreSQL + Redis',
}, () => {
  test('two app instances on one PostgreSQL + Redis enforce one combined quota', async () => {
    const plans = JSON.stringify({
      developer: { daily_quota: 10, burst_per_second: 1000 },
      enterprise: { burst_per_second: 100_000 },
    });
    const first = await buildTestApp({ env: { PLANS: plans } });
    const second = await buildTestApp({
      env: { PLANS: plans },
      database: first.database,
      redisPrefix: first.config.redisKeyPrefix,
      operatorKey: first.operatorKey,
    });
    try {
      const user = await createUser(first, 'developer');
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) {
        const app = i % 2 === 0 ? first.app : second.app;
        statuses.push((await call(app, 'GET', '/api/user/profile', { key: user.key })).statusCode);
      }
      assert.equal(statuses.filter((s) => s === 200).length, 10);
      assert.equal(statuses.filter((s) => s === 429).length, 4);
      const fromSecond = await call(second.app, 'GET', '/api/user/api-usage', { key: user.key });
      assert.equal(fromSecond.data.summary.requests_today, 10);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
