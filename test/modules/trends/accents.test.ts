import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import { buildTestApp, call, createUser, type Json, type TestContext } from '../../helpers/app.ts';

const NOW = Date.parse('2026-11-21T10:59:00Z');

describe('a name typed with and without accents is one trend', () => {
  let ctx: TestContext;
  let user: { key: string };
  const clock = new ManualClock(NOW);

  before(async () => {
    ctx = await buildTestApp({ clock, background: false });
    const feeder = (await createUser(ctx, 'enterprise', ['ingest'])).key;
    user = await createUser(ctx, 'enterprise', ['read', 'write']);
    const spellings = [
      'Pokémon',
      'Pokémon',
      'Pokémon',
      'pokemon',
      'pokemon',
      'POKÉMON',
      'Zurich',
      'Zurich',
      'Zürich',
    ];
    const res = await call(ctx.app, 'POST', '/api/signals', {
      key: feeder,
      body: {
        signals: spellings.map((spelling, i) => ({
          source: 'bluesky',
          external_id: `poke-${i}`,
          author: `fan-${i}`,
          text: spelling.startsWith('Z')
            ? `Flights to ${spelling} delayed by snow, number ${i}`
            : `New ${spelling} game announced for next spring, number ${i}`,
          keywords: [spelling],
          observed_at: new Date(NOW - (i + 1) * 60_000).toISOString(),
        })),
      },
    });
    assert.equal(res.statusCode, 202);
    assert.equal(res.data.accepted, spellings.length);
    await ctx.app.services.engine.tick();
  });
  after(async () => ctx.close());

  test('one trend counts every spelling, titled by the most frequent one', async () => {
    const rows = await ctx.app.services.db
      .selectFrom('trends')
      .select(['key', 'title', 'mentions'])
      .where('key', 'like', 'pok%')
      .execute();
    // No key keeps an accent; the name itself is one trend (phrases around it, like `pokemon game`, are others).
    assert.ok(rows.every((r) => /^[\x20-\x7e]+$/.test(r.key)));
    const name = rows.find((r) => r.key === 'pokemon');
    assert.deepEqual([name?.title, Number(name?.mentions)], ['Pokémon', 6]);
  });

  test('search finds it with or without accents', async () => {
    for (const search of ['Pokémon', 'pokemon', 'POKÉ', 'kémo']) {
      const res = await call(ctx.app, 'GET', `/api/trends?search=${encodeURIComponent(search)}`, {
        key: user.key,
      });
      assert.equal(res.statusCode, 200);
      assert.ok(
        res.data.trends.some((t: Json) => t.title === 'Pokémon'),
        `${search}: ${JSON.stringify(res.data.trends.map((t: Json) => t.title))}`,
      );
    }
  });

  test('an accented search finds a trend most often written without accents', async () => {
    const res = await call(ctx.app, 'GET', `/api/trends?search=${encodeURIComponent('Zürich')}`, {
      key: user.key,
    });
    assert.equal(res.statusCode, 200);
    assert.ok(
      res.data.trends.some((t: Json) => t.title === 'Zurich'),
      JSON.stringify(res.data.trends.map((t: Json) => t.title)),
    );
  });

  test('an interest in either spelling is the same interest', async () => {
    const first = await call(ctx.app, 'POST', '/api/user/interests', {
      key: user.key,
      body: { keyword: 'Pokémon' },
    });
    assert.equal(first.statusCode, 201, first.body);
    const again = await call(ctx.app, 'POST', '/api/user/interests', {
      key: user.key,
      body: { keyword: 'pokemon' },
    });
    assert.equal(again.statusCode, 409);
    assert.equal(again.data.code, 'interest_exists');
  });
});
