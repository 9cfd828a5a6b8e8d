import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { registerErrorHandling } from '../../src/platform/error-handler.ts';
import { MAX_JSON_DEPTH } from '../../src/platform/input.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../helpers/app.ts';

describe('errors and validation', () => {
  let ctx: TestContext;
  let key: string;
  before(async () => {
    ctx = await buildTestApp();
    key = (await createUser(ctx, 'enterprise')).key;
  });
  after(async () => ctx.close());

  test('unknown routes answer 404 and wrong methods 405 with Allow, both problem+json', async () => {
    assertProblem(await call(ctx.app, 'GET', '/api/nothing-here'), 404);
    const wrong = await call(ctx.app, 'PUT', '/api/user/api-keys', { key });
    assertProblem(wrong, 405);
    assert.equal(wrong.headers.allow, 'GET, POST');
  });

  test('every response carries X-Request-Id, and a sane incoming one is echoed', async () => {
    const mine = await call(ctx.app, 'GET', '/api/plans', { headers: { 'x-request-id': 'abc-123' } });
    assert.equal(mine.headers['x-request-id'], 'abc-123');
    const error = await call(ctx.app, 'GET', '/api/user/profile');
    assert.match(String(error.headers['x-request-id']), /^req_[0-9a-f]{12}[0-9a-z]{8,}$/);
    assert.equal(error.data.request_id, error.headers['x-request-id']);
    const hostile = await call(ctx.app, 'GET', '/api/plans', { headers: { 'x-request-id': '<script>' } });
    assert.notEqual(hostile.headers['x-request-id'], '<script>');
  });

  test('a body over 1 MiB answers 413 and a non-JSON content type 415', async () => {
    const big = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key,
      body: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
      headers: { 'content-type': 'application/json' },
    });
    assertProblem(big, 413);
    const text = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key,
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assertProblem(text, 415);
  });

  test('malformed JSON answers 400 invalid_json, and bodies are never coerced', async () => {
    const broken = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key,
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    assertProblem(broken, 400);
    assert.equal(broken.data.code, 'invalid_json');
    // Prototype keys, written out or escaped (bodies without the words or escapes are parsed directly), and with
    // a byte-order mark in front.
    for (const body of [
      '{"name":"x","__proto__":{"admin":true}}',
      '{"name":"x","\\u005f_proto__":{"admin":true}}',
      '{"name":"x","constructor":{"prototype":{"admin":true}}}',
      '{"name":"x","\\u0063onstructor":{"prototype":{"admin":true}}}',
      '\ufeff{"name":"x","__proto__":{"admin":true}}',
    ]) {
      const poisoned = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key,
        body,
        headers: { 'content-type': 'application/json' },
      });
      assertProblem(poisoned, 400);
    }
    // A plain body with a byte-order mark is read as without one.
    const marked = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key,
      body: '\ufeff{"name":"marked"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(marked.statusCode, 201, marked.body);
    const numberAsString = await call(ctx.app, 'POST', `/api/user/api-keys/1/rotate`, {
      key,
      body: { grace_period_seconds: '60' },
    });
    assertProblem(numberAsString, 400);
    assert.equal(numberAsString.data.errors[0].path, 'body.grace_period_seconds');
  });

  test('a NUL in a body string is refused, an escaped backslash before u0000 is not a NUL', async () => {
    const nul = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key,
      body: '{"name":"a\\u0000b"}',
      headers: { 'content-type': 'application/json' },
    });
    assertProblem(nul, 400);
    assert.equal(nul.data.detail, 'body.name must not contain NUL (\\u0000) characters.');
    assert.equal(nul.data.errors[0].path, 'body.name');
    const inKey = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key,
      body: '{"name":"k","permissions":["read"],"x\\u0000":1}',
      headers: { 'content-type': 'application/json' },
    });
    assertProblem(inKey, 400);
    assert.equal(inKey.data.errors[0].path, 'body.x\\u0000');
    const literal = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key,
      body: '{"name":"path C:\\\\u0000"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(literal.statusCode, 201, literal.body);
    assert.equal(literal.data.name, 'path C:\\u0000');
  });

  test(`bodies nested more than ${MAX_JSON_DEPTH} levels answer 400 invalid_json, however deep`, async () => {
    const ingestKey = (await createUser(ctx, 'enterprise', ['ingest'])).key;
    const nested = (depth: number) => `{"signals":[${'['.repeat(depth - 2)}${']'.repeat(depth - 2)}]}`;
    for (const depth of [MAX_JSON_DEPTH + 1, 100_000]) {
      const deep = await call(ctx.app, 'POST', '/api/signals', {
        key: ingestKey,
        body: nested(depth),
        headers: { 'content-type': 'application/json' },
      });
      assertProblem(deep, 400);
      assert.equal(deep.data.code, 'invalid_json');
      assert.match(deep.data.detail, new RegExp(`more than ${MAX_JSON_DEPTH} levels`));
    }
    // At the limit the body is parsed: the item is refused on its own, the batch is not.
    const atLimit = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      body: nested(MAX_JSON_DEPTH),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(atLimit.statusCode, 202, atLimit.body);
    assert.equal(atLimit.data.rejected[0].index, 0);
    // Brackets inside strings are text, not nesting.
    const inText = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key,
      body: JSON.stringify({ name: `${'['.repeat(90)}"\\{{{{` }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(inText.statusCode, 201, inText.body);
  });

  test('query and path values are parsed, and a bad one answers 400 naming it', async () => {
    const ok = await call(ctx.app, 'GET', '/api/user/audit-log?limit=5&offset=0', { key });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.data.meta.limit, 5);
    const bad = await call(ctx.app, 'GET', '/api/user/audit-log?limit=500', { key });
    assertProblem(bad, 400);
    assert.equal(bad.data.errors[0].path, 'query.limit');
    assert.match(bad.data.detail, /query\.limit/);
    const unknown = await call(ctx.app, 'GET', '/api/user/audit-log?colour=blue', { key });
    assertProblem(unknown, 400);
    assert.equal(unknown.data.errors[0].path, 'query.colour');
    const path = await call(ctx.app, 'DELETE', '/api/user/api-keys/abc', { key });
    assertProblem(path, 400);
    assert.equal(path.data.errors[0].path, 'path.key_id');
  });

  test('numbers in queries and paths must be decimal digits: hex, exponents, signs and spaces are a 400', async () => {
    for (const limit of ['0x5', '1e1', '%2B5', '%205', '5%20', '0b11', '5.0']) {
      const res = await call(ctx.app, 'GET', `/api/user/audit-log?limit=${limit}`, { key });
      assertProblem(res, 400);
      assert.equal(res.data.errors[0].path, 'query.limit', limit);
      assert.match(res.data.errors[0].message, /integer written in decimal digits/);
    }
    assert.equal((await call(ctx.app, 'GET', '/api/user/audit-log?limit=05', { key })).data.meta.limit, 5);
    const created = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key,
      body: { name: 'spare', permissions: ['read'] },
    });
    for (const id of [`0x${created.data.id.toString(16)}`, `${created.data.id}e0`, `${created.data.id}.0`]) {
      const res = await call(ctx.app, 'DELETE', `/api/user/api-keys/${id}`, { key });
      assertProblem(res, 400);
      assert.equal(res.data.errors[0].path, 'path.key_id', id);
    }
    const keys = await call(ctx.app, 'GET', '/api/user/api-keys', { key });
    assert.ok(keys.data.keys.some((k: { id: number; status?: string }) => k.id === created.data.id));
  });

  test('a route without query parameters refuses any, naming it', async () => {
    for (const url of [
      '/api/user/profile?foo=1',
      '/api/user/api-keys?limit=0',
      '/api/trends/categories?zzz=1',
    ]) {
      const res = await call(ctx.app, 'GET', url, { key });
      assertProblem(res, 400);
      assert.equal(res.data.errors[0].path, `query.${url.split('?')[1]!.split('=')[0]}`);
      assert.match(res.data.detail, /is not an accepted field/);
    }
    assert.equal((await call(ctx.app, 'GET', '/api/user/profile', { key })).statusCode, 200);
  });

  test('a route that takes no body refuses one with fields, and does nothing', async () => {
    const spare = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key,
      body: { name: 'to revoke', permissions: ['read'] },
    });
    const refused = await call(ctx.app, 'DELETE', `/api/user/api-keys/${spare.data.id}`, {
      key,
      body: { x: 1 },
    });
    assertProblem(refused, 400);
    assert.equal(refused.data.code, 'validation_failed');
    assert.equal(refused.data.errors[0].path, 'body.x');
    const array = await call(ctx.app, 'DELETE', `/api/user/api-keys/${spare.data.id}`, { key, body: [1] });
    assertProblem(array, 400);
    assert.equal(array.data.errors[0].path, 'body');
    // Still usable: nothing was revoked.
    const profile = await call(ctx.app, 'GET', '/api/user/profile', { key: spare.data.api_key });
    assert.equal(profile.statusCode, 200);
    // No body, or an empty object, is fine.
    const revoked = await call(ctx.app, 'DELETE', `/api/user/api-keys/${spare.data.id}`, { key, body: {} });
    assert.equal(revoked.statusCode, 204, revoked.body);
  });

  test('a request the HTTP parser refuses gets problem+json with a request id', async () => {
    const spare = await buildTestApp();
    try {
      await spare.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = spare.app.server.address() as AddressInfo;
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          // Raw UTF-8 bytes in the request target are not valid HTTP.
          socket.write(Buffer.from('GET /api/trends?search=Z\u00d6RBLE HTTP/1.1\r\nHost: x\r\n\r\n', 'utf8'));
        });
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString();
        });
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      const [head, body] = raw.split('\r\n\r\n');
      assert.match(head!, /^HTTP\/1\.1 400 /);
      assert.match(head!, /content-type: application\/problem\+json/i);
      const id = /x-request-id: (\S+)/i.exec(head!)?.[1];
      assert.ok(id, head);
      const problem = JSON.parse(body!);
      assert.equal(problem.status, 400);
      assert.equal(problem.code, 'malformed_request');
      assert.equal(problem.request_id, id);
    } finally {
      await spare.close();
    }
  });

  test('an unavailable database answers 503 with Retry-After', async () => {
    const spare = await buildTestApp();
    try {
      const spareKey = spare.operatorKey;
      assert.equal((await call(spare.app, 'GET', '/api/user/api-keys', { key: spareKey })).statusCode, 200);
      await spare.app.services.db.destroy();
      // A fresh key forces a database lookup rather than the verification cache.
      const res = await call(spare.app, 'GET', '/api/user/profile', { key: `cw_${'A'.repeat(40)}` });
      assertProblem(res, 503);
      assert.ok(Number(res.headers['retry-after']) >= 1);
    } finally {
      await spare.close().catch(() => {});
    }
  });
});

