// The live stream: auth and entitlement before the upgrade, trend filters, crisis ownership, heartbeats,
// back-pressure, and fan-out across processes through Redis.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { loggerOptions } from '../../../src/app.ts';
import { StreamHub } from '../../../src/modules/stream/index.ts';
import { ManualClock, systemClock } from '../../../src/platform/clock.ts';
import { LocalPubSub } from '../../../src/platform/pubsub.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { testRedisPrefix, testRedisUrl } from '../../helpers/db.ts';
import { STREAM_BARRIER, streamBarrier } from '../../helpers/stream.ts';
import { waitFor } from '../webhooks/receiver.ts';

interface Client {
  ws: WebSocket;
  messages: { type: string; data: Record<string, unknown>; sent_at: string; at: number }[];
}

function baseUrl(ctx: TestContext): string {
  const { port } = ctx.app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}`;
}

/** Opens a client; rejects with the HTTP status when the server refuses the upgrade. */
function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const client: Client = { ws, messages: [] };
    ws.on('message', (raw) => client.messages.push({ ...JSON.parse(String(raw)), at: Date.now() }));
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c;
      });
      res.on('end', () =>
        reject(
          Object.assign(new Error(`HTTP ${res.statusCode}`), {
            status: res.statusCode,
            body,
            headers: res.headers,
          }),
        ),
      );
    });
    ws.once('error', reject);
  });
}

async function refused(url: string, headers: Record<string, string> = {}) {
  try {
    const c = await connect(url, headers);
    c.ws.close();
  } catch (error) {
    return error as Error & { status: number; body: string; headers: Record<string, string> };
  }
  throw new Error('the upgrade was accepted');
}

// Texts that differ by more than a number: copies of one text are one independent post, never a trend.
const TAILS = ['today', 'again', 'right now', 'this morning', 'everywhere', 'still', 'at last', 'once more'];
const signals = (prefix: string, text: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    source: 'reddit',
    external_id: `${prefix}${i}`,
    text: `${text} ${TAILS[i % TAILS.length]} ${i}`,
  }));

describe('GET /ws/trends-live', () => {
  let ctx: TestContext;
  let scale: { key: string; userId: number };
  let scale2: { key: string; userId: number };
  let developer: { key: string };
  let ingest: string;
  const clients: Client[] = [];
  const clock = new ManualClock(Date.now());

  before(async () => {
    ctx = await buildTestApp({ clock });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    ctx.app.services.worker.start();
    scale = await createUser(ctx, 'scale');
    scale2 = await createUser(ctx, 'scale');
    developer = await createUser(ctx, 'developer');
    ingest = (await createUser(ctx, 'enterprise', ['read', 'ingest'])).key;
    // Warm the text pipeline so the timed ingest below measures the service, not first-use set-up.
    await call(ctx.app, 'POST', '/api/signals', {
      key: ingest,
      body: { signals: signals('warm', 'Warmup words', 1) },
    });
    await ctx.app.services.engine.tick();
  });
  after(async () => {
    for (const c of clients) c.ws.terminate();
    await ctx.close();
  });

  test('a developer-plan key → 403 before the upgrade; no key → 401; a bad filter → 400', async () => {
    const url = `${baseUrl(ctx)}/ws/trends-live`;
    const forbidden = await refused(url, { authorization: `Bearer ${developer.key}` });
    assert.equal(forbidden.status, 403);
    assert.match(String(forbidden.headers['content-type']), /application\/problem\+json/);
    assert.equal(JSON.parse(forbidden.body).code, 'plan_not_entitled');
    assert.equal((await refused(url)).status, 401);
    assert.equal((await refused(`${url}?token=cw_nope`)).status, 401);
    const many = Array.from({ length: 51 }, (_, i) => `t${i}`).join(',');
    assert.equal((await refused(`${url}?trends=${many}`, { 'x-api-key': scale.key })).status, 400);
  });

  test('an unknown query parameter → 400 naming it before the upgrade', async () => {
    const res = await refused(`${baseUrl(ctx)}/ws/trends?trend=ai&token=${scale.key}`);
    assert.equal(res.status, 400);
    assert.equal(JSON.parse(res.body).errors[0].path, 'query.trend');
  });

  test('a connection ends (1008) once its key is revoked, its plan loses the stream or its account is disabled', async () => {
    const closed = (c: Client) =>
      new Promise<{ code: number; reason: string }>((resolve) =>
        c.ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
      );
    // A revoked key.
    const user = await createUser(ctx, 'scale');
    const spare = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name: 'stream', permissions: ['read'] },
    });
    const revokedClient = await connect(`${baseUrl(ctx)}/ws/trends?token=${spare.data.api_key}`);
    clients.push(revokedClient);
    const keptClient = await connect(`${baseUrl(ctx)}/ws/trends?token=${user.key}`);
    clients.push(keptClient);
    await ctx.app.services.stream.recheckAll();
    assert.equal(revokedClient.ws.readyState, WebSocket.OPEN, 'a key still valid keeps its connection');
    const revokedEnd = closed(revokedClient);
    assert.equal(
      (await call(ctx.app, 'DELETE', `/api/user/api-keys/${spare.data.id}`, { key: user.key })).statusCode,
      204,
    );
    await ctx.app.services.stream.recheckAll();
    assert.deepEqual(await revokedEnd, { code: 1008, reason: 'api_key_revoked' });
    assert.equal(keptClient.ws.readyState, WebSocket.OPEN, 'the user’s other key streams on');

    // A plan without the stream, then a disabled account.
    const downgradedEnd = closed(keptClient);
    await call(ctx.app, 'PATCH', `/api/admin/users/${user.userId}`, {
      key: ctx.operatorKey,
      body: { plan: 'developer' },
    });
    await ctx.app.services.stream.recheckAll();
    assert.deepEqual(await downgradedEnd, { code: 1008, reason: 'plan_not_entitled' });
    const other = await createUser(ctx, 'scale');
    const disabledClient = await connect(`${baseUrl(ctx)}/ws/trends?token=${other.key}`);
    clients.push(disabledClient);
    const disabledEnd = closed(disabledClient);
    await call(ctx.app, 'PATCH', `/api/admin/users/${other.userId}`, {
      key: ctx.operatorKey,
      body: { is_active: false },
    });
    await ctx.app.services.stream.recheckAll();
    assert.deepEqual(await disabledEnd, { code: 1008, reason: 'account_disabled' });
  });

  test('a plain GET without the upgrade → 426 problem+json', async () => {
    const res = await call(ctx.app, 'GET', '/ws/trends-live', { key: scale.key });
    assertProblem(res, 426);
    assert.equal(res.headers.upgrade, 'websocket');
  });

  test('the token query is accepted and never logged', async () => {
    const c = await connect(`${baseUrl(ctx)}/ws/trends-live?token=${scale.key}`);
    clients.push(c);
    assert.equal(c.ws.readyState, WebSocket.OPEN);
    const serializer = (
      loggerOptions(ctx.config) as { serializers: { req: (r: unknown) => { url: string } } }
    ).serializers.req;
    const logged = serializer({
      method: 'GET',
      url: `/ws/trends-live?token=${scale.key}&trends=ai`,
      ip: '1',
    });
    assert.equal(logged.url.includes(scale.key), false);
    assert.match(logged.url, /token=\[redacted\]/);
    const upstream = serializer({ method: 'GET', url: `/ws/trends?trends=ai&token=${scale.key}`, ip: '1' });
    assert.equal(upstream.url, '/ws/trends?trends=ai&token=[redacted]');
    // The server reads a percent-encoded name as `token`: the log must hide it too.
    const encoded = await connect(`${baseUrl(ctx)}/ws/trends-live?tok%65n=${scale.key}`);
    clients.push(encoded);
    assert.equal(encoded.ws.readyState, WebSocket.OPEN);
    const spelled = serializer({ method: 'GET', url: `/ws/trends-live?tok%65n=${scale.key}`, ip: '1' });
    assert.equal(spelled.url, '/ws/trends-live?tok%65n=[redacted]');
    c.ws.close();
    encoded.ws.close();
    // A token beside a header carrying another key is refused, as two different key headers are.
    const other = await createUser(ctx, 'scale', ['read']);
    const conflict = await connect(`${baseUrl(ctx)}/ws/trends-live?token=${scale.key}`, {
      'x-api-key': other.key,
    }).then(
      () => null,
      (error: { status?: number; body?: string }) => error,
    );
    assert.equal(conflict?.status, 401);
    assert.match(String(conflict?.body), /conflicting_api_keys/);
    const same = await connect(`${baseUrl(ctx)}/ws/trends-live?token=${scale.key}`, {
      authorization: `Bearer ${scale.key}`,
    });
    clients.push(same);
    assert.equal(same.ws.readyState, WebSocket.OPEN);
    same.ws.close();
  });

  test('a scale client gets trend.alert.created for its trends within 1 s of the ingest, nothing else', async () => {
    const filtered = await connect(`${baseUrl(ctx)}/ws/trends-live?trends=Zorblax,llms`, {
      authorization: `Bearer ${scale.key}`,
    });
    const everything = await connect(`${baseUrl(ctx)}/ws/trends-live`, { 'x-api-key': scale2.key });
    clients.push(filtered, everything);
    const started = Date.now();
    const res = await call(ctx.app, 'POST', '/api/signals', {
      key: ingest,
      body: {
        signals: [
          ...signals('z', 'Zorblax is everywhere today', 30),
          ...signals('q', 'Quibbleflux is everywhere today', 30),
        ],
      },
    });
    assert.equal(res.statusCode, 202);
    // What the background timer does every second.
    await ctx.app.services.engine.tick();
    const alert = await waitFor('the alert', () =>
      filtered.messages.find((m) => m.type === 'trend.alert.created'),
    );
    assert.ok(alert.at - started < 1000, `delivered ${alert.at - started} ms after the ingest`);
    assert.equal(alert.data.trend_name, 'Zorblax');
    assert.equal(alert.data.event, 'trend.alert.created');
    // The webhook alert body, for the trend the recompute just updated.
    assert.deepEqual(Object.keys(alert.data).sort(), [
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
    const zorblax = filtered.messages.find(
      (m) => m.type === 'trend.update' && m.data.trend_name === 'Zorblax',
    );
    assert.ok(zorblax, 'the recompute’s trend.update came first');
    assert.equal(alert.data.trend_id, zorblax.data.trend_id);
    assert.equal(alert.data.velocity, zorblax.data.velocity);
    assert.equal(alert.data.source_link, `http://localhost:3000/api/trends/${zorblax.data.trend_id}`);
    assert.ok(Date.parse(alert.sent_at) > 0);
    await waitFor('the unfiltered client sees Quibbleflux', () =>
      everything.messages.find((m) => m.data.trend_name === 'Quibbleflux'),
    );
    await streamBarrier(ctx, scale.userId, filtered.messages);
    const received = filtered.messages.filter((m) => m.type !== STREAM_BARRIER);
    const names = new Set(received.map((m) => m.data.trend_name));
    assert.deepEqual([...names], ['Zorblax'], 'nothing for trends outside the filter');
    assert.ok(filtered.messages.some((m) => m.type === 'trend.update'));
  });

  test('every recompute sends trend.update with the new numbers, even without an alert', async () => {
    const client = await connect(`${baseUrl(ctx)}/ws/trends-live?trends=Wobblewick`, {
      authorization: `Bearer ${scale.key}`,
    });
    clients.push(client);
    const res = await call(ctx.app, 'POST', '/api/signals', {
      key: ingest,
      body: { signals: signals('w', 'Wobblewick is here', 2) },
    });
    assert.equal(res.statusCode, 202);
    await ctx.app.services.engine.tick();
    const update = await waitFor('a trend.update', () =>
      client.messages.find((m) => m.type === 'trend.update' && m.data.trend_name === 'Wobblewick'),
    );
    assert.equal(update.data.volume, 2);
    // The same numbers the API now answers for the trend.
    const view = await call(ctx.app, 'GET', `/api/trends/${update.data.trend_id}`, { key: scale.key });
    assert.equal(view.statusCode, 200, view.body);
    assert.deepEqual(update.data, {
      trend_id: view.data.id,
      trend_name: 'Wobblewick',
      category: view.data.category,
      volume: view.data.volume,
      velocity: view.data.velocity_score,
      velocity_window: view.data.velocity_window,
      velocity_1h: view.data.velocity_1h,
      growth: view.data.growth,
      lifecycle_stage: view.data.lifecycle_stage,
      sentiment: view.data.sentiment,
      sentiment_category: view.data.sentiment_category,
      timestamp: view.data.timestamp,
    });
    assert.equal(
      client.messages.some((m) => m.type === 'trend.alert.created'),
      false,
      'two mentions raise no alert',
    );
  });

  test("upstream's /ws/trends: key as `token`, `trends` filter; a trend.update for the listed trend only", async () => {
    const listed = await connect(`${baseUrl(ctx)}/ws/trends?token=${scale.key}&trends=Frobnitzel`);
    const witness = await connect(`${baseUrl(ctx)}/ws/trends`, { 'x-api-key': scale2.key });
    clients.push(listed, witness);
    const res = await call(ctx.app, 'POST', '/api/signals', {
      key: ingest,
      body: {
        signals: [...signals('f', 'Frobnitzel is here', 2), ...signals('x', 'Quaxworth is here', 2)],
      },
    });
    assert.equal(res.statusCode, 202);
    await ctx.app.services.engine.tick();
    const update = await waitFor('a trend.update for Frobnitzel', () =>
      listed.messages.find((m) => m.type === 'trend.update' && m.data.trend_name === 'Frobnitzel'),
    );
    assert.equal(update.data.volume, 2);
    await waitFor('the unfiltered client sees Quaxworth', () =>
      witness.messages.find((m) => m.type === 'trend.update' && m.data.trend_name === 'Quaxworth'),
    );
    await streamBarrier(ctx, scale.userId, listed.messages);
    const received = listed.messages.filter((m) => m.type !== STREAM_BARRIER);
    assert.deepEqual([...new Set(received.map((m) => m.data.trend_name))], ['Frobnitzel']);
  });

  test("upstream's /ws/trends refuses before the upgrade: a bad token → 401, a plan without the stream → 403", async () => {
    const url = `${baseUrl(ctx)}/ws/trends`;
    const unknown = await refused(`${url}?token=cw_nope&trends=ai`);
    assert.equal(unknown.status, 401);
    assert.match(String(unknown.headers['content-type']), /application\/problem\+json/);
    assert.equal(JSON.parse(unknown.body).code, 'invalid_api_key');
    const forbidden = await refused(`${url}?token=${developer.key}`);
    assert.equal(forbidden.status, 403);
    assert.equal(JSON.parse(forbidden.body).code, 'plan_not_entitled');
    const plain = await call(ctx.app, 'GET', '/ws/trends', { key: scale.key });
    assertProblem(plain, 426);
  });

  test('crisis events reach only their owner', async () => {
    const mine = await connect(`${baseUrl(ctx)}/ws/trends-live?trends=nothing-matches`, {
      authorization: `Bearer ${scale.key}`,
    });
    const theirs = await connect(`${baseUrl(ctx)}/ws/trends-live`, { authorization: `Bearer ${scale2.key}` });
    clients.push(mine, theirs);
    const at = clock.now();
    await ctx.app.services.events.record(ctx.app.services.db, {
      id: `crisis.event.escalated:7:${at}`,
      type: 'crisis.event.escalated',
      occurred_at: at,
      data: {
        crisis_event_id: 7,
        user_id: scale.userId,
        title: 'Recall rumours',
        severity: 'critical',
        status: 'active',
        impacted_entity: 'Acme',
        detected_at: new Date(at).toISOString(),
        summary: 'Rumours of a recall.',
        source_link: 'http://localhost:3000/api/intelligence/crisis-events/7',
        trend_id: null,
        source_keywords: [],
      },
    });
    const got = await waitFor('the crisis message', () =>
      mine.messages.find((m) => m.type === 'crisis.event.escalated'),
    );
    assert.equal(got.data.crisis_event_id, 7);
    await streamBarrier(ctx, scale2.userId, theirs.messages);
    assert.equal(theirs.messages.filter((m) => m.type.startsWith('crisis.')).length, 0);
  });
});

