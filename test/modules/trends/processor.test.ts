import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Executor } from '../../../src/database.ts';
import { SignalsStore } from '../../../src/modules/signals/index.ts';
import { analyseBatch, type BatchAnalysis } from '../../../src/modules/text/analysis.ts';
import type { SignalText } from '../../../src/modules/text/extraction.ts';
import type { NlpPool } from '../../../src/modules/text/nlp-pool.ts';
import { TrendProcessor } from '../../../src/modules/trends/processor.ts';
import { TrendsStore } from '../../../src/modules/trends/store.ts';
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
        text: 'OpenAI is terrible at naming things, awful',
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
    // Titled "OpenAI", not "#OpenAI": a name, though one mention was a hashtag.
    assert.equal(trend.title, 'OpenAI');
    assert.equal(trend.type, 'entity');
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
    assert.equal(trend.type, 'entity');
  });

  test('the type follows the title: hashtag exactly when the title is one', async () => {
    const post = (texts: string[], from: number) =>
      ingest(
        texts.map((text, i) => ({
          source: 'x',
          external_id: `type-${from + i}`,
          text,
          author: `a${from + i}`,
          observed_at: '2026-11-21T10:00:00Z',
        })),
      );
    const trend = () =>
      ctx.app.services.db
        .selectFrom('trends')
        .select(['title', 'type'])
        .where('key', '=', 'stratus cloud')
        .executeTakeFirstOrThrow();
    await post(['Stratus Cloud is down', 'Stratus Cloud again', 'so #StratusCloud is down'], 0);
    await ctx.app.services.trendProcessor.drain();
    assert.deepEqual(await trend(), { title: 'Stratus Cloud', type: 'entity' });
    await post(['#StratusCloud down', '#StratusCloud still down', '#StratusCloud fix it'], 3);
    await ctx.app.services.trendProcessor.drain();
    assert.deepEqual(await trend(), { title: '#StratusCloud', type: 'hashtag' });
    await post(['Stratus Cloud back', 'Stratus Cloud works', 'Stratus Cloud ok'], 6);
    await ctx.app.services.trendProcessor.drain();
    assert.deepEqual(await trend(), { title: 'Stratus Cloud', type: 'entity' });
  });

  test('each signal is processed once: a second pass and a re-sent duplicate add nothing', async () => {
    // Two posts: a phrase one post names is a candidate, not a trend (TREND_MIN_POSTS).
    await ingest([
      { source: 'x', external_id: 'once-1', text: 'Quantum computing breakthrough #QuantumComputing' },
      { source: 'x', external_id: 'once-2', text: 'Is quantum computing overhyped? #QuantumComputing' },
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
    const pending = await ctx.app.services.db.selectFrom('signal_queue').select('id').execute();
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
      // The texts differ by a number only, so they are copies of one (one independent post): the keyword makes
      // the phrase a trend at once, as a keyword sent on a post does.
      keywords: ['Harbour Bridge'],
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
      // A write that changes nothing, holding the write lock (SQLite) until the gate opens.
      await trx
        .updateTable('trends')
        .set((eb) => ({ mentions: eb.ref('mentions') }))
        .where('id', '=', trend.id)
        .execute();
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
  test('a batch writes each trend, surface form, hourly and minute bucket once, in power-of-two statements', async () => {
    // 600 signals, 300 trends mentioned twice each in one hour and minute, on one platform: a per-mention writer
    // would write 600 rows per table.
    await ingest(
      Array.from({ length: 600 }, (_, i) => ({
        source: 'news',
        external_id: `once-per-batch-${i}`,
        text: 'lol',
        keywords: [`vintrelle ${(i % 300) + 100}`],
        observed_at: '2026-11-21T10:20:00Z',
      })),
    );
    const calls: Record<string, number[]> = {};
    const statements: string[] = [];
    const { db, dialect } = ctx.app.services;
    const store = new TrendsStore(db, dialect);
    for (const name of ['upsertTrends', 'addSurfaces', 'addHourly', 'addMinutely'] as const) {
      const write = store[name].bind(store) as (rows: unknown[], trx: Executor) => Promise<unknown>;
      // Each write goes through an executor that counts the statements it runs.
      (store as unknown as Record<string, unknown>)[name] = (rows: unknown[], trx: Executor) => {
        calls[name] = [...(calls[name] ?? []), rows.length];
        const counting = new Proxy(trx, {
          get(target, property, receiver) {
            if (property !== 'executeQuery') return Reflect.get(target, property, receiver);
            return (query: { sql: string }) => {
              const rows = (query.sql.match(/\(\?|\(\$/g) ?? []).length;
              statements.push(`${name}: ${rows}`);
              return target.executeQuery(query as never);
            };
          },
        });
        return write(rows, counting);
      };
    }
    const result = await new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock).processBatch(
      600,
    );
    assert.equal(result.signals, 600);
    assert.equal(result.trends, 300);
    assert.equal(result.mentions, 600);
    assert.deepEqual(calls, {
      upsertTrends: [300],
      addSurfaces: [300],
      addHourly: [300],
      addMinutely: [300],
    });
    // 300 rows per table: statements of 256, 32, 8 and 4 rows, so SQLite keeps a few texts, not one per count
    // (upsertTrends twice: the trends, then the same 300 marked out of date in trend_dirty).
    assert.deepEqual(
      statements,
      ['upsertTrends', 'upsertTrends', 'addSurfaces', 'addHourly', 'addMinutely'].flatMap((name) =>
        [256, 32, 8, 4].map((rows) => `${name}: ${rows}`),
      ),
    );
    const hourly = await db
      .selectFrom('trend_hourly as h')
      .innerJoin('trends as t', 't.id', 'h.trend_id')
      .select(['t.key', 'h.mentions'])
      .where('t.key', 'like', 'vintrelle %')
      .execute();
    assert.equal(hourly.length, 300);
    assert.ok(hourly.every((row) => Number(row.mentions) === 2));
  });

  test('a batch upserts known trends in id order, then new ones in key order (the order rows are locked in)', async () => {
    const signal = (id: string, keyword: string) => ({
      source: 'news',
      external_id: id,
      text: `${keyword} report`,
      keywords: [keyword],
      observed_at: '2026-11-21T10:20:00Z',
    });
    // Three trends stored in this order (ascending ids), then a batch naming them backwards among new keys.
    await ingest([
      signal('lock-1', 'larkspur one'),
      signal('lock-2', 'larkspur two'),
      signal('lock-3', 'larkspur three'),
    ]);
    await ctx.app.services.trendProcessor.drain();
    await ingest([
      signal('lock-4', 'larkspur zeta'),
      signal('lock-5', 'larkspur three'),
      signal('lock-6', 'larkspur alpha'),
      signal('lock-7', 'larkspur two'),
      signal('lock-8', 'larkspur one'),
    ]);
    const { db, dialect } = ctx.app.services;
    const store = new TrendsStore(db, dialect);
    const upsert = store.upsertTrends.bind(store);
    let order: string[] = [];
    store.upsertTrends = (rows, trx) => {
      order = rows.map((r) => r.key);
      return upsert(rows, trx);
    };
    await new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock).drain();
    const named = new Set([
      'larkspur one',
      'larkspur two',
      'larkspur three',
      'larkspur alpha',
      'larkspur zeta',
    ]);
    const known = await db
      .selectFrom('trends')
      .select(['key', 'id'])
      .where('key', 'in', ['larkspur one', 'larkspur two', 'larkspur three'])
      .orderBy('id')
      .execute();
    // Stored in key order by the first batch: one, three, two.
    assert.deepEqual(
      known.map((t) => t.key),
      ['larkspur one', 'larkspur three', 'larkspur two'],
    );
    assert.deepEqual(
      order.filter((k) => named.has(k)),
      ['larkspur one', 'larkspur three', 'larkspur two', 'larkspur alpha', 'larkspur zeta'],
    );
  });

  test('a batch that mentions a trend only by its title does not read its surface forms again', async () => {
    const signal = (id: string, word: string) => ({
      source: 'news',
      external_id: id,
      text: `${word} opened a new office`,
      keywords: [word],
    });
    await ingest([signal('retitle-1', 'Quillbrook'), signal('retitle-2', 'Quillbrook')]);
    await ctx.app.services.trendProcessor.drain();
    const { db, dialect } = ctx.app.services;
    const read: number[][] = [];
    class Recording extends TrendsStore {
      override surfacesOf(trendIds: number[], trx?: Executor) {
        read.push(trendIds);
        return super.surfacesOf(trendIds, trx);
      }
    }
    const processor = new TrendProcessor(
      new Recording(db, dialect),
      new SignalsStore(ctx.app.services.db),
      clock,
    );
    await ingest([signal('retitle-3', 'Quillbrook')]);
    await processor.drain();
    assert.deepEqual(read, [[]], 'only the title form: nothing to read');
    // Another spelling may change the title: read, and the most frequent form still wins.
    await ingest([signal('retitle-4', 'quillbrook'), signal('retitle-5', 'quillbrook')]);
    await processor.drain();
    assert.equal(read.at(-1)?.length, 1);
    const trend = await db
      .selectFrom('trends')
      .select('title')
      .where('key', '=', 'quillbrook')
      .executeTakeFirstOrThrow();
    assert.equal(trend.title, 'Quillbrook');
    await ingest([signal('retitle-6', 'quillbrook'), signal('retitle-7', 'quillbrook')]);
    await processor.drain();
    const renamed = await db
      .selectFrom('trends')
      .select('title')
      .where('key', '=', 'quillbrook')
      .executeTakeFirstOrThrow();
    assert.equal(renamed.title, 'quillbrook');
  });
});

describe('trend processing: batches read ahead', () => {
  let ctx: TestContext;
  let key: string;
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));
  before(async () => {
    ctx = await buildTestApp({ clock });
    key = (await createUser(ctx, 'enterprise', ['read', 'ingest'])).key;
  });
  after(async () => ctx.close());

  /** Analyses in this thread after `delayMs`, counting the signals of each batch it was given. */
  class CountingNlp implements NlpPool {
    readonly batches: number[] = [];
    failNext = false;
    constructor(private readonly delayMs: number) {}
    async analyse(signals: SignalText[]): Promise<BatchAnalysis> {
      this.batches.push(signals.length);
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      if (this.failNext) {
        this.failNext = false;
        throw new Error('NLP thread died');
      }
      return analyseBatch(signals);
    }
    async warm(): Promise<void> {}
    async close(): Promise<void> {}
  }

  const ingestMany = async (prefix: string, count: number) => {
    const signals = Array.from({ length: count }, (_, i) => ({
      source: 'news',
      external_id: `${prefix}-${i}`,
      text: `${prefix} bridge works continue on span ${i}`,
      keywords: [`${prefix} bridge`],
      observed_at: '2026-11-21T10:10:00Z',
    }));
    const res = await call(ctx.app, 'POST', '/api/signals', { key, body: { signals } });
    assert.equal(res.statusCode, 202, res.body);
  };
  const mentions = async (trendKey: string) =>
    (
      await ctx.app.services.db
        .selectFrom('trends')
        .select('mentions')
        .where('key', '=', trendKey)
        .executeTakeFirstOrThrow()
    ).mentions;
  const pending = async () =>
    (await ctx.app.services.db.selectFrom('signal_queue').select('id').execute()).length;

  test('what a drain read ahead and did not write is written first by the next, analysed once', async () => {
    await ingestMany('kelvor', 400);
    const nlp = new CountingNlp(40);
    const processor = new TrendProcessor(
      new TrendsStore(ctx.app.services.db, ctx.app.services.dialect),
      new SignalsStore(ctx.app.services.db),
      clock,
      nlp,
    );
    // The budget runs out while the first batch is analysed: the second, read meanwhile, waits for the next drain,
    // and the drain reads more ahead before it ends, for the threads to analyse while the pass goes on.
    const first = await processor.drain(100, { budgetMs: 20 });
    assert.equal(first.signals, 100);
    assert.equal(first.backlog, true);
    assert.deepEqual(nlp.batches, [100, 100, 100, 100], 'the other three batches were read ahead');
    const rest = await processor.drain(100);
    assert.equal(rest.signals, 300);
    assert.equal(rest.backlog, false);
    // Four batches, each analysed once: the one read ahead was not read and analysed again.
    assert.deepEqual(nlp.batches, [100, 100, 100, 100]);
    assert.equal(await mentions('kelvor bridge'), 400);
    assert.equal(await pending(), 0);
  });

  test('while the NLP threads are behind, the drain hands its wait to whileWaiting; never when they are ready', async () => {
    await ingestMany('quillan', 300);
    const store = new TrendsStore(ctx.app.services.db, ctx.app.services.dialect);
    let calls = 0;
    // Always more to do: the drain goes back to its batch as soon as the analysis is there.
    const whileWaiting = async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return true;
    };
    const slow = await new TrendProcessor(
      store,
      new SignalsStore(ctx.app.services.db),
      clock,
      // Slow enough that the first batch is still being analysed after the reads ahead (PostgreSQL's take longer).
      new CountingNlp(100),
    ).drain(100, { whileWaiting });
    assert.equal(slow.signals, 300);
    assert.ok(
      calls >= 3 && calls <= 80, // at most about one every 5 ms of the three 100 ms analyses
      `called while batches were analysed (${calls} times), not without end`,
    );
    assert.equal(await mentions('quillan bridge'), 300);
    await ingestMany('ossery', 200);
    calls = 0;
    // Analysis in this thread is ready as soon as it is asked for: nothing is waited on.
    const ready = await new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock).drain(100, {
      whileWaiting,
    });
    assert.equal(ready.signals, 200);
    assert.equal(calls, 0);
  });

  test('a signal pending behind the batches read ahead (its insert committed late) is read by the next drain', async () => {
    await ingestMany('varnel', 300);
    const { db } = ctx.app.services;
    const processor = new TrendProcessor(
      new TrendsStore(db, ctx.app.services.dialect),
      new SignalsStore(ctx.app.services.db),
      clock,
      new CountingNlp(40),
    );
    const first = await processor.drain(100, { budgetMs: 20 });
    assert.equal(first.signals, 100);
    // A row with an id below the batch read ahead becomes visible only now, as an insert that committed late
    // on PostgreSQL (ids are handed out before commit): it takes the id of a counted signal, deleted.
    const low = await db
      .selectFrom('signals')
      .select(['id', 'observed_at', 'received_at'])
      .where('external_id', '=', 'varnel-0')
      .executeTakeFirstOrThrow();
    assert.equal(
      await db.selectFrom('signal_queue').select('id').where('id', '=', low.id).executeTakeFirst(),
      undefined,
      'counted: off the queue',
    );
    await db.deleteFrom('signals').where('id', '=', low.id).execute();
    await db
      .insertInto('signals')
      .values({
        id: low.id,
        source: 'news',
        external_id: 'varnel-late',
        text: 'varnel bridge works continue late',
        keywords: JSON.stringify(['varnel bridge']),
        observed_at: low.observed_at,
        received_at: low.received_at,
      })
      .execute();
    await db.insertInto('signal_queue').values({ id: low.id }).execute();
    const rest = await processor.drain(100);
    assert.equal(rest.signals, 201);
    assert.equal(await pending(), 0);
    assert.equal(await mentions('varnel bridge'), 301);
  });

  test('a shutdown drops what was read ahead: those signals stay pending and are counted later', async () => {
    await ingestMany('dunmere', 300);
    const nlp = new CountingNlp(5);
    const store = new TrendsStore(ctx.app.services.db, ctx.app.services.dialect);
    const processor = new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock, nlp);
    let stopping = false;
    const stopped = await processor.drain(100, {
      stop: () => {
        const answer = stopping;
        stopping = true; // asked first while reading ahead: from then on the process is shutting down
        return answer;
      },
    });
    assert.equal(stopped.signals, 100);
    assert.equal(await pending(), 200);
    const later = await new TrendProcessor(
      store,
      new SignalsStore(ctx.app.services.db),
      clock,
      new CountingNlp(0),
    ).drain(100);
    assert.equal(later.signals, 200);
    assert.equal(await mentions('dunmere bridge'), 300);
  });

  test('a failed analysis fails the drain; the next drain reads those signals again and counts each once', async () => {
    await ingestMany('orvale', 300);
    const nlp = new CountingNlp(5);
    const processor = new TrendProcessor(
      new TrendsStore(ctx.app.services.db, ctx.app.services.dialect),
      new SignalsStore(ctx.app.services.db),
      clock,
      nlp,
    );
    nlp.failNext = true;
    await assert.rejects(processor.drain(100), /NLP thread died/);
    const retried = await processor.drain(100);
    assert.equal(retried.signals, 300);
    assert.equal(await mentions('orvale bridge'), 300);
    assert.equal(await pending(), 0);
  });
});
