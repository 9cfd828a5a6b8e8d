import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import { SignalsStore } from '../../../src/modules/signals/index.ts';
import {
  type CandidateObservation,
  type CandidatePast,
  independentPosts,
  MemoryCandidates,
} from '../../../src/modules/trends/candidates.ts';
import { RedisCandidates } from '../../../src/modules/trends/candidates-redis.ts';
import { TrendProcessor } from '../../../src/modules/trends/processor.ts';
import { TrendsStore } from '../../../src/modules/trends/store.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { connectRedis } from '../../../src/platform/redis.ts';
import { buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { testRedisPrefix, testRedisUrl } from '../../helpers/db.ts';

const NOW = Date.parse('2026-11-21T10:30:00Z');
const HOUR_MS = 3_600_000;

const past = (mentions: number, at = NOW): CandidatePast => ({
  type: 'entity',
  mentions,
  firstSeen: at,
  lastSeen: at,
  surfaces: [['Kestrel Bridge', mentions]],
  texts: ['Kestrel Bridge closed'],
  hints: { category: [], subreddit: [] },
  hourly: [['x', Math.floor(at / HOUR_MS), mentions, 0, 0, 0, mentions]],
  minutes: [],
});

const seen = (key: string, account: string, fingerprint: number, at = NOW): CandidateObservation => ({
  key,
  posts: [{ account, fingerprint, at }],
  past: past(1, at),
});

describe('independent posts', () => {
  test('an account or a text counts once; the newest copy is kept', () => {
    const posts = independentPosts(
      [
        { account: 'ann', fingerprint: 1, at: 1 },
        { account: 'ann', fingerprint: 2, at: 2 },
        { account: 'bob', fingerprint: 1, at: 3 },
        { account: 'cid', fingerprint: 3, at: 4 },
      ],
      HOUR_MS,
      5,
    );
    assert.deepEqual(
      posts.map((p) => p.at),
      [4, 3, 2],
    );
  });

  test('posts older than the window before the newest do not count', () => {
    const posts = independentPosts(
      [
        { account: 'ann', fingerprint: 1, at: NOW - 25 * HOUR_MS },
        { account: 'bob', fingerprint: 2, at: NOW },
      ],
      24 * HOUR_MS,
      5,
    );
    assert.equal(posts.length, 1);
  });
});

describe('candidates in memory', () => {
  test('a phrase is promoted by its second independent post, with what the first one added', async () => {
    const pool = new MemoryCandidates({ minPosts: 2, capacity: 10 });
    assert.deepEqual(await pool.observe([seen('kestrel', 'ann', 1)], NOW), [{ promoted: false }]);
    pool.commit();
    // The same account again, and another account copying the text: still one independent post.
    const [again, copy] = await pool.observe([seen('kestrel', 'ann', 2)], NOW).then(async (a) => {
      pool.commit();
      const b = await pool.observe([seen('kestrel', 'bob', 1)], NOW);
      pool.commit();
      return [a[0], b[0]];
    });
    assert.deepEqual([again, copy], [{ promoted: false }, { promoted: false }]);
    assert.equal(pool.stats().held, 1);
    const [promoted] = await pool.observe([seen('kestrel', 'cid', 3)], NOW);
    pool.commit();
    assert.equal(promoted?.promoted, true);
    assert.ok(promoted?.promoted);
    // Three earlier mentions (ann twice, bob's copy) are written with the trend.
    assert.equal(
      promoted.earlier.reduce((n, p) => n + p.mentions, 0),
      3,
    );
    assert.deepEqual(pool.stats(), { held: 0, capacity: 10, promoted: 1, evicted: 0 });
  });

  test('a rolled-back batch changes nothing: read again, it counts once', async () => {
    const pool = new MemoryCandidates({ minPosts: 3, capacity: 10 });
    await pool.observe([seen('osprey', 'ann', 1)], NOW);
    pool.rollback();
    assert.equal(pool.stats().held, 0);
    await pool.observe([seen('osprey', 'ann', 1)], NOW);
    pool.commit();
    await pool.observe([seen('osprey', 'bob', 2)], NOW);
    pool.commit();
    const [third] = await pool.observe([seen('osprey', 'cid', 3)], NOW);
    assert.ok(third?.promoted);
    assert.equal(third.earlier[0]?.mentions, 2);
  });

  test('past its capacity the least recently named candidate is evicted and counted', async () => {
    const pool = new MemoryCandidates({ minPosts: 2, capacity: 2 });
    for (const key of ['a1', 'a2', 'a3']) {
      await pool.observe([seen(key, 'ann', 1)], NOW);
      pool.commit();
    }
    assert.deepEqual(pool.stats(), { held: 2, capacity: 2, promoted: 0, evicted: 1 });
    // a1 was evicted: its second post starts it again.
    const [a1] = await pool.observe([seen('a1', 'bob', 2)], NOW);
    assert.deepEqual(a1, { promoted: false });
  });

  test('a candidate not named for the window expires', async () => {
    const pool = new MemoryCandidates({ minPosts: 2, capacity: 10 });
    await pool.observe([seen('old', 'ann', 1, NOW - 30 * HOUR_MS)], NOW - 30 * HOUR_MS);
    pool.commit();
    await pool.observe([seen('new', 'ann', 1)], NOW);
    pool.commit();
    assert.equal(pool.stats().held, 1);
  });
});

/** A fresh app (a ManualClock at NOW) and an API key with `scopes` for the suite it is called in. */
function suiteApp(scopes: string[]): { ctx: TestContext; key: string; clock: ManualClock } {
  const app = { clock: new ManualClock(NOW) } as { ctx: TestContext; key: string; clock: ManualClock };
  before(async () => {
    app.ctx = await buildTestApp({ clock: app.clock });
    app.key = (await createUser(app.ctx, 'enterprise', scopes)).key;
  });
  after(async () => app.ctx.close());
  return app;
}

/** A post by `author` naming "Kestrel Bridge" in words of its own, processed by `processor`. */
async function postVia(
  ctx: TestContext,
  key: string,
  processor: { drain(): Promise<{ signals: number }> },
  author: string,
  n: number,
) {
  const words = ['closed again', 'jammed since dawn', 'reopened at last', 'shut for repairs'];
  const signal = {
    source: 'x',
    external_id: `k${author}${n}`,
    author,
    text: `Kestrel Bridge ${words[n % words.length]}, says ${author}`,
    observed_at: new Date(NOW - 60_000 * (5 - n)).toISOString(),
  };
  const res = await call(ctx.app, 'POST', '/api/signals', { key, body: { signals: [signal] } });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal((await processor.drain()).signals, 1);
}

const kestrel = (ctx: TestContext) =>
  ctx.app.services.db
    .selectFrom('trends')
    .select(['mentions', 'first_seen_at'])
    .where('key', '=', 'kestrel bridge')
    .executeTakeFirst();

describe('promotion through the processor', () => {
  const app = suiteApp(['read', 'ingest']);

  test('one post makes a candidate, not a trend; the second account promotes it with both posts counted', async () => {
    const processor = app.ctx.app.services.trendProcessor;
    await postVia(app.ctx, app.key, processor, 'ann', 0);
    assert.equal(await kestrel(app.ctx), undefined);
    const listed = await call(app.ctx.app, 'GET', '/api/trends?search=kestrel', { key: app.key });
    assert.deepEqual(listed.data.trends, []);
    await postVia(app.ctx, app.key, processor, 'ann', 1);
    assert.equal(await kestrel(app.ctx), undefined, 'the same account twice is one independent post');
    await postVia(app.ctx, app.key, processor, 'bob', 2);
    const trend = await kestrel(app.ctx);
    assert.equal(trend?.mentions, 3);
    assert.equal(trend?.first_seen_at, NOW - 5 * 60_000);
    const metrics = await call(app.ctx.app, 'GET', '/metrics');
    assert.match(metrics.body, /crestwatch_trend_candidates_promoted_total \d+/);
    assert.match(metrics.body, /crestwatch_trend_candidates_capacity 50000/);
    assert.match(metrics.body, /crestwatch_trend_candidates \d+/);
    assert.match(metrics.body, /crestwatch_trend_candidates_evicted_total 0/);
  });

  test('a keyword sent on a post is a trend at once', async () => {
    const res = await call(app.ctx.app, 'POST', '/api/signals', {
      key: app.key,
      body: {
        signals: [
          {
            source: 'x',
            external_id: 'kw1',
            text: 'Our Ferncastle launch is today',
            keywords: ['Ferncastle'],
          },
        ],
      },
    });
    assert.equal(res.statusCode, 202, res.body);
    await app.ctx.app.services.trendProcessor.drain();
    const row = await app.ctx.app.services.db
      .selectFrom('trends')
      .select('mentions')
      .where('key', '=', 'ferncastle')
      .executeTakeFirst();
    assert.equal(row?.mentions, 1);
  });
});

describe('interests name trends at once, across punctuation, case and hashtags', () => {
  const app = suiteApp(['read', 'write', 'ingest']);
  before(async () => {
    const res = await call(app.ctx.app, 'POST', '/api/user/interests', {
      key: app.key,
      body: { keyword: 'west texas' },
    });
    assert.equal(res.statusCode, 201, res.body);
  });

  test('"west texas" counts "West, Texas", "#WestTexas" and "WEST TEXAS", each post one mention', async () => {
    const texts = [
      'Explosion at a fertilizer plant in West, Texas tonight',
      'Praying for everyone in #WestTexas',
      'WEST TEXAS: emergency crews on the scene',
      'West of Texas nothing happened today',
    ];
    const res = await call(app.ctx.app, 'POST', '/api/signals', {
      key: app.key,
      body: { signals: texts.map((text, i) => ({ source: 'x', external_id: `wt${i}`, text })) },
    });
    assert.equal(res.statusCode, 202, res.body);
    while ((await app.ctx.app.services.engine.tick()).backlog);
    const row = await app.ctx.app.services.db
      .selectFrom('trends')
      .select(['mentions', 'title'])
      .where('key', '=', 'west texas')
      .executeTakeFirst();
    assert.equal(row?.mentions, 3);
    const listed = await call(app.ctx.app, 'GET', '/api/trends?search=west%20texas', { key: app.key });
    // One trend, titled by its most frequent spelling (the interest's words or a post's hashtag).
    assert.equal(listed.data.trends.length, 1);
    assert.equal(listed.data.trends[0].volume, 3);
  });
});

describe('candidates shared between instances', () => {
  const app = suiteApp(['read', 'ingest']);

  test('one pool for two processors: a phrase named once through each is promoted as on one', async () => {
    const store = new TrendsStore(app.ctx.app.services.db, app.ctx.app.services.dialect);
    const pool = new MemoryCandidates({ minPosts: 2, capacity: 100 });
    const make = () =>
      new TrendProcessor(store, new SignalsStore(app.ctx.app.services.db), app.clock, undefined, {
        candidates: { pool, minPosts: 2 },
      });
    await postVia(app.ctx, app.key, make(), 'ann', 0);
    await postVia(app.ctx, app.key, make(), 'bob', 1);
    assert.equal((await kestrel(app.ctx))?.mentions, 2);
  });

  test('through Redis: two processors and a restarted one share the candidates', {
    skip: !testRedisUrl && 'needs TEST_REDIS_URL',
  }, async () => {
    const prefix = testRedisPrefix();
    const clients: Redis[] = [];
    const store = new TrendsStore(app.ctx.app.services.db, app.ctx.app.services.dialect);
    const make = async (minPosts: number) => {
      const client = await connectRedis(testRedisUrl!, 'test');
      clients.push(client);
      return new TrendProcessor(store, new SignalsStore(app.ctx.app.services.db), app.clock, undefined, {
        candidates: { pool: new RedisCandidates(client, prefix, { minPosts, capacity: 100 }), minPosts },
      });
    };
    try {
      await app.ctx.app.services.db.deleteFrom('trends').where('key', '=', 'kestrel bridge').execute();
      await postVia(app.ctx, app.key, await make(3), 'cid', 0);
      await postVia(app.ctx, app.key, await make(3), 'dan', 1);
      assert.equal(await kestrel(app.ctx), undefined);
      // A restarted instance (nothing in its memory) promotes with the third account, all three posts counted.
      await postVia(app.ctx, app.key, await make(3), 'eve', 2);
      assert.equal((await kestrel(app.ctx))?.mentions, 3);
      assert.equal(await clients[0]!.zcard(`${prefix}candidates`), 0);
    } finally {
      const keys = await clients[0]?.keys(`${prefix}candidate*`);
      if (keys && keys.length > 0) await clients[0]!.del(...keys);
      for (const client of clients) client.disconnect();
    }
  });
});

test('two instances on one database and one Redis promote a phrase named once through each', {
  skip: !testRedisUrl && 'needs TEST_REDIS_URL',
}, async () => {
  const clock = new ManualClock(NOW);
  const redisPrefix = testRedisPrefix();
  const first = await buildTestApp({ clock, redisPrefix });
  const second = await buildTestApp({ clock, redisPrefix, database: first.database });
  try {
    const key = (await createUser(first, 'enterprise', ['read', 'ingest'])).key;
    await postVia(first, key, first.app.services.trendProcessor, 'ann', 0);
    assert.equal(await kestrel(first), undefined);
    await postVia(second, key, second.app.services.trendProcessor, 'bob', 1);
    assert.equal((await kestrel(first))?.mentions, 2);
  } finally {
    await second.close();
    await first.close();
  }
});

describe('fragments fold', () => {
  const app = suiteApp(['read', 'ingest']);

  const send = async (texts: string[], from: number) => {
    const res = await call(app.ctx.app, 'POST', '/api/signals', {
      key: app.key,
      body: {
        signals: texts.map((text, i) => ({
          source: 'x',
          external_id: `f${from + i}`,
          author: `acct${from + i}`,
          text,
          observed_at: new Date(NOW - 30 * 60_000 + (from + i) * 60_000).toISOString(),
        })),
      },
    });
    assert.equal(res.statusCode, 202, res.body);
    while ((await app.ctx.app.services.engine.tick()).backlog);
  };

  test('a glued hashtag named in the same posts as the phrase folds into it as an alias; search finds both', async () => {
    await send(
      [
        'Evacuations near Waldo Canyon tonight #waldocanyon',
        'Smoke over Waldo Canyon, stay safe #waldocanyon',
      ],
      0,
    );
    const rows = await app.ctx.app.services.db
      .selectFrom('trends')
      .select(['key', 'aliases', 'mentions'])
      .execute();
    const waldo = rows.filter((r) => r.key.startsWith('waldo'));
    assert.deepEqual(waldo, [{ key: 'waldo canyon', aliases: '["#waldocanyon"]', mentions: 2 }]);
    // Later mentions of the folded phrase count towards the trend, once per post.
    await send(['Praying for everyone at #waldocanyon', 'Waldo Canyon crews hold the line #waldocanyon'], 2);
    const after = await app.ctx.app.services.db
      .selectFrom('trends')
      .select(['key', 'mentions'])
      .where('key', 'like', 'waldo%')
      .execute();
    assert.deepEqual(after, [{ key: 'waldo canyon', mentions: 4 }]);
    for (const search of ['waldocanyon', 'waldo canyon']) {
      const res = await call(app.ctx.app, 'GET', `/api/trends?search=${encodeURIComponent(search)}`, {
        key: app.key,
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(
        res.data.trends.map((t: { title: string; aliases: string[] }) => [t.title, t.aliases]),
        [['Waldo Canyon', ['#waldocanyon']]],
        search,
      );
    }
  });

  test('a single word is no fragment: "tsunami" and "tsunami warning" stay two trends', async () => {
    await send(['Tsunami warning issued after the quake', 'Tsunami warning lifted for the coast'], 10);
    const keys = (await app.ctx.app.services.db.selectFrom('trends').select('key').execute()).map(
      (r) => r.key,
    );
    assert.ok(keys.includes('tsunami') && keys.includes('tsunami warning'), keys.join(', '));
  });
});