describe('StreamHub', () => {
  function fakeSocket(bufferedAmount = 0) {
    const socket = {
      OPEN: 1,
      readyState: 1,
      bufferedAmount,
      sent: [] as string[],
      terminated: false,
      pings: 0,
      handlers: new Map<string, () => void>(),
      send(text: string) {
        this.sent.push(text);
        this.bufferedAmount += text.length;
      },
      terminate() {
        this.terminated = true;
        this.readyState = 3;
      },
      ping() {
        this.pings++;
      },
      close() {},
      on(event: string, fn: () => void) {
        this.handlers.set(event, fn);
      },
    };
    return socket;
  }

  test('a client that does not read is dropped once its backlog passes the bound; others carry on', async () => {
    const hub = new StreamHub(new LocalPubSub(), systemClock, {
      maxBufferedBytes: 10_000,
      heartbeatMs: 60_000,
    });
    const slow = fakeSocket();
    const fast = fakeSocket();
    hub.add({ socket: slow as never, userId: 1, trends: null, alive: true });
    hub.add({ socket: fast as never, userId: 2, trends: null, alive: true });
    const big = 'x'.repeat(1000);
    for (let i = 0; i < 30; i++) {
      hub.fanOut({ type: 'trend.update', data: { big }, trend_keys: ['a'] });
      fast.bufferedAmount = 0; // this one reads
    }
    assert.equal(slow.terminated, true);
    assert.ok(slow.bufferedAmount <= 10_000, 'never buffered past the bound');
    assert.equal(fast.terminated, false);
    assert.equal(fast.sent.length, 30);
    assert.equal(hub.size, 1);
    assert.equal(hub.dropped, 1);
    await hub.close();
  });

  test('heartbeat: pings every interval and drops a client that stopped answering', async () => {
    const hub = new StreamHub(new LocalPubSub(), systemClock, { heartbeatMs: 20 });
    await hub.start();
    const answering = fakeSocket();
    const silent = fakeSocket();
    hub.add({ socket: answering as never, userId: 1, trends: null, alive: true });
    hub.add({ socket: silent as never, userId: 1, trends: null, alive: true });
    const pong = answering.handlers.get('pong')!;
    const timer = setInterval(pong, 5);
    await waitFor('the silent client dropped', () => silent.terminated || undefined, 2000);
    clearInterval(timer);
    assert.ok(answering.pings >= 2);
    assert.equal(answering.terminated, false);
    await hub.close();
  });
});

