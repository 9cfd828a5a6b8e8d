// Triggering and delivery: signatures a stock library verifies, retries, 410, cooldowns, rotation, redelivery,
// the test route, digests, crisis ownership and the outbound guard at delivery time.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { AIInsight } from '../../../src/modules/insights/index.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { secretKey } from '../../../src/platform/signing.ts';
import type { Services } from '../../../src/services.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';
import { drainJobs } from '../../helpers/jobs.ts';
import { type Receiver, startReceiver, waitFor } from './receiver.ts';

const BASE = '/api/integrations/webhooks';
// standardwebhooks checks the timestamp against the real clock: start the manual clock at real time.
const clock = new ManualClock(Date.now());
let ctx: TestContext;
let services: Services;
let latestInsight: (userId: number, trendId: number) => Promise<AIInsight | null> = async () => null;
let user: { key: string; userId: number };
let other: { key: string; userId: number };
let receiver: Receiver;
let seq = 0;

before(async () => {
  ctx = await buildTestApp({
    clock,
    env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8' },
    // The insights module as webhooks read it; a test may give a subscriber an insight.
    overrides: { insights: { latestFor: (userId, trendId) => latestInsight(userId, trendId) } },
  });
  services = ctx.app.services;
  services.worker.start();
  user = await createUser(ctx, 'enterprise');
  other = await createUser(ctx, 'enterprise');
});
after(async () => ctx.close());
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  // Subscriptions of one test must not receive the next test's events.
  await services.db.updateTable('webhook_subscriptions').set({ is_active: 0 }).execute();
  await receiver.close();
});

