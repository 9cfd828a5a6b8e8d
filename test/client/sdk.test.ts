// The TypeScript SDK (packages/client) against a real app listening on 127.0.0.1: typed calls, pagination
// over every page, retries through 429/503 with Retry-After, idempotent POST retries, webhook verification
// of a real delivery, and the live stream with a reconnection.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import {
  type CrestwatchClient,
  CrestwatchError,
  createClient,
  WebhookVerificationError,
} from '../../packages/client/src/index.ts';
import { buildTestApp, call, createUser, type TestContext } from '../helpers/app.ts';
import { startReceiver, waitFor } from '../modules/webhooks/receiver.ts';
import { type ScriptedProxy, startProxy } from './proxy.ts';

/** 100 made-up one-word trend names that no normalisation can merge: quillaa, quillab, …, quilldv. */
const NAMES = Array.from(
  { length: 100 },
  (_, i) => `quill${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`,
);

describe('@crestwatch/client against a real app', () => {
  let ctx: TestContext;
  let baseUrl: string;
  let user: { key: string; userId: number };
  let feeder: string;
  let client: CrestwatchClient;
  let proxy: ScriptedProxy;
  let signalSeq = 0;

  /** Ingests `n` mentions of `name` a few minutes ago and recomputes trends. */
  async function mention(names: string[], n = 2): Promise<void> {
    const observedAt = new Date(Date.now() - 5 * 60_000).toISOString();
    const signals = names.flatMap((name) =>
      Array.from({ length: n }, () => ({
        source: 'reddit',
        external_id: `sdk-${++signalSeq}`,
        text: `${name} is being discussed`,
        keywords: [name],
        observed_at: observedAt,
      })),
    );
    for (let i = 0; i < signals.length; i += 1000) {
      const res = await call(ctx.app, 'POST', '/api/signals', {
        key: feeder,
        body: { signals: signals.slice(i, i + 1000) },
      });
      assert.equal(res.statusCode, 202, res.body);
    }
    await ctx.app.services.engine.tick();
  }

  before(async () => {
    ctx = await buildTestApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8' } });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    user = await createUser(ctx, 'enterprise', ['read', 'write']);
    feeder = (await createUser(ctx, 'enterprise', ['ingest'])).key;
    client = createClient({ baseUrl, apiKey: user.key, WebSocket });
    proxy = await startProxy(baseUrl);
    await mention(NAMES);
  });
  after(async () => {
    await proxy.close();
    await ctx.close();
  });

  test('GET /api/trends answers typed data, the same as the route answers', async () => {
    const { data, error, response } = await client.GET('/api/trends', {
      params: { query: { sort_by: 'name', order: 'asc', limit: 5 } },
    });
    assert.equal(error, undefined);
    assert.equal(response.status, 200);
    assert.ok(data);
    assert.deepEqual(
      data.trends.map((t) => t.title),
      NAMES.slice(0, 5),
    );
    assert.equal(data.meta.total, 100);
    const direct = await call(ctx.app, 'GET', '/api/trends?sort_by=name&order=asc&limit=5', {
      key: user.key,
    });
    assert.deepEqual(
      data.trends.map((t) => t.id),
      direct.data.trends.map((t: { id: number }) => t.id),
    );
  });

  test('paginate yields every one of 100 trends once, page after page, in order', async () => {
    const requests: string[] = [];
    const counting = createClient({
      baseUrl,
      apiKey: user.key,
      fetch: (request) => {
        requests.push(new URL(request.url).search);
        return fetch(request);
      },
    });
    const titles: string[] = [];
    for await (const trend of counting.paginate('/api/trends', {
      query: { sort_by: 'name', order: 'asc', limit: 30 },
    })) {
      titles.push(trend.title);
    }
    assert.deepEqual(titles, NAMES);
    // 30 + 30 + 30 + 10: four pages, and no fifth request once meta.total is reached.
    assert.equal(requests.length, 4);
    assert.match(requests[3]!, /offset=90/);
  });

  test('paginate reads a bare-array list (org invites) to its end', async () => {
    for (let i = 0; i < 5; i++) {
      const { response } = await client.POST('/api/org/invites', {
        body: { email: `invitee-${i}@example.com`, role: 'member' },
      });
      assert.equal(response.status, 201);
    }
    const emails: string[] = [];
    for await (const invite of client.paginate('/api/org/invites', { query: { limit: 2 } }))
      emails.push(invite.email);
    assert.deepEqual(
      emails.sort(),
      [0, 1, 2, 3, 4].map((i) => `invitee-${i}@example.com`),
    );
  });

  test('a 429 and then a 503, both with Retry-After, are waited out without user code', async () => {
    const viaProxy = createClient({ baseUrl: proxy.url, apiKey: user.key });
    proxy.seen.length = 0;
    proxy.script.push({ status: 429, retryAfter: '1' }, { status: 503, retryAfter: '1' });
    const started = Date.now();
    const { data, error } = await viaProxy.GET('/api/trends', { params: { query: { limit: 3 } } });
    assert.equal(error, undefined);
    assert.equal(data?.trends.length, 3);
    assert.equal(proxy.seen.length, 3);
    // Each wait honoured its Retry-After of a second.
    assert.ok(proxy.seen[1]!.at - proxy.seen[0]!.at >= 950, 'waited after the 429');
    assert.ok(proxy.seen[2]!.at - proxy.seen[1]!.at >= 950, 'waited after the 503');
    assert.ok(Date.now() - started >= 1900);
  });

  test('a POST whose answer was lost is retried with the same Idempotency-Key and runs once', async () => {
    const viaProxy = createClient({ baseUrl: proxy.url, apiKey: user.key });
    proxy.seen.length = 0;
    // The first attempt reaches the app, but the client sees a 503: it retries, and the app replays.
    proxy.script.push({ forwardThen: 503, retryAfter: '0' });
    const body = {
      url: 'http://127.0.0.1:9/once',
      trigger_type: 'trend_velocity' as const,
      delivery_mode: 'instant_stream' as const,
      threshold_value: 50,
      cooldown_seconds: 60,
    };
    const { data, response } = await viaProxy.POST('/api/integrations/webhooks', { body });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('idempotent-replayed'), 'true');
    assert.equal(proxy.seen.length, 2);
    const keys = proxy.seen.map((r) => r.headers['idempotency-key']);
    assert.match(String(keys[0]), /^[0-9a-f-]{36}$/);
    assert.equal(keys[0], keys[1]);
    const list = await client.unwrap(client.GET('/api/integrations/webhooks'));
    assert.deepEqual(
      list.webhooks.filter((w) => w.url === body.url).map((w) => w.id),
      [data?.id],
    );
  });

  test('a 503 without Retry-After (a capability that will never come) is not retried', async () => {
    const viaProxy = createClient({ baseUrl: proxy.url, apiKey: user.key });
    proxy.seen.length = 0;
    proxy.script.push({ status: 503 });
    const { error, response } = await viaProxy.GET('/api/trends');
    assert.equal(response.status, 503);
    assert.equal(error?.detail, 'from the proxy');
    assert.equal(proxy.seen.length, 1);
  });

  test('unwrap throws a CrestwatchError carrying the problem+json fields', async () => {
    const error = await client.unwrap(client.GET('/api/trends', { params: { query: { limit: 101 } } })).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof CrestwatchError);
    const direct = await call(ctx.app, 'GET', '/api/trends?limit=101', { key: user.key });
    assert.equal(error.status, 400);
    assert.equal(error.code, direct.data.code);
    assert.equal(error.title, direct.data.title);
    assert.equal(error.detail, direct.data.detail);
    assert.match(String(error.requestId), /\S/);
    assert.ok(error.errors?.some((e) => e.path === 'query.limit'));
    const missing = await client
      .unwrap(client.GET('/api/trends/{trend_id}', { params: { path: { trend_id: 999_999 } } }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(missing instanceof CrestwatchError);
    assert.equal(missing.status, 404);
  });

  test('a signed test delivery verifies with both schemes; a changed body or stale timestamp does not', async () => {
    const receiver = await startReceiver();
    try {
      const created = await client.unwrap(
        client.POST('/api/integrations/webhooks', {
          body: {
            url: receiver.url,
            trigger_type: 'trend_velocity',
            delivery_mode: 'instant_stream',
            threshold_value: 50,
            cooldown_seconds: 60,
          },
        }),
      );
      const { response } = await client.POST('/api/integrations/webhooks/{id}/test', {
        params: { path: { id: created.id } },
      });
      assert.ok(response.ok, String(response.status));
      const delivery = await waitFor('the test delivery', () => receiver.received[0]);
      const headers = delivery.headers as Record<string, string>;

      const event = await client.webhooks.verify({ payload: delivery.body, headers, secret: created.secret });
      assert.equal(event.event, 'webhook.test');
      assert.equal(event.id, headers['webhook-id']);
      const viaBodySignature = await client.webhooks.verify({
        payload: new TextEncoder().encode(delivery.body),
        headers: new Headers(headers),
        secret: created.secret,
        scheme: 'x-webhook-signature',
      });
      assert.deepEqual(viaBodySignature, event);

      const forged = delivery.body.replace('webhook.test', 'webhook.tesT');
      for (const scheme of ['standard-webhooks', 'x-webhook-signature'] as const) {
        await assert.rejects(
          client.webhooks.verify({ payload: forged, headers, secret: created.secret, scheme }),
          WebhookVerificationError,
        );
      }
      const tenMinutesLater = () => (Number(headers['webhook-timestamp']) + 600) * 1000;
      await assert.rejects(
        client.webhooks.verify({
          payload: delivery.body,
          headers,
          secret: created.secret,
          now: tenMinutesLater,
        }),
        /tolerance/,
      );
    } finally {
      await receiver.close();
    }
  });

  test('the live stream delivers a typed trend.update, and again after the connection drops', async () => {
    const sockets: WebSocket[] = [];
    class RecordingWebSocket extends WebSocket {
      constructor(url: string) {
        super(url);
        sockets.push(this);
      }
    }
    const streaming = createClient({
      baseUrl,
      apiKey: user.key,
      WebSocket: RecordingWebSocket,
      random: () => 0,
    });
    const stream = streaming.stream({ trends: ['#QuillStream'] });
    const updates: { name: string; volume: number }[] = [];
    let opens = 0;
    stream.on('open', () => opens++);
    stream.on('message', (message) => {
      if (message.type === 'trend.update')
        updates.push({ name: message.data.trend_name, volume: message.data.volume });
    });
    try {
      await waitFor('the stream to open', () => opens === 1);
      await mention(['quillstream'], 3);
      await waitFor('a trend.update', () => updates[0]);
      assert.equal(updates[0]!.name, 'quillstream');
      assert.equal(updates[0]!.volume, 3);

      sockets[0]!.terminate();
      await waitFor('the stream to reconnect', () => opens === 2);
      await mention(['quillstream'], 2);
      await waitFor('a trend.update after reconnecting', () => updates[1]);
      assert.equal(updates[1]!.volume, 5);
      assert.equal(sockets.length, 2);
    } finally {
      stream.close();
    }
  });

  test('a stream the plan does not allow ends with the 403 problem instead of reconnecting forever', async () => {
    const developer = await createUser(ctx, 'developer', ['read']);
    const refused = createClient({ baseUrl, apiKey: developer.key, WebSocket }).stream();
    const failures: unknown[] = [];
    refused.on('error', (e) => failures.push(e));
    const received = [];
    await assert.rejects(
      async () => {
        for await (const message of refused) received.push(message);
      },
      (error: unknown) =>
        error instanceof CrestwatchError && error.status === 403 && error.code === 'plan_not_entitled',
    );
    assert.equal(failures.length, 1);
    assert.equal(received.length, 0);
  });
});
