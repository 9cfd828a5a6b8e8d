import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CATEGORIES } from '../../../src/modules/text/categories.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';

describe('trend routes', () => {
  let ctx: TestContext;
  let reader: string;
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));
  before(async () => {
    ctx = await buildTestApp({ clock });
    const feeder = (await createUser(ctx, 'enterprise', ['ingest'])).key;
    reader = (await createUser(ctx, 'developer', ['read'])).key;
    // 4 mentions yesterday at this time, 10 in the last 24 hours (6 of them in the last hour).
    const at = (iso: string, i: number, text: string, source = 'x') => ({
      source,
      external_id: `${iso}-${i}`,
      text,
      observed_at: iso,
    });
    const signals = [
      ...Array.from({ length: 4 }, (_, i) => at('2026-11-20T02:00:00Z', i, 'OpenAI is great news')),
      ...Array.from({ length: 4 }, (_, i) => at('2026-11-21T02:00:00Z', i, 'OpenAI is great news')),
      ...Array.from({ length: 6 }, (_, i) =>
        at('2026-11-21T10:0' + i + ':00Z', i, 'OpenAI is terrible news', 'reddit'),
      ),
    ];
    const res = await call(ctx.app, 'POST', '/api/signals', { key: feeder, body: { signals } });
    assert.equal(res.data.accepted, 14);
    await ctx.app.services.trendProcessor.drain();
  });
  after(async () => ctx.close());

  test('a trend shows its metrics over the last 24 hours, computed from its buckets', async () => {
    const id = (
      await ctx.app.services.db
        .selectFrom('trends')
        .select('id')
        .where('key', '=', 'openai')
        .executeTakeFirstOrThrow()
    ).id;
    const res = await call(ctx.app, 'GET', `/api/trends/${id}`, { key: reader });
    assert.equal(res.statusCode, 200);
    const trend = res.data;
    assert.equal(trend.title, 'OpenAI');
    assert.equal(trend.category, 'Technology/AI');
    assert.equal(trend.volume, 10);
    assert.equal(trend.previous_volume, 4);
    assert.equal(trend.absolute_change, 6);
    assert.equal(trend.growth, 150);
    assert.equal(trend.average_velocity, 0.42, '10 mentions / 24 h');
    assert.equal(trend.velocity_1h, 6);
    assert.deepEqual(trend.platforms, { reddit: 6, x: 4 });
    assert.equal(trend.timestamp, '2026-11-21T10:05:00.000Z');
    assert.ok(['positive', 'negative', 'neutral', 'mixed'].includes(trend.sentiment_category));
    assert.match(trend.sentiment, /^-?\d\.\d\d$/);
    assert.ok(trend.velocity_score >= 0 && trend.velocity_score <= 100);
    assert.match(
      trend.meta_description,
      /^OpenAI: 10 mentions in the last 24 hours \(\+150 % vs the previous 24 hours\); most mentions on reddit/,
    );
  });

  test('an unknown trend id answers 404 and a malformed one 400', async () => {
    assertProblem(await call(ctx.app, 'GET', '/api/trends/999999', { key: reader }), 404);
    assertProblem(await call(ctx.app, 'GET', '/api/trends/abc', { key: reader }), 400);
    assertProblem(await call(ctx.app, 'GET', '/api/trends/1'), 401);
  });

  test('categories list the whole taxonomy with counts, parents counting their children', async () => {
    const res = await call(ctx.app, 'GET', '/api/trends/categories', { key: reader });
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.categories.length, CATEGORIES.length);
    const byName = new Map(res.data.categories.map((c: { name: string }) => [c.name, c]));
    const ai = byName.get('Technology/AI') as { trend_count: number; slug: string };
    const tech = byName.get('Technology') as { trend_count: number };
    assert.ok(ai.trend_count >= 1);
    assert.equal(ai.slug, 'technology-ai');
    assert.ok(tech.trend_count >= ai.trend_count);
    assert.ok(
      res.data.categories.some((c: { trend_count: number }) => c.trend_count === 0),
      'empty categories are listed',
    );
  });
});
