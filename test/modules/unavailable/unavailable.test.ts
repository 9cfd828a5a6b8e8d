// Upstream capabilities a self-hosted Crestwatch does not offer: 503 `CAPABILITY_UNAVAILABLE` (what upstream's
// SDK maps to CapabilityUnavailableError), never 404, no Retry-After, no key needed and no quota spent.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { rawRequest } from '../../platform/raw-upgrade.ts';

const ROUTES = [
  ['POST', '/api/billing/create-portal-session', { return_url: 'https://example.com/account' }],
  ['GET', '/api/intelligence/financial-data?timezone=Europe/London', undefined],
  ['GET', '/api/public/homepage-data', undefined],
  ['POST', '/api/events/track', { session_id: 's1', event_type: 'page_view', event_data: { a: [1] } }],
  ['GET', '/ws/finance', undefined],
] as const;

describe('capabilities a self-hosted service does not offer', () => {
  let ctx: TestContext;

  before(async () => {
    ctx = await buildTestApp();
  });
  after(async () => ctx.close());

  test('each answers 503 problem+json with code CAPABILITY_UNAVAILABLE, a readable detail, no Retry-After', async () => {
    for (const [method, url, body] of ROUTES) {
      const res = await call(ctx.app, method, url, { body });
      const where = `${method} ${url}`;
      assertProblem(res, 503);
      assert.equal(res.data.code, 'CAPABILITY_UNAVAILABLE', where);
      assert.match(res.data.detail, /is not offered by a self-hosted Crestwatch: .+\. .+/, where);
      assert.equal(res.headers['retry-after'], undefined, `${where} carries no Retry-After`);
      assert.ok(res.headers['x-request-id'], `${where} carries X-Request-Id`);
      assert.equal(res.data.request_id, res.headers['x-request-id']);
    }
  });

  test('no key is needed, a key sent is not charged, and no rate-limit headers are added', async () => {
    const user = await createUser(ctx, 'developer');
    const profile = () => call(ctx.app, 'GET', '/api/user/profile', { key: user.key });
    const before = Number((await profile()).headers['x-ratelimit-remaining']);
    for (const [method, url, body] of ROUTES) {
      const res = await call(ctx.app, method, url, { key: user.key, header: 'x-api-key', body });
      assert.equal(res.statusCode, 503, `${method} ${url}`);
      assert.equal(res.headers['x-ratelimit-limit'], undefined);
    }
    const res = await call(ctx.app, 'GET', '/api/public/homepage-data', { key: 'cw_not_a_real_key' });
    assert.equal(res.statusCode, 503, 'an unknown key is not even looked at');
    const afterwards = Number((await profile()).headers['x-ratelimit-remaining']);
    assert.equal(afterwards, before - 1, 'only the profile call itself was counted');
  });

  test('they are limited per client IP like other public routes', async () => {
    const limited = await buildTestApp({ env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await call(limited.app, 'POST', '/api/events/track', { body: {} })).statusCode);
      }
      assert.deepEqual(statuses, [503, 503, 429]);
    } finally {
      await limited.close();
    }
  });

  test('whatever body the POST routes get (invalid JSON, a form, no content type) the answer is the 503', async () => {
    for (const url of ['/api/billing/create-portal-session', '/api/events/track']) {
      for (const [type, payload] of [
        ['application/json', '{"unknown_field": 1}'],
        ['application/json', '{not json'],
        ['application/x-www-form-urlencoded', 'a=1&b=2'],
        [undefined, 'plain words'],
      ] as const) {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          headers: type ? { 'content-type': type } : {},
          payload,
        });
        assert.equal(res.statusCode, 503, `${url} with ${type}: ${res.body}`);
        assert.equal(JSON.parse(res.body).code, 'CAPABILITY_UNAVAILABLE');
      }
    }
  });

  test('a WebSocket upgrade to /ws/finance gets the 503 problem+json, then the connection is closed', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const answer = await rawRequest(port, '/ws/finance');
    answer.socket.destroy();
    assert.equal(answer.status, 503);
    assert.match(answer.headers['content-type']!, /^application\/problem\+json/);
    assert.equal(JSON.parse(answer.body).code, 'CAPABILITY_UNAVAILABLE');
    assert.equal(answer.headers['retry-after'], undefined);
    assert.ok(answer.headers['x-request-id']);
    assert.equal(answer.closed, true, 'the socket was left open');

    // What a WebSocket client (like upstream's SDK) sees: the handshake refused with that status.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/finance?token=cw_anything`);
      ws.once('unexpected-response', (_req, res) => {
        res.resume();
        resolve(res.statusCode);
      });
      ws.once('open', () => reject(new Error('the upgrade was accepted')));
      ws.once('error', reject);
    });
    assert.equal(status, 503);
  });

  test('each is in the OpenAPI document: public, a 503 Problem response without Retry-After, a description', async () => {
    const doc = (await call(ctx.app, 'GET', '/api/openapi.json')).data;
    for (const [method, url] of ROUTES) {
      const path = url.split('?')[0]!;
      const op = doc.paths[path]?.[method.toLowerCase()];
      assert.ok(op, `${method} ${path} is documented`);
      assert.match(op.description, /not offered by a self-hosted Crestwatch/);
      assert.deepEqual(op.security, []);
      assert.equal(op['x-capability-unavailable'], true);
      const unavailable = op.responses['503'];
      assert.equal(
        unavailable.content['application/problem+json'].schema.$ref,
        '#/components/schemas/Problem',
      );
      assert.match(unavailable.description, /CAPABILITY_UNAVAILABLE/);
      assert.ok(unavailable.headers['X-Request-Id']);
      assert.equal(unavailable.headers['Retry-After'], undefined);
    }
  });
});
