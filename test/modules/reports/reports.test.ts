import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';

const HOUR = 3_600_000;
// 10:59 UTC: the current hour bucket is 10:00–10:59.
const NOW = Date.parse('2026-11-21T10:59:00Z');
const CURRENT_HOUR = Date.parse('2026-11-21T10:00:00Z');

interface Signal {
  source: string;
  external_id: string;
  text: string;
  keywords: string[];
  observed_at: string;
}

/** `perHour(k)` signals in each hour k hours before the current one; texts alternate good and bad news. */
function series(
  name: string,
  hours: number,
  perHour: (k: number) => number,
  sources = ['x', 'reddit'],
  tone: 'mixed' | 'neutral' = 'neutral',
): Signal[] {
  const out: Signal[] = [];
  for (let k = hours; k >= 0; k--) {
    const n = perHour(k);
    for (let i = 0; i < n; i++) {
      const at =
        k === 0 ? CURRENT_HOUR + Math.floor((i * 58 * 60_000) / n) : CURRENT_HOUR - k * HOUR + 30 * 60_000;
      const text =
        tone === 'neutral'
          ? `${name} update`
          : `${name} ${i % 3 === 0 ? 'is terrible and awful' : 'is great'}`;
      out.push({
        source: sources[i % sources.length]!,
        external_id: `${name}-${k}-${i}`,
        text,
        keywords: [name],
        observed_at: new Date(at).toISOString(),
      });
    }
  }
  return out;
}

