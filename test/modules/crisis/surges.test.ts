// Social surges through the real app: independent evidence on one platform, copy-paste storms, fast windows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignalsStore } from '../../../src/modules/signals/index.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';

const MIN = 60_000;

async function ingest(ctx: TestContext, signals: Record<string, unknown>[]) {
  const res = await call(ctx.app, 'POST', '/api/signals', { key: ctx.operatorKey, body: { signals } });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.data.rejected.length, 0, res.body);
}

const HAPPENINGS = [
  'explosion reported',
  'fire and thick smoke',
  'workers evacuated',
  'roof collapsed, people trapped',
  'ambulances arriving, several injured',
  'residents told to take shelter',
];
const PLACES = ['north gate', 'main hall', 'loading dock', 'river side', 'car park', 'east wing', 'depot'];

/** Distinct factual reports about `topic` (VADER reads most of them as neutral). */
const reports = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `${topic} plant: ${HAPPENINGS[i % HAPPENINGS.length]} near the ${PLACES[i % PLACES.length]} (${i})`,
  );

async function events(ctx: TestContext, key: string, keyword: string) {
  const res = await call(ctx.app, 'GET', `/api/intelligence/crisis-events?keyword=${keyword}`, { key });
  assert.equal(res.statusCode, 200, res.body);
  return res.data.events;
}

