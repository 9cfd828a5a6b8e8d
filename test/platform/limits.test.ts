import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { ManualClock, nextUtcMidnight } from '../../src/platform/clock.ts';
import { ipLimitKey } from '../../src/platform/ratelimit.ts';
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

describe('behind a proxy', () => {
  const ipLimited = (trustProxy?: string) =>
    buildTestApp({
      env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '2', ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}) },
    });
  const plans = (ctx: TestContext, remoteAddress: string, forwardedFor: string) =>
    ctx.app
      .inject({
        method: 'GET',
        url: '/api/plans',
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor },
      })
      .then((res) => res.statusCode);

  test('without TRUST_PROXY, X-Forwarded-For is ignored: one peer address is one budget', async () => {
    const ctx = await ipLimited();
    try {
      assert.deepEqual(
        [
          await plans(ctx, '10.0.0.5', '198.51.100.1'),
          await plans(ctx, '10.0.0.5', '198.51.100.2'),
          await plans(ctx, '10.0.0.5', '198.51.100.3'),
        ],
        [200, 200, 429],
      );
    } finally {
      await ctx.close();
    }
  });

  test('with a hop count, clients behind one load balancer each get their own budget', async () => {
    const ctx = await ipLimited('1');
    try {
      const first = [
        await plans(ctx, '10.0.0.5', '198.51.100.1'),
        await plans(ctx, '10.0.0.5', '198.51.100.1'),
      ];
      assert.deepEqual(first, [200, 200]);
      assert.equal(await plans(ctx, '10.0.0.5', '198.51.100.1'), 429, 'the client itself is still limited');
      assert.equal(await plans(ctx, '10.0.0.5', '198.51.100.2'), 200, 'another client is not');
      // Only the nearest hop is trusted: an address the client wrote itself further left changes nothing.
      assert.equal(await plans(ctx, '10.0.0.5', '203.0.113.9, 198.51.100.1'), 429);
    } finally {
      await ctx.close();
    }
  });

  test('with a CIDR list, only those proxies are believed', async () => {
    const ctx = await ipLimited('10.0.0.0/8');
    try {
      for (let i = 0; i < 3; i++) assert.equal(await plans(ctx, '10.1.2.3', `198.51.100.${i}`), 200);
      // A client connecting directly cannot claim another address.
      const direct = [
        await plans(ctx, '192.0.2.50', '198.51.100.10'),
        await plans(ctx, '192.0.2.50', '198.51.100.11'),
        await plans(ctx, '192.0.2.50', '198.51.100.12'),
      ];
      assert.deepEqual(direct, [200, 200, 429]);
    } finally {
      await ctx.close();
    }
  });

  test('failed authentications lock out the client behind the proxy, not everyone', async () => {
    const ctx = await ipLimited('1');
    try {
      const bad = (client: string) =>
        ctx.app
          .inject({
            method: 'GET',
            url: '/api/user/profile',
            remoteAddress: '10.0.0.5',
            headers: { 'x-forwarded-for': client, authorization: `Bearer cw_${'x'.repeat(40)}` },
          })
          .then((res) => res.statusCode);
      assert.deepEqual([await bad('198.51.100.1'), await bad('198.51.100.1')], [401, 401]);
      assert.equal(await bad('198.51.100.1'), 429, 'the failing client is locked out');
      const user = await createUser(ctx, 'developer');
      const good = await ctx.app.inject({
        method: 'GET',
        url: '/api/user/profile',
        remoteAddress: '10.0.0.5',
        headers: { 'x-forwarded-for': '198.51.100.2', authorization: `Bearer ${user.key}` },
      });
      assert.equal(good.statusCode, 200);
    } finally {
      await ctx.close();
    }
  });

  test('IPv6 clients share one budget per /64; another /64 has its own', async () => {
    const ctx = await ipLimited('1');
    try {
      assert.equal(await plans(ctx, '10.0.0.5', '2001:db8:1:2::1'), 200);
      assert.equal(await plans(ctx, '10.0.0.5', '2001:db8:1:2:ffff::9'), 200);
      assert.equal(await plans(ctx, '10.0.0.5', '2001:db8:1:2:abcd:1:2:3'), 429, 'same /64');
      assert.equal(await plans(ctx, '10.0.0.5', '2001:db8:1:3::1'), 200, 'next /64');
    } finally {
      await ctx.close();
    }
  });
});

