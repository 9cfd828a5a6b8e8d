import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';

const signal = (id: string, extra: Record<string, unknown> = {}) => ({
  source: 'reddit',
  external_id: id,
  text: `OpenAI ships a new model (${id})`,
  ...extra,
});

describe('POST /api/signals', () => {
  let ctx: TestContext;
  let ingestKey: string;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  before(async () => {
    ctx = await buildTestApp({ clock });
    ingestKey = (await createUser(ctx, 'enterprise', ['read', 'ingest'])).key;
  });
  after(async () => ctx.close());

  test('stores a batch and answers 202 with the counts', async () => {
    const res = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      body: {
        signals: [
          signal('a1', {
            title: 'Launch',
            url: 'https://example.com/a1',
            author: 'ana',
            observed_at: '2026-11-21T09:30:00Z',
            lang: 'en',
            location: 'London',
            keywords: ['OpenAI'],
            engagement: { likes: 3, shares: 1, comments: 0, views: 120 },
          }),
          signal('a2'),
        ],
      },
    });
    assert.equal(res.statusCode, 202);
    assert.deepEqual(res.data, { accepted: 2, duplicates: 0, rejected: [] });
    const row = await ctx.app.services.db
      .selectFrom('signals')
      .selectAll()
      .where('external_id', '=', 'a1')
      .executeTakeFirstOrThrow();
    assert.equal(row.observed_at, Date.parse('2026-11-21T09:30:00Z'));
    assert.equal(row.text, 'OpenAI ships a new model (a1)');
    assert.deepEqual(JSON.parse(row.keywords!), ['OpenAI']);
    const defaulted = await ctx.app.services.db
      .selectFrom('signals')
      .selectAll()
      .where('external_id', '=', 'a2')
      .executeTakeFirstOrThrow();
    assert.equal(defaulted.observed_at, clock.now(), 'observed_at defaults to now');
  });

  test('the same (source, external_id) sent twice is counted once', async () => {
    const first = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      body: { signals: [signal('d1'), signal('d1')] },
    });
    assert.deepEqual(first.data, { accepted: 1, duplicates: 1, rejected: [] });
    const again = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      body: { signals: [signal('d1'), signal('d1', { source: 'x' })] },
    });
    assert.deepEqual(
      again.data,
      { accepted: 1, duplicates: 1, rejected: [] },
      'another source is another signal',
    );
    const stored = await ctx.app.services.db
      .selectFrom('signals')
      .select('id')
      .where('external_id', '=', 'd1')
      .execute();
    assert.equal(stored.length, 2);
  });

  test('a batch with bad items stores the others and names each bad one', async () => {
    const res = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      body: {
        signals: [
          signal('p1'),
          { source: 'reddit', text: 'no id' },
          signal('p2', { text: 'x'.repeat(10_001) }),
          signal('p3', { colour: 'blue' }),
          signal('p4', { observed_at: '2027-01-01T00:00:00Z' }),
          signal('p5', { engagement: { likes: '3' } }),
          signal('p6'),
        ],
      },
    });
    assert.equal(res.statusCode, 202);
    assert.equal(res.data.accepted, 2);
    assert.deepEqual(
      res.data.rejected.map((r: { index: number }) => r.index),
      [1, 2, 3, 4, 5],
    );
    assert.match(res.data.rejected[0].detail, /signals\[1\]\.external_id is required/);
    assert.match(res.data.rejected[1].detail, /signals\[2\]\.text/);
    assert.match(res.data.rejected[2].detail, /signals\[3\]\.colour is not an accepted field/);
    assert.match(res.data.rejected[3].detail, /observed_at is in the future/);
    assert.match(res.data.rejected[4].detail, /signals\[5\]\.engagement\.likes must be integer/);
  });

  test('items with blank text, a URL without a host or an unrepresentable count are refused by name', async () => {
    const res = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      body: {
        signals: [
          signal('q1', { text: ' \n\t ' }),
          signal('q2', { url: 'http://' }),
          signal('q3', { url: 'https:///path-only' }),
          signal('q4', { engagement: { likes: 1e300 } }),
          signal('q5', { lang: 'english please' }),
          signal('q6', { source: 'Reddit' }),
          signal('q7', { url: 'https://example.com', engagement: { views: Number.MAX_SAFE_INTEGER } }),
        ],
      },
    });
    assert.equal(res.statusCode, 202);
    assert.equal(res.data.accepted, 1, 'only q7 is stored');
    const details = res.data.rejected.map((r: { detail: string }) => r.detail);
    assert.deepEqual(
      res.data.rejected.map((r: { index: number }) => r.index),
      [0, 1, 2, 3, 4, 5],
    );
    assert.equal(details[0], 'signals[0].text must contain a character other than whitespace');
    assert.equal(details[1], 'signals[1].url must be an http(s) URL with a host');
    assert.equal(details[2], 'signals[2].url must be an http(s) URL with a host');
    assert.match(details[3], /^signals\[3\]\.engagement\.likes must be <= 9007199254740991/);
    assert.equal(details[4], 'signals[4].lang must be a language tag such as `en` or `pt-BR`');
    assert.match(details[5], /^signals\[5\]\.source must be a lowercase platform id/);
  });

  test('a NUL refuses only the item holding it, and names the field', async () => {
    const body = JSON.stringify({
      signals: [
        signal('n1'),
        signal('n2', { author: 'a\u0000b' }),
        signal('n3', { keywords: ['ok', 'x\u0000'] }),
      ],
    });
    const res = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      body,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.data.accepted, 1);
    assert.deepEqual(res.data.rejected, [
      { index: 1, detail: 'signals[1].author must not contain NUL (\\u0000) characters' },
      { index: 2, detail: 'signals[2].keywords[1] must not contain NUL (\\u0000) characters' },
    ]);
    // With another item invalid too (the route's schema reported an error), the NUL is still found.
    const mixed = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      body: JSON.stringify({ signals: [signal('n4', { text: 'a\u0000' }), { source: 'reddit' }] }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(mixed.statusCode, 202, mixed.body);
    assert.equal(mixed.data.accepted, 0);
    assert.match(mixed.data.rejected[0].detail, /^signals\[0\]\.text must not contain NUL/);
    assert.match(mixed.data.rejected[1].detail, /external_id is required/);
    // In a field name: named escaped, never echoed raw; outside the items, the whole request is refused.
    const inName = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      body: JSON.stringify({ signals: [{ ...signal('n5'), 'x\u0000y': 1 }] }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(inName.statusCode, 202, inName.body);
    assert.equal(
      inName.data.rejected[0].detail,
      'signals[0].x\\u0000y must not contain NUL (\\u0000) characters',
    );
    const topLevel = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      body: JSON.stringify({ signals: [signal('n6')], 'x\u0000': 1 }),
      headers: { 'content-type': 'application/json' },
    });
    assertProblem(topLevel, 400);
    assert.equal(topLevel.data.code, 'invalid_request');
    assert.equal(topLevel.data.errors[0].path, 'body.x\\u0000');
  });

  test('batch-level mistakes answer 400: no array, empty, more than 1,000 items, unknown top-level field', async () => {
    assertProblem(
      await call(ctx.app, 'POST', '/api/signals', { key: ingestKey, body: { signals: 'x' } }),
      400,
    );
    assertProblem(
      await call(ctx.app, 'POST', '/api/signals', { key: ingestKey, body: { signals: [] } }),
      400,
    );
    assertProblem(await call(ctx.app, 'POST', '/api/signals', { key: ingestKey, body: {} }), 400);
    const extra = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      body: { signals: [signal('z')], dry_run: true },
    });
    assertProblem(extra, 400);
    assert.equal(extra.data.errors[0].path, 'body.dry_run');
    const many = Array.from({ length: 1001 }, (_, i) => signal(`m${i}`));
    const tooMany = await call(ctx.app, 'POST', '/api/signals', { key: ingestKey, body: { signals: many } });
    assertProblem(tooMany, 400);
    assert.equal(tooMany.data.errors[0].path, 'body.signals');
  });

  test('a batch-level mistake is a 400 even with an Idempotency-Key already used, and is not stored', async () => {
    const headers = { 'idempotency-key': 'ingest-reuse-1' };
    const first = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      headers,
      body: { signals: [signal('idem-1')] },
    });
    assert.equal(first.statusCode, 202);
    const bad = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      headers,
      body: { signals: [signal('idem-2')], dry_run: true },
    });
    assertProblem(bad, 400);
    const replay = await call(ctx.app, 'POST', '/api/signals', {
      key: ingestKey,
      headers,
      body: { signals: [signal('idem-1')] },
    });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.data, first.data);
  });

  test('a full batch of 1,000 is accepted, bodies up to 10 MiB', async () => {
    const batch = Array.from({ length: 1000 }, (_, i) =>
      signal(`big${i}`, { text: `${'word '.repeat(300)} ${i}` }),
    );
    const res = await call(ctx.app, 'POST', '/api/signals', { key: ingestKey, body: { signals: batch } });
    assert.equal(res.statusCode, 202);
    assert.equal(res.data.accepted, 1000);
  });

  test('ingest needs the ingest permission', async () => {
    const reader = await createUser(ctx, 'enterprise', ['read', 'write']);
    const res = await call(ctx.app, 'POST', '/api/signals', {
      key: reader.key,
      body: { signals: [signal('q1')] },
    });
    assertProblem(res, 403);
    assertProblem(await call(ctx.app, 'POST', '/api/signals', { body: { signals: [signal('q1')] } }), 401);
  });
});