describe('fan-out across processes', { skip: !testRedisUrl && 'needs TEST_REDIS_URL' }, () => {
  test('an event handled by one instance reaches a client of another through Redis', async () => {
    const prefix = testRedisPrefix();
    const a = await buildTestApp({ redisPrefix: prefix });
    const b = await buildTestApp({ redisPrefix: prefix, database: a.database, operatorKey: a.operatorKey });
    try {
      await b.app.listen({ port: 0, host: '127.0.0.1' });
      const user = await createUser(a, 'scale');
      const client = await connect(`${baseUrl(b)}/ws/trends-live`, { authorization: `Bearer ${user.key}` });
      a.app.services.worker.start();
      const at = Date.now();
      await a.app.services.events.record(a.app.services.db, {
        id: `trend.lifecycle.changed:3:rising:${at}`,
        type: 'trend.lifecycle.changed',
        occurred_at: at,
        data: {
          trend_id: 3,
          trend_name: 'Far away',
          category: 'Other',
          velocity: 30,
          volume: 9,
          from_stage: 'emerging',
          to_stage: 'rising',
        },
      });
      const got = await waitFor('the message via Redis', () =>
        client.messages.find((m) => m.type === 'trend.lifecycle.changed'),
      );
      assert.equal(got.data.trend_name, 'Far away');
      client.ws.terminate();
    } finally {
      await b.close();
      await a.close();
    }
  });
});
