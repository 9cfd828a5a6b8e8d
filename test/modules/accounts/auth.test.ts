import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { testRedisUrl, usingPostgres } from '../../helpers/db.ts';

describe('authentication', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  before(async () => {
    ctx = await buildTestApp({ clock });
  });
  after(async () => ctx.close());

  test('the same key works as Authorization: Bearer and as X-API-Key', async () => {
    const user = await createUser(ctx);
    const bearer = await call(ctx.app, 'GET', '/api/user/profile', { key: user.key });
    const header = await call(ctx.app, 'GET', '/api/user/profile', { key: user.key, header: 'x-api-key' });
    assert.equal(bearer.statusCode, 200);
    assert.equal(header.statusCode, 200);
    assert.equal(bearer.data.id, user.userId);
    assert.deepEqual(header.data, bearer.data);
  });

  test('two different keys in Authorization and X-API-Key → 401; the same key in both is fine', async () => {
    const alice = await createUser(ctx);
    const both = await call(ctx.app, 'GET', '/api/user/profile', {
      key: alice.key,
      headers: { 'x-api-key': (await createUser(ctx)).key },
    });
    assertProblem(both, 401);
    assert.equal(both.data.code, 'conflicting_api_keys');
    const same = await call(ctx.app, 'GET', '/api/user/profile', {
      key: alice.key,
      headers: { 'x-api-key': alice.key },
    });
    assert.equal(same.statusCode, 200);
    assert.equal(same.data.id, alice.userId);
  });

  test('no key, a malformed header and an unknown key each answer 401 problem+json', async () => {
    const none = await call(ctx.app, 'GET', '/api/user/profile');
    assertProblem(none, 401);
    assert.equal(none.data.code, 'missing_api_key');
    const basic = await call(ctx.app, 'GET', '/api/user/profile', {
      headers: { authorization: 'Basic abc' },
    });
    assertProblem(basic, 401);
    const wrong = await call(ctx.app, 'GET', '/api/user/profile', { key: `cw_${'x'.repeat(40)}` });
    assertProblem(wrong, 401);
    assert.equal(wrong.data.code, 'invalid_api_key');
    assert.equal(
      wrong.headers['x-ratelimit-limit'],
      undefined,
      'unauthenticated responses carry no quota headers',
    );
  });

  test('a revoked key answers 401 on the very next request', async () => {
    const user = await createUser(ctx);
    const other = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'doomed' },
    });
    assert.equal(other.statusCode, 201);
    assert.equal(
      (await call(ctx.app, 'GET', '/api/user/profile', { key: other.data.api_key })).statusCode,
      200,
    );
    const revoke = await call(ctx.app, 'DELETE', `/api/user/api-keys/${other.data.id}`, { key: user.key });
    assert.equal(revoke.statusCode, 204);
    const after = await call(ctx.app, 'GET', '/api/user/profile', { key: other.data.api_key });
    assertProblem(after, 401);
    assert.equal(after.data.code, 'api_key_revoked');
    const list = await call(ctx.app, 'GET', '/api/user/api-keys', { key: user.key });
    assert.equal(list.data.keys.find((k: { id: number }) => k.id === other.data.id).is_active, false);
  });

  test('an expired key answers 401', async () => {
    const user = await createUser(ctx);
    const expiresAt = new Date(clock.now() + 60_000).toISOString();
    const short = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'short', expires_at: expiresAt },
    });
    assert.equal(short.statusCode, 201);
    assert.equal(short.data.expires_at, expiresAt);
    assert.equal(
      (await call(ctx.app, 'GET', '/api/user/profile', { key: short.data.api_key })).statusCode,
      200,
    );
    clock.advance(61_000);
    const expired = await call(ctx.app, 'GET', '/api/user/profile', { key: short.data.api_key });
    assertProblem(expired, 401);
    assert.equal(expired.data.code, 'api_key_expired');
  });

  test('a read-only key on a write route answers 403', async () => {
    const user = await createUser(ctx, 'developer', ['read']);
    const res = await call(ctx.app, 'POST', '/api/user/api-keys', { key: user.key, body: { name: 'x' } });
    assertProblem(res, 403);
    assert.equal(res.data.code, 'missing_permission');
    assert.equal((await call(ctx.app, 'GET', '/api/user/api-keys', { key: user.key })).statusCode, 200);
  });

  test('operator routes need the admin permission', async () => {
    const user = await createUser(ctx, 'enterprise', ['read', 'write']);
    assertProblem(await call(ctx.app, 'GET', '/api/admin/users', { key: user.key }), 403);
    const list = await call(ctx.app, 'GET', '/api/admin/users', { key: ctx.operatorKey });
    assert.equal(list.statusCode, 200);
    assert.ok(list.data.meta.total >= 1);
  });

  test("user A addressing user B's key id answers 404, and B's key keeps working", async () => {
    const a = await createUser(ctx);
    const b = await createUser(ctx);
    assertProblem(await call(ctx.app, 'DELETE', `/api/user/api-keys/${b.keyId}`, { key: a.key }), 404);
    assertProblem(
      await call(ctx.app, 'POST', `/api/user/api-keys/${b.keyId}/rotate`, { key: a.key, body: {} }),
      404,
    );
    assert.equal((await call(ctx.app, 'GET', '/api/user/profile', { key: b.key })).statusCode, 200);
    const listA = await call(ctx.app, 'GET', '/api/user/api-keys', { key: a.key });
    assert.ok(listA.data.keys.every((k: { id: number }) => k.id !== b.keyId));
  });

  test('a disabled account is refused with 403 and enabled again by the operator', async () => {
    const user = await createUser(ctx);
    const off = await call(ctx.app, 'PATCH', `/api/admin/users/${user.userId}`, {
      key: ctx.operatorKey,
      body: { is_active: false },
    });
    assert.equal(off.statusCode, 200);
    assert.equal(off.data.is_active, false);
    const refused = await call(ctx.app, 'GET', '/api/user/profile', { key: user.key });
    assertProblem(refused, 403);
    assert.equal(refused.data.code, 'account_disabled');
    await call(ctx.app, 'PATCH', `/api/admin/users/${user.userId}`, {
      key: ctx.operatorKey,
      body: { is_active: true },
    });
    assert.equal((await call(ctx.app, 'GET', '/api/user/profile', { key: user.key })).statusCode, 200);
  });

  test('an operator cannot disable its own account (it would lock itself out); 409, nothing changed', async () => {
    const me = (await call(ctx.app, 'GET', '/api/user/profile', { key: ctx.operatorKey })).data;
    const self = await call(ctx.app, 'PATCH', `/api/admin/users/${me.id}`, {
      key: ctx.operatorKey,
      body: { is_active: false },
    });
    assertProblem(self, 409);
    assert.equal(self.data.code, 'cannot_disable_self');
    assert.equal(
      (await call(ctx.app, 'GET', '/api/admin/users?limit=100', { key: ctx.operatorKey })).statusCode,
      200,
    );
    // Its own plan it may still change.
    const plan = await call(ctx.app, 'PATCH', `/api/admin/users/${me.id}`, {
      key: ctx.operatorKey,
      body: { plan: 'enterprise' },
    });
    assert.equal(plan.statusCode, 200, plan.body);
  });
});

