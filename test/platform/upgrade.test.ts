// An upgrade request that does not switch protocols gets its answer and then its connection closed, whatever
// the path; a switched connection and an ordinary keep-alive connection are left alone.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, createUser, type TestContext } from '../helpers/app.ts';
import { type RawAnswer, rawRequest } from './raw-upgrade.ts';

describe('upgrade requests that are not switched', () => {
  let ctx: TestContext;
  let port: number;
  const sockets: RawAnswer['socket'][] = [];
  const send = async (path: string, options?: Parameters<typeof rawRequest>[2]) => {
    const answer = await rawRequest(port, path, options);
    sockets.push(answer.socket);
    return answer;
  };

  before(async () => {
    ctx = await buildTestApp();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await ctx.close();
  });

  test('an unknown path answers 404 problem+json, then the server closes the connection within 1 s', async () => {
    const answer = await send('/ws/nope');
    assert.equal(answer.status, 404);
    assert.match(answer.headers['content-type']!, /^application\/problem\+json/);
    assert.equal(JSON.parse(answer.body).code, 'not_found');
    assert.ok(answer.headers['x-request-id']);
    assert.equal(answer.headers.connection, 'close');
    assert.equal(answer.closed, true, 'the socket was left open');
  });

  test('a refused upgrade to the live stream (no key → 401) is closed too', async () => {
    const answer = await send('/ws/trends-live');
    assert.equal(answer.status, 401);
    assert.match(answer.headers['content-type']!, /^application\/problem\+json/);
    assert.equal(answer.headers.connection, 'close');
    assert.equal(answer.closed, true, 'the socket was left open');
  });

  test('an ordinary route answering an upgrade request (200, 405) closes the connection after the answer', async () => {
    const plans = await send('/api/plans');
    assert.equal(plans.status, 200);
    assert.equal(plans.closed, true, 'the socket was left open after a 200');
    const wrongMethod = await send('/api/user/api-keys/1');
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.closed, true, 'the socket was left open after a 405');
  });

  test('a malformed URL (answered before routing) closes the connection too', async () => {
    const answer = await send('/ws/%zz');
    assert.equal(answer.status, 400);
    assert.equal(JSON.parse(answer.body).code, 'bad_url');
    assert.equal(answer.headers.connection, 'close');
    assert.equal(answer.closed, true, 'the socket was left open');
  });

  test('a switched connection (101) stays open', async () => {
    const scale = await createUser(ctx, 'scale');
    const answer = await send(`/ws/trends-live?token=${scale.key}`, { closeWithinMs: 300 });
    assert.equal(answer.status, 101);
    assert.equal(answer.closed, false);
  });

  test('a plain keep-alive request is not affected', async () => {
    const answer = await send('/api/plans', { headers: { Connection: 'keep-alive' }, closeWithinMs: 300 });
    assert.equal(answer.status, 200);
    assert.notEqual(answer.headers.connection, 'close');
    assert.equal(answer.closed, false);
  });
});
