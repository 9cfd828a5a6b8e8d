import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { cappedExpiry } from '../../../src/modules/accounts/service.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { couldHaveMade } from '../../../src/platform/idempotency.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';

/** Every text value stored in every table, to prove a secret is absent. */
async function allStoredText(ctx: TestContext): Promise<string> {
  const db = ctx.app.services.db;
  const tables = [
    'users',
    'api_keys',
    'audit_log',
    'usage_daily',
    'idempotency_keys',
    'jobs',
    'status_checks',
  ];
  const chunks: string[] = [];
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    chunks.push(JSON.stringify(rows.rows));
  }
  return chunks.join('\n');
}

describe('API keys', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  before(async () => {
    ctx = await buildTestApp({ clock });
  });
  after(async () => ctx.close());

  test('a created key has the contract format and appears only in the create response', async () => {
    const user = await createUser(ctx);
    const created = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'ci' },
    });
    assert.equal(created.statusCode, 201);
    assert.match(created.data.api_key, /^cw_[0-9A-Za-z]{40}$/);
    assert.equal(created.data.prefix, created.data.api_key.slice(0, 11));
    assert.deepEqual(created.data.permissions, ['read', 'write']);
    assert.equal(created.data.name, 'ci');
    const list = await call(ctx.app, 'GET', '/api/user/api-keys', { key: user.key });
    assert.equal(list.statusCode, 200);
    assert.ok(!list.body.includes(created.data.api_key));
    const listed = list.data.keys.find((k: { id: number }) => k.id === created.data.id);
    assert.deepEqual(Object.keys(listed).sort(), [
      'created_at',
      'expires_at',
      'id',
      'is_active',
      'last_used_at',
      'name',
      'permissions',
      'prefix',
      'rotated_to_id',
    ]);
    assert.equal(listed.is_active, true);
    assert.equal(listed.rotated_to_id, null);
    assert.equal(
      (await call(ctx.app, 'GET', '/api/user/profile', { key: created.data.api_key })).statusCode,
      200,
    );
  });

  test('the database holds no plaintext key, idempotency records included', async () => {
    const user = await createUser(ctx);
    const created = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'secret' },
      headers: { 'idempotency-key': 'create-secret-1' },
    });
    assert.equal(created.statusCode, 201);
    const rotated = await call(ctx.app, 'POST', `/api/user/api-keys/${created.data.id}/rotate`, {
      key: user.key,
      body: {},
      headers: { 'idempotency-key': 'rotate-secret-1' },
    });
    assert.equal(rotated.statusCode, 201);
    const stored = await allStoredText(ctx);
    for (const key of [created.data.api_key, rotated.data.api_key, user.key, ctx.operatorKey]) {
      assert.ok(!stored.includes(key), 'a plaintext key was found in the database');
      assert.ok(!stored.includes(key.slice(11)), 'the secret part of a key was found in the database');
    }
  });

  test('a key asking for a permission its creator lacks answers 403, on create and on rotate', async () => {
    const user = await createUser(ctx, 'developer', ['read', 'write']);
    const escalate = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'root', permissions: ['read', 'admin'] },
    });
    assertProblem(escalate, 403);
    assert.equal(escalate.data.code, 'permission_escalation');
    // An ingest key made by the operator cannot be rotated by the user's narrower key.
    const ingest = await call(ctx.app, 'POST', `/api/admin/users/${user.userId}/api-keys`, {
      key: ctx.operatorKey,
      body: { name: 'feeder', permissions: ['ingest'] },
    });
    assert.equal(ingest.statusCode, 201);
    assertProblem(
      await call(ctx.app, 'POST', `/api/user/api-keys/${ingest.data.id}/rotate`, { key: user.key, body: {} }),
      403,
    );
    const narrower = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'reader', permissions: ['read'] },
    });
    assert.equal(narrower.statusCode, 201);
    assert.deepEqual(narrower.data.permissions, ['read']);
  });

  test('an empty permissions list, as the upstream SDK sends, means the default read and write', async () => {
    const user = await createUser(ctx);
    const sdk = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'from-sdk', permissions: [] },
    });
    assert.equal(sdk.statusCode, 201, sdk.body);
    assert.deepEqual(sdk.data.permissions, ['read', 'write']);
    // The operator route follows the same rule.
    const admin = await call(ctx.app, 'POST', `/api/admin/users/${user.userId}/api-keys`, {
      key: ctx.operatorKey,
      body: { name: 'from-operator', permissions: [] },
    });
    assert.equal(admin.statusCode, 201, admin.body);
    assert.deepEqual(admin.data.permissions, ['read', 'write']);
    // Rotation keeps the rotated key's permissions.
    const rotated = await call(ctx.app, 'POST', `/api/user/api-keys/${sdk.data.id}/rotate`, {
      key: user.key,
      body: {},
    });
    assert.equal(rotated.statusCode, 201, rotated.body);
    assert.deepEqual(rotated.data.permissions, ['read', 'write']);
  });

  test('the default, asked for with [] or by leaving permissions out, is still capped by the creating key', async () => {
    const writer = await createUser(ctx, 'developer', ['write']);
    for (const body of [{ name: 'absent' }, { name: 'empty', permissions: [] }]) {
      const res = await call(ctx.app, 'POST', '/api/user/api-keys', { key: writer.key, body });
      assertProblem(res, 403);
      assert.equal(res.data.code, 'permission_escalation', body.name);
      assert.match(res.data.detail, /read/);
    }
  });

  test('the OpenAPI document says what an empty permissions list means', async () => {
    const doc = await call(ctx.app, 'GET', '/api/openapi.json');
    const schema = doc.data.paths['/api/user/api-keys'].post.requestBody.content['application/json'].schema;
    assert.equal(schema.properties.permissions.minItems, undefined);
    assert.match(schema.properties.permissions.description, /`\[\]`/);
  });

  test('invalid key requests answer 400 naming the field', async () => {
    const user = await createUser(ctx);
    const past = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'x', expires_at: '2020-01-01T00:00:00Z' },
    });
    assertProblem(past, 400);
    assert.equal(past.data.errors[0].path, 'body.expires_at');
    const noName = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { permissions: ['read'] },
    });
    assertProblem(noName, 400);
    assert.deepEqual(noName.data.errors, [{ path: 'body.name', message: 'is required' }]);
    const coerced = await call(ctx.app, 'POST', '/api/user/api-keys', { key: user.key, body: { name: 5 } });
    assertProblem(coerced, 400);
    const badPerm = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'x', permissions: ['root'] },
    });
    assertProblem(badPerm, 400);
    assert.equal(badPerm.data.errors[0].path, 'body.permissions[0]');
    for (const permissions of [
      'read',
      null,
      ['read', 'read'],
      ['read', 'write', 'ingest', 'admin', 'read'],
    ]) {
      const res = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        body: { name: 'x', permissions },
      });
      assertProblem(res, 400);
      assert.match(res.data.errors[0].path, /^body\.permissions/, JSON.stringify(permissions));
    }
    const grace = await call(ctx.app, 'POST', `/api/user/api-keys/${user.keyId}/rotate`, {
      key: user.key,
      body: { grace_period_seconds: 604_801 },
    });
    assertProblem(grace, 400);
    assert.equal(grace.data.errors[0].path, 'body.grace_period_seconds');
  });

  test('after a rotation the old key works until the grace period ends and answers 401 after', async () => {
    const user = await createUser(ctx);
    const rotated = await call(ctx.app, 'POST', `/api/user/api-keys/${user.keyId}/rotate`, {
      key: user.key,
      body: { grace_period_seconds: 3600 },
    });
    assert.equal(rotated.statusCode, 201);
    assert.equal(rotated.data.name, 'test');
    assert.deepEqual(rotated.data.permissions, ['read', 'write']);
    assert.notEqual(rotated.data.api_key, user.key);
    clock.advance(3599_000);
    assert.equal((await call(ctx.app, 'GET', '/api/user/profile', { key: user.key })).statusCode, 200);
    clock.advance(2000);
    const old = await call(ctx.app, 'GET', '/api/user/profile', { key: user.key });
    assertProblem(old, 401);
    assert.equal(
      (await call(ctx.app, 'GET', '/api/user/profile', { key: rotated.data.api_key })).statusCode,
      200,
    );
    // A rotation without a body uses the default one-day grace period.
    const again = await call(ctx.app, 'POST', `/api/user/api-keys/${rotated.data.id}/rotate`, {
      key: rotated.data.api_key,
    });
    assert.equal(again.statusCode, 201);
    const keys = await call(ctx.app, 'GET', '/api/user/api-keys', { key: again.data.api_key });
    const previous = keys.data.keys.find((k: { id: number }) => k.id === rotated.data.id);
    assert.equal(Date.parse(previous.expires_at), clock.now() + 86_400_000);
    // The listing says which key replaced which, so a client can tell a rotated key from a fresh one.
    assert.equal(previous.rotated_to_id, again.data.id);
    const current = keys.data.keys.find((k: { id: number }) => k.id === again.data.id);
    assert.equal(current.rotated_to_id, null);
  });

  test('a key cannot create or rotate keys that outlive it: expiry is inherited, or capped at its own', async () => {
    const user = await createUser(ctx);
    const inOneDay = new Date(clock.now() + 86_400_000).toISOString();
    const short = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'short', expires_at: inOneDay },
    });
    assert.equal(short.statusCode, 201);
    const inherited = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: short.data.api_key,
      body: { name: 'child' },
    });
    assert.equal(inherited.statusCode, 201);
    assert.equal(inherited.data.expires_at, short.data.expires_at, 'no expiry asked: the creator’s');
    const later = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: short.data.api_key,
      body: { name: 'later', expires_at: new Date(clock.now() + 30 * 86_400_000).toISOString() },
    });
    assert.equal(later.data.expires_at, short.data.expires_at, 'a later expiry is capped');
    const sooner = new Date(clock.now() + 3600_000).toISOString();
    const earlier = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: short.data.api_key,
      body: { name: 'earlier', expires_at: sooner },
    });
    assert.equal(Date.parse(earlier.data.expires_at), Date.parse(sooner), 'an earlier expiry is kept');
    // Rotating a key without expiry with the short-lived key: the successor cannot outlive the rotating key.
    const rotated = await call(ctx.app, 'POST', `/api/user/api-keys/${user.keyId}/rotate`, {
      key: short.data.api_key,
      body: { grace_period_seconds: 60 },
    });
    assert.equal(rotated.statusCode, 201);
    assert.equal(rotated.data.expires_at, short.data.expires_at);
    // A key without expiry still creates keys without expiry.
    const forever = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: rotated.data.api_key,
      body: { name: 'forever' },
    });
    assert.equal(forever.data.expires_at, short.data.expires_at, 'its own expiry was inherited at rotation');
    const operator = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: ctx.operatorKey,
      body: { name: 'unbounded' },
    });
    assert.equal(operator.data.expires_at, null);
  });

  test('a key in its rotation grace period still works but cannot create or rotate keys (403)', async () => {
    const user = await createUser(ctx);
    const other = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'other' },
    });
    const rotated = await call(ctx.app, 'POST', `/api/user/api-keys/${user.keyId}/rotate`, {
      key: user.key,
      body: { grace_period_seconds: 3600 },
    });
    assert.equal(rotated.statusCode, 201);
    assert.equal((await call(ctx.app, 'GET', '/api/user/profile', { key: user.key })).statusCode, 200);
    const create = await call(ctx.app, 'POST', '/api/user/api-keys', { key: user.key, body: { name: 'x' } });
    assertProblem(create, 403);
    assert.equal(create.data.code, 'api_key_rotated');
    const rotateOther = await call(ctx.app, 'POST', `/api/user/api-keys/${other.data.id}/rotate`, {
      key: user.key,
    });
    assertProblem(rotateOther, 403);
    const keys = await call(ctx.app, 'GET', '/api/user/api-keys', { key: rotated.data.api_key });
    assert.equal(keys.data.keys.length, 3, 'nothing was created');
    // Its successor can.
    const fresh = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: rotated.data.api_key,
      body: { name: 'x' },
    });
    assert.equal(fresh.statusCode, 201);
  });

  test('a revoked key cannot be rotated (409) and revoking twice is harmless', async () => {
    const user = await createUser(ctx);
    const extra = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'gone' },
    });
    assert.equal(
      (await call(ctx.app, 'DELETE', `/api/user/api-keys/${extra.data.id}`, { key: user.key })).statusCode,
      204,
    );
    assert.equal(
      (await call(ctx.app, 'DELETE', `/api/user/api-keys/${extra.data.id}`, { key: user.key })).statusCode,
      204,
    );
    assertProblem(
      await call(ctx.app, 'POST', `/api/user/api-keys/${extra.data.id}/rotate`, { key: user.key, body: {} }),
      409,
    );
    assertProblem(await call(ctx.app, 'DELETE', '/api/user/api-keys/999999', { key: user.key }), 404);
  });

  test('the audit log records key creation, rotation and revocation, newest first', async () => {
    const user = await createUser(ctx);
    const created = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'audited' },
    });
    const rotated = await call(ctx.app, 'POST', `/api/user/api-keys/${created.data.id}/rotate`, {
      key: user.key,
      body: {},
    });
    await call(ctx.app, 'DELETE', `/api/user/api-keys/${rotated.data.id}`, {
      key: user.key,
      headers: { 'x-request-id': 'revoke-req-1' },
    });
    const log = await call(ctx.app, 'GET', '/api/user/audit-log?limit=3', { key: user.key });
    assert.equal(log.statusCode, 200);
    assert.deepEqual(
      log.data.entries.map((e: { action: string }) => e.action),
      ['api_key.revoked', 'api_key.rotated', 'api_key.created'],
    );
    assert.equal(log.data.entries[0].request_id, 'revoke-req-1');
    assert.equal(log.data.entries[0].target_type, 'api_key');
    assert.equal(log.data.entries[0].target_id, String(rotated.data.id));
    assert.equal(log.data.meta.limit, 3);
    assert.ok(log.data.meta.total >= 4, 'the operator-made key is in the log too');
    const other = await createUser(ctx);
    const otherLog = await call(ctx.app, 'GET', '/api/user/audit-log', { key: other.key });
    assert.ok(
      otherLog.data.entries.every((e: { target_id: string }) => e.target_id !== String(rotated.data.id)),
    );
  });
});