describe('failed authentications are limited per client IP', () => {
  test('past the per-minute budget a bad key gets 429 with Retry-After, even if the next key is good', async () => {
    const ctx = await buildTestApp({ env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      for (let i = 0; i < 3; i++)
        assertProblem(await call(ctx.app, 'GET', '/api/user/profile', { key: 'cw_bad' }), 401);
      const limited = await call(ctx.app, 'GET', '/api/user/profile', { key: 'cw_bad' });
      assertProblem(limited, 429);
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      assertProblem(await call(ctx.app, 'GET', '/api/user/profile', { key: ctx.operatorKey }), 429);
    } finally {
      await ctx.close();
    }
  });
});

describe('revocation across processes', {
  skip: !(usingPostgres && testRedisUrl) && 'needs PostgreSQL + Redis',
}, () => {
  test('a key revoked on one instance is refused by another on its very next request', async () => {
    const first = await buildTestApp();
    const second = await buildTestApp({
      database: first.database,
      redisPrefix: first.config.redisKeyPrefix,
      operatorKey: first.operatorKey,
    });
    try {
      const user = await createUser(first);
      const extra = await call(first.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        body: { name: 'shared' },
      });
      // Warm the second instance's verification cache with the key.
      assert.equal(
        (await call(second.app, 'GET', '/api/user/profile', { key: extra.data.api_key })).statusCode,
        200,
      );
      await call(first.app, 'DELETE', `/api/user/api-keys/${extra.data.id}`, { key: user.key });
      let refused = false;
      for (let i = 0; i < 20 && !refused; i++) {
        // Pub/sub delivery is asynchronous but takes milliseconds, far below the 5 s cache lifetime.
        refused =
          (await call(second.app, 'GET', '/api/user/profile', { key: extra.data.api_key })).statusCode ===
          401;
        if (!refused) await new Promise((r) => setTimeout(r, 25));
      }
      assert.ok(refused, 'the second instance refused the revoked key well within the cache lifetime');
    } finally {
      await second.close();
      await first.close();
    }
  });
});
