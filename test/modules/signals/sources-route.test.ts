import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { retryDelayMs, toIngestItem } from '../../../src/modules/signals/index.ts';
import type { PollingSource } from '../../../src/modules/signals/sources/types.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { platformTables } from '../../../src/platform/db/index.ts';
import { LeaseStore } from '../../../src/platform/leases.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';
import { type StandIn, standIn } from './sources/stand-in.ts';

describe('signal sources', () => {
  let ctx: TestContext;
  let hn: StandIn;
  let reader: string;
  let hnHealthy = false;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));

  before(async () => {
    // A Hacker News stand-in that fails until told otherwise.
    hn = await standIn((req, res) => {
      if (!hnHealthy) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal secret stack trace');
        return;
      }
      res.setHeader('content-type', 'application/json');
      if (req.url === '/newstories.json') res.end(JSON.stringify([41000001]));
      else
        res.end(
          JSON.stringify({
            id: 41000001,
            type: 'story',
            by: 'pg',
            time: Math.floor(clock.now() / 1000) - 60,
            title: 'Show HN: A tiny vector database',
            score: 12,
            descendants: 3,
          }),
        );
    });
    ctx = await buildTestApp({
      clock,
      env: { SOURCES: 'demo,hackernews', HACKERNEWS_BASE_URL: hn.url, DEMO_SPEED: '60' },
    });
    reader = (await createUser(ctx, 'developer', ['read'])).key;
  });
  after(async () => {
    await ctx.close();
    await hn.close();
  });

  const sourcesNow = async () => {
    const res = await call(ctx.app, 'GET', '/api/intelligence/sources', { key: reader });
    assert.equal(res.statusCode, 200);
    return new Map<string, Json>(res.data.sources.map((s: Json) => [s.id, s]));
  };
  const poll = (id: string) =>
    ctx.app.services.sources.pollOnce(
      ctx.app.services.sources.sources.find((s) => s.id === id) as PollingSource,
    );

  test('configured sources are listed as pending before their first attempt', async () => {
    const listed = await sourcesNow();
    assert.deepEqual([...listed.keys()], ['demo', 'hackernews']);
    const demo = listed.get('demo')!;
    assert.equal(demo.status, 'pending');
    assert.equal(demo.observation_count, 0);
    assert.equal(demo.last_attempt_at, null);
    assert.equal(demo.attribution, 'Crestwatch demo simulator (synthetic data)');
    assert.equal(listed.get('hackernews')!.attribution, 'Hacker News (Y Combinator)');
  });

  test('a source answering 500 is degraded while the others keep ingesting', async () => {
    assert.equal(await poll('demo'), true);
    assert.equal(await poll('hackernews'), true);
    let listed = await sourcesNow();
    const failing = listed.get('hackernews')!;
    assert.equal(failing.status, 'degraded');
    assert.match(failing.last_error, /500/);
    assert.doesNotMatch(failing.last_error, /secret/, 'the answer body is never shown');
    assert.equal(failing.last_success_at, null);
    const demo = listed.get('demo')!;
    assert.equal(demo.status, 'healthy');
    const first = demo.observation_count as number;
    assert.ok(first > 0);
    const stored = await ctx.app.services.db
      .selectFrom('signals')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), first);

    clock.advance(30_000);
    await poll('demo');
    await poll('hackernews');
    listed = await sourcesNow();
    assert.equal(listed.get('hackernews')!.status, 'degraded');
    assert.ok((listed.get('demo')!.observation_count as number) > first, 'demo kept ingesting');
    const state = await ctx.app.services.db
      .selectFrom('source_state')
      .selectAll()
      .where('id', '=', 'hackernews')
      .executeTakeFirstOrThrow();
    assert.equal(state.consecutive_failures, 2);
    assert.ok(state.next_attempt_at > clock.now() + 60_000, 'backs off beyond the interval');
  });

  test('a recovered source turns healthy and its signals are stored once', async () => {
    hnHealthy = true;
    await poll('hackernews');
    await poll('hackernews');
    const hnSource = (await sourcesNow()).get('hackernews')!;
    assert.equal(hnSource.status, 'healthy');
    assert.equal(hnSource.last_error, null);
    assert.equal(hnSource.observation_count, 1);
    const row = await ctx.app.services.db
      .selectFrom('signals')
      .selectAll()
      .where('source', '=', 'hackernews')
      .executeTakeFirstOrThrow();
    assert.equal(row.external_id, '41000001');
  });

  test('a second instance does not poll a source another instance holds', async () => {
    const runner = ctx.app.services.sources;
    const leases = new LeaseStore(platformTables(ctx.app.services.db));
    // The runner renews its own lease on demand; the other instance takes it once this one's has lapsed.
    await ctx.app.services.db.deleteFrom('leases').where('name', '=', 'source:demo').execute();
    assert.ok(await leases.acquire('source:demo', 'another-instance', clock.now(), clock.now() + 60_000));
    await ctx.app.services.singletons.renew();
    assert.equal(ctx.app.services.singletons.holds('source:demo'), false);
    assert.equal(await poll('demo'), false);
    clock.advance(61_000);
    assert.equal(await poll('demo'), true, 'an expired lease is taken over');
    assert.ok(ctx.app.services.sources.held().includes('source:demo'));
    assert.ok(runner.sources.length === 2);
  });

  test('every source answers attribution, licence_url and coverage as strings, as the schema declares', async () => {
    // Base URLs are never contacted: the list is read without polling.
    const all = await buildTestApp({
      env: {
        SOURCES: 'demo,rss,hackernews,reddit,bluesky,usgs,environment_agency',
        RSS_FEEDS: 'https://feeds.example.org/tech.xml',
      },
    });
    try {
      const key = (await createUser(all, 'developer', ['read'])).key;
      const res = await call(all.app, 'GET', '/api/intelligence/sources', { key });
      assert.equal(res.statusCode, 200, res.body);
      const byId = new Map<string, Json>(res.data.sources.map((s: Json) => [s.id, s]));
      assert.equal(byId.size, 7);
      for (const source of byId.values()) {
        for (const field of ['attribution', 'licence_url', 'coverage']) {
          assert.equal(typeof source[field], 'string', `${source.id}.${field}`);
        }
        assert.ok((source.attribution as string).length > 0 && (source.coverage as string).length > 0);
        // A non-empty licence_url is a real https link; empty means no licence applies (demo only).
        if (source.id === 'demo') assert.equal(source.licence_url, '');
        else assert.match(source.licence_url as string, /^https:\/\/\S+$/, `${source.id}.licence_url`);
      }
      assert.equal(byId.get('rss')!.licence_url, 'https://feeds.example.org/tech.xml');

      const doc = await call(all.app, 'GET', '/api/openapi.json');
      const item =
        doc.data.paths['/api/intelligence/sources'].get.responses['200'].content['application/json'].schema
          .properties.sources.items;
      for (const field of ['attribution', 'licence_url', 'coverage']) {
        assert.equal(item.properties[field].type, 'string', `${field} is a non-nullable string`);
        assert.ok(item.required.includes(field), `${field} is required`);
      }
      assert.match(item.properties.licence_url.description, /no licence applies/);
    } finally {
      await all.close();
    }
  });

  test('the sources route needs a key', async () => {
    assertProblem(await call(ctx.app, 'GET', '/api/intelligence/sources'), 401);
  });

  test('retry delays grow exponentially with jitter and stop at one hour', () => {
    assert.equal(
      retryDelayMs(60_000, 1, () => 0.5),
      120_000,
    );
    assert.equal(
      retryDelayMs(60_000, 3, () => 0.5),
      480_000,
    );
    assert.equal(
      retryDelayMs(60_000, 30, () => 0.5),
      3_600_000,
    );
    assert.equal(
      retryDelayMs(60_000, 1, () => 0),
      90_000,
    );
    assert.equal(
      retryDelayMs(60_000, 1, () => 1),
      150_000,
    );
  });

  test('a source signal becomes an ingestion item without null fields', () => {
    assert.deepEqual(
      toIngestItem({
        source: 'news',
        external_id: 'a',
        text: 'hello',
        title: null,
        url: 'https://example.com/a',
        observed_at: Date.parse('2026-11-21T09:00:00Z'),
        keywords: ['x'],
      }),
      {
        source: 'news',
        external_id: 'a',
        text: 'hello',
        url: 'https://example.com/a',
        observed_at: '2026-11-21T09:00:00.000Z',
        keywords: ['x'],
      },
    );
  });
});
