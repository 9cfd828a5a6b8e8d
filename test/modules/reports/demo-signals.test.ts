import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import { assertProblem, build, buildTestApp, call, type Json, type TestContext } from '../../helpers/app.ts';
import { flood, quake } from './hazards.ts';

const HOUR = 3_600_000;
const MIN = 60_000;
const URL = '/api/v1/public/demo-signals';

describe('public demo signals', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  const ago = (ms: number) => new Date(clock.now() - ms).toISOString();

  async function ingest(signals: Json[]) {
    const res = await call(ctx.app, 'POST', '/api/signals', { key: ctx.operatorKey, body: { signals } });
    assert.equal(res.statusCode, 202, res.body);
    assert.deepEqual(res.data.rejected, []);
  }

  before(async () => {
    ctx = await buildTestApp({ clock });
  });
  after(async () => ctx.close());

  test('empty when Crestwatch holds nothing, in both modes, without a key', async () => {
    for (const mode of ['paid-media', 'resilience']) {
      const res = await call(ctx.app, 'GET', `${URL}?mode=${mode}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.data, {
        signals: [],
        mode,
        fetched_at: '2026-11-21T10:00:00.000Z',
        schema_version: '1',
      });
    }
    const byDefault = await call(ctx.app, 'GET', URL);
    assert.equal(byDefault.data.mode, 'paid-media');
  });

  test('paid-media: the three newest linked posts and news items, one per source first, with freshness', async () => {
    clock.advance(2 * MIN); // past the cached empty answer
    await ingest([
      // The newest has no link: it cannot be shown.
      { source: 'x', external_id: 'no-link', text: 'Nothing to link to', observed_at: ago(MIN) },
      {
        source: 'reddit',
        external_id: 'r1',
        text: 'A long discussion about battery recalls',
        title: 'Battery recall thread',
        url: 'https://www.reddit.com/r/gadgets/comments/r1/',
        observed_at: ago(5 * MIN),
      },
      {
        source: 'reddit',
        external_id: 'r2',
        text: 'Another reddit post',
        url: 'https://www.reddit.com/r/gadgets/comments/r2/',
        observed_at: ago(10 * MIN),
      },
      {
        source: 'news',
        external_id: 'n1',
        text: 'Regulator opens inquiry',
        title: 'Regulator opens inquiry into recalls',
        url: 'https://news.example.org/inquiry',
        observed_at: ago(10 * HOUR),
      },
      {
        source: 'bluesky',
        external_id: 'b1',
        text: `${'word '.repeat(60)}end`,
        url: 'https://bsky.app/profile/did:plc:abc/post/b1',
        observed_at: ago(8 * HOUR),
      },
      // Hazard feeds belong to the resilience mode.
      {
        source: 'usgs',
        external_id: 'us1',
        text: 'M 5 quake',
        title: 'M 5.0 quake',
        url: 'https://earthquake.usgs.gov/earthquakes/eventpage/us1',
        observed_at: ago(2 * MIN),
      },
      // Older than the 48-hour look-back.
      {
        source: 'hackernews',
        external_id: 'h1',
        text: 'Old story',
        url: 'https://news.ycombinator.com/item?id=1',
        observed_at: ago(50 * HOUR),
      },
    ]);
    const res = await call(ctx.app, 'GET', URL);
    assert.equal(res.statusCode, 200, res.body);
    const signals = res.data.signals as Json[];
    assert.deepEqual(
      signals.map((s) => [s.source, s.source_url, s.freshness]),
      [
        ['reddit', 'https://www.reddit.com/r/gadgets/comments/r1/', 'fresh'],
        // 8 hours: past the 6-hour window of social sources.
        ['bluesky', 'https://bsky.app/profile/did:plc:abc/post/b1', 'stale'],
        // 10 hours: within the 24-hour window of news; example.org marks it synthetic.
        ['news', 'https://news.example.org/inquiry', 'fresh'],
      ],
    );
    assert.equal(signals[0]!.title, 'Battery recall thread');
    assert.equal(signals[0]!.observed_at, ago(5 * MIN));
    assert.ok(signals[1]!.title.length <= 140 && signals[1]!.title.endsWith('…'), signals[1]!.title);
    assert.match(signals[0]!.limitations, /unverified/);
    assert.match(signals[2]!.limitations, /^Synthetic demo data/);
    for (const s of signals) assert.doesNotMatch(s.limitations, /\n/);
  });

  test('answers are reused for a minute', async () => {
    const first = await call(ctx.app, 'GET', URL);
    await ingest([
      {
        source: 'x',
        external_id: 'x-new',
        text: 'Breaking: a new post',
        url: 'https://x.com/someone/status/1',
        observed_at: ago(0),
      },
    ]);
    clock.advance(30_000);
    const cached = await call(ctx.app, 'GET', URL);
    assert.deepEqual(cached.data, first.data);
    clock.advance(31_000);
    const fresh = await call(ctx.app, 'GET', URL);
    assert.equal(fresh.data.signals[0].source, 'x');
    assert.equal(fresh.data.signals.length, 3);
    assert.notEqual(fresh.data.fetched_at, first.data.fetched_at);
  });

  test('resilience: the newest USGS and Environment Agency records, fresh by each feed’s window', async () => {
    const now = clock.now();
    await ctx.app.services.crisis.detector.recordHazards([
      quake('us7000q1', '5 km N of Tadcaster, England', now - 20 * HOUR),
      flood('122WAF1', 'River Wharfe at Tadcaster', now - 13 * HOUR),
      flood('122WAF2', 'River Ouse at York', now - HOUR),
      quake('us7000q0', 'Old quake', now - 60 * HOUR),
    ]);
    const res = await call(ctx.app, 'GET', `${URL}?mode=resilience`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.mode, 'resilience');
    assert.deepEqual(
      res.data.signals.map((s: Json) => [s.title, s.source, s.freshness]),
      // The 13-hour-old flood warning is past the Environment Agency's 12-hour window, the 20-hour-old quake
      // within USGS's 24 hours; the 60-hour-old quake is past the look-back.
      [
        ['Flood warning: River Ouse at York', 'environment_agency', 'fresh'],
        ['Flood warning: River Wharfe at Tadcaster', 'environment_agency', 'stale'],
        ['M 5.1 - 5 km N of Tadcaster, England', 'usgs', 'fresh'],
      ],
    );
    assert.match(res.data.signals[0].limitations, /England only/);
    assert.match(res.data.signals[2].limitations, /USGS/);
    assert.equal(
      res.data.signals[0].source_url,
      'https://check-for-flooding.service.gov.uk/target-area/122WAF2',
    );
  });

  test('a bad mode or an unknown parameter is a 400 naming it', async () => {
    const bad = await call(ctx.app, 'GET', `${URL}?mode=weather`);
    assertProblem(bad, 400);
    assert.equal(bad.data.errors[0].path, 'query.mode');
    const unknown = await call(ctx.app, 'GET', `${URL}?limit=5`);
    assertProblem(unknown, 400);
    assert.equal(unknown.data.errors[0].path, 'query.limit');
  });

  test('public callers are limited per IP', async (t) => {
    const limited = await build(t, { env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '2' } });
    assert.equal((await call(limited.app, 'GET', URL)).statusCode, 200);
    assert.equal((await call(limited.app, 'GET', URL)).statusCode, 200);
    const third = await call(limited.app, 'GET', URL);
    assertProblem(third, 429);
    assert.ok(Number(third.headers['retry-after']) > 0);
  });
});
