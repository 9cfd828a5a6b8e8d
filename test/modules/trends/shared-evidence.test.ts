import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import { SignalsStore } from '../../../src/modules/signals/index.ts';
import type { EvidenceUnits, SharedEvidence } from '../../../src/modules/trends/evidence.ts';
import { EvidenceTracker } from '../../../src/modules/trends/evidence.ts';
import { RedisEvidence } from '../../../src/modules/trends/evidence-store.ts';
import { TrendProcessor } from '../../../src/modules/trends/processor.ts';
import { TrendsStore } from '../../../src/modules/trends/store.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { connectRedis } from '../../../src/platform/redis.ts';
import { buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { testRedisPrefix, testRedisUrl } from '../../helpers/db.ts';

const NOW = Date.parse('2026-11-21T10:30:00Z');
const HOUR = Math.floor(NOW / 3_600_000);

/** The shared memory of several instances, in this process (what Redis is between processes). */
class MemoryEvidence implements SharedEvidence {
  readonly hours = new Map<number, Set<number>>();
  async counted(units: EvidenceUnits): Promise<EvidenceUnits> {
    const found: EvidenceUnits = new Map();
    for (const [hour, set] of units) {
      const known = [...set].filter((unit) => this.hours.get(hour)?.has(unit));
      if (known.length > 0) found.set(hour, new Set(known));
    }
    return found;
  }
  async share(units: EvidenceUnits): Promise<void> {
    for (const [hour, set] of units) {
      const kept = this.hours.get(hour) ?? new Set<number>();
      for (const unit of set) kept.add(unit);
      this.hours.set(hour, kept);
    }
  }
}

class UnreachableEvidence implements SharedEvidence {
  async counted(): Promise<EvidenceUnits> {
    throw new Error('Connection is closed.');
  }
  async share(): Promise<void> {
    throw new Error('Connection is closed.');
  }
}

test('units another process counted make a mention no evidence; a committed batch remembers them', () => {
  const tracker = new EvidenceTracker();
  const probe = tracker.batch();
  assert.equal(tracker.admit(probe, 'kestrel', 10, 'ann', 1), true);
  // Another process counted ann's unit for kestrel in hour 10: the batch is judged again knowing it.
  const batch = tracker.batch(probe.staged);
  assert.equal(tracker.admit(batch, 'kestrel', 10, 'ann', 1), false);
  assert.equal(tracker.admit(batch, 'kestrel', 10, 'bob', 2), true);
  tracker.commit(batch);
  // Remembered here too: the next batch does not need to ask.
  assert.equal(tracker.admit(tracker.batch(), 'kestrel', 10, 'ann', 3), false);
});

describe('evidence shared between instances', () => {
  let ctx: TestContext;
  let key: string;
  let store: TrendsStore;
  const clock = new ManualClock(NOW);
  let next = 0;
  before(async () => {
    ctx = await buildTestApp({ clock });
    key = (await createUser(ctx, 'enterprise', ['read', 'ingest'])).key;
    store = new TrendsStore(ctx.app.services.db, ctx.app.services.dialect);
  });
  after(async () => ctx.close());

  /** One post by `author` tagging `tag`, processed by `processor`. */
  const post = async (processor: TrendProcessor, author: string, tag: string) => {
    next += 1;
    const signal = {
      source: 'x',
      external_id: `e${next}`,
      author,
      text: `#${tag} post number ${next} with words of its own ${'x'.repeat(next)}`,
      observed_at: new Date(NOW - 60_000).toISOString(),
    };
    const res = await call(ctx.app, 'POST', '/api/signals', { key, body: { signals: [signal] } });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal((await processor.drain()).signals, 1);
  };
  const evidenceOf = async (tag: string) => {
    const rows = await ctx.app.services.db
      .selectFrom('trend_hourly')
      .innerJoin('trends', 'trends.id', 'trend_hourly.trend_id')
      .select(['trend_hourly.mentions', 'trend_hourly.evidence'])
      .where('trends.key', '=', tag)
      .where('trend_hourly.hour', '=', HOUR)
      .execute();
    return {
      mentions: rows.reduce((sum, r) => sum + r.mentions, 0),
      evidence: rows.reduce((sum, r) => sum + r.evidence, 0),
    };
  };

  test('without sharing, each instance counts one account once: twice over two instances', async () => {
    const a = new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock);
    const b = new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock);
    await post(a, 'ann', 'kestrelalone');
    await post(b, 'ann', 'kestrelalone');
    assert.deepEqual(await evidenceOf('kestrelalone'), { mentions: 2, evidence: 2 });
  });

  test('with sharing, an account counts once per trend and hour however many instances see it', async () => {
    const shared = new MemoryEvidence();
    const a = new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock, undefined, {
      sharedEvidence: shared,
    });
    const b = new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock, undefined, {
      sharedEvidence: shared,
    });
    await post(a, 'ann', 'kestrelshared');
    await post(b, 'ann', 'kestrelshared');
    await post(a, 'ann', 'kestrelshared');
    await post(b, 'bob', 'kestrelshared');
    assert.deepEqual(await evidenceOf('kestrelshared'), { mentions: 4, evidence: 2 });
    // A restarted instance (an empty memory) still knows through the shared units.
    await post(
      new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock, undefined, {
        sharedEvidence: shared,
      }),
      'bob',
      'kestrelshared',
    );
    assert.deepEqual(await evidenceOf('kestrelshared'), { mentions: 5, evidence: 2 });
  });

  test('shared units that cannot be reached: the batch is counted, judged by the instance alone, and told', async () => {
    const errors: unknown[] = [];
    const a = new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock, undefined, {
      sharedEvidence: new UnreachableEvidence(),
      onSharedEvidenceError: (error) => errors.push(error),
    });
    await post(a, 'ann', 'kestreloffline');
    await post(a, 'ann', 'kestreloffline');
    await post(a, 'bob', 'kestreloffline');
    assert.deepEqual(await evidenceOf('kestreloffline'), { mentions: 3, evidence: 2 });
    // One failure, then 5 s without asking (a hanging Redis would cost its timeout on every batch).
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /Connection is closed/);
    clock.advance(5_000);
    await post(a, 'cid', 'kestreloffline');
    assert.equal(errors.length, 2);
    clock.set(NOW);
  });

  test('through Redis: two instances and a restart share the units', {
    skip: !testRedisUrl && 'needs TEST_REDIS_URL',
  }, async () => {
    const prefix = testRedisPrefix();
    const clients: Redis[] = [];
    const redisEvidence = async () => {
      const client = await connectRedis(testRedisUrl!, 'test');
      clients.push(client);
      return new RedisEvidence(client, prefix, clock);
    };
    try {
      const a = new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock, undefined, {
        sharedEvidence: await redisEvidence(),
      });
      const b = new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock, undefined, {
        sharedEvidence: await redisEvidence(),
      });
      await post(a, 'ann', 'kestrelredis');
      await post(b, 'ann', 'kestrelredis');
      await post(b, 'bob', 'kestrelredis');
      await post(
        new TrendProcessor(store, new SignalsStore(ctx.app.services.db), clock, undefined, {
          sharedEvidence: await redisEvidence(),
        }),
        'bob',
        'kestrelredis',
      );
      assert.deepEqual(await evidenceOf('kestrelredis'), { mentions: 4, evidence: 2 });
      // The hour's set expires when the hour leaves the kept window: the end of the hour two after it.
      const ttl = await clients[0]!.ttl(`${prefix}evidence:${HOUR}`);
      const expected = (HOUR + 3) * 3600 - Math.floor(NOW / 1000);
      assert.ok(ttl > expected - 60 && ttl <= expected, `ttl ${ttl}, expected ${expected}`);
    } finally {
      if (clients[0]) await clients[0].del(`${prefix}evidence:${HOUR}`);
      for (const client of clients) client.disconnect();
    }
  });
});

