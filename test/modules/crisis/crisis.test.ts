import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { posts } from './posts.ts';

const MIN = 60_000;

async function ingest(ctx: TestContext, signals: Record<string, unknown>[]) {
  const res = await call(ctx.app, 'POST', '/api/signals', { key: ctx.operatorKey, body: { signals } });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.data.rejected.length, 0, res.body);
}

/** Posts spread over the 20 minutes before now, round-robin over `platforms`. */
function burst(texts: string[], clock: ManualClock, platforms: string[], tag: string, author?: string) {
  return texts.map((text, i) => ({
    source: platforms[i % platforms.length],
    external_id: `${tag}-${i}`,
    text,
    url: `https://${platforms[i % platforms.length]}.example.com/p/${tag}-${i}`,
    author: author ?? `user${i}`,
    observed_at: new Date(clock.now() - 20 * MIN + Math.round((i * 20 * MIN) / texts.length)).toISOString(),
  }));
}

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('crisis detection from social surges', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  let alice: { userId: number; key: string };
  let bob: { userId: number; key: string };
  let eventId: number;

  before(async () => {
    ctx = await buildTestApp({ clock });
    alice = await createUser(ctx, 'enterprise');
    bob = await createUser(ctx, 'enterprise');
    for (const [user, keyword] of [
      [alice, 'Acme'],
      [alice, 'Solo'],
      [alice, 'Sunny'],
    ] as const) {
      const res = await call(ctx.app, 'POST', '/api/user/interests', { key: user.key, body: { keyword } });
      assert.equal(res.statusCode, 201, res.body);
    }
    // A calm baseline: a few neutral and negative mentions over the previous day.
    clock.advance(-12 * 60 * MIN);
    await ingest(ctx, [
      { source: 'reddit', external_id: 'calm-1', text: 'Acme opened a new office in town', author: 'a' },
      { source: 'x', external_id: 'calm-2', text: 'Acme support was slow and bad today', author: 'b' },
    ]);
    await ctx.app.services.engine.tick();
    clock.advance(12 * 60 * MIN);
  });
  after(() => ctx.close());

  it('opens one active event for 30 negative posts from 3 platforms within 20 minutes', async () => {
    await ingest(ctx, burst(posts('Acme', 30, 'negative', 7), clock, ['reddit', 'x', 'bluesky'], 'acme'));
    await ctx.app.services.engine.tick();
    await ctx.app.services.engine.tick();
    const list = await call(ctx.app, 'GET', '/api/intelligence/crisis-events?status=active', {
      key: alice.key,
    });
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.data.events.length, 1, list.body);
    const event = list.data.events[0];
    eventId = event.id;
    assert.ok(['medium', 'high', 'critical'].includes(event.severity), event.severity);
    assert.deepEqual(event.corroboration.sources, ['bluesky', 'reddit', 'x']);
    assert.equal(event.corroboration.independent_sources, 3);
    assert.equal(event.detection_method, 'negative-surge-z');
    assert.equal(event.source_state, 'surging');
    assert.equal(event.impacted_entity, 'Acme');
    assert.deepEqual(event.source_keywords, ['Acme']);
    assert.equal(event.freshness, 'fresh');
    assert.match(event.evidence_version, /^[0-9a-f]{32}$/);
    assert.ok(event.evidence_completeness.score >= 0 && event.evidence_completeness.score <= 100);
    assert.ok(event.limitations.length > 0);
    assert.ok(event.severity_basis.includes('z '));
    // A domain event was recorded with the stable id.
    const jobs = await ctx.app.services.db
      .selectFrom('jobs')
      .select('payload')
      .where('type', '=', 'domain-event')
      .execute();
    const opened = jobs.map((j) => JSON.parse(j.payload)).filter((p) => p.type === 'crisis.event.opened');
    assert.equal(opened.length, 1);
    assert.equal(opened[0].id, `crisis.event.opened:${eventId}:1`);
    assert.equal(
      opened[0].data.source_link,
      `${ctx.config.publicBaseUrl}/api/intelligence/crisis-events/${eventId}`,
    );
    // Bob does not follow Acme and cannot see Alice's event.
    const bobs = await call(ctx.app, 'GET', '/api/intelligence/crisis-events', { key: bob.key });
    assert.equal(bobs.data.events.length, 0);
  });

  it('grows the same event while the surge lasts', async () => {
    clock.advance(2 * MIN);
    await ingest(
      ctx,
      burst(posts('Acme', 6, 'negative', 99), clock, ['news', 'reddit'], 'acme-more').map((s) => ({
        ...s,
        observed_at: new Date(clock.now() - MIN).toISOString(),
      })),
    );
    await ctx.app.services.engine.tick();
    const list = await call(ctx.app, 'GET', '/api/intelligence/crisis-events?keyword=acme', {
      key: alice.key,
    });
    assert.equal(list.data.events.length, 1);
    const evidence = await call(ctx.app, 'GET', `/api/intelligence/crisis-events/${eventId}/evidence`, {
      key: alice.key,
    });
    assert.ok(evidence.data.source_refs.length > 30, String(evidence.data.source_refs.length));
  });

  it('opens nothing for the same 30 posts from one account on one platform', async () => {
    await ingest(ctx, burst(posts('Solo', 30, 'negative', 7), clock, ['x'], 'solo', 'ranter'));
    await ctx.app.services.engine.tick();
    const list = await call(ctx.app, 'GET', '/api/intelligence/crisis-events?keyword=solo', {
      key: alice.key,
    });
    assert.equal(list.data.events.length, 0, list.body);
  });

  it('opens nothing for 30 positive posts from 3 platforms', async () => {
    await ingest(ctx, burst(posts('Sunny', 30, 'positive', 7), clock, ['reddit', 'x', 'bluesky'], 'sunny'));
    await ctx.app.services.engine.tick();
    const list = await call(ctx.app, 'GET', '/api/intelligence/crisis-events?keyword=sunny', {
      key: alice.key,
    });
    assert.equal(list.data.events.length, 0, list.body);
  });

  it('exports evidence whose hashes a reviewer can recompute', async () => {
    const res = await call(ctx.app, 'GET', `/api/intelligence/crisis-events/${eventId}/export`, {
      key: alice.key,
    });
    assert.equal(res.statusCode, 200, res.body);
    const event = res.data.event;
    const hashes: string[] = [];
    for (const ref of event.source_refs) {
      const normalised = ref.excerpt.normalize('NFC').replace(/\s+/gu, ' ').trim();
      assert.equal(sha(normalised), ref.content_hash);
      assert.match(ref.source_url, /^https?:\/\//);
      hashes.push(ref.content_hash);
    }
    assert.equal(sha([...hashes].sort().join('\n')).slice(0, 32), event.evidence_version);
  });

  it('reviews: current version → 201, extra field → 400, stale after new evidence → 409', async () => {
    const url = `/api/intelligence/crisis-events/${eventId}/reviews`;
    const current = (
      await call(ctx.app, 'GET', `/api/intelligence/crisis-events/${eventId}`, { key: alice.key })
    ).data;
    const extra = await call(ctx.app, 'POST', url, {
      key: alice.key,
      body: {
        assessment: 'supported',
        rationale: 'Checked.',
        evidence_version: current.evidence_version,
        x: 1,
      },
    });
    assertProblem(extra, 400);
    const ok = await call(ctx.app, 'POST', url, {
      key: alice.key,
      body: {
        assessment: 'supported',
        rationale: 'Checked the links.',
        evidence_version: current.evidence_version,
      },
    });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.data.review_status, 'supported');
    assert.equal(ok.data.reviews.length, 1);
    // New evidence arrives.
    clock.advance(MIN);
    await ingest(
      ctx,
      burst(posts('Acme', 3, 'negative', 555), clock, ['hackernews'], 'acme-late').map((s) => ({
        ...s,
        observed_at: new Date(clock.now()).toISOString(),
      })),
    );
    await ctx.app.services.engine.tick();
    const stale = await call(ctx.app, 'POST', url, {
      key: alice.key,
      body: { assessment: 'disputed', rationale: 'Old.', evidence_version: current.evidence_version },
    });
    assertProblem(stale, 409);
    const other = await call(ctx.app, 'POST', url, {
      key: bob.key,
      body: { assessment: 'disputed', rationale: 'x', evidence_version: current.evidence_version },
    });
    assertProblem(other, 404);
  });

  it('a review whose rationale is only whitespace is a 400 naming body.rationale, and is not recorded', async () => {
    const url = `/api/intelligence/crisis-events/${eventId}/reviews`;
    const before = (
      await call(ctx.app, 'GET', `/api/intelligence/crisis-events/${eventId}/evidence`, { key: alice.key })
    ).data;
    for (const rationale of ['   ', '\n\t ', '\u00a0']) {
      const blank = await call(ctx.app, 'POST', url, {
        key: alice.key,
        body: { assessment: 'disputed', rationale, evidence_version: before.evidence_version },
      });
      assertProblem(blank, 400);
      assert.deepEqual(
        blank.data.errors.map((e: { path: string }) => e.path),
        ['body.rationale'],
      );
      assert.match(blank.data.errors[0].message, /must not be blank/);
    }
    const empty = await call(ctx.app, 'POST', url, {
      key: alice.key,
      body: { assessment: 'disputed', rationale: '', evidence_version: before.evidence_version },
    });
    assertProblem(empty, 400);
    assert.equal(empty.data.errors[0].path, 'body.rationale');
    const long = await call(ctx.app, 'POST', url, {
      key: alice.key,
      body: {
        assessment: 'disputed',
        rationale: 'x'.repeat(2001),
        evidence_version: before.evidence_version,
      },
    });
    assertProblem(long, 400);
    const after = (
      await call(ctx.app, 'GET', `/api/intelligence/crisis-events/${eventId}/evidence`, { key: alice.key })
    ).data;
    assert.equal(after.reviews.length, before.reviews.length);
    assert.equal(after.review_status, before.review_status);
  });

  it('renders an excerpt containing <script> as text in the HTML export', async () => {
    await call(ctx.app, 'POST', '/api/user/interests', { key: alice.key, body: { keyword: 'Widget' } });
    const texts = posts('Widget', 8, 'negative', 3).map((t, i) =>
      i === 0 ? `<script>alert(1)</script> ${t}` : t,
    );
    await ingest(ctx, burst(texts, clock, ['reddit', 'x'], 'widget'));
    await ctx.app.services.engine.tick();
    const list = await call(ctx.app, 'GET', '/api/intelligence/crisis-events?keyword=widget', {
      key: alice.key,
    });
    assert.equal(list.data.events.length, 1, list.body);
    const res = await call(
      ctx.app,
      'GET',
      `/api/intelligence/crisis-events/${list.data.events[0].id}/export?format=html`,
      {
        key: alice.key,
      },
    );
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    assert.ok(!res.body.includes('<script>'), 'raw script tag in export');
    assert.ok(res.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  });

  it('filters narrow the list', async () => {
    const q = async (query: string) =>
      (await call(ctx.app, 'GET', `/api/intelligence/crisis-events?${query}`, { key: alice.key })).data.events
        .length;
    assert.equal(await q(''), 2);
    assert.equal(await q('source=social'), 2);
    assert.equal(await q('source=usgs'), 0);
    assert.equal(await q('source=hackernews'), 1);
    assert.equal(await q('review_status=supported'), 1);
    assert.equal(await q('freshness=fresh'), 2);
    assert.equal(await q('freshness=stale'), 0);
    assert.equal(await q('period=1h'), 2);
    const ack = await call(ctx.app, 'POST', `/api/intelligence/crisis-events/${eventId}/action`, {
      key: alice.key,
      body: { action: 'acknowledge' },
    });
    assert.equal(ack.statusCode, 200, ack.body);
    assert.equal(await q('status=active'), 1);
    assert.equal(await q('status=acknowledged'), 1);
    const again = await call(ctx.app, 'POST', `/api/intelligence/crisis-events/${eventId}/action`, {
      key: alice.key,
      body: { action: 'acknowledge' },
    });
    assertProblem(again, 409);
    const sev = (await call(ctx.app, 'GET', '/api/intelligence/crisis-events', { key: alice.key })).data
      .events;
    for (const s of ['low', 'medium', 'high', 'critical']) {
      assert.equal(
        await q(`severity=${s}`),
        sev.filter((e: { severity: string }) => e.severity === s).length,
      );
    }
    clock.advance(7 * 60 * MIN);
    assert.equal(await q('freshness=stale'), 2);
    assert.equal(await q('period=1h'), 0);
    assert.equal(await q('period=24h'), 2);
    assertProblem(
      await call(ctx.app, 'GET', '/api/intelligence/crisis-events?severity=bad', { key: alice.key }),
      400,
    );
  });

  it('upstream names: timeRange, startDate, endDate and period=custom filter like ours', async () => {
    const list = (query: string) =>
      call(ctx.app, 'GET', `/api/intelligence/crisis-events?${query}`, { key: alice.key });
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    const count = async (query: string) => (await list(query)).data.events.length;
    assert.equal(await count('timeRange=24h'), await count('period=24h'));
    assert.equal(await count('timeRange=1h'), await count('period=1h'));
    assert.equal(await count(`startDate=${today}&endDate=${today}`), 2);
    assert.equal(await count('startDate=2020-01-01&endDate=2020-01-02'), 0);
    // The SDK sends its default period beside the dates: the dates decide.
    const sdk = await list(`status=all&period=24h&startDate=2020-01-01&endDate=2020-01-02`);
    assert.equal(sdk.statusCode, 200);
    assert.equal(sdk.data.meta.period, 'custom');
    assert.equal(sdk.data.meta.start_date, '2020-01-01');
    assert.equal(sdk.data.meta.end_date, '2020-01-02');
    assert.equal(await count(`period=custom&start_date=${today}`), 2);
    assert.equal(await count(`start_date=${today}&startDate=${today}`), 2, 'the same value twice is fine');
    for (const [query, path] of [
      ['period=custom', 'query.period'],
      ['period=24h&timeRange=7d', 'query.timeRange'],
      [`start_date=${today}&startDate=2020-01-01`, 'query.startDate'],
      [`end_date=${today}&endDate=2020-01-01`, 'query.endDate'],
      ['startDate=2026-13-01', 'query.startDate'],
      ['timeRange=2d', 'query.timeRange'],
      ['start_Date=2026-11-01', 'query.start_Date'],
    ] as const) {
      const res = await list(query);
      assertProblem(res, 400);
      assert.ok(
        (res.data.errors ?? []).some((e: { path: string }) => e.path === path),
        `${query}: ${JSON.stringify(res.data)}`,
      );
    }
  });

  it('date ranges: an end_date in the future or a range over 400 days → 400 naming the field', async () => {
    const list = (query: string) =>
      call(ctx.app, 'GET', `/api/intelligence/crisis-events?${query}`, { key: alice.key });
    const day = (offsetDays: number) =>
      new Date(clock.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    for (const [query, path] of [
      [`end_date=${day(1)}`, 'query.end_date'],
      [`start_date=${day(-10)}&end_date=${day(1)}`, 'query.end_date'],
      [`start_date=${day(-400)}&end_date=${day(0)}`, 'query.start_date'],
    ] as const) {
      const res = await list(query);
      assertProblem(res, 400);
      assert.ok(
        (res.data.errors ?? []).some((e: { path: string }) => e.path === path),
        `${query}: ${JSON.stringify(res.data)}`,
      );
    }
    // 400 days, today included, is the widest range.
    const widest = await list(`start_date=${day(-399)}&end_date=${day(0)}`);
    assert.equal(widest.statusCode, 200, widest.body);
    assert.equal(widest.data.events.length, 2);
  });

  it('marks the surge subsided and records crisis.event.resolved', async () => {
    await ctx.app.services.engine.tick();
    const event = (
      await call(ctx.app, 'GET', `/api/intelligence/crisis-events/${eventId}`, { key: alice.key })
    ).data;
    assert.equal(event.source_state, 'subsided');
    assert.equal(event.status, 'acknowledged');
    const jobs = await ctx.app.services.db
      .selectFrom('jobs')
      .select('payload')
      .where('type', '=', 'domain-event')
      .execute();
    assert.ok(
      jobs
        .map((j) => JSON.parse(j.payload))
        .some((p) => p.type === 'crisis.event.resolved' && p.data.crisis_event_id === eventId),
    );
  });

  it("answers 404 for another user's event on every route, 401 without a key", async () => {
    const base = `/api/intelligence/crisis-events/${eventId}`;
    for (const [method, url, body] of [
      ['GET', base, undefined],
      ['GET', `${base}/evidence`, undefined],
      ['GET', `${base}/export`, undefined],
      ['GET', `${base}/export?format=html`, undefined],
      ['POST', `${base}/action`, { action: 'archive' }],
      [
        'POST',
        `${base}/reviews`,
        { assessment: 'supported', rationale: 'x', evidence_version: 'a'.repeat(32) },
      ],
    ] as const) {
      assertProblem(await call(ctx.app, method, url, { key: bob.key, body }), 404);
    }
    assertProblem(await call(ctx.app, 'GET', base), 401);
    const readOnly = await createUser(ctx, 'developer', ['read']);
    assertProblem(
      await call(ctx.app, 'PUT', '/api/intelligence/resilience-settings', {
        key: readOnly.key,
        body: { location_query: 'x y' },
      }),
      403,
    );
  });

  it('blockingEventFor finds an active high event by keyword', async () => {
    const crisis = ctx.app.services.crisis;
    const list = (
      await call(ctx.app, 'GET', '/api/intelligence/crisis-events?status=active', { key: alice.key })
    ).data.events;
    const severe = list.find((e: { severity: string }) => e.severity === 'high' || e.severity === 'critical');
    const found = await crisis.blockingEventFor(alice.userId, { id: 999_999, title: 'Widget news' });
    assert.equal(found?.id ?? null, severe?.id ?? null);
    assert.equal(await crisis.blockingEventFor(bob.userId, { id: 1, title: 'Widget news' }), null);
    assert.equal(await crisis.blockingEventFor(alice.userId, { id: 1, title: 'Widgets' }), null);
  });
});