describe('social surges: independent evidence, crisis language, sliding windows', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  let user: { userId: number; key: string };

  before(async () => {
    ctx = await buildTestApp({ clock });
    user = await createUser(ctx, 'enterprise');
    for (const keyword of ['Borealis', 'Copycat', 'Quickfire', 'Solowave', 'Latewave']) {
      const res = await call(ctx.app, 'POST', '/api/user/interests', { key: user.key, body: { keyword } });
      assert.equal(res.statusCode, 201, res.body);
    }
  });
  after(() => ctx.close());

  it('opens for a surge seen on one platform only, carried by 30 independent accounts', async () => {
    const texts = reports('Borealis', 30);
    await ingest(
      ctx,
      texts.map((text, i) => ({
        source: 'x',
        external_id: `borealis-${i}`,
        text,
        author: `witness${i}`,
        url: `https://x.com/witness${i}/status/${i}`,
        observed_at: new Date(clock.now() - 20 * MIN + i * 40_000).toISOString(),
      })),
    );
    await ctx.app.services.engine.tick();
    const list = await events(ctx, user.key, 'borealis');
    assert.equal(list.length, 1);
    const event = list[0];
    assert.equal(event.title, 'Alarming surge around "Borealis"');
    assert.equal(event.method_version, '2.4.0');
    assert.deepEqual(event.corroboration.sources, ['x']);
    assert.deepEqual(event.corroboration.evidence.carried_by, ['accounts']);
    assert.ok(event.corroboration.evidence.accounts.count >= 6, JSON.stringify(event.corroboration));
    assert.equal(event.corroboration.evidence.platforms.points, 0);
    // The explanation: which crisis words, in how many posts.
    const terms = event.corroboration.concern.alarm_terms as Record<string, number>;
    assert.ok(Object.keys(terms).length > 0, JSON.stringify(event.corroboration));
    assert.ok(event.corroboration.concern.alarming > 0);
    assert.match(event.summary, /with crisis words: /);
    assert.match(event.severity_basis, /carried by accounts\./);
    assert.match(event.severity_basis, /this hour of day on \d previous days/);
    assert.ok(event.limitations.some((l: string) => /curated lexicon/.test(l)));
  });

  it('opens nothing for a copy-paste storm from 100 accounts on three platforms', async () => {
    const text = 'Copycat plant explosion!!! Evacuate now, share before they delete this';
    await ingest(
      ctx,
      Array.from({ length: 100 }, (_, i) => ({
        source: ['x', 'reddit', 'bluesky'][i % 3],
        external_id: `copycat-${i}`,
        text: i % 2 ? text : `${text} #${['breaking', 'news'][i % 2]}`,
        author: `bot${i}`,
        url: `https://example.com/copycat/${i}`,
        observed_at: new Date(clock.now() - 10 * MIN + i * 5_000).toISOString(),
      })),
    );
    await ctx.app.services.engine.tick();
    assert.equal((await events(ctx, user.key, 'copycat')).length, 0);
  });

  it('opens within minutes: 4 reports on 3 platforms, or 6 accounts on one, in the 10-minute window', async () => {
    clock.advance(2 * 60 * MIN);
    const start = clock.now();
    const spread = reports('Quickfire', 4);
    const platforms = ['x', 'reddit', 'bluesky'];
    for (let minute = 0; minute < 4; minute++) {
      clock.set(start + (minute + 1) * MIN);
      await ingest(ctx, [
        {
          source: platforms[minute % 3],
          external_id: `quickfire-${minute}`,
          text: spread[minute],
          author: `q${minute}`,
          url: `https://${platforms[minute % 3]}.example.com/q/${minute}`,
          observed_at: new Date(start + minute * MIN + 30_000).toISOString(),
        },
      ]);
      await ctx.app.services.engine.tick();
      const opened = await events(ctx, user.key, 'quickfire');
      if (minute < 3) assert.equal(opened.length, 0, `not before the 4th report (minute ${minute})`);
      else {
        assert.equal(opened.length, 1);
        assert.equal(Date.parse(opened[0].detected_at), start + 4 * MIN, 'at the pass after the 4th report');
        assert.equal(opened[0].corroboration.window_minutes, 10);
        assert.deepEqual(opened[0].corroboration.evidence.carried_by, ['accounts', 'platforms']);
      }
    }

    const solo = reports('Solowave', 6);
    for (let minute = 0; minute < 6; minute++) {
      clock.set(start + (minute + 5) * MIN);
      await ingest(ctx, [
        {
          source: 'x',
          external_id: `solowave-${minute}`,
          text: solo[minute],
          author: `s${minute}`,
          url: `https://x.com/s${minute}/status/${minute}`,
          observed_at: new Date(start + (minute + 4) * MIN + 30_000).toISOString(),
        },
      ]);
      await ctx.app.services.engine.tick();
      assert.equal((await events(ctx, user.key, 'solowave')).length, minute < 5 ? 0 : 1, `minute ${minute}`);
    }
  });

  it('reads a signal whose insert commits after a later one (PostgreSQL hands out ids before commit)', async (t) => {
    if (ctx.app.services.dialect !== 'postgres') return t.skip('SQLite hands out ids in commit order');
    const db = ctx.app.services.db;
    const texts = reports('Latewave', 2);
    const item = (i: number) => ({
      source: 'x',
      external_id: `latewave-${i}`,
      text: texts[i]!,
      author: `late${i}`,
      observed_at: new Date(clock.now() - MIN).toISOString(),
    });
    // A first batch takes its id through the ingest path and stays uncommitted while a second one commits.
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let inserted!: () => void;
    const insertedFirst = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const store = new SignalsStore(db);
    const held = store.transaction(async (trx) => {
      const first = item(0);
      await store.insertNew(
        [
          {
            ...first,
            observed_at: Date.parse(first.observed_at),
            received_at: clock.now(),
          },
        ],
        trx,
      );
      inserted();
      await committing;
    });
    await insertedFirst;
    await ingest(ctx, [item(1)]);
    const mentioned = async () =>
      (
        await db
          .selectFrom('crisis_mentions')
          .select('signal_id')
          .where('key', '=', 'latewave')
          .orderBy('signal_id')
          .execute()
      ).map((m) => m.signal_id);
    // While the first insert is under way the detector reads neither (it waits, then leaves them for a later pass).
    await ctx.app.services.engine.tick();
    assert.deepEqual(await mentioned(), []);
    commit();
    await held;
    await ctx.app.services.engine.tick();
    const ids = await db
      .selectFrom('signals')
      .select('id')
      .where('external_id', 'in', ['latewave-0', 'latewave-1'])
      .orderBy('external_id')
      .execute();
    assert.ok(ids[0]!.id < ids[1]!.id, 'the uncommitted batch holds the lower id');
    assert.deepEqual(await mentioned(), [ids[0]!.id, ids[1]!.id]);
  });
});