test('two instances on one database and one Redis count an account once', {
  skip: !testRedisUrl && 'needs TEST_REDIS_URL',
}, async () => {
  const clock = new ManualClock(NOW);
  const redisPrefix = testRedisPrefix();
  const first = await buildTestApp({ clock, redisPrefix });
  const second = await buildTestApp({ clock, redisPrefix, database: first.database });
  try {
    const key = (await createUser(first, 'enterprise', ['read', 'ingest'])).key;
    let n = 0;
    for (const instance of [first, second, first, second]) {
      n += 1;
      const signal = {
        source: 'x',
        external_id: `i${n}`,
        author: 'ann',
        text: `#Kestrel instance post ${n} ${'y'.repeat(n)}`,
        // One account: only a keyword makes its phrase a trend (a candidate needs two accounts).
        keywords: ['Kestrel'],
        observed_at: new Date(NOW - 60_000).toISOString(),
      };
      const res = await call(instance.app, 'POST', '/api/signals', { key, body: { signals: [signal] } });
      assert.equal(res.statusCode, 202, res.body);
      assert.equal((await instance.app.services.trendProcessor.drain()).signals, 1);
    }
    const row = await first.app.services.db
      .selectFrom('trend_hourly')
      .innerJoin('trends', 'trends.id', 'trend_hourly.trend_id')
      .select(['trend_hourly.mentions', 'trend_hourly.evidence'])
      .where('trends.key', '=', 'kestrel')
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { mentions: 4, evidence: 1 });
  } finally {
    await second.close();
    await first.close();
  }
});