describe('custom reports over trends', () => {
  let ctx: TestContext;
  let reader: string;
  const clock = new ManualClock(NOW);
  const ids: Record<string, number> = {};

  const report = (body: unknown, key = reader) =>
    call(ctx.app, 'POST', '/api/reports/custom', { key, ...(body === undefined ? {} : { body }) });
  const trendList = async (query: string) =>
    (await call(ctx.app, 'GET', `/api/trends?limit=100${query}`, { key: reader })).data.trends as Json[];

  before(async () => {
    ctx = await buildTestApp({ clock });
    reader = (await createUser(ctx, 'enterprise', ['read'])).key;
    const signals = [
      // 10 an hour for 9 days, then 100 in the current hour.
      ...series('aurora borealis', 9 * 24, (k) => (k === 0 ? 100 : 10)),
      // 6 an hour throughout, good and bad news, on three platforms.
      ...series('quantum widget', 48, () => 6, ['x', 'reddit', 'news'], 'mixed'),
      // 30 an hour two days ago, 5 an hour yesterday, none now.
      ...series('retro console', 47, (k) => (k >= 24 ? 30 : k >= 1 ? 5 : 0)),
      // A Technology/AI trend for the category filter.
      ...series('OpenAI', 3, () => 1, ['news']),
    ];
    for (let i = 0; i < signals.length; i += 1000) {
      const res = await call(ctx.app, 'POST', '/api/signals', {
        key: ctx.operatorKey,
        body: { signals: signals.slice(i, i + 1000) },
      });
      assert.equal(res.statusCode, 202, res.body);
      assert.deepEqual(res.data.rejected, []);
    }
    await ctx.app.services.engine.tick();
    for (const key of ['aurora borealis', 'quantum widget', 'retro console', 'openai']) {
      const row = await ctx.app.services.db
        .selectFrom('trends')
        .select('id')
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      ids[key] = row.id;
    }
  });
  after(async () => ctx.close());

  const PER_TREND = [
    'volume',
    'previous_volume',
    'absolute_change',
    'growth',
    'average_velocity',
    'sentiment',
    'velocity_score',
    'velocity_1h',
    'trend_stability',
  ];

  /** The report's row for each trend holds the numbers GET /api/trends shows for it. */
  function assertAgrees(rows: Json[], items: Json[]) {
    assert.equal(rows.length, items.length, 'one row per listed trend');
    for (const item of items) {
      const row = rows.find((r) => r.trend_id === item.id);
      assert.ok(row, `no row for trend ${item.id}`);
      assert.equal(row.trend_name, item.title);
      assert.equal(row.category, item.category);
      assert.equal(row.type, item.type);
      assert.equal(row.sentiment_category, item.sentiment_category);
      assert.equal(row.overall_trend, item.overall_trend);
      assert.equal(row.lifecycle_stage, item.lifecycle_stage);
      for (const metric of PER_TREND) {
        const expected = metric === 'sentiment' ? Number(item.sentiment) : item[metric];
        assert.equal(row[metric], expected, `${item.title}: ${metric}`);
      }
    }
  }

  const perTrendBody = (extra: Json = {}) => ({
    dimensions: [
      'trend_id',
      'trend_name',
      'category',
      'type',
      'sentiment_category',
      'overall_trend',
      'lifecycle_stage',
    ],
    metrics: PER_TREND,
    ...extra,
  });

  test('a row per trend shows the numbers GET /api/trends shows, for each period', async () => {
    for (const period of ['1h', '24h', '7d', '30d']) {
      const res = await report(perTrendBody({ time_period: period }));
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.data.columns, [...perTrendBody().dimensions, ...PER_TREND]);
      assertAgrees(res.data.rows, await trendList(`&period=${period}`));
      assert.equal(res.data.meta.time_period, period);
      assert.equal(res.data.meta.start_date, null);
      assert.equal(res.data.meta.usage_count, null);
      assert.equal(res.data.meta.usage_limit, null);
    }
    // The default window is 24 hours, sorted by the first metric, largest first.
    const res = await report({ dimensions: ['trend_name'], metrics: ['volume'] });
    assert.deepEqual(
      res.data.rows.map((r: Json) => r.volume),
      [330, 144, 115, 4],
    );
    assert.equal(res.data.meta.time_period, '24h');
    assert.equal(res.data.meta.sort_by, 'volume');
    assert.equal(res.data.meta.window_start, '2026-11-20T11:00:00.000Z');
    assert.equal(res.data.meta.window_end, '2026-11-21T10:59:00.000Z');
  });

  test('over dates the rows match GET /api/trends for the same dates (computed from the buckets)', async () => {
    for (const [start, end] of [
      ['2026-11-20', '2026-11-20'],
      ['2026-11-14', '2026-11-21'],
    ]) {
      const res = await report(perTrendBody({ start_date: start, end_date: end }));
      assert.equal(res.statusCode, 200, res.body);
      assertAgrees(res.data.rows, await trendList(`&start_date=${start}&end_date=${end}`));
      assert.equal(res.data.meta.time_period, 'custom');
      assert.equal(res.data.meta.start_date, start);
      assert.equal(res.data.meta.end_date, end);
    }
  });

  test('platform rows add up to each trend’s platforms; day and hour rows to its analytics series', async () => {
    const items = await trendList('&period=24h');
    const byPlatform = await report({
      dimensions: ['trend_id', 'platform'],
      metrics: ['volume', 'trend_count'],
    });
    for (const item of items) {
      const rows = byPlatform.data.rows.filter((r: Json) => r.trend_id === item.id);
      assert.deepEqual(
        Object.fromEntries(rows.map((r: Json) => [r.platform, r.volume])),
        item.platforms,
        item.title,
      );
      for (const row of rows) assert.equal(row.trend_count, 1);
    }
    const aurora = ids['aurora borealis']!;
    for (const [period, dimension] of [
      ['30d', 'day'],
      ['7d', 'hour'],
      ['24h', 'hour'],
    ] as const) {
      const analytics = await call(ctx.app, 'GET', `/api/trends/${aurora}/analytics?period=${period}`, {
        key: reader,
      });
      const res = await report({
        dimensions: [dimension],
        metrics: ['volume', 'average_velocity'],
        filters: { trend_id: aurora },
        time_period: period,
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.data.meta.sort_by, dimension, 'time dimensions sort in time order by default');
      const points = analytics.data.data.filter((p: Json) => p.volume > 0);
      assert.deepEqual(
        res.data.rows.map((r: Json) => [dimension === 'day' ? `${r.day}T00:00:00.000Z` : r.hour, r.volume]),
        points.map((p: Json) => [p.timestamp, p.volume]),
        `${period} by ${dimension}`,
      );
      const total = res.data.rows.reduce((sum: number, r: Json) => sum + r.volume, 0);
      assert.equal(total, analytics.data.current_volume);
    }
    // Today's row covers 11 hours of the 30-day window (00:00–10:59): 10 × 10 + 100 mentions.
    const days = await report({
      dimensions: ['day'],
      metrics: ['volume', 'average_velocity'],
      filters: { trend_id: aurora },
      time_period: '30d',
      sort_by: 'day',
      order: 'desc',
    });
    assert.deepEqual(days.data.rows[0], { day: '2026-11-21', volume: 200, average_velocity: 18.18 });
    assert.deepEqual(days.data.rows[1], { day: '2026-11-20', volume: 240, average_velocity: 10 });
  });

  test('groups sum their trends; growth and sentiment come from the summed counts', async () => {
    const items = await trendList('&period=24h');
    const res = await report({
      dimensions: ['type'],
      metrics: [
        'volume',
        'previous_volume',
        'growth',
        'trend_count',
        'avg_velocity_score',
        'max_velocity_score',
        'velocity_1h',
        'positive_mentions',
        'negative_mentions',
        'sentiment',
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    const volume = items.reduce((s, t) => s + t.volume, 0);
    const previous = items.reduce((s, t) => s + t.previous_volume, 0);
    const all = res.data.rows.reduce(
      (acc: Json, r: Json) => ({
        volume: acc.volume + r.volume,
        previous: acc.previous + r.previous_volume,
        trends: acc.trends + r.trend_count,
        velocity: acc.velocity + r.velocity_1h,
      }),
      { volume: 0, previous: 0, trends: 0, velocity: 0 },
    );
    assert.equal(all.volume, volume);
    assert.equal(all.previous, previous);
    assert.equal(all.trends, items.length);
    assert.equal(
      all.velocity,
      items.reduce((s, t) => s + t.velocity_1h, 0),
    );
    for (const row of res.data.rows) {
      const members = items.filter((t) => t.type === row.type);
      const scores = members.map((t) => t.velocity_score);
      assert.equal(row.max_velocity_score, Math.max(...scores));
      assert.equal(
        row.avg_velocity_score,
        Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100,
      );
      const growth =
        row.previous_volume === 0
          ? null
          : Math.round(((row.volume - row.previous_volume) / row.previous_volume) * 10000) / 100;
      assert.equal(row.growth, growth);
    }
    // No dimensions: one total row; an empty body is the total volume of the last 24 hours.
    const total = await report({ metrics: ['volume', 'trend_count'] });
    assert.deepEqual(total.data.rows, [{ volume, trend_count: items.length }]);
    const empty = await report(undefined);
    assert.equal(empty.statusCode, 200, empty.body);
    assert.deepEqual(empty.data.columns, ['volume']);
    assert.deepEqual(empty.data.rows, [{ volume }]);
    // Nothing matches: still one total row of zeros, and no rows when grouped.
    const none = await report({ metrics: ['volume', 'growth', 'sentiment'], filters: { search: 'zzz' } });
    assert.deepEqual(none.data.rows, [{ volume: 0, growth: null, sentiment: null }]);
    const noneGrouped = await report({ dimensions: ['category'], filters: { search: 'zzz' } });
    assert.deepEqual(noneGrouped.data.rows, []);
    assert.equal(noneGrouped.data.meta.row_count, 0);
  });

  test('sentiment of a trend matches its TrendItem and counts its good and bad mentions', async () => {
    const [widget] = await trendList('&period=24h&search=quantum');
    const res = await report({
      dimensions: ['trend_name'],
      metrics: ['sentiment', 'positive_mentions', 'negative_mentions', 'volume'],
      filters: { search: 'quantum' },
    });
    const row = res.data.rows[0];
    assert.equal(row.sentiment, Number(widget!.sentiment));
    assert.equal(row.volume, 144);
    assert.equal(row.positive_mentions + row.negative_mentions, 144, 'every text is clearly good or bad');
    assert.equal(row.negative_mentions, 48, 'one in three is bad news');
  });

  test('filters narrow the trends and the mentions counted', async () => {
    const names = async (filters: Json, extra: Json = {}) => {
      const res = await report({ dimensions: ['trend_name'], metrics: ['volume'], filters, ...extra });
      assert.equal(res.statusCode, 200, res.body);
      return res.data.rows.map((r: Json) => `${r.trend_name}:${r.volume}`).sort();
    };
    assert.deepEqual(await names({ category: 'technology-ai' }), ['OpenAI:4']);
    assert.deepEqual(await names({ category: ['Technology'] }), ['OpenAI:4']);
    assert.deepEqual(await names({ search: 'QUANT' }), ['quantum widget:144']);
    assert.deepEqual(await names({ keyword: '#retro' }), ['retro console:115']);
    assert.deepEqual(await names({ keywords: ['Aurora', 'console'] }), [
      'aurora borealis:330',
      'retro console:115',
    ]);
    assert.deepEqual(await names({ platform: 'news' }), ['OpenAI:4', 'quantum widget:48']);
    assert.deepEqual(await names({ platform: ['x', 'news'], search: 'quantum' }), ['quantum widget:96']);
    assert.deepEqual(await names({ min_volume: 144 }), ['aurora borealis:330', 'quantum widget:144']);
    assert.deepEqual(await names({ trend_id: [ids.openai!, ids['retro console']!] }), [
      'OpenAI:4',
      'retro console:115',
    ]);
    const items = await trendList('&period=24h');
    const mixed = items.filter((t) => t.sentiment_category === 'mixed').map((t) => t.title);
    assert.deepEqual(
      (await names({ sentiment_category: 'mixed' })).map((n: string) => n.split(':')[0]),
      mixed.sort(),
    );
    const declining = items.filter((t) => t.lifecycle_stage === 'declining').map((t) => t.title);
    assert.ok(declining.length > 0);
    assert.deepEqual(
      (await names({ lifecycle_stage: ['declining'] })).map((n: string) => n.split(':')[0]),
      declining.sort(),
    );
    const keywords = items.filter((t) => t.type === 'keyword').length;
    assert.equal((await names({ type: 'keyword' })).length, keywords);
  });

  test('limit caps the rows and says so; sort_by and order choose the order', async () => {
    const res = await report({ dimensions: ['trend_name'], metrics: ['volume'], limit: 2 });
    assert.equal(res.data.rows.length, 2);
    assert.equal(res.data.meta.row_count, 2);
    assert.equal(res.data.meta.total_rows, 4);
    assert.equal(res.data.meta.limit_applied, 2);
    const all = await report({ dimensions: ['trend_name'], metrics: ['volume'], limit: 4 });
    assert.equal(all.data.meta.limit_applied, null);
    const byName = await report({
      dimensions: ['trend_name'],
      metrics: ['volume', 'growth'],
      sort_by: 'trend_name',
      order: 'asc',
    });
    assert.deepEqual(
      byName.data.rows.map((r: Json) => r.trend_name),
      ['aurora borealis', 'OpenAI', 'quantum widget', 'retro console'].sort(),
    );
    // Null growth (nothing before) sorts last either way.
    for (const order of ['asc', 'desc']) {
      const rows = (
        await report({ dimensions: ['trend_name'], metrics: ['growth'], sort_by: 'growth', order })
      ).data.rows;
      assert.equal(rows.at(-1).growth, null, order);
    }
    assertProblem(await report({ limit: 10_001 }), 400);
    assertProblem(await report({ limit: 0 }), 400);
  });

  test('each refusal is a 400 naming the field', async () => {
    const cases: [Json, string, RegExp][] = [
      [{ dimensions: ['trend_name', 'country'] }, 'body.dimensions[1]', /"country" is not a dimension/],
      [{ metrics: ['volume', 'clicks'] }, 'body.metrics[1]', /"clicks" is not a metric/],
      [{ dimensions: ['day', 'day'] }, 'body.dimensions[1]', /listed twice/],
      [{ dimensions: ['day'], metrics: ['growth'] }, 'body.metrics[0]', /cannot be split by day/],
      [{ dimensions: ['hour'], metrics: ['previous_volume'] }, 'body.metrics[0]', /split by hour/],
      [{ dimensions: ['category'], metrics: ['velocity_score'] }, 'body.metrics[0]', /per-trend metric/],
      [{ metrics: ['trend_stability'] }, 'body.metrics[0]', /per-trend metric/],
      [{ dimensions: ['trend_id', 'platform'], metrics: ['velocity_score'] }, 'body.metrics[0]', /platform/],
      [{ dimensions: ['day'], metrics: ['avg_velocity_score'] }, 'body.metrics[0]', /cannot be split/],
      [
        { dimensions: ['trend_id'], metrics: ['velocity_score'], filters: { platform: 'x' } },
        'body.filters.platform',
        /all platforms/,
      ],
      [{ dimensions: ['lifecycle_stage'], filters: { platform: 'x' } }, 'body.filters.platform', /lifecycle/],
      [
        { dimensions: ['hour'], start_date: '2026-10-01', end_date: '2026-11-20' },
        'body.dimensions[0]',
        /at most 31 days/,
      ],
      [{ dimensions: ['trend_name'], sort_by: 'growth' }, 'body.sort_by', /not a column/],
      [{ filters: { severity: 'high' } }, 'body.filters.severity', /does not apply to trends/],
      [{ filters: { category: 'Astrology' } }, 'body.filters.category', /not in the taxonomy/],
      [{ filters: { keywords: ['the'] } }, 'body.filters.keywords[0]', /no words/],
      [{ filters: { search: 'a', keyword: 'b' } }, 'body.filters.keyword', /two names/],
      [{ time_period: '7d', period: '24h' }, 'body.period', /two names/],
      [{ start_date: '2025-01-01', end_date: '2026-11-21' }, 'body.start_date', /400 days/],
      [{ end_date: '2026-11-22' }, 'body.end_date', /future/],
      [{ start_date: '2026-11-21', end_date: '2026-11-20' }, 'body.start_date', /after/],
      [{ dataset: 'ads' }, 'body.dataset', /./],
      [{ time_period: '2d' }, 'body.time_period', /./],
      [{ limit: '5' }, 'body.limit', /./],
      [{ colour: 'red' }, 'body.colour', /./],
      [{ filters: { colour: 'red' } }, 'body.filters.colour', /./],
      [{ filters: { type: 'meme' } }, 'body.filters.type', /./],
    ];
    for (const [body, path, detail] of cases) {
      const res = await report(body);
      assertProblem(res, 400);
      assert.ok(
        (res.data.errors ?? []).some((e: Json) => e.path === path),
        `${JSON.stringify(body)}: ${JSON.stringify(res.data.errors)} lacks ${path}`,
      );
      assert.match(res.data.detail, detail, JSON.stringify(body));
    }
    const unknown = await report({ dimensions: ['country'] });
    assert.equal(unknown.data.code, 'unknown_dimension');
  });

  test('a key is needed, with read; read alone is enough', async () => {
    assertProblem(await call(ctx.app, 'POST', '/api/reports/custom', { body: {} }), 401);
    assertProblem(await call(ctx.app, 'POST', '/api/reports/custom', { key: 'cw_nope', body: {} }), 401);
    const writer = (await createUser(ctx, 'enterprise', ['write'])).key;
    const res = await report({}, writer);
    assertProblem(res, 403);
    assert.match(res.data.detail, /read/);
    assert.equal((await report({}, reader)).statusCode, 200);
  });
});
