import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import { DOMAIN_EVENT_JOB } from '../../../src/platform/events.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';

const HOUR = 3_600_000;
// 10:59 UTC: the current hour bucket is 10:00–10:59, the last 60 minutes 09:59–10:58.
const NOW = Date.parse('2026-11-21T10:59:00Z');
const CURRENT_HOUR = Date.parse('2026-11-21T10:00:00Z');

interface Signal {
  source: string;
  external_id: string;
  text: string;
  keywords: string[];
  observed_at: string;
}

/** `perHour(k)` signals in each hour k hours before the current one (k = 0: the current hour). */
function series(
  name: string,
  hours: number,
  perHour: (k: number) => number,
  sources = ['x', 'reddit'],
): Signal[] {
  const out: Signal[] = [];
  for (let k = hours; k >= 0; k--) {
    const n = perHour(k);
    for (let i = 0; i < n; i++) {
      // Past hours at :30 (outside the last 60 minutes), the current hour spread over 10:00–10:58.
      const at =
        k === 0 ? CURRENT_HOUR + Math.floor((i * 58 * 60_000) / n) : CURRENT_HOUR - k * HOUR + 30 * 60_000;
      out.push({
        source: sources[i % sources.length]!,
        external_id: `${name}-${k}-${i}`,
        text: `${name} update`,
        keywords: [name],
        observed_at: new Date(at).toISOString(),
      });
    }
  }
  return out;
}

