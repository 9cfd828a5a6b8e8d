// Social surges through the real app: independent evidence on one platform, copy-paste storms, fast windows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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
    for (const keyword of ['Borealis', 'Copycat', 'Quickfire', 'Solowave']) {
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
    assert.equal(event.method_version, '2.1.0');
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
});
