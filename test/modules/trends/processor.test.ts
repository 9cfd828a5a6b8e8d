import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import { buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';

describe('trend processing', () => {
  let ctx: TestContext;
  let key: string;
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));
  before(async () => {
    ctx = await buildTestApp({ clock });
    key = (await createUser(ctx, 'enterprise', ['read', 'ingest'])).key;
  });
  after(async () => ctx.close());

  const ingest = async (signals: Record<string, unknown>[]) => {
    const res = await call(ctx.app, 'POST', '/api/signals', { key, body: { signals } });
    assert.equal(res.statusCode, 202, res.body);
    return res.data;
  };

  test('spellings of one name become one trend with hourly, per-platform and sentiment buckets', async () => {
    await ingest([
      {
        source: 'x',
        external_id: 't1',
        text: 'Loving the new #OpenAI release, it is great',
        observed_at: '2026-11-21T09:10:00Z',
      },
      {
        source: 'reddit',
        external_id: 't2',
        text: 'OpenAI shipped again today',
        observed_at: '2026-11-21T09:20:00Z',
      },
      {
        source: 'x',
        external_id: 't3',
        text: 'openai is terrible at naming things, awful',
        observed_at: '2026-11-21T10:05:00Z',
      },
    ]);
    const result = await ctx.app.services.trendProcessor.drain();
    assert.equal(result.signals, 3);
    const db = ctx.app.services.db;
    const trend = await db
      .selectFrom('trends')
      .selectAll()
      .where('key', '=', 'openai')
      .executeTakeFirstOrThrow();
    assert.equal(trend.mentions, 3);
    assert.equal(trend.category, 'Technology/AI');
    assert.equal(trend.type, 'hashtag');
    assert.equal(trend.first_seen_at, Date.parse('2026-11-21T09:10:00Z'));
    assert.equal(trend.last_seen_at, Date.parse('2026-11-21T10:05:00Z'));
    const buckets = await db
      .selectFrom('trend_hourly')
      .selectAll()
      .where('trend_id', '=', trend.id)
      .orderBy('hour')
      .orderBy('platform')
      .execute();
    const hour9 = Math.floor(Date.parse('2026-11-21T09:00:00Z') / 3_600_000);
    assert.deepEqual(
      buckets.map((b) => [b.platform, b.hour - hour9, b.mentions]),
      [
        ['reddit', 0, 1],
        ['x', 0, 1],
        ['x', 1, 1],
      ],
    );
    const positive = buckets.find((b) => b.platform === 'x' && b.hour === hour9)!;
    assert.ok(positive.sentiment_sum > 0.05 && positive.positive === 1 && positive.negative === 0);
    const negative = buckets.find((b) => b.hour === hour9 + 1)!;
    assert.ok(negative.sentiment_sum < -0.05 && negative.negative === 1);
    const minutes = await db
      .selectFrom('trend_minutely')
      .selectAll()
      .where('trend_id', '=', trend.id)
      .execute();
    assert.equal(
      minutes.reduce((sum, m) => sum + m.mentions, 0),
      3,
    );
  });

  test('the title is the most frequent surface form', async () => {
    await ingest(
      ['Anthropic', 'Anthropic', '#anthropic'].map((word, i) => ({
        source: 'news',
        external_id: `title-${i}`,
        text: `${word} announced a partnership`,
        keywords: [word],
      })),
    );
    await ctx.app.services.trendProcessor.drain();
    const trend = await ctx.app.services.db
      .selectFrom('trends')
      .selectAll()
      .where('key', '=', 'anthropic')
      .executeTakeFirstOrThrow();
    assert.equal(trend.title, 'Anthropic');
  });

  test('each signal is processed once: a second pass and a re-sent duplicate add nothing', async () => {
    await ingest([
      { source: 'x', external_id: 'once-1', text: 'Quantum computing breakthrough #QuantumComputing' },
    ]);
    await ctx.app.services.trendProcessor.drain();
    const before = await ctx.app.services.db
      .selectFrom('trends')
      .select('mentions')
      .where('key', '=', 'quantum computing')
      .executeTakeFirstOrThrow();
    const again = await ingest([
      { source: 'x', external_id: 'once-1', text: 'Quantum computing breakthrough #QuantumComputing' },
    ]);
    assert.equal(again.duplicates, 1);
    const second = await ctx.app.services.trendProcessor.drain();
    assert.equal(second.signals, 0);
    const after = await ctx.app.services.db
      .selectFrom('trends')
      .select('mentions')
      .where('key', '=', 'quantum computing')
      .executeTakeFirstOrThrow();
    assert.equal(after.mentions, before.mentions);
    const pending = await ctx.app.services.db
      .selectFrom('signals')
      .select('id')
      .where('processed_at', 'is', null)
      .execute();
    assert.equal(pending.length, 0);
  });
  test("a signal's category hint files its new trend; a hint outside the taxonomy is ignored", async () => {
    await ingest([
      {
        source: 'news',
        external_id: 'h1',
        text: 'Zorblax Quint wins again',
        keywords: ['zorblax quint'],
        category: 'Sports/Football',
      },
      {
        source: 'reddit',
        external_id: 'h2',
        text: 'Vexmoor Tarn thoughts',
        keywords: ['vexmoor tarn'],
        category: 'r/soccer',
      },
      {
        source: 'news',
        external_id: 'h3',
        text: 'Plimbo Drask returns',
        keywords: ['plimbo drask'],
        category: 'no such section',
      },
    ]);
    await ctx.app.services.engine.tick();
    const categories = new Map<string, string>();
    for (const search of ['zorblax', 'vexmoor', 'plimbo']) {
      const res = await call(ctx.app, 'GET', `/api/trends?search=${search}`, { key });
      for (const t of res.data.trends) categories.set(t.title.toLowerCase(), t.category);
    }
    assert.equal(categories.get('zorblax quint'), 'Sports/Football');
    assert.equal(categories.get('vexmoor tarn'), 'Sports/Football');
    assert.equal(categories.get('plimbo drask'), 'General/Other');
    const bad = await call(ctx.app, 'POST', '/api/signals', {
      key,
      body: { signals: [{ source: 'x', external_id: 'h4', text: 'hello there', category: '' }] },
    });
    assert.equal(bad.data.rejected[0]?.index, 0);
    assert.match(bad.data.rejected[0]?.detail, /category/);
  });
  test('a long drain hands the event loop back between batches and statements', async () => {
    const signals = Array.from({ length: 1000 }, (_, i) => ({
      source: 'news',
      external_id: `loop-${i}`,
      text: `Harbour Bridge repairs continue as crews work on section ${i % 50} of the #HarbourBridge deck`,
      observed_at: '2026-11-21T09:45:00Z',
    }));
    await ingest(signals);
    let turns = 0;
    let spinning = true;
    const spin = () => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const result = await ctx.app.services.trendProcessor.drain(250);
    spinning = false;
    assert.equal(result.signals, 1000);
    // better-sqlite3 is synchronous: without explicit yields the whole drain would run as one task.
    assert.ok(turns >= 4, `the event loop turned ${turns} times during four batches`);
  });

  test('trend reads are answered while the writer is inside a long transaction', async () => {
    const trend = await ctx.app.services.db
      .selectFrom('trends')
      .select('id')
      .where('key', '=', 'harbour bridge')
      .executeTakeFirstOrThrow();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let answeredInside = false;
    const writer = ctx.app.services.db.transaction().execute(async (trx) => {
      await trx.updateTable('trends').set({ dirty: 1 }).where('id', '=', trend.id).execute();
      await gate;
    });
    try {
      const res = await Promise.race([
        call(ctx.app, 'GET', `/api/trends/${trend.id}`, { key }),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
      ]);
      assert.ok(res, 'the read waited for the write transaction');
      assert.equal(res.statusCode, 200, res.body);
      answeredInside = true;
    } finally {
      release();
      await writer;
    }
    assert.equal(answeredInside, true);
  });
});
