import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { SignalsStore } from '../../../src/modules/signals/index.ts';
import { analyseBatch } from '../../../src/modules/text/analysis.ts';
import type { NlpPool } from '../../../src/modules/text/index.ts';
import type { TrendItemView } from '../../../src/modules/trends/index.ts';
import { TrendEngine, TrendProcessor, TrendsStore } from '../../../src/modules/trends/index.ts';
import { DRAIN_BATCH } from '../../../src/modules/trends/processor.ts';
import {
  eventsFor,
  MetricsRecomputer,
  MIN_EVENT_VOLUME,
  sameSnapshot,
  snapshotRow,
} from '../../../src/modules/trends/recompute.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { buildTestApp, type TestContext } from '../../helpers/app.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-21T12:00:00Z');

function view(overrides: Partial<TrendItemView>): TrendItemView {
  return {
    id: 7,
    title: 'Aurora',
    timestamp: new Date(NOW).toISOString(),
    category: 'Science/Space',
    type: 'keyword',
    meta_description: '',
    aliases: [],
    volume: 50,
    previous_volume: 10,
    absolute_change: 40,
    growth: 400,
    average_velocity: 2.08,
    trend_stability: 1,
    overall_trend: 'growing',
    velocity_score: 60,
    velocity_1h: 20,
    lifecycle_stage: 'rising',
    velocity_window: '1h',
    sentiment: '0.10',
    sentiment_category: 'positive',
    platforms: { x: 50 },
    ...overrides,
  };
}

describe('domain events from snapshot changes', () => {
  test('an upward crossing names every level crossed; staying above raises nothing', () => {
    const [event] = eventsFor({ velocity_score: 20, lifecycle_stage: 'rising' }, view({}), [25, 50, 75], NOW);
    assert.equal(event!.type, 'trend.velocity.crossed');
    assert.deepEqual(event!.data.levels, [25, 50]);
    assert.equal(event!.data.from_velocity, 20);
    assert.equal(event!.id, `trend.velocity.crossed:7:50:${NOW}`);
    assert.deepEqual(
      eventsFor({ velocity_score: 55, lifecycle_stage: 'rising' }, view({}), [25, 50], NOW),
      [],
    );
    assert.deepEqual(
      eventsFor({ velocity_score: 70, lifecycle_stage: 'rising' }, view({ velocity_score: 40 }), [50], NOW),
      [],
      'downward moves are not crossings',
    );
  });

  test('a stage change is an event; a first snapshot counts unless it is stable', () => {
    const changed = eventsFor(
      { velocity_score: 60, lifecycle_stage: 'rising' },
      view({ lifecycle_stage: 'peaking' }),
      [],
      NOW,
    );
    assert.deepEqual(
      changed.map((e) => [
        e.type,
        'from_stage' in e.data && e.data.from_stage,
        'to_stage' in e.data && e.data.to_stage,
      ]),
      [['trend.lifecycle.changed', 'rising', 'peaking']],
    );
    assert.equal(
      eventsFor(undefined, view({ lifecycle_stage: 'stable', velocity_score: 0 }), [25], NOW).length,
      0,
    );
    assert.equal(
      eventsFor(undefined, view({ lifecycle_stage: 'emerging', velocity_score: 0 }), [25], NOW).length,
      1,
    );
  });

  test(`trends under ${MIN_EVENT_VOLUME} mentions raise no events`, () => {
    assert.deepEqual(eventsFor(undefined, view({ volume: MIN_EVENT_VOLUME - 1 }), [25], NOW), []);
  });
});

test('a snapshot is the same as the stored one when every column but computed_at is', () => {
  const stored = snapshotRow(view({ meta_description: 'Aurora: 50 mentions' }), '24h', NOW);
  assert.equal(sameSnapshot(stored, { ...stored, computed_at: NOW + 60_000 }), true);
  assert.equal(sameSnapshot(stored, { ...stored, volume: 51 }), false);
  assert.equal(sameSnapshot(stored, { ...stored, growth: null }), false);
  assert.equal(sameSnapshot(undefined, stored), false, 'no row stored yet');
});