describe('RedisEvidence', { skip: !testRedisUrl && 'needs TEST_REDIS_URL' }, () => {
  test('answers which units were shared, by hour; hours past the kept window are neither asked nor kept', async () => {
    const client = await connectRedis(testRedisUrl!, 'test');
    const prefix = testRedisPrefix();
    try {
      const evidence = new RedisEvidence(client, prefix, new ManualClock(NOW));
      assert.deepEqual(await evidence.counted(new Map([[HOUR, new Set([1, 2])]])), new Map());
      await evidence.share(
        new Map([
          [HOUR, new Set([1, 2])],
          [HOUR - 1, new Set([7])],
          [HOUR - 3, new Set([9])],
        ]),
      );
      const found = await evidence.counted(
        new Map([
          [HOUR, new Set([2, 3])],
          [HOUR - 1, new Set([7])],
          [HOUR - 3, new Set([9])],
        ]),
      );
      assert.deepEqual(
        found,
        new Map([
          [HOUR, new Set([2])],
          [HOUR - 1, new Set([7])],
        ]),
      );
      assert.equal(await client.exists(`${prefix}evidence:${HOUR - 3}`), 0);
    } finally {
      await client.del(`${prefix}evidence:${HOUR}`, `${prefix}evidence:${HOUR - 1}`);
      client.disconnect();
    }
  });

  test('an hour whose set reached the bound takes no more units', async () => {
    const client = await connectRedis(testRedisUrl!, 'test');
    const prefix = testRedisPrefix();
    try {
      const evidence = new RedisEvidence(client, prefix, new ManualClock(NOW), 2);
      await evidence.counted(new Map([[HOUR, new Set([1, 2])]]));
      await evidence.share(new Map([[HOUR, new Set([1, 2])]]));
      // The next batch reads the size (2, the bound) and shares nothing more for that hour.
      await evidence.counted(new Map([[HOUR, new Set([3])]]));
      await evidence.share(new Map([[HOUR, new Set([3])]]));
      assert.equal(await client.scard(`${prefix}evidence:${HOUR}`), 2);
    } finally {
      await client.del(`${prefix}evidence:${HOUR}`);
      client.disconnect();
    }
  });
});