async function subscribe(
  extra: Record<string, unknown> = {},
  key = user.key,
  url = receiver.url,
): Promise<Json> {
  const res = await call(ctx.app, 'POST', BASE, {
    key,
    body: {
      url,
      trigger_type: 'trend_velocity',
      delivery_mode: 'instant_stream',
      threshold_value: 50,
      cooldown_seconds: 60,
      ...extra,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.data;
}

async function velocity(trendId: number, from: number, to: number, extra: Record<string, unknown> = {}) {
  const at = clock.now();
  await services.events.record(services.db, {
    id: `trend.velocity.crossed:${trendId}:${to}:${at}:${++seq}`,
    type: 'trend.velocity.crossed',
    occurred_at: at,
    data: {
      trend_id: trendId,
      trend_name: 'Quantum widgets',
      category: 'Technology/AI',
      velocity: to,
      volume: 120,
      from_velocity: from,
      levels: [50],
      ...extra,
    },
  });
}

async function executions(id: number, key = user.key): Promise<Json[]> {
  const res = await call(ctx.app, 'GET', `${BASE}/${id}/executions`, { key });
  assert.equal(res.statusCode, 200, res.body);
  return res.data.executions;
}

/** Advances the clock to the next pending attempt and wakes the worker. */
async function toNextAttempt(id: number): Promise<void> {
  const pending = await waitFor('a scheduled retry', async () =>
    (await executions(id)).find(
      (e) => e.status === 'pending' && e.next_attempt_at && Date.parse(e.next_attempt_at) > clock.now(),
    ),
  );
  clock.set(Date.parse(pending.next_attempt_at));
  services.worker.poke();
}

function hmacOk(secret: string, body: string, header: string): boolean {
  const expected = `sha256=${createHmac('sha256', secretKey(secret)).update(body).digest('hex')}`;
  return header.split(',').includes(expected);
}

const headersOf = (r: { headers: Record<string, unknown> }) => r.headers as Record<string, string>;

describe('delivery', () => {
  test('every delivery verifies with standardwebhooks and a plain HMAC; a tampered body fails both', async () => {
    const sub = await subscribe();
    const started = Date.now();
    const at = clock.now();
    await velocity(1, 30, 62);
    const got = await waitFor('the delivery', () => receiver.received[0]);
    assert.ok(got.at - started < 1000, `first attempt within 1 s (took ${got.at - started} ms)`);
    const headers = headersOf(got);
    assert.equal(headers['content-type'], 'application/json');
    assert.match(headers['user-agent']!, /^Crestwatch-Webhooks\/\d+\.\d+\.\d+$/);
    const payload = new Webhook(sub.secret).verify(got.body, headers) as Json;
    assert.ok(hmacOk(sub.secret, got.body, headers['x-webhook-signature']!));
    assert.equal(payload.id, headers['webhook-id']);
    assert.equal(payload.event, 'trend.alert.created');
    assert.deepEqual(Object.keys(payload).sort(), [
      'category',
      'event',
      'id',
      'recommended_next_steps',
      'severity',
      'source_link',
      'summary',
      'timestamp',
      'trend_id',
      'trend_name',
      'velocity',
    ]);
    assert.deepEqual(
      [payload.trend_id, payload.trend_name, payload.category, payload.severity, payload.velocity],
      [1, 'Quantum widgets', 'Technology/AI', 'medium', 62],
    );
    assert.equal(payload.timestamp, new Date(at).toISOString(), 'when the crossing happened');
    assert.match(payload.summary, /from 30 to 62, 120 mentions/);
    assert.equal(payload.source_link, 'http://localhost:3000/api/trends/1');
    assert.ok(payload.recommended_next_steps.length > 0);

    const tampered = got.body.replace('Quantum', 'Quantun');
    assert.throws(() => new Webhook(sub.secret).verify(tampered, headers));
    assert.equal(hmacOk(sub.secret, tampered, headers['x-webhook-signature']!), false);

    const list = await waitFor('the succeeded execution', async () => {
      const rows = await executions(sub.id);
      return rows[0]?.status === 'succeeded' ? rows : undefined;
    });
    assert.equal(list.length, 1);
    assert.equal(list[0].attempt, 1);
    assert.equal(list[0].response_status, 200);
    assert.equal(list[0].event, 'trend.alert.created');
    assert.equal(list[0].event_id, payload.id);
    const after = await call(ctx.app, 'GET', BASE, { key: user.key });
    assert.ok(after.data.webhooks.find((w: Json) => w.id === sub.id).last_delivery_at);
  });

  test('the trend engine watches subscription thresholds; an ingest that crosses one is delivered', async () => {
    const sub = await subscribe({
      threshold_value: 33,
      cooldown_seconds: 0,
      filters: { keywords: ['zorblax'] },
    });
    const levels: number[][] = [];
    const off = services.events.on('trend.velocity.crossed', (e) => {
      levels.push(e.data.levels as number[]);
    });
    try {
      const ingest = (await createUser(ctx, 'enterprise', ['read', 'ingest'])).key;
      const signals = Array.from({ length: 30 }, (_, i) => ({
        source: 'reddit',
        external_id: `zb${i}`,
        // Two wordings: copies of one text are one independent post, and a phrase needs two to be a trend.
        text:
          i % 2 === 0 ? `Zorblax is everywhere today ${i}` : `${i} posts: Zorblax is all anyone talks about`,
      }));
      const res = await call(ctx.app, 'POST', '/api/signals', { key: ingest, body: { signals } });
      assert.equal(res.statusCode, 202);
      await services.engine.tick();
      const got = await waitFor('the delivery', () => receiver.received[0]);
      const body = new Webhook(sub.secret).verify(got.body, headersOf(got)) as Json;
      assert.equal(body.trend_name, 'Zorblax');
      // The event's listeners run one after another, so the delivery (sent by another job) can land before this
      // test's listener, registered last, has seen the event.
      await waitFor('level 33 among the velocity crossings', () =>
        levels.some((l) => l.includes(33)) ? true : undefined,
      ).catch((error) => assert.fail(`${error.message}; levels seen: ${JSON.stringify(levels)}`));
    } finally {
      off();
    }
  });

  test('503 twice then 200: three attempts with the same webhook-id, listed in order', async () => {
    const sub = await subscribe();
    receiver.script.push(503, 503);
    await velocity(2, 10, 55);
    await waitFor('attempt 1', () => receiver.received[0]);
    await toNextAttempt(sub.id);
    await waitFor('attempt 2', () => receiver.received[1]);
    await toNextAttempt(sub.id);
    await waitFor('attempt 3', () => receiver.received[2]);
    const ids = receiver.received.map((r) => headersOf(r)['webhook-id']);
    assert.equal(ids.length, 3);
    assert.equal(new Set(ids).size, 1, 'one webhook-id for every attempt');
    const stamps = receiver.received.map((r) => headersOf(r)['webhook-timestamp']);
    assert.equal(new Set(stamps).size, 3, 'a fresh timestamp on every attempt');
    for (const r of receiver.received) new Webhook(sub.secret).verify(r.body, headersOf(r));
    const list = await waitFor('three settled attempts', async () => {
      const rows = await executions(sub.id);
      return rows.length === 3 && rows[0]!.status === 'succeeded' ? rows : undefined;
    });
    assert.deepEqual(
      list.map((e) => [e.attempt, e.status, e.response_status]),
      [
        [3, 'succeeded', 200],
        [2, 'failed', 503],
        [1, 'failed', 503],
      ],
    );
    assert.ok(list[1].next_attempt_at && list[2].next_attempt_at);
    const subNow = (await call(ctx.app, 'GET', BASE, { key: user.key })).data.webhooks.find(
      (w: Json) => w.id === sub.id,
    );
    assert.equal(subNow.failure_count, 0, 'a success resets the failure count');
  });

  test('Retry-After is honoured', async () => {
    const sub = await subscribe();
    receiver.script.push({ status: 429, headers: { 'retry-after': '600' } });
    const at = clock.now();
    await velocity(3, 10, 55);
    const pending = await waitFor('the scheduled retry', async () =>
      (await executions(sub.id)).find((e) => e.status === 'pending' && e.attempt === 2),
    );
    assert.ok(Date.parse(pending.next_attempt_at) >= at + 600_000);
  });

  test('a 410 answer disables the subscription', async () => {
    const sub = await subscribe();
    receiver.script.push(410);
    await velocity(4, 10, 55);
    const row = await waitFor('the subscription disabled', async () => {
      const w = (await call(ctx.app, 'GET', BASE, { key: user.key })).data.webhooks.find(
        (x: Json) => x.id === sub.id,
      );
      return w.is_active === false ? w : undefined;
    });
    assert.equal(row.failure_count, 1);
    const list = await executions(sub.id);
    assert.deepEqual(
      list.map((e) => [e.status, e.response_status, e.next_attempt_at]),
      [['failed', 410, null]],
    );
    clock.advance(120_000);
    await velocity(5, 10, 55);
    await drainJobs(ctx);
    assert.equal(receiver.received.length, 1, 'nothing more is sent');
    assert.deepEqual(
      (await executions(sub.id)).map((e) => e.id),
      [list[0].id],
      'nor queued for later',
    );
    const redeliver = await call(ctx.app, 'POST', `${BASE}/${sub.id}/executions/${list[0].id}/redeliver`, {
      key: user.key,
    });
    assertProblem(redeliver, 409);
  });

  test('24 hours of failure disables the subscription', async () => {
    const sub = await subscribe();
    await services.db
      .updateTable('webhook_subscriptions')
      .set({ failing_since: clock.now() - 86_400_000, failure_count: 40 })
      .where('id', '=', sub.id)
      .execute();
    receiver.script.push(500);
    await velocity(6, 10, 55);
    const row = await waitFor('the subscription disabled', async () => {
      const w = (await call(ctx.app, 'GET', BASE, { key: user.key })).data.webhooks.find(
        (x: Json) => x.id === sub.id,
      );
      return w.is_active === false ? w : undefined;
    });
    assert.equal(row.failure_count, 41);
    const list = await executions(sub.id);
    assert.equal(list[0].next_attempt_at, null, 'no further retry');
  });

  test('a disabled account (e.g. a removed organisation member) gets nothing delivered; re-enabled, it does', async () => {
    const sub = await subscribe({ cooldown_seconds: 0 });
    const admin = (active: boolean) =>
      call(ctx.app, 'PATCH', `/api/admin/users/${user.userId}`, {
        key: ctx.operatorKey,
        body: { is_active: active },
      });
    assert.equal((await admin(false)).statusCode, 200);
    try {
      await velocity(21, 10, 60);
      await drainJobs(ctx);
      assert.equal(receiver.received.length, 0, 'nothing delivered to a disabled account');
    } finally {
      assert.equal((await admin(true)).statusCode, 200);
    }
    await velocity(22, 10, 60);
    await waitFor('the delivery once re-enabled', () => receiver.received[0]);
    await drainJobs(ctx);
    const sent = await executions(sub.id);
    assert.deepEqual(
      sent.map(() => JSON.parse(String(receiver.received[0]?.body)).trend_id),
      [22],
      'only the crossing after re-enabling was ever queued',
    );
  });

  test('cooldown: two crossings 10 s apart → one delivery; after the cooldown → another', async () => {
    const sub = await subscribe({ cooldown_seconds: 60 });
    await velocity(7, 30, 60);
    await waitFor('the first delivery', () => receiver.received[0]);
    clock.advance(10_000);
    await velocity(7, 40, 70);
    await drainJobs(ctx);
    assert.equal(receiver.received.length, 1, 'the second crossing is inside the cooldown');
    assert.equal((await executions(sub.id)).length, 1, 'nor is it queued for after the cooldown');
    // Another trend is not held back by this trend's cooldown.
    await velocity(8, 40, 70);
    await waitFor('the other trend’s delivery', () => receiver.received[1]);
    clock.advance(51_000);
    await velocity(7, 45, 75);
    await waitFor('the delivery after the cooldown', () => receiver.received[2]);
    const trends = receiver.received.map((r) => JSON.parse(r.body).trend_id);
    assert.deepEqual(trends, [7, 8, 7]);
  });

  test('a repeated domain event (at-least-once) is delivered once', async () => {
    const sub = await subscribe({ cooldown_seconds: 0 });
    const event = {
      id: `trend.velocity.crossed:9:50:${clock.now()}`,
      type: 'trend.velocity.crossed' as const,
      occurred_at: clock.now(),
      data: { trend_id: 9, trend_name: 'Dup', category: 'Other', velocity: 60, volume: 10, from_velocity: 1 },
    };
    await services.events.record(services.db, event);
    await services.events.record(services.db, event);
    await drainJobs(ctx);
    assert.equal(receiver.received.length, 1);
    assert.equal((await executions(sub.id)).length, 1, 'one delivery, one attempt');
  });

  test('threshold, category, keyword and severity filters decide what matches', async () => {
    const sub = await subscribe({
      threshold_value: 75,
      cooldown_seconds: 0,
      filters: { category: 'Technology', keywords: ['widgets'], min_severity: 'high' },
    });
    await velocity(10, 10, 60); // below the threshold
    await velocity(11, 10, 80, { category: 'Sports' }); // other category
    await velocity(12, 10, 80, { trend_name: 'Quantum gadgets' }); // no keyword
    await velocity(13, 80, 85); // already above: no upward crossing
    await velocity(14, 10, 80); // matches
    await drainJobs(ctx);
    assert.deepEqual(
      receiver.received.map((r) => JSON.parse(r.body).trend_id),
      [14],
    );
    assert.equal((await executions(sub.id)).length, 1, 'nothing else was queued');
  });

  test('recommended_next_steps come from the subscriber’s insight when there is one', async () => {
    latestInsight = async (userId, trendId) =>
      userId === user.userId && trendId === 15
        ? ({ content_brief: { call_to_action_ideas: ['Run a webinar on quantum widgets'] } } as AIInsight)
        : null;
    try {
      await subscribe({ cooldown_seconds: 0 });
      await velocity(15, 10, 60);
      await velocity(16, 10, 60);
      await waitFor('both deliveries', () => receiver.received[1]);
      const byTrend = new Map(
        receiver.received.map((r) => [JSON.parse(r.body).trend_id, JSON.parse(r.body)]),
      );
      assert.deepEqual(byTrend.get(15).recommended_next_steps, ['Run a webinar on quantum widgets']);
      assert.ok(byTrend.get(16).recommended_next_steps.length >= 2, 'derived from the metrics');
    } finally {
      latestInsight = async () => null;
    }
  });

  test('lifecycle subscriptions get trend.lifecycle.changed', async () => {
    await subscribe({ trigger_type: 'trend_lifecycle', threshold_value: 0, cooldown_seconds: 0 });
    const at = clock.now();
    await services.events.record(services.db, {
      id: `trend.lifecycle.changed:20:rising:${at}`,
      type: 'trend.lifecycle.changed',
      occurred_at: at,
      data: {
        trend_id: 20,
        trend_name: 'Solar kites',
        category: 'Science',
        velocity: 40,
        volume: 50,
        from_stage: 'emerging',
        to_stage: 'rising',
      },
    });
    const got = await waitFor('the delivery', () => receiver.received[0]);
    const body = JSON.parse(got.body);
    assert.equal(body.event, 'trend.lifecycle.changed');
    assert.deepEqual(
      [body.trend_id, body.trend_name, body.category, body.from_stage, body.to_stage, body.velocity],
      [20, 'Solar kites', 'Science', 'emerging', 'rising', 40],
    );
    assert.equal(body.timestamp, new Date(at).toISOString());
    assert.equal(body.source_link, 'http://localhost:3000/api/trends/20');
    assert.equal(body.id, headersOf(got)['webhook-id']);
  });

  test('crisis events go only to their owner’s subscriptions', async () => {
    const mine = await subscribe({ trigger_type: 'crisis_event', threshold_value: 0, cooldown_seconds: 0 });
    const theirs = await startReceiver();
    try {
      const theirSub = await subscribe(
        { trigger_type: 'crisis_event', threshold_value: 0, cooldown_seconds: 0 },
        other.key,
        theirs.url,
      );
      const at = clock.now();
      await services.events.record(services.db, {
        id: `crisis.event.opened:1:${at}`,
        type: 'crisis.event.opened',
        occurred_at: at,
        data: {
          crisis_event_id: 31,
          user_id: user.userId,
          title: 'Outage reports surge',
          severity: 'high',
          status: 'active',
          impacted_entity: 'Acme',
          detected_at: new Date(at).toISOString(),
          summary: 'Many reports of an outage.',
          source_link: 'http://localhost:3000/api/intelligence/crisis-events/31',
          trend_id: null,
          source_keywords: ['acme'],
        },
      });
      await drainJobs(ctx);
      assert.equal(theirs.received.length, 0, 'another user gets nothing');
      assert.deepEqual(await executions(theirSub.id, other.key), [], 'nor is anything queued for them');
      assert.equal(receiver.received.length, 1);
      const got = receiver.received[0]!;
      const body = new Webhook(mine.secret).verify(got.body, headersOf(got)) as Json;
      // Every field of the Events table, from the event's data; the owner's user_id is not among them.
      assert.deepEqual(body, {
        id: headersOf(got)['webhook-id'],
        event: 'crisis.event.opened',
        crisis_event_id: 31,
        title: 'Outage reports surge',
        severity: 'high',
        status: 'active',
        impacted_entity: 'Acme',
        detected_at: new Date(at).toISOString(),
        summary: 'Many reports of an outage.',
        source_link: 'http://localhost:3000/api/intelligence/crisis-events/31',
      });
    } finally {
      await theirs.close();
    }
  });

  test('digest mode: one POST per cooldown window with every matching event', async () => {
    const sub = await subscribe({ delivery_mode: 'digest', cooldown_seconds: 60 });
    const start = clock.now();
    const buffered = (n: number) => async () =>
      Number(
        (
          await services.db
            .selectFrom('webhook_digest_items')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('subscription_id', '=', sub.id)
            .executeTakeFirstOrThrow()
        ).n,
      ) === n || undefined;
    await velocity(40, 10, 60);
    await waitFor('the first event buffered', buffered(1));
    clock.advance(5_000);
    await velocity(41, 10, 70);
    await waitFor('the second event buffered', buffered(2));
    await drainJobs(ctx);
    assert.equal(receiver.received.length, 0, 'nothing before the window closes');
    clock.set(start + 60_000);
    services.worker.poke();
    const got = await waitFor('the digest', () => receiver.received[0]);
    const body = new Webhook(sub.secret).verify(got.body, headersOf(got)) as Json;
    assert.equal(body.event, 'digest');
    assert.equal(body.window_start, new Date(start).toISOString());
    assert.equal(body.window_end, new Date(start + 60_000).toISOString());
    assert.deepEqual(
      body.events.map((e: Json) => [e.event, e.trend_id]),
      [
        ['trend.alert.created', 40],
        ['trend.alert.created', 41],
      ],
    );
  });

  test('after a rotation deliveries verify with either secret for 24 h, then with the new one only', async () => {
    const sub = await subscribe({ cooldown_seconds: 0 });
    const rotated = await call(ctx.app, 'POST', `${BASE}/${sub.id}/rotate-secret`, { key: user.key });
    const fresh = rotated.data.secret as string;
    await velocity(50, 10, 60);
    const got = await waitFor('the delivery', () => receiver.received[0]);
    const headers = headersOf(got);
    new Webhook(sub.secret).verify(got.body, headers);
    new Webhook(fresh).verify(got.body, headers);
    assert.ok(hmacOk(sub.secret, got.body, headers['x-webhook-signature']!));
    assert.ok(hmacOk(fresh, got.body, headers['x-webhook-signature']!));

    // A day later the old secret no longer signs (the clock moves; standardwebhooks checks real time, so
    // the HMACs are checked by hand here).
    clock.advance(86_400_000 + 1000);
    await velocity(51, 10, 60);
    const later = await waitFor('the later delivery', () => receiver.received[1]);
    const h = headersOf(later);
    assert.ok(hmacOk(fresh, later.body, h['x-webhook-signature']!));
    assert.equal(hmacOk(sub.secret, later.body, h['x-webhook-signature']!), false);
    assert.equal(h['webhook-signature']!.split(' ').length, 1);
    clock.set(Date.now());
  });

  test('a redelivered execution carries the original webhook-id', async () => {
    const sub = await subscribe({ cooldown_seconds: 0 });
    await velocity(60, 10, 60);
    await waitFor('the delivery', () => receiver.received[0]);
    const first = await waitFor('the execution', async () =>
      (await executions(sub.id)).find((e) => e.status === 'succeeded'),
    );
    const res = await call(ctx.app, 'POST', `${BASE}/${sub.id}/executions/${first.id}/redeliver`, {
      key: user.key,
    });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.data.status, 'pending');
    assert.equal(res.data.attempt, 2);
    assert.equal(res.data.event_id, first.event_id);
    const again = await waitFor('the redelivery', () => receiver.received[1]);
    assert.equal(headersOf(again)['webhook-id'], headersOf(receiver.received[0]!)['webhook-id']);
    assert.equal(again.body, receiver.received[0]!.body, 'the same bytes');
    new Webhook(sub.secret).verify(again.body, headersOf(again));
  });

  test('POST …/test sends the same bytes every time and returns the execution', async () => {
    const sub = await subscribe();
    const one = await call(ctx.app, 'POST', `${BASE}/${sub.id}/test`, { key: user.key });
    assert.equal(one.statusCode, 200, one.body);
    assert.equal(one.data.status, 'succeeded');
    assert.equal(one.data.response_status, 200);
    assert.equal(one.data.event, 'webhook.test');
    clock.advance(5000);
    const two = await call(ctx.app, 'POST', `${BASE}/${sub.id}/test`, { key: user.key });
    assert.equal(two.data.event_id, one.data.event_id);
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[0]!.body, receiver.received[1]!.body, 'deterministic payload');
    const body = new Webhook(sub.secret).verify(
      receiver.received[1]!.body,
      headersOf(receiver.received[1]!),
    ) as Json;
    assert.equal(body.event, 'webhook.test');
    assert.equal(body.sample.event, 'trend.alert.created');
    assert.ok(body.sample.recommended_next_steps.length > 0);

    receiver.script.push(500);
    const failed = await call(ctx.app, 'POST', `${BASE}/${sub.id}/test`, { key: user.key });
    assert.equal(failed.statusCode, 200);
    assert.equal(failed.data.status, 'failed');
    assert.equal(failed.data.response_status, 500);
    assert.equal(failed.data.next_attempt_at, null, 'a test is not retried');
  });

  test('redirects are not followed', async () => {
    const sub = await subscribe();
    receiver.script.push({ status: 302, headers: { location: 'http://169.254.169.254/' } });
    const res = await call(ctx.app, 'POST', `${BASE}/${sub.id}/test`, { key: user.key });
    assert.equal(res.data.status, 'failed');
    assert.equal(res.data.response_status, 302);
    assert.match(res.data.error, /redirects are not followed/);
    assert.equal(receiver.received.length, 1);
  });

  test('a hostname that resolves to the metadata address at delivery time is refused', async () => {
    const port = new URL(receiver.url).port;
    const original = { lookup: dns.lookup, promisesLookup: dns.promises.lookup };
    let target = '127.0.0.1';
    type Callback = (err: Error | null, address: unknown, family?: number) => void;
    const fake = (host: string, opts: { all?: boolean }, cb: Callback) => {
      if (host !== 'hooks.example.test') {
        return (original.lookup as unknown as (h: string, o: unknown, c: Callback) => void)(host, opts, cb);
      }
      const list = [{ address: target, family: 4 }];
      return opts?.all ? cb(null, list) : cb(null, target, 4);
    };
    dns.lookup = fake as unknown as typeof dns.lookup;
    dns.promises.lookup = (async (host: string, opts: unknown) =>
      host === 'hooks.example.test'
        ? [{ address: target, family: 4 }]
        : (original.promisesLookup as (h: string, o: unknown) => unknown)(
            host,
            opts,
          )) as typeof dns.promises.lookup;
    try {
      const sub = await subscribe({}, user.key, `http://hooks.example.test:${port}/hook`);
      target = '169.254.169.254';
      const res = await call(ctx.app, 'POST', `${BASE}/${sub.id}/test`, { key: user.key });
      assert.equal(res.data.status, 'failed');
      assert.equal(res.data.response_status, null);
      assert.match(res.data.error, /169\.254\.169\.254/);
      assert.equal(receiver.received.length, 0);
    } finally {
      dns.lookup = original.lookup;
      dns.promises.lookup = original.promisesLookup;
    }
  });
});