describe('unexpected errors', () => {
  test('a 500 never shows internals but carries the request id', async () => {
    const app = Fastify({ logger: false, genReqId: () => 'req_fixed' });
    registerErrorHandling(app);
    app.get('/boom', async () => {
      throw new Error('secret connection string postgres://admin:hunter2@db');
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    assert.equal(res.statusCode, 500);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.ok(!res.body.includes('hunter2'));
    assert.equal(JSON.parse(res.body).request_id, 'req_fixed');
    await app.close();
  });
});

describe('metrics and overload', () => {
  test('/metrics serves Prometheus text and requires METRICS_TOKEN when set', async () => {
    const ctx = await buildTestApp({ env: { METRICS_TOKEN: 'scrape-token-123' } });
    try {
      await call(ctx.app, 'GET', '/api/plans');
      assertProblem(await call(ctx.app, 'GET', '/metrics'), 401);
      assertProblem(
        await call(ctx.app, 'GET', '/metrics', { headers: { authorization: 'Bearer wrong' } }),
        401,
      );
      const res = await call(ctx.app, 'GET', '/metrics', {
        headers: { authorization: 'Bearer scrape-token-123' },
      });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.match(
        res.body,
        /crestwatch_http_requests_total\{method="GET",route="\/api\/plans",status="200"\} 1/,
      );
    } finally {
      await ctx.close();
    }
  });

  test('a blocked event loop answers 503 overloaded with Retry-After', async () => {
    const ctx = await buildTestApp({ env: { OVERLOAD_EVENT_LOOP_DELAY_MS: '50' } });
    try {
      const until = Date.now() + 1200;
      while (Date.now() < until) {
        // Block the event loop so under-pressure measures the delay.
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
      const res = await call(ctx.app, 'GET', '/api/plans');
      assertProblem(res, 503);
      assert.equal(res.data.code, 'overloaded');
      assert.ok(Number(res.headers['retry-after']) >= 1);
    } finally {
      await ctx.close();
    }
  });

  test('CORS is off unless CORS_ORIGINS lists origins', async () => {
    const off = await buildTestApp();
    const on = await buildTestApp({ env: { CORS_ORIGINS: 'https://app.example.com' } });
    try {
      const headers = { origin: 'https://app.example.com' };
      assert.equal(
        (await call(off.app, 'GET', '/api/plans', { headers })).headers['access-control-allow-origin'],
        undefined,
      );
      const allowed = await call(on.app, 'GET', '/api/plans', { headers });
      assert.equal(allowed.headers['access-control-allow-origin'], 'https://app.example.com');
    } finally {
      await on.close();
      await off.close();
    }
  });
});