describe('ipLimitKey', () => {
  test('IPv4 as is, IPv4-mapped as IPv4, IPv6 by its /64 whatever the notation', () => {
    assert.equal(ipLimitKey('192.0.2.1'), '192.0.2.1');
    assert.equal(ipLimitKey('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(ipLimitKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(ipLimitKey('2001:0DB8:0000:0000:1234::1'), '2001:db8:0:0::/64');
    assert.equal(ipLimitKey('2001:db8:a:b:c:d:e:f'), '2001:db8:a:b::/64');
    assert.equal(ipLimitKey('::1'), '0:0:0:0::/64');
    assert.equal(ipLimitKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
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

describe('a quota counter lost from Redis', { skip: !testRedisUrl && 'needs Redis (TEST_REDIS_URL)' }, () => {
  test('is re-seeded from the database before it counts again, also under concurrent requests', async () => {
    const plans = JSON.stringify({
      developer: { daily_quota: 10, burst_per_second: 1000 },
      enterprise: { burst_per_second: 100_000 },
    });
    const ctx = await buildTestApp({ env: { PLANS: plans } });
    const redis = new Redis(testRedisUrl!);
    try {
      const user = await createUser(ctx, 'developer');
      for (let i = 0; i < 4; i++) {
        assert.equal((await call(ctx.app, 'GET', '/api/user/profile', { key: user.key })).statusCode, 200);
      }
      // What a FLUSHALL does to this instance's data, without touching other runs sharing the server.
      const keys = await redis.keys(`${ctx.config.redisKeyPrefix}*`);
      assert.ok(keys.length > 0);
      await redis.del(...keys);
      const statuses = await Promise.all(
        Array.from({ length: 15 }, () =>
          call(ctx.app, 'GET', '/api/user/profile', { key: user.key }).then((r) => r.statusCode),
        ),
      );
      assert.equal(statuses.filter((s) => s === 200).length, 6, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, 9);
      const usage = await call(ctx.app, 'GET', '/api/user/api-usage', { key: user.key });
      assert.equal(usage.data.summary.requests_today, 10);
    } finally {
      redis.disconnect();
      await ctx.close();
    }
  });
});

describe('a quota counter lost from Redis with two instances', {
  skip: !(usingPostgres && testRedisUrl) && 'needs PostgreSQL + Redis',
}, () => {
  test('150 concurrent requests through two instances answer exactly 100, with Redis flushed in the middle', async () => {
    // The developer plan as shipped (100 a day); only the burst limit is lifted so bursts of 75 fit.
    const plans = JSON.stringify({
      developer: { burst_per_second: 1000 },
      enterprise: { burst_per_second: 100_000 },
    });
    const first = await buildTestApp({ env: { PLANS: plans } });
    const second = await buildTestApp({
      env: { PLANS: plans },
      database: first.database,
      redisPrefix: first.config.redisKeyPrefix,
      operatorKey: first.operatorKey,
    });
    const redis = new Redis(testRedisUrl!);
    const flushRedis = async () => {
      const keys = await redis.keys(`${first.config.redisKeyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    };
    try {
      const user = await createUser(first, 'developer');
      const wave = (count: number, from: number) =>
        Promise.all(
          Array.from({ length: count }, (_, i) =>
            call((from + i) % 2 === 0 ? first.app : second.app, 'GET', '/api/user/profile', {
              key: user.key,
            }).then((r) => r.statusCode),
          ),
        );
      // Neither instance has flushed its usage to the database when Redis loses everything.
      const statuses = await wave(60, 0);
      await flushRedis();
      const during = wave(90, 60);
      await flushRedis();
      statuses.push(...(await during));
      assert.equal(statuses.length, 150);
      assert.equal(statuses.filter((s) => s === 200).length, 100, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, 50);
      const usage = await call(second.app, 'GET', '/api/user/api-usage', { key: user.key });
      assert.equal(usage.data.summary.requests_today, 100);
    } finally {
      redis.disconnect();
      await second.close();
      await first.close();
    }
  });
});
