// Deliveries per destination: a receiver that does not answer holds at most its share of requests, and the
// deliveries to other receivers arrive meanwhile; the waiting ones are not charged an attempt.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Services } from '../../../src/services.ts';
import { buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { startReceiver, waitFor } from './receiver.ts';

let ctx: TestContext;
let services: Services;

before(async () => {
  ctx = await buildTestApp({
    env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8', OUTBOUND_CONCURRENCY_PER_DESTINATION: '4' },
  });
  services = ctx.app.services;
  services.worker.start();
});
after(async () => ctx.close());

/** Accepts requests and never answers them (until closed); counts what it holds. */
async function silentReceiver() {
  const state = { received: 0, open: 0, peak: 0 };
  const server = http.createServer((req) => {
    req.resume();
    state.received++;
    state.open++;
    state.peak = Math.max(state.peak, state.open);
    req.socket.once('close', () => state.open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test('a receiver that never answers holds its destination limit only; other receivers get theirs at once', async () => {
  const limit = services.outbound.perOriginLimit;
  assert.equal(limit, 4, 'OUTBOUND_CONCURRENCY_PER_DESTINATION sets the limit');
  const concurrency = ctx.config.jobConcurrency;
  const silent = await silentReceiver();
  const prompt = await startReceiver();
  try {
    const user = await createUser(ctx, 'enterprise');
    const subscribe = async (url: string) => {
      const res = await call(ctx.app, 'POST', '/api/integrations/webhooks', {
        key: user.key,
        body: {
          url,
          trigger_type: 'trend_velocity',
          delivery_mode: 'instant_stream',
          threshold_value: 50,
          cooldown_seconds: 0,
        },
      });
      assert.equal(res.statusCode, 201, res.body);
    };
    // The silent receiver's deliveries are queued first: more of them than there are job slots.
    const stuck = concurrency * 2;
    for (let i = 0; i < stuck; i++) await subscribe(silent.url);
    for (let i = 0; i < 3; i++) await subscribe(prompt.url);

    const at = Date.now();
    await services.events.record(services.db, {
      id: `trend.velocity.crossed:1:60:${at}`,
      type: 'trend.velocity.crossed',
      occurred_at: at,
      data: {
        trend_id: 1,
        trend_name: 'Quantum widgets',
        category: 'Technology/AI',
        velocity: 60,
        volume: 120,
        from_velocity: 30,
        levels: [50],
      },
    });
    await waitFor(
      'the prompt receiver’s three deliveries',
      () => prompt.received.length >= 3 || undefined,
      3000,
    );
    const tookMs = Math.max(...prompt.received.map((r) => r.at)) - at;
    assert.ok(tookMs < 2000, `delivered in ${tookMs} ms while the other receiver held its requests`);
    await waitFor('the silent receiver’s share', () => silent.state.received >= limit || undefined);
    // Its other deliveries wait for a slot of its own, however long it takes to answer.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(silent.state.peak, limit, `the silent receiver got ${silent.state.peak} requests at once`);
    assert.equal(silent.state.received, limit);

    // The deliveries waiting for the silent destination went back to the queue without spending an attempt.
    const waiting = await services.db
      .selectFrom('jobs')
      .select(['status', 'attempts'])
      .where('type', '=', 'webhook.deliver')
      .where('status', '=', 'queued')
      .execute();
    assert.ok(waiting.length >= stuck - limit - concurrency, `${waiting.length} waiting`);
    assert.ok(
      waiting.every((job) => Number(job.attempts) === 0),
      'no attempt is charged while the destination is busy',
    );
  } finally {
    await silent.close();
    await prompt.close();
  }
});