describe('trend engine', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => ctx?.close());

  /**
   * Starts `engine` with an hour between ticks, so only its wakes and backlog continuations run passes, wakes it,
   * waits up to 10 s for `left()` to reach 0, and stops it.
   */
  const runWoken = async (engine: TrendEngine, left: () => Promise<number>) => {
    engine.start(3_600_000, (error) => assert.fail(String(error)));
    try {
      engine.wake();
      const until = Date.now() + 10_000;
      while ((await left()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    } finally {
      engine.stop();
      await engine.idle();
    }
  };
  /** Trends whose snapshots are out of date. */
  const outOfDate = async () =>
    Number(
      (
        await ctx!.app.services.db
          .selectFrom('trend_dirty')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const ingest = async (items: { id: string; at: number }[]) => {
    const result = await ctx!.app.services.signals.ingest(
      items.map(({ id, at }) => ({
        source: 'x',
        external_id: id,
        text: 'Aurora tonight',
        keywords: ['aurora'],
        observed_at: new Date(at).toISOString(),
      })),
    );
    assert.equal(result.accepted, items.length);
  };

  test('retention deletes counted signals past SIGNAL_RETENTION_DAYS and buckets past BUCKET_RETENTION_DAYS', async () => {
    const clock = new ManualClock(NOW);
    ctx = await buildTestApp({ clock, env: { SIGNAL_RETENTION_DAYS: '14', BUCKET_RETENTION_DAYS: '30' } });
    await ingest([
      { id: 'old', at: NOW - 40 * DAY },
      { id: 'middle', at: NOW - 20 * DAY },
      { id: 'new', at: NOW - DAY },
    ]);
    await ctx.app.services.engine.tick();
    const db = ctx.app.services.db;
    const signals = await db.selectFrom('signals').select('external_id').orderBy('external_id').execute();
    assert.deepEqual(
      signals.map((s) => s.external_id),
      ['new'],
    );
    const buckets = await db.selectFrom('trend_hourly').select('hour').orderBy('hour').execute();
    assert.deepEqual(
      buckets.map((b) => b.hour),
      [Math.floor((NOW - 20 * DAY) / 3_600_000), Math.floor((NOW - DAY) / 3_600_000)],
      'the 40-day-old bucket is gone, the 20-day-old one kept',
    );
  });

  test('hourly buckets older than 70 days are rolled up into one bucket per day with the same totals; newer ones keep their hours', async () => {
    const clock = new ManualClock(NOW);
    ctx = await buildTestApp({ clock, env: { BUCKET_RETENTION_DAYS: '400' } });
    const HOUR = 3_600_000;
    const old = NOW - 80 * DAY; // 12:00 UTC, 80 days ago
    const recent = NOW - 10 * DAY;
    await ingest([
      { id: 'r1', at: recent + HOUR },
      { id: 'r2', at: recent + 2 * HOUR },
    ]);
    const { engine, db, trendProcessor } = ctx.app.services;
    await trendProcessor.drain();
    // Buckets counted when those hours were recent (posts that old are not counted now).
    const trend = await db.selectFrom('trends').select('id').where('key', '=', 'aurora').executeTakeFirst();
    const bucket = (at: number, mentions: number) => ({
      trend_id: trend!.id,
      platform: 'x',
      hour: Math.floor(at / HOUR),
      mentions,
      sentiment_sum: 0,
      positive: 0,
      negative: 0,
      evidence: mentions,
    });
    await db
      .insertInto('trend_hourly')
      .values([
        bucket(old + HOUR, 1),
        bucket(old + 2 * HOUR, 2),
        bucket(old + 5 * HOUR, 1),
        bucket(old + 30 * HOUR, 1),
      ])
      .execute();
    await engine.tick();
    const rows = async () =>
      (
        await db
          .selectFrom('trend_hourly as h')
          .innerJoin('trends as t', 't.id', 'h.trend_id')
          .select(['h.hour', 'h.mentions', 'h.evidence'])
          .where('t.key', '=', 'aurora')
          .orderBy('h.hour')
          .execute()
      ).map((r) => [Number(r.hour), Number(r.mentions), Number(r.evidence)]);
    const dayStart = (at: number) => Math.floor(at / DAY) * 24;
    const hourOf = (at: number) => Math.floor(at / HOUR);
    const expected = [
      [dayStart(old), 4, 4],
      [dayStart(old + 30 * HOUR), 1, 1],
      [hourOf(recent + HOUR), 1, 1],
      [hourOf(recent + 2 * HOUR), 1, 1],
    ];
    assert.deepEqual(await rows(), expected);
    // Another instance (or the next start) rolling the same days again changes nothing.
    const store = new TrendsStore(db, ctx.app.services.dialect);
    assert.equal(await store.buckets.rollUpDays(0, dayStart(NOW - 70 * DAY)), 0);
    assert.deepEqual(await rows(), expected);
  });

  test('a recompute that finds a snapshot as it was leaves the row alone; one with new mentions rewrites it', async () => {
    const clock = new ManualClock(NOW);
    ctx = await buildTestApp({ clock });
    await ingest([
      { id: 's1', at: NOW - 120_000 },
      { id: 's2', at: NOW - 60_000 },
    ]);
    const { engine, db, recomputer } = ctx.app.services;
    await engine.tick();
    const written = async () =>
      (
        await db
          .selectFrom('trend_metrics as m')
          .innerJoin('trends as t', 't.id', 'm.trend_id')
          .select(['m.period', 'm.computed_at', 'm.volume'])
          .where('t.key', '=', 'aurora')
          .orderBy('m.period')
          .execute()
      ).map((r) => [r.period, Number(r.computed_at), Number(r.volume)]);
    const first = await written();
    assert.equal(first.length, 4);
    // Out of date again (as the minute and hour markers leave every active trend) with nothing new to count.
    clock.advance(1_000);
    const all = await db.selectFrom('trends').select('id').execute();
    await new TrendsStore(db, ctx.app.services.dialect).dirty.mark(all.map((t) => t.id));
    assert.equal((await recomputer.run()).trends, 1);
    assert.deepEqual(await written(), first, 'nothing rewritten');
    await ingest([{ id: 's3', at: NOW }]);
    await engine.tick();
    const after = await written();
    assert.ok(
      after.every(([, at]) => at === NOW + 1_000),
      JSON.stringify(after),
    );
    assert.deepEqual(
      after.find(([period]) => period === '24h'),
      ['24h', NOW + 1_000, 3],
    );
  });

  test('a pass with a backlog processes for its budget, then recomputes; the rest waits for the next pass', async () => {
    const clock = new ManualClock(NOW);
    ctx = await buildTestApp({ clock });
    await ingest(
      Array.from({ length: 2 * DRAIN_BATCH + 200 }, (_, i) => ({ id: `b${i}`, at: NOW - 60_000 })),
    );
    const { db, dialect, trendProcessor, recomputer } = ctx.app.services;
    // A budget already spent: the batch read first is written, nothing more.
    const engine = new TrendEngine(trendProcessor, recomputer, new TrendsStore(db, dialect), clock, {
      retention: { signalDays: 14, bucketDays: 30 },
      pruneSignals: async () => undefined,
      drainBudgetMs: 0,
    });
    const first = await engine.tick();
    assert.equal(first.signals, DRAIN_BATCH);
    assert.ok(first.recomputed > 0, 'snapshots are brought up to date while a backlog remains');
    assert.equal((await engine.tick()).signals, DRAIN_BATCH);
    assert.equal((await engine.tick()).signals, 200);
  });

  test('snapshots a pass left out of date are a backlog: the next pass follows at once, not at the next tick', async () => {
    const clock = new ManualClock(NOW);
    ctx = await buildTestApp({ clock });
    const { db, dialect, trendProcessor, trends, events, signals } = ctx.app.services;
    const store = new TrendsStore(db, dialect);
    // A run recomputes 4 trends (batches of 2); the signals below touch 10.
    const recomputer = new MetricsRecomputer(store, trends, events, clock, {
      batchSize: 2,
      maxTrendsPerRun: 4,
    });
    const engine = new TrendEngine(trendProcessor, recomputer, store, clock, {
      retention: { signalDays: 14, bucketDays: 30 },
      pruneSignals: async () => undefined,
    });
    const topics = Array.from({ length: 10 }, (_, i) => `comet${String.fromCharCode(97 + i)}`);
    const ingested = await signals.ingest(
      topics.map((topic, i) => ({
        source: 'x',
        external_id: `t${i}`,
        text: `Sky tonight: ${topic}`,
        keywords: [topic],
        observed_at: new Date(NOW - 60_000).toISOString(),
      })),
    );
    assert.equal(ingested.accepted, topics.length);
    const first = await engine.tick();
    assert.equal(first.recomputed, 4);
    assert.equal(first.backlog, true, 'out-of-date snapshots left over are a backlog');
    assert.ok((await outOfDate()) > 0);
    // Only the backlog continuation brings the rest up to date in time.
    await runWoken(engine, outOfDate);
    assert.equal(await outOfDate(), 0, 'every snapshot current without waiting for the interval');
    const last = await engine.tick();
    assert.equal(last.backlog, false, 'nothing left: no backlog');
  });

  test('while the NLP threads are behind, a pass recomputes out-of-date snapshots instead of waiting', async () => {
    const clock = new ManualClock(NOW);
    ctx = await buildTestApp({ clock });
    const { db, dialect, trends, events, signals } = ctx.app.services;
    const store = new TrendsStore(db, dialect);
    /** Records each recompute done in a wait, and whether the batch being analysed was still out then. */
    class WatchedRecomputer extends MetricsRecomputer {
      readonly inWaits: number[] = [];
      override async recomputeSome(limit: number) {
        const done = await super.recomputeSome(limit);
        this.inWaits.push(done.trends);
        return done;
      }
    }
    /** Recomputes in waits the analysis holds out for (a fixed delay raced a loaded machine's recomputes). */
    let holdFor = 0;
    const slowNlp: NlpPool = {
      analyse: async (batch) => {
        const started = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 50));
        while (recomputer.inWaits.length < holdFor && performance.now() - started < 30_000)
          await new Promise((resolve) => setTimeout(resolve, 5));
        return analyseBatch(batch);
      },
      warm: async () => undefined,
      close: async () => undefined,
    };
    /** Six posts naming a phrase each, or all naming the same one (`same`). */
    const post = async (prefix: string, same = false) => {
      const ingested = await signals.ingest(
        Array.from({ length: 6 }, (_, i) => {
          const topic = same ? prefix : `${prefix}${String.fromCharCode(97 + i)}`;
          return {
            source: 'x',
            external_id: `${prefix}${i}`,
            text: topic,
            keywords: [topic],
            observed_at: new Date(NOW - 60_000).toISOString(),
          };
        }),
      );
      assert.equal(ingested.accepted, 6);
    };
    const recomputer = new WatchedRecomputer(store, trends, events, clock, { batchSize: 2 });
    // This hour's marking done (no trends yet), so a pass recomputes only what ingestion touched.
    await recomputer.markTimeDirty();
    // Six one-off phrases and a busy one (six mentions) counted and left out of date (a drain alone does not
    // recompute).
    await post('comet');
    await post('meteorshower', true);
    const processor = new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock, slowNlp);
    assert.equal((await processor.drain()).signals, 12);
    const engine = new TrendEngine(processor, recomputer, store, clock, {
      retention: { signalDays: 14, bucketDays: 30 },
      pruneSignals: async () => undefined,
    });
    await post('nova');
    holdFor = 3;
    const pass = await engine.tick();
    assert.equal(pass.signals, 6);
    assert.deepEqual(
      recomputer.inWaits.slice(0, 3),
      [2, 2, 2],
      'the six one-off phrases recomputed while the batch was analysed',
    );
    assert.equal(
      recomputer.inWaits.reduce((a, b) => a + b, 0),
      6,
      'the busy trend waits for the end of the pass',
    );
    assert.equal(
      pass.recomputed,
      13,
      'those six and, at the end of the pass, the busy one and the six touched',
    );
    assert.equal(await outOfDate(), 0);
  });

  test('a trend that stays above a velocity level raises its crossing once, one-off trends beside it none', async () => {
    const clock = new ManualClock(NOW);
    ctx = await buildTestApp({ clock });
    const { signals, engine, db } = ctx.app.services;
    let n = 0;
    /** A word of letters for n (distinct texts and accounts, which evidence weighting does not fold). */
    const word = (k: number) => {
      let out = '';
      for (let v = k + 26; v > 0; v = Math.floor(v / 26)) out += String.fromCharCode(97 + (v % 26));
      return out;
    };
    const post = async (count: number) => {
      const items = Array.from({ length: count }, (_, i) => {
        n++;
        return {
          source: ['x', 'reddit', 'bluesky'][n % 3]!,
          external_id: `aurora-${n}`,
          author: `watcher_${word(n)}`,
          text: `Aurora seen from the ${word(n)} pier tonight`,
          keywords: ['aurora', `oneoff ${word(n)}`],
          observed_at: new Date(NOW - 50 * 60_000 + i * 60_000).toISOString(),
        };
      });
      assert.equal((await signals.ingest(items)).accepted, count);
      await engine.tick();
    };
    const crossings = async () => {
      const jobs = await db.selectFrom('jobs').select('payload').where('type', '=', 'domain-event').execute();
      return jobs
        .map(
          (job) =>
            JSON.parse(job.payload) as { type: string; data: { trend_name: string; levels?: number[] } },
        )
        .filter((event) => event.type === 'trend.velocity.crossed');
    };
    await post(30);
    const first = await crossings();
    assert.ok(first.length > 0, 'a breakout from many accounts crosses a level');
    assert.ok(
      first.every((event) => event.data.trend_name.toLowerCase() === 'aurora'),
      'one-off phrases raise none',
    );
    await post(10);
    await post(10);
    const levels = (await crossings()).flatMap((event) => event.data.levels ?? []);
    assert.equal(new Set(levels).size, levels.length, `each level crossed once: ${levels.join(', ')}`);
  });

  test('stopping ends a pass after the batch it is writing (shutdown does not wait for the backlog)', async () => {
    const clock = new ManualClock(NOW);
    ctx = await buildTestApp({ clock });
    await ingest(Array.from({ length: DRAIN_BATCH + 700 }, (_, i) => ({ id: `c${i}`, at: NOW - 60_000 })));
    const { engine } = ctx.app.services;
    const pass = engine.tick();
    engine.stop();
    assert.equal((await pass).signals, DRAIN_BATCH);
    const pending = await ctx.app.services.db
      .selectFrom('signal_queue')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(pending.n), 700, 'the rest is still pending, not lost');
  });

  test('once started, stored signals wake the engine and a backlog is worked off pass after pass, not once a tick', async () => {
    const clock = new ManualClock(NOW);
    ctx = await buildTestApp({ clock });
    const { db, dialect, trendProcessor, recomputer, signals } = ctx.app.services;
    const engine = new TrendEngine(trendProcessor, recomputer, new TrendsStore(db, dialect), clock, {
      retention: { signalDays: 14, bucketDays: 30 },
      pruneSignals: async () => undefined,
      drainBudgetMs: 0,
    });
    const pending = async () =>
      Number(
        (
          await db
            .selectFrom('signal_queue')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    await ingest(Array.from({ length: 1200 }, (_, i) => ({ id: `w${i}`, at: NOW - 60_000 })));
    // Only the wake and the backlog continuation can process these in time.
    await runWoken(engine, pending);
    assert.equal(await pending(), 0, 'three passes of one batch each, back to back');
    // The app's engine, once started, is woken by signals stored through the service.
    const appEngine = ctx.app.services.engine;
    appEngine.start(3_600_000, (error) => assert.fail(String(error)));
    try {
      const ingested = await signals.ingest([
        { source: 'x', external_id: 'late', text: 'Aurora again', observed_at: new Date(NOW).toISOString() },
      ]);
      assert.equal(ingested.accepted, 1);
      const later = Date.now() + 10_000;
      while ((await pending()) > 0 && Date.now() < later) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await pending(), 0);
    } finally {
      appEngine.stop();
      await appEngine.idle();
    }
  });

  test('a server with background work warms its NLP threads at start; one without does not', async () => {
    const pool = () => {
      const state = { warmed: 0, closed: 0 };
      const nlp: NlpPool = {
        analyse: async (batch) => analyseBatch(batch),
        warm: async () => {
          state.warmed++;
        },
        close: async () => {
          state.closed++;
        },
      };
      return { nlp, state };
    };
    const serving = pool();
    ctx = await buildTestApp({ background: true, overrides: { nlp: serving.nlp } });
    assert.equal(serving.state.warmed, 1, 'the model loads at start, not with the first batch');
    await ctx.close();
    ctx = undefined;
    assert.equal(serving.state.closed, 1);
    const quiet = pool();
    ctx = await buildTestApp({ overrides: { nlp: quiet.nlp } });
    assert.equal(quiet.state.warmed, 0);
  });

  test('two processors draining at once count each signal once', async () => {
    const clock = new ManualClock(NOW);
    ctx = await buildTestApp({ clock });
    await ingest(Array.from({ length: 300 }, (_, i) => ({ id: `s${i}`, at: NOW - 60_000 })));
    const store = new TrendsStore(ctx.app.services.db, ctx.app.services.dialect);
    const a = new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock);
    const b = new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock);
    // All four read the same pending rows; each signal is claimed by one of them.
    await Promise.all([a.processBatch(200), b.processBatch(200), a.processBatch(200), b.processBatch(200)]);
    // What none of them claimed is still pending, not lost.
    await Promise.all([a.drain(200), b.drain(200)]);
    const trend = await ctx.app.services.db
      .selectFrom('trends')
      .select('mentions')
      .where('key', '=', 'aurora')
      .executeTakeFirstOrThrow();
    assert.equal(trend.mentions, 300);
    const hourly = await ctx.app.services.db.selectFrom('trend_hourly').select('mentions').execute();
    assert.equal(
      hourly.reduce((s, r) => s + r.mentions, 0),
      300 * (await ctx.app.services.db.selectFrom('trends').select('id').execute()).length,
    );
  });
});