describe('trend list, analytics, autocomplete and interests', () => {
  let ctx: TestContext;
  let reader: string;
  let writer: { userId: number; key: string };
  let other: { userId: number; key: string };
  const clock = new ManualClock(NOW);
  const ids: Record<string, number> = {};

  before(async () => {
    ctx = await buildTestApp({ clock, background: false });
    const feeder = (await createUser(ctx, 'enterprise', ['ingest'])).key;
    reader = (await createUser(ctx, 'enterprise', ['read'])).key;
    writer = await createUser(ctx, 'enterprise', ['read', 'write']);
    other = await createUser(ctx, 'enterprise', ['read', 'write']);
    const signals = [
      // 10 an hour for 48 h, then 100 in the current hour.
      ...series('aurora borealis', 48, (k) => (k === 0 ? 100 : 10)),
      // 10 an hour throughout.
      ...series('quantum widget', 48, () => 10),
      // 30 an hour two days ago, 5 an hour yesterday, none now.
      ...series('retro console', 47, (k) => (k >= 24 ? 30 : k >= 1 ? 5 : 0)),
      // A Technology/AI trend for the category filter.
      ...series('OpenAI', 3, () => 1),
    ];
    for (let i = 0; i < signals.length; i += 1000) {
      const res = await call(ctx.app, 'POST', '/api/signals', {
        key: feeder,
        body: { signals: signals.slice(i, i + 1000) },
      });
      assert.equal(res.statusCode, 202);
      assert.deepEqual(res.data.rejected, []);
    }
    const result = await ctx.app.services.engine.tick();
    assert.equal(result.signals, signals.length);
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

  const list = async (query: string, key = reader) => call(ctx.app, 'GET', `/api/trends${query}`, { key });
  const find = (trends: Json[], id: number) => trends.find((t) => t.id === id) as Json;

  test('a phrase jumping from 10 an hour to 100 leads by velocity, rising, with the documented numbers', async () => {
    const res = await list('?sort_by=velocity');
    assert.equal(res.statusCode, 200);
    const aurora = res.data.trends[0];
    assert.equal(aurora.id, ids['aurora borealis']);
    assert.ok(['emerging', 'rising'].includes(aurora.lifecycle_stage), aurora.lifecycle_stage);
    // volume = 23 × 10 + 100; previous = 24 × 10.
    assert.equal(aurora.volume, 330);
    assert.equal(aurora.previous_volume, 240);
    assert.equal(aurora.absolute_change, 330 - 240);
    assert.equal(aurora.growth, ((330 - 240) / 240) * 100);
    assert.equal(aurora.average_velocity, 330 / 24);
    assert.equal(aurora.velocity_1h, 100);
    assert.ok(aurora.velocity_score > 90, `velocity_score ${aurora.velocity_score}`);
    assert.deepEqual(aurora.platforms, { reddit: 165, x: 165 });
  });

  test('a flat series is stable with a low velocity score; a fading one is declining', async () => {
    const res = await list('');
    const flat = find(res.data.trends, ids['quantum widget']!);
    assert.equal(flat.lifecycle_stage, 'stable');
    assert.ok(flat.velocity_score < 20, `velocity_score ${flat.velocity_score}`);
    assert.equal(flat.growth, 0);
    const fading = find(res.data.trends, ids['retro console']!);
    assert.equal(fading.lifecycle_stage, 'declining');
    assert.equal(fading.volume, 23 * 5);
    assert.equal(fading.previous_volume, 24 * 30);
    assert.equal(fading.overall_trend, 'declining');
  });

  test('the list matches the detail route for the same trend', async () => {
    const res = await list('');
    const detail = await call(ctx.app, 'GET', `/api/trends/${ids['aurora borealis']}`, { key: reader });
    assert.deepEqual(find(res.data.trends, ids['aurora borealis']!), detail.data);
  });

  test('meta echoes the defaults and every parameter', async () => {
    const res = await list('');
    assert.deepEqual(res.data.meta, {
      total: 4,
      limit: 20,
      offset: 0,
      period: '24h',
      sort_by: 'volume',
      order: 'desc',
      search: null,
      category: null,
      start_date: null,
      end_date: null,
      interest: null,
      interests: null,
      exclude_sentiment: null,
      min_snapshots: null,
    });
    assert.equal(res.data.total, 4);
    assert.deepEqual(
      res.data.trends.map((t: Json) => t.volume),
      [330, 240, 115, 4],
    );
    const asc = await list('?sort_by=name&order=asc&limit=2&offset=1&period=7d&search=o');
    assert.deepEqual(asc.data.meta, {
      total: 3,
      limit: 2,
      offset: 1,
      period: '7d',
      sort_by: 'name',
      order: 'asc',
      search: 'o',
      category: null,
      start_date: null,
      end_date: null,
      interest: null,
      interests: null,
      exclude_sentiment: null,
      min_snapshots: null,
    });
    assert.deepEqual(
      asc.data.trends.map((t: Json) => t.title),
      ['OpenAI', 'retro console'],
    );
  });

  test('limit=101, period=2d, sort_by=nope and unknown parameters are 400s naming the parameter', async () => {
    for (const [query, name] of [
      ['?limit=101', 'limit'],
      ['?limit=0', 'limit'],
      ['?offset=-1', 'offset'],
      ['?period=2d', 'period'],
      ['?sort_by=nope', 'sort_by'],
      ['?order=up', 'order'],
      ['?start_date=2026-13-01', 'start_date'],
      ['?sortby=volume', 'sortby'],
    ] as const) {
      const res = await list(query);
      assertProblem(res, 400);
      assert.match(JSON.stringify(res.data.errors ?? res.data.detail), new RegExp(name), query);
    }
    const unknown = await list('?category=Astrology');
    assertProblem(unknown, 400);
    assert.match(unknown.data.detail, /category/);
    const backwards = await list('?start_date=2026-11-21&end_date=2026-11-20');
    assertProblem(backwards, 400);
    assert.match(backwards.data.detail, /start_date/);
    assertProblem(await list('?end_date=2026-11-22'), 400);
  });

  test('upstream names: page and sort_dir page and sort like offset and order', async () => {
    const ids = (res: { data: Json }) => res.data.trends.map((t: Json) => t.id);
    const upstream = await list('?page=2&limit=2&sort_by=velocity&sort_dir=asc');
    const ours = await list('?offset=2&limit=2&sort_by=velocity&order=asc');
    assert.equal(upstream.statusCode, 200);
    assert.equal(ids(upstream).length, 2);
    assert.deepEqual(ids(upstream), ids(ours));
    assert.equal(upstream.data.meta.offset, 2);
    assert.equal(upstream.data.meta.order, 'asc');
    // The first page of the SDK's defaults (page=1, sort_dir=desc) is the default list.
    assert.deepEqual(ids(await list('?page=1&limit=20&sort_by=volume&sort_dir=desc')), ids(await list('')));
    // Both names given: they must agree.
    assert.deepEqual(ids(await list('?page=2&offset=2&limit=2&sort_dir=asc&order=asc')), ids(ours));
    for (const [query, name] of [
      ['?page=0', 'query.page'],
      ['?page=-1', 'query.page'],
      ['?page=x', 'query.page'],
      ['?sort_dir=up', 'query.sort_dir'],
      ['?page=2&offset=3&limit=2', 'query.page'],
      ['?sort_dir=asc&order=desc', 'query.sort_dir'],
      ['?pages=2', 'query.pages'],
    ] as const) {
      const res = await list(query);
      assertProblem(res, 400);
      assert.ok(
        (res.data.errors ?? []).some((e: Json) => e.path === name),
        `${query}: ${JSON.stringify(res.data)}`,
      );
    }
  });

  test('interests keep trends holding any keyword as whole words, normalised as trend keys', async () => {
    const titles = (res: { data: Json }) => res.data.trends.map((t: Json) => t.title).sort();
    const res = await list('?interests=Aurora,%23OpenAI');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(titles(res), ['OpenAI', 'aurora borealis']);
    assert.deepEqual(res.data.meta.interests, ['Aurora', '#OpenAI']);
    assert.equal(res.data.total, 2);
    // Repeated instead of comma-separated: the same filter.
    assert.deepEqual(titles(await list('?interests=aurora&interests=openai')), ['OpenAI', 'aurora borealis']);
    // Whole words only: "aur" is not a word of any trend.
    assert.equal((await list('?interests=aur')).data.total, 0);
    for (const query of [
      '?interests=the',
      `?interests=${'a,'.repeat(21)}`,
      `?interests=${'x'.repeat(101)}`,
    ]) {
      const bad = await list(query);
      assertProblem(bad, 400);
      assert.equal(bad.data.errors[0].path, 'query.interests', query);
    }
  });

  test('exclude_sentiment and min_snapshots filter periods and date ranges alike', async () => {
    const titles = (res: { data: Json }) => res.data.trends.map((t: Json) => t.title).sort();
    const all = await list('');
    const categories = new Set(all.data.trends.map((t: Json) => t.sentiment_category));
    assert.equal(categories.size, 1, 'every fixture text reads the same');
    const [only] = [...categories];
    assert.equal((await list(`?exclude_sentiment=${only}`)).data.total, 0);
    const others = ['positive', 'negative', 'neutral', 'mixed'].filter((c) => c !== only);
    const kept = await list(`?exclude_sentiment=${others.join(',')}`);
    assert.equal(kept.data.total, 4);
    assert.deepEqual(kept.data.meta.exclude_sentiment, others);
    const bad = await list('?exclude_sentiment=happy');
    assertProblem(bad, 400);
    assert.equal(bad.data.errors[0].path, 'query.exclude_sentiment');

    // 24h: aurora and quantum were seen in all 24 hourly buckets, retro console in 23, OpenAI in 4.
    assert.deepEqual(titles(await list('?min_snapshots=24')), ['aurora borealis', 'quantum widget']);
    assert.deepEqual(titles(await list('?min_snapshots=5')), [
      'aurora borealis',
      'quantum widget',
      'retro console',
    ]);
    assert.equal((await list('?min_snapshots=5')).data.meta.min_snapshots, 5);
    assert.equal((await list('?min_snapshots=1')).data.total, 4);
    assertProblem(await list('?min_snapshots=0'), 400);
    // A date range: 2026-11-21 has hours 00–10, so OpenAI (4 hours) drops out at 5.
    const range = await list('?start_date=2026-11-21&min_snapshots=5');
    assert.deepEqual(titles(range), ['aurora borealis', 'quantum widget', 'retro console']);
    assert.equal(range.data.total, 3);
    assert.equal((await list(`?start_date=2026-11-21&exclude_sentiment=${only}`)).data.total, 0);
  });

  test('a parent category matches its children, by name or slug', async () => {
    for (const category of ['Technology', 'technology', 'Technology/AI', 'technology-ai']) {
      const res = await list(`?category=${encodeURIComponent(category)}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(
        res.data.trends.map((t: Json) => t.id),
        [ids.openai],
        category,
      );
      assert.equal(res.data.meta.category, category);
    }
  });

  test('search matches the name case-insensitively; growth sorts trends without history last', async () => {
    const res = await list('?search=AURORA');
    assert.deepEqual(
      res.data.trends.map((t: Json) => t.id),
      [ids['aurora borealis']],
    );
    assert.equal((await list('?search=%25')).data.total, 0, 'LIKE wildcards are literal');
    for (const blank of ['%20', '%23', '%20%23%20']) {
      const refused = await list(`?search=${blank}`);
      assert.equal(refused.statusCode, 400, blank);
      assert.equal(refused.data.errors[0].path, 'query.search');
    }
    const growth = await list('?sort_by=growth');
    assert.deepEqual(
      growth.data.trends.map((t: Json) => t.growth),
      [37.5, 0, -84.03, null].map((g) => (g === null ? null : g)),
    );
  });

  test('a date range replaces the period and is reported as custom', async () => {
    const res = await list('?start_date=2026-11-20&end_date=2026-11-20&sort_by=velocity');
    assert.equal(res.statusCode, 200);
    assert.equal(res.data.meta.period, 'custom');
    assert.equal(res.data.meta.start_date, '2026-11-20');
    assert.equal(res.data.meta.end_date, '2026-11-20');
    const retro = find(res.data.trends, ids['retro console']!);
    // 2026-11-20: hours 00–09 at 30 (k = 34…25 … 24 h before 10:00 is 2026-11-20T10:00) — counted from buckets.
    assert.equal(retro.volume, 11 * 30 + 13 * 5);
    const today = await list('?start_date=2026-11-21');
    assert.equal(today.data.meta.end_date, '2026-11-21');
    assert.equal(find(today.data.trends, ids['aurora borealis']!).volume, 10 * 10 + 100);
  });

  test('analytics give a series that adds up to the volume', async () => {
    const id = ids['aurora borealis']!;
    const week = await call(ctx.app, 'GET', `/api/trends/${id}/analytics`, { key: reader });
    assert.equal(week.statusCode, 200);
    assert.equal(week.data.period, '7d');
    assert.equal(week.data.data.length, 168);
    assert.equal(week.data.current_volume, 48 * 10 + 100);
    assert.equal(
      week.data.data.reduce((s: number, p: Json) => s + p.volume, 0),
      week.data.current_volume,
    );
    assert.equal(week.data.velocity_trend, 'accelerating');
    assert.equal(week.data.velocity_per_hour, Math.round((580 / 168) * 100) / 100);
    const hour = await call(ctx.app, 'GET', `/api/trends/${id}/analytics?period=1h`, { key: reader });
    assert.equal(hour.data.data.length, 60);
    assert.equal(hour.data.current_volume, 100);
    const month = await call(ctx.app, 'GET', `/api/trends/${id}/analytics?period=30d`, { key: reader });
    assert.equal(month.data.data.length, 31, 'daily points over 720 hours touch 31 UTC days');
    assertProblem(await call(ctx.app, 'GET', '/api/trends/999999/analytics', { key: reader }), 404);
    assertProblem(await call(ctx.app, 'GET', `/api/trends/${id}/analytics?period=2d`, { key: reader }), 400);
  });

  test('analytics take upstream names too: startDate, endDate and timeRange (earlier SDKs send them)', async () => {
    const id = ids['aurora borealis']!;
    const get = (query: string) =>
      call(ctx.app, 'GET', `/api/trends/${id}/analytics${query}`, { key: reader });
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    const ours = await get(`?start_date=${day}&end_date=${day}`);
    assert.equal(ours.statusCode, 200, ours.body);
    const upstream = await get(`?period=7d&startDate=${day}&endDate=${day}`);
    assert.equal(upstream.statusCode, 200, upstream.body);
    assert.deepEqual(upstream.data, ours.data);
    assert.deepEqual((await get('?timeRange=1h')).data, (await get('?period=1h')).data);
    const disagree = await get(`?start_date=${day}&startDate=2026-01-01`);
    assertProblem(disagree, 400);
    assert.equal(disagree.data.errors[0].path, 'query.startDate');
    const bad = await get('?timeRange=2d');
    assertProblem(bad, 400);
    assert.equal(bad.data.errors[0].path, 'query.timeRange');
  });

  test('autocomplete finds prefix matches, largest volume first', async () => {
    const res = await call(ctx.app, 'GET', '/api/trends/autocomplete?query=%23Aur', { key: reader });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.data.results[0], {
      name: 'aurora borealis',
      category: res.data.results[0].category,
      volume: 330,
      suggestion: 'aurora borealis',
    });
    const none = await call(ctx.app, 'GET', '/api/trends/autocomplete?query=zzzz', { key: reader });
    assert.deepEqual(none.data.results, []);
    assertProblem(await call(ctx.app, 'GET', '/api/trends/autocomplete', { key: reader }), 400);
    assertProblem(
      await call(ctx.app, 'GET', '/api/trends/autocomplete?query=a&limit=101', { key: reader }),
      400,
    );
    // Upstream's SDK sends the prefix as `q`.
    const q = await call(ctx.app, 'GET', '/api/trends/autocomplete?q=%23Aur', { key: reader });
    assert.equal(q.statusCode, 200);
    assert.deepEqual(q.data, res.data);
    assert.equal(
      (await call(ctx.app, 'GET', '/api/trends/autocomplete?q=aur&query=aur', { key: reader })).statusCode,
      200,
    );
    const both = await call(ctx.app, 'GET', '/api/trends/autocomplete?q=aur&query=qua', { key: reader });
    assertProblem(both, 400);
    assert.equal(both.data.errors[0].path, 'query.q');
    const missing = await call(ctx.app, 'GET', '/api/trends/autocomplete', { key: reader });
    assert.equal(missing.data.errors[0].path, 'query.query');
    assertProblem(await call(ctx.app, 'GET', '/api/trends/autocomplete?q=', { key: reader }), 400);
  });

  test('velocity crossings and lifecycle changes are recorded as domain events', async () => {
    const jobs = await ctx.app.services.db
      .selectFrom('jobs')
      .select('payload')
      .where('type', '=', DOMAIN_EVENT_JOB)
      .execute();
    const events = jobs.map((j) => JSON.parse(j.payload));
    const aurora = events.filter((e) => e.data.trend_id === ids['aurora borealis']);
    assert.deepEqual(aurora.map((e) => e.type).sort(), ['trend.lifecycle.changed', 'trend.velocity.crossed']);
    const crossing = aurora.find((e) => e.type === 'trend.velocity.crossed');
    assert.deepEqual(crossing.data.levels, [25, 50, 75, 90]);
    // A second pass with nothing new records nothing.
    clock.advance(1000);
    const again = await ctx.app.services.engine.tick();
    const latest = await ctx.app.services.db
      .selectFrom('jobs')
      .select('payload')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    assert.equal(again.events, 0, latest?.payload);
    // The OpenAI trend has fewer than 5 mentions in 24 h: no events.
    assert.equal(events.filter((e) => e.data.trend_id === ids.openai).length, 0);
  });

  test('interests: create, list, filter trends, delete; walled per user', async () => {
    const created = await call(ctx.app, 'POST', '/api/user/interests', {
      key: writer.key,
      body: { keyword: '#Aurora', alert_condition_type: 'volume_above', volume_threshold_value: 100 },
    });
    assert.equal(created.statusCode, 201);
    assert.equal(created.data.keyword, '#Aurora');
    assert.equal(created.data.user_id, writer.userId);
    assert.equal(created.data.status, 'active');
    assert.equal(created.data.percentage_growth_value, null);
    const filtered = await list(`?interest=${created.data.id}`, writer.key);
    assert.deepEqual(
      filtered.data.trends.map((t: Json) => t.id),
      [ids['aurora borealis']],
    );
    assertProblem(await list(`?interest=${created.data.id}`, other.key), 404);
    const duplicate = await call(ctx.app, 'POST', '/api/user/interests', {
      key: writer.key,
      body: { keyword: 'aurora' },
    });
    assertProblem(duplicate, 409);
    const listed = await call(ctx.app, 'GET', '/api/user/interests', { key: writer.key });
    assert.deepEqual(listed.data, [created.data]);
    assert.deepEqual((await call(ctx.app, 'GET', '/api/user/interests', { key: other.key })).data, []);
    assertProblem(
      await call(ctx.app, 'DELETE', `/api/user/interests/${created.data.id}`, { key: other.key }),
      404,
    );
    const removed = await call(ctx.app, 'DELETE', `/api/user/interests/${created.data.id}`, {
      key: writer.key,
    });
    assert.equal(removed.statusCode, 204);
    assertProblem(
      await call(ctx.app, 'DELETE', `/api/user/interests/${created.data.id}`, { key: writer.key }),
      404,
    );
  });

  test('interests: bad input is a 400 naming the field; read-only keys are refused', async () => {
    for (const [body, field] of [
      [{ keyword: 'solar', alert_condition_type: 'volume_above' }, 'volume_threshold_value'],
      [{ keyword: 'solar', alert_condition_type: 'growth_above' }, 'percentage_growth_value'],
      [{ keyword: 'solar', percentage_growth_value: 5 }, 'percentage_growth_value'],
      [{ keyword: 'the' }, 'keyword'],
      [{ keyword: '' }, 'keyword'],
      [{ keyword: 'solar', extra: 1 }, 'extra'],
      [
        { keyword: 'solar', alert_condition_type: 'volume_above', volume_threshold_value: '5' },
        'volume_threshold_value',
      ],
    ] as const) {
      const res = await call(ctx.app, 'POST', '/api/user/interests', { key: writer.key, body });
      assertProblem(res, 400);
      assert.match(JSON.stringify(res.data), new RegExp(field));
    }
    assertProblem(
      await call(ctx.app, 'POST', '/api/user/interests', { key: reader, body: { keyword: 'x y' } }),
      403,
    );
    assertProblem(await call(ctx.app, 'GET', '/api/user/interests'), 401);
  });
  // The list caches snapshot pages: a snapshot rewritten behind the service's back (no recompute pass, so no
  // snapshotsChanged) shows only once the cached answer is dropped.
  const AURORA_TEXT = 'rewritten in the database';
  const rewriteSnapshot = (trendId: number, text: string) =>
    ctx.app.services.db
      .updateTable('trend_metrics')
      .set({ meta_description: text })
      .where('trend_id', '=', trendId)
      .where('period', '=', '24h')
      .execute();
  const descriptionOf = (res: { data: Json }, id: number) => find(res.data.trends, id).meta_description;

  test('a new trend shows in the list after the next pass, not a cached page', async () => {
    const aurora = ids['aurora borealis']!;
    const before = await list('?limit=100');
    assert.equal(
      before.data.trends.some((t: Json) => t.title === 'zephyr kite'),
      false,
    );
    const original = descriptionOf(before, aurora);
    await rewriteSnapshot(aurora, AURORA_TEXT);
    try {
      await ctx.app.services.signals.ingest([
        { source: 'x', external_id: 'zephyr-1', text: 'zephyr kite', keywords: ['zephyr kite'] },
      ]);
      const cached = await list('?limit=100');
      assert.equal(cached.body, before.body, 'no pass yet: the cached answer, byte for byte');
      const at = clock.now();
      await ctx.app.services.engine.tick();
      assert.equal(clock.now(), at, 'no time passed: only the pass can drop the cached answer');
      const after = await list('?limit=100');
      assert.equal(after.data.total, before.data.total + 1);
      assert.ok(after.data.trends.some((t: Json) => t.title === 'zephyr kite'));
    } finally {
      await rewriteSnapshot(aurora, original);
      ctx.app.services.trends.snapshotsChanged();
    }
  });

  test('a repeated list request is answered with the same JSON bytes for up to 1 s', async () => {
    const aurora = ids['aurora borealis']!;
    const first = await list('?limit=5&sort_by=velocity');
    const original = descriptionOf(first, aurora);
    await rewriteSnapshot(aurora, AURORA_TEXT);
    try {
      const second = await list('?limit=5&sort_by=velocity');
      assert.equal(second.statusCode, 200);
      assert.match(String(second.headers['content-type']), /^application\/json/);
      assert.equal(second.body, first.body, 'the cached answer: the rewritten snapshot does not show');
      clock.advance(999);
      assert.equal((await list('?limit=5&sort_by=velocity')).body, first.body, 'still cached at 999 ms');
      // Another query is another answer, read from the snapshots now.
      const other = await list('?limit=5&sort_by=name');
      assert.equal(other.data.meta.sort_by, 'name');
      assert.equal(descriptionOf(other, aurora), AURORA_TEXT);
      clock.advance(1);
      const aged = await list('?limit=5&sort_by=velocity');
      assert.equal(aged.data.meta.sort_by, 'velocity');
      assert.equal(descriptionOf(aged, aurora), AURORA_TEXT, 'after 1 s the snapshots are read again');
    } finally {
      await rewriteSnapshot(aurora, original);
      ctx.app.services.trends.snapshotsChanged();
    }
  });
});
