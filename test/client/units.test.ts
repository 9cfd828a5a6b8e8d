// The SDK's pure parts: backoff and Retry-After, retry decisions, page reading, signature parsing and
// comparison, stream URLs and messages; and the portability rule (web standards only in the core).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { hasMore, readPage } from '../../packages/client/src/paginate.ts';
import {
  abortableSleep,
  backoffDelayMs,
  DEFAULT_RETRY,
  decideOnStatus,
  parseRetryAfter,
  retryingFetch,
  safeToResend,
} from '../../packages/client/src/retry.ts';
import { parseMessage, streamUrl } from '../../packages/client/src/stream.ts';
import {
  base64ToBytes,
  constantTimeEqual,
  DEFAULT_TOLERANCE_SECONDS,
  hexToBytes,
  parseSignatures,
  secretBytes,
  verify,
} from '../../packages/client/src/webhooks.ts';
import { generateWebhookSecret, signatureHeaders } from '../../src/platform/signing.ts';

const CLIENT_SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/client/src');

describe('retries', () => {
  test('backoff is a full-jitter draw under a doubling, capped ceiling', () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(
      backoffDelayMs(1, options, () => 0.999),
      99,
    );
    assert.equal(
      backoffDelayMs(3, options, () => 0.5),
      200,
    );
    assert.equal(
      backoffDelayMs(10, options, () => 0.5),
      500,
    );
    assert.equal(
      backoffDelayMs(4, options, () => 0),
      0,
    );
  });

  test('Retry-After is read as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:00:07 GMT', now), 7000);
    assert.equal(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });

  test('429 and 503 with Retry-After wait for it; 503 without it, or a long wait, go back to the caller', () => {
    const decide = (status: number, retryAfterMs: number | undefined, attempt = 1, code?: string) =>
      decideOnStatus({ status, retryAfterMs, code, attempt }, DEFAULT_RETRY, () => 0.5);
    assert.deepEqual(decide(429, 2000), { retry: true, delayMs: 2000 });
    assert.deepEqual(decide(503, 1000), { retry: true, delayMs: 1000 });
    assert.deepEqual(decide(429, undefined), { retry: true, delayMs: 250 });
    assert.deepEqual(decide(503, undefined), { retry: false });
    assert.deepEqual(decide(429, DEFAULT_RETRY.maxRetryAfterMs + 1), { retry: false });
    assert.deepEqual(decide(429, 1000, DEFAULT_RETRY.maxAttempts), { retry: false });
    assert.deepEqual(decide(409, undefined, 1, 'idempotency_in_progress'), { retry: true, delayMs: 250 });
    assert.deepEqual(decide(409, undefined, 1, 'conflict'), { retry: false });
    for (const status of [400, 401, 404, 500, 502]) assert.deepEqual(decide(status, 1), { retry: false });
  });

  test('network failures are resent only for idempotent methods or keyed POSTs', () => {
    assert.equal(safeToResend('GET', new Headers()), true);
    assert.equal(safeToResend('DELETE', new Headers()), true);
    assert.equal(safeToResend('PATCH', new Headers()), false);
    assert.equal(safeToResend('POST', new Headers()), false);
    assert.equal(safeToResend('POST', new Headers({ 'Idempotency-Key': 'k' })), true);
  });

  test('a POST gets one Idempotency-Key for all its attempts; a PATCH is not resent after a network error', async () => {
    const sent: { method: string; key: string | null; body: string }[] = [];
    let failures = 1;
    const fetch = retryingFetch({
      fetch: async (request) => {
        sent.push({
          method: request.method,
          key: request.headers.get('idempotency-key'),
          body: await request.text(),
        });
        if (failures-- > 0) throw new TypeError('fetch failed');
        return new Response('{}', { status: 201 });
      },
      retry: DEFAULT_RETRY,
      now: () => 0,
      random: () => 0,
      randomUUID: () => 'key-1',
    });
    const post = new Request('http://x/api/things', { method: 'POST', body: '{"a":1}' });
    assert.equal((await fetch(post)).status, 201);
    assert.deepEqual(sent, [
      { method: 'POST', key: 'key-1', body: '{"a":1}' },
      { method: 'POST', key: 'key-1', body: '{"a":1}' },
    ]);
    failures = 1;
    await assert.rejects(
      fetch(new Request('http://x/api/things/1', { method: 'PATCH', body: '{}' })),
      /fetch failed/,
    );
  });

  test('an aborted wait rejects at once', async () => {
    const controller = new AbortController();
    const waiting = abortableSleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await assert.rejects(waiting, /stop/);
  });
});