test('while signals stay pending pass after pass, each pass may drain twice as long, up to 4 ×; a pass without a backlog starts again at 1 ×', async () => {
  const budgets: number[] = [];
  const backlogs = [true, true, true, true, false, true];
  const processor = {
    drain: async (_limit: unknown, options: { budgetMs: number }) => {
      budgets.push(options.budgetMs);
      return { signals: 1, trends: 0, mentions: 0, backlog: backlogs[budgets.length - 1] ?? false };
    },
  } as unknown as TrendProcessor;
  const recomputer = {
    run: async () => ({ trends: 0, events: 0, backlog: false }),
    recomputeSome: async () => ({ trends: 0, events: 0 }),
    listsOutOfDate: () => undefined,
  } as unknown as MetricsRecomputer;
  const store = {
    buckets: { pruneBefore: async () => undefined, rollUpDays: async () => 0 },
  } as unknown as TrendsStore;
  const engine = new TrendEngine(processor, recomputer, store, new ManualClock(NOW), {
    retention: { signalDays: 14, bucketDays: 30 },
    pruneSignals: async () => undefined,
    drainBudgetMs: 500,
  });
  for (let i = 0; i < backlogs.length; i++) await engine.tick();
  assert.deepEqual(budgets, [500, 1000, 2000, 2000, 2000, 500]);
});