describe('Idempotency-Key', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await buildTestApp();
  });
  after(async () => ctx.close());

  test('the same key and body replay the same status and body with Idempotent-Replayed: true', async () => {
    const user = await createUser(ctx);
    const headers = { 'idempotency-key': 'same-1' };
    const first = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'once' },
      headers,
    });
    const second = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'once' },
      headers,
    });
    assert.equal(first.statusCode, 201);
    assert.equal(second.statusCode, 201);
    assert.equal(second.body, first.body);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const keys = await call(ctx.app, 'GET', '/api/user/api-keys', { key: user.key });
    assert.equal(
      keys.data.keys.filter((k: { name: string }) => k.name === 'once').length,
      1,
      'only one key was created',
    );
  });

  test('a replay to another key of the user that could not have made the request answers 403', async () => {
    const user = await createUser(ctx, 'developer', ['read', 'write', 'admin']);
    const weaker = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'weaker', permissions: ['read', 'write'] },
    });
    const request = {
      body: { name: 'admin child', permissions: ['admin'] },
      headers: { 'idempotency-key': 'esc-1' },
    };
    const first = await call(ctx.app, 'POST', '/api/user/api-keys', { key: user.key, ...request });
    assert.equal(first.statusCode, 201);
    // Made fresh, the weaker key would get 403 permission_escalation; the replay must not hand it the secret.
    const replay = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: weaker.data.api_key,
      ...request,
    });
    assertProblem(replay, 403);
    assert.equal(replay.data.code, 'idempotency_key_forbidden');
    assert.ok(!replay.body.includes(first.data.api_key), 'the secret is not in the refusal');
    // The key that made it, and an equally entitled key, still get the replay.
    const again = await call(ctx.app, 'POST', '/api/user/api-keys', { key: user.key, ...request });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    const peer = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'peer', permissions: ['read', 'write', 'admin'] },
    });
    const fromPeer = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: peer.data.api_key,
      ...request,
    });
    assert.equal(fromPeer.statusCode, 201);
    assert.equal(fromPeer.body, first.body);
  });

  test('cappedExpiry: the asked expiry, never later than the creating key’s', () => {
    assert.equal(cappedExpiry(null, null), null);
    assert.equal(cappedExpiry(5000, null), 5000);
    assert.equal(cappedExpiry(null, 3000), 3000);
    assert.equal(cappedExpiry(5000, 3000), 3000);
    assert.equal(cappedExpiry(1000, 3000), 1000);
  });

  test('couldHaveMade: every permission, not rotated, expiring no sooner', () => {
    const original = { permissions: ['read', 'write'], expiresAt: 2000 };
    assert.equal(
      couldHaveMade({ permissions: ['read', 'write', 'admin'], expiresAt: null, rotated: false }, original),
      true,
    );
    assert.equal(couldHaveMade({ permissions: ['read'], expiresAt: null, rotated: false }, original), false);
    assert.equal(
      couldHaveMade({ permissions: ['read', 'write'], expiresAt: 1000, rotated: false }, original),
      false,
    );
    assert.equal(
      couldHaveMade({ permissions: ['read', 'write'], expiresAt: 2000, rotated: false }, original),
      true,
    );
    assert.equal(
      couldHaveMade({ permissions: ['read', 'write'], expiresAt: null, rotated: true }, original),
      false,
    );
    assert.equal(
      couldHaveMade(
        { permissions: ['read'], expiresAt: 5000, rotated: false },
        { permissions: ['read'], expiresAt: null },
      ),
      false,
    );
  });

  test('the same key with a different body answers 422', async () => {
    const user = await createUser(ctx);
    const headers = { 'idempotency-key': 'diff-1' };
    assert.equal(
      (await call(ctx.app, 'POST', '/api/user/api-keys', { key: user.key, body: { name: 'a' }, headers }))
        .statusCode,
      201,
    );
    const res = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'b' },
      headers,
    });
    assertProblem(res, 422);
    assert.equal(res.data.code, 'idempotency_key_reused');
  });

  test('requests that fail validation are not stored, and keys are scoped per user', async () => {
    const a = await createUser(ctx);
    const b = await createUser(ctx);
    const headers = { 'idempotency-key': 'scoped-1' };
    assertProblem(
      await call(ctx.app, 'POST', '/api/user/api-keys', { key: a.key, body: { nme: 'typo' }, headers }),
      400,
    );
    const fixed = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: a.key,
      body: { name: 'fixed' },
      headers,
    });
    assert.equal(fixed.statusCode, 201);
    const other = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: b.key,
      body: { name: 'other' },
      headers,
    });
    assert.equal(other.statusCode, 201);
    assert.notEqual(other.data.id, fixed.data.id);
  });

  test('a retry while the first request is still running answers 409; another body under the key 422', async () => {
    const user = await createUser(ctx);
    const request = { key: user.key, body: { name: 'busy' }, headers: { 'idempotency-key': 'busy-1' } };
    const first = await call(ctx.app, 'POST', '/api/user/api-keys', request);
    assert.equal(first.statusCode, 201, first.body);
    // Put the record back the way the first request holds it while it runs: same key, same request.
    const { idempotency } = ctx.app.services;
    const done = await idempotency.find(user.userId, 'busy-1');
    assert.ok(done, 'the first request was stored');
    assert.equal(done.state, 'done');
    await idempotency.remove(done.id);
    await idempotency.insertRunning(user.userId, 'busy-1', done.request_hash, user.keyId);

    const retry = await call(ctx.app, 'POST', '/api/user/api-keys', request);
    assertProblem(retry, 409);
    assert.equal(retry.data.code, 'idempotency_in_progress');
    assert.equal(retry.headers['idempotent-replayed'], undefined);
    const keys = await call(ctx.app, 'GET', '/api/user/api-keys', { key: user.key });
    assert.equal(
      keys.data.keys.filter((k: { name: string }) => k.name === 'busy').length,
      1,
      'the retry created nothing',
    );
    assert.equal((await idempotency.find(user.userId, 'busy-1'))?.state, 'running', 'left to the first');

    // A different body is a reused key whether or not the first request has finished.
    const other = await call(ctx.app, 'POST', '/api/user/api-keys', { ...request, body: { name: 'other' } });
    assertProblem(other, 422);
    assert.equal(other.data.code, 'idempotency_key_reused');
  });

  test('an Idempotency-Key longer than 255 characters answers 400', async () => {
    const user = await createUser(ctx);
    const res = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'x' },
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    assertProblem(res, 400);
  });
});