describe('pages', () => {
  test('an envelope page gives its one array and meta.total; a bare array gives the array', () => {
    assert.deepEqual(readPage({ trends: [1, 2], total: 7, meta: { total: 7, limit: 2, offset: 0 } }), {
      items: [1, 2],
      total: 7,
      limit: 2,
    });
    assert.deepEqual(readPage({ events: [1], meta: { total: 3, limit: 1, offset: 2 } }).total, 3);
    assert.deepEqual(readPage([{ id: 1 }]), { items: [{ id: 1 }], total: undefined, limit: undefined });
    assert.throws(() => readPage({ results: [], other: [] }), /exactly one array/);
    assert.throws(() => readPage('nope'), TypeError);
  });

  test('a list ends at total, at a short page or at an empty page', () => {
    const page = (n: number, total?: number, limit?: number) => ({ items: Array(n).fill(0), total, limit });
    assert.equal(hasMore(page(10, 25, 10), 10, undefined), true);
    assert.equal(hasMore(page(5, 25, 10), 25, undefined), false);
    assert.equal(hasMore(page(2), 4, 2), true);
    assert.equal(hasMore(page(1), 5, 2), false);
    assert.equal(hasMore(page(0), 4, 2), false);
    assert.equal(hasMore(page(3), 3, undefined), true);
  });
});

describe('webhook signatures', () => {
  test('signatures made by the server verify; other secrets and changed bodies do not', async () => {
    const secret = generateWebhookSecret();
    const old = generateWebhookSecret();
    const body = '{"id":"msg_1","event":"webhook.test"}';
    const at = 1_800_000_000;
    const headers = signatureHeaders([secret, old], 'msg_1', at, body);
    const now = () => at * 1000;
    for (const key of [secret, old]) {
      for (const scheme of ['standard-webhooks', 'x-webhook-signature'] as const) {
        assert.deepEqual(
          await verify({ payload: body, headers, secret: key, scheme, now }),
          JSON.parse(body),
        );
      }
    }
    await assert.rejects(
      verify({ payload: body, headers, secret: generateWebhookSecret(), now }),
      /No signature/,
    );
    await assert.rejects(verify({ payload: `${body} `, headers, secret, now }), /No signature/);
    const late = () => (at + DEFAULT_TOLERANCE_SECONDS + 1) * 1000;
    await assert.rejects(verify({ payload: body, headers, secret, now: late }), /tolerance/);
    await assert.rejects(
      verify({ payload: body, headers: { 'webhook-id': 'msg_1' }, secret, now }),
      /Missing webhook-id, webhook-timestamp or webhook-signature/,
    );
  });

  test('header values are parsed per scheme, skipping other versions and bad encodings', () => {
    assert.deepEqual(
      parseSignatures('standard-webhooks', 'v1,AAE= v2,AAE= v1,@@').map((b) => [...b]),
      [[0, 1]],
    );
    assert.deepEqual(
      parseSignatures('x-webhook-signature', 'sha256=0a0b, md5=00,sha256=zz').map((b) => [...b]),
      [[10, 11]],
    );
    assert.deepEqual([...secretBytes('whsec_AAEC')], [0, 1, 2]);
    assert.deepEqual([...base64ToBytes('AAEC')], [0, 1, 2]);
    assert.equal(hexToBytes('abc'), undefined);
  });

  test('comparison is by length and content only', () => {
    assert.equal(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2])), true);
    assert.equal(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3])), false);
    assert.equal(constantTimeEqual(new Uint8Array([1]), new Uint8Array([1, 2])), false);
  });
});

describe('stream', () => {
  test('the URL follows the base URL’s scheme and prefix and carries filter and token', () => {
    assert.equal(
      streamUrl('https://cw.example.com/base/', ['#AI', 'llms'], 'cw_key').toString(),
      'wss://cw.example.com/base/ws/trends-live?trends=%23AI%2Cllms&token=cw_key',
    );
    assert.equal(
      streamUrl('http://127.0.0.1:3000', undefined).toString(),
      'ws://127.0.0.1:3000/ws/trends-live',
    );
  });

  test('frames of known types are messages; anything else is dropped', () => {
    const frame = { type: 'trend.update', data: { trend_id: 1 }, sent_at: '2026-11-21T10:00:00.000Z' };
    assert.deepEqual(parseMessage(JSON.stringify(frame)), frame);
    assert.deepEqual(parseMessage(new TextEncoder().encode(JSON.stringify(frame))), frame);
    assert.equal(parseMessage(JSON.stringify({ type: 'test.barrier', data: {} })), undefined);
    assert.equal(parseMessage('not json'), undefined);
    assert.equal(parseMessage(42), undefined);
  });
});

test('the core imports no Node built-ins and uses no Node globals', () => {
  for (const file of fs.readdirSync(CLIENT_SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
    const code = fs.readFileSync(path.join(CLIENT_SRC, file), 'utf8').replace(/\/\/.*$/gm, '');
    assert.doesNotMatch(code, /from ['"](node:|fs|path|crypto|http|https|buffer|stream|ws)['"]/, file);
    assert.doesNotMatch(code, /\b(Buffer|process|require)\b/, file);
  }
});