describe('social surges: the interests of one subject count together', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-22T10:00:00Z'));
  let user: { userId: number; key: string };
  let seq = 0;

  before(async () => {
    ctx = await buildTestApp({ clock });
    user = await createUser(ctx, 'enterprise');
    for (const keyword of ['Harbor', 'Tanker', 'Lighthouse', 'Ferry', 'Dockyard', 'Crane']) {
      const res = await call(ctx.app, 'POST', '/api/user/interests', { key: user.key, body: { keyword } });
      assert.equal(res.statusCode, 201, res.body);
    }
  });
  after(() => ctx.close());

  /** Posts on one platform spread over the last 9 minutes, each `[text, author]`. */
  async function post(items: [string, string][]) {
    await ingest(
      ctx,
      items.map(([text, author], i) => {
        seq++;
        return {
          source: 'x',
          external_id: `subject-${seq}`,
          text,
          author,
          url: `https://x.com/${author}/status/${seq}`,
          observed_at: new Date(
            clock.now() - 9 * MIN + Math.floor((i * 9 * MIN) / items.length),
          ).toISOString(),
        };
      }),
    );
    await ctx.app.services.engine.tick();
  }

  it('two keys whose posts together pass the minimum open one event that names both', async () => {
    // Four posts each (two shared by independent accounts), six in all: a key alone has four accounts, short of
    // the evidence six need on one platform; the subject has six.
    const both = reports('Tanker in the Harbor', 2);
    const harbor = reports('Harbor', 4).slice(2);
    const tanker = reports('Tanker', 6).slice(4);
    await post([
      [both[0], 'w1'],
      [harbor[0], 'w2'],
      [tanker[0], 'w3'],
      [both[1], 'w4'],
      [harbor[1], 'w5'],
      [tanker[1], 'w6'],
    ]);
    const list = [...(await events(ctx, user.key, 'harbor')), ...(await events(ctx, user.key, 'tanker'))];
    const ids = new Set(list.map((e: { id: number }) => e.id));
    assert.equal(ids.size, 1, JSON.stringify(list.map((e: { title: string }) => e.title)));
    const event = list[0];
    assert.equal(event.title, 'Alarming surge around "Harbor"');
    assert.deepEqual(event.source_keywords, ['Harbor', 'Tanker']);
    assert.equal(event.corroboration.counted_mentions, 6);
    assert.deepEqual(event.corroboration.evidence.accounts.count, 6);
    assert.deepEqual(event.corroboration.subject, {
      interests: [
        { key: 'harbor', mentions: 4 },
        { key: 'tanker', mentions: 4 },
      ],
      links: [{ keys: ['harbor', 'tanker'], accounts: 2 }],
    });
    assert.match(
      event.summary,
      /^6 mentions of "Harbor" and of the interests sharing its posts \(harbor ×4, tanker ×4/,
    );
    assert.match(event.severity_basis, /2 interests of one subject pooled, each post once/);
  });

  it('the same posts split over keys that share one post do not', async () => {
    clock.advance(3 * 60 * MIN);
    const light = reports('Lighthouse', 3);
    const ferry = reports('Ferry', 3);
    await post([
      [light[0], 'v1'],
      [ferry[0], 'v2'],
      [light[1], 'v3'],
      [reports('Ferry at the Lighthouse', 1)[0], 'v4'],
      [ferry[1], 'v5'],
      [light[2], 'v6'],
      [ferry[2], 'v7'],
    ]);
    assert.equal((await events(ctx, user.key, 'lighthouse')).length, 0);
    assert.equal((await events(ctx, user.key, 'ferry')).length, 0);
  });

  it('one account posting under many keys does not link them', async () => {
    clock.advance(3 * 60 * MIN);
    // Eight different texts naming both keys, all by one account (it counts twice at most in any case).
    const ranter = Array.from({ length: 8 }, (_, i): [string, string] => [
      `BREAKING ${i}: crane collapsed at the Dockyard, ${['workers trapped', 'ambulances called', 'site evacuated', 'gas leak feared'][i % 4]}, ${['stay away', 'pray for them', 'more soon', 'share this'][Math.floor(i / 4)]}`,
      'ranter',
    ]);
    const dock = reports('Dockyard', 3).map((t, i): [string, string] => [t, `d${i}`]);
    const crane = reports('Crane', 6)
      .slice(3)
      .map((t, i): [string, string] => [t, `c${i}`]);
    await post([...ranter.slice(0, 4), ...dock, ...ranter.slice(4), ...crane]);
    assert.equal((await events(ctx, user.key, 'dockyard')).length, 0);
    assert.equal((await events(ctx, user.key, 'crane')).length, 0);
  });
});
