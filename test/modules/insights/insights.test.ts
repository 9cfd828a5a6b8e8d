import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { recommendedNextSteps } from '../../../src/modules/insights/index.ts';
import { categoryByNameOrSlug, descendantsOf } from '../../../src/modules/text/index.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';
import { RELAXED_PLANS, seed, settle } from './fixtures.ts';

/** Every leaf of the insight is non-null, and every string, array and object is non-empty. */
function assertFilled(value: unknown, path = 'insight'): void {
  assert.notEqual(value, null, `${path} is null`);
  assert.notEqual(value, undefined, `${path} is missing`);
  if (typeof value === 'string') assert.ok(value.trim().length > 0, `${path} is empty`);
  else if (Array.isArray(value)) {
    assert.ok(value.length > 0, `${path} is empty`);
    for (const [i, v] of value.entries()) assertFilled(v, `${path}[${i}]`);
  } else if (typeof value === 'object') {
    const entries = Object.entries(value as object);
    assert.ok(entries.length > 0, `${path} is empty`);
    // A safe trend has no brand-safety flags and no exclusions: those lists are legitimately empty.
    const mayBeEmpty = (k: string) =>
      (path.endsWith('exclusions') && k === 'interests') || (path.endsWith('brand_safety') && k === 'flags');
    for (const [k, v] of entries) if (!mayBeEmpty(k)) assertFilled(v, `${path}.${k}`);
  }
}

const FIELDS = [
  'trend_id',
  'trend_name',
  'sentiment_summary',
  'sentiment_category',
  'key_themes',
  'content_brief',
  'ad_platform_targeting',
  'trend_metrics',
  'platform_signal',
  'audience_injection',
  'brand_safety',
  'crm_and_support_insights',
  'overall_topic_category_llm',
  'analysis_notes',
  'llm_model_used',
  'generated_at',
  'usage_count',
  'usage_limit',
];

describe('AI insights (offline analyzer)', () => {
  let ctx: TestContext;
  let ids: Awaited<ReturnType<typeof seed>>;
  let alice: Awaited<ReturnType<typeof createUser>>;
  let bob: Awaited<ReturnType<typeof createUser>>;
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));
  const insights = new Map<string, Json>();

  async function generate(key: string, trendId: number): Promise<Json> {
    const res = await call(ctx.app, 'POST', `/api/trends/${trendId}/ai-insights/generate`, { key });
    assert.equal(res.statusCode, 202, res.body);
    const done = await settle(ctx, key, res.data.task_id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    return (await call(ctx.app, 'GET', `/api/trends/${trendId}/ai-insights`, { key })).data;
  }

  before(async () => {
    ctx = await buildTestApp({ clock, env: { PLANS: RELAXED_PLANS } });
    ids = await seed(ctx, clock.now());
    alice = await createUser(ctx, 'developer');
    bob = await createUser(ctx, 'developer');
    for (const slot of ['negative', 'positive', 'profane'] as const) {
      insights.set(slot, await generate(alice.key, ids[slot]));
    }
  });
  after(async () => ctx.close());

  test('generate → status succeeded → every field of the insight is filled for a trend with ≥ 20 signals', () => {
    for (const insight of insights.values()) {
      for (const field of FIELDS) assert.ok(field in insight, `missing ${field}`);
      assertFilled(insight);
      assert.match(insight.llm_model_used, /^crestwatch-offline\/\d/);
      assert.match(insight.analysis_notes, /30 mentions/);
      const shares = Object.values(insight.platform_signal.virality_distribution) as number[];
      assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 1) < 1e-9);
      const social = insight.audience_injection.platform_payloads.social_ads;
      assert.ok(
        Array.isArray(social.interests) && social.interests.every((i: Json) => typeof i.name === 'string'),
      );
      assert.ok(Number.isInteger(social.age_min) && social.age_max > social.age_min);
      assert.deepEqual(social.geo_locations, { countries: ['GB', 'US'] });
      const forum = insight.audience_injection.platform_payloads.forum_ads;
      assert.ok(forum.keywords.length > 0 && forum.communities.length > 0);
      assert.ok(insight.trend_metrics.predicted_cpc_usd > 0);
    }
  });

  test('strongly negative signals give a negative category, complaint themes and complaints', () => {
    const insight = insights.get('negative')!;
    assert.equal(insight.sentiment_category, 'negative');
    assert.match(insight.sentiment_summary, /negative: of 30 mentions/);
    assert.ok(
      insight.key_themes.some((t: string) => t.startsWith('complaints about')),
      insight.key_themes.join('|'),
    );
    const complaints = insight.crm_and_support_insights.common_complaints.join(' ');
    assert.match(complaints, /outages and downtime|customer support|billing/);
    assert.equal(insights.get('positive')!.sentiment_category, 'positive');
  });

  test('buying language raises commercial intent and the predicted CPC', () => {
    const positive = insights.get('positive')!.trend_metrics;
    const negative = insights.get('negative')!.trend_metrics;
    assert.ok(positive.commercial_intent >= 0.8, `${positive.commercial_intent}`);
    assert.ok(positive.commercial_intent > negative.commercial_intent);
  });

  test('profanity-laden signals are not brand-safe and the flag says why', () => {
    const safety = insights.get('profane')!.brand_safety;
    assert.notEqual(safety.level, 'safe');
    assert.ok(safety.flags.includes('profanity'), safety.flags.join(','));
    assert.equal(insights.get('positive')!.brand_safety.level, 'safe');
  });

  test('usage_count counts this month’s generations against the plan’s limit', () => {
    assert.equal(insights.get('profane')!.usage_count, 3);
    assert.equal(insights.get('profane')!.usage_limit, 10);
  });

  test('recommendedNextSteps turns an insight into next steps', () => {
    const steps = recommendedNextSteps(insights.get('profane') as never);
    assert.ok(steps.length > 0 && steps.length <= 5);
    assert.match(steps[0]!, /brand safety/i);
    assert.deepEqual(recommendedNextSteps(null), []);
  });

  test('offlineInsight computes without storing or charging', async () => {
    const before = (await call(ctx.app, 'GET', `/api/trends/${ids.positive}/ai-insights`, { key: alice.key }))
      .data;
    const insight = await ctx.app.services.insights.offlineInsight(ids.positive);
    assert.equal(insight.trend_id, ids.positive);
    assert.ok(insight.audience_injection);
    const after = (await call(ctx.app, 'GET', `/api/trends/${ids.positive}/ai-insights`, { key: alice.key }))
      .data;
    assert.equal(after.usage_count, before.usage_count);
    assert.equal(after.generated_at, before.generated_at);
  });

  test('user B never sees user A’s insights or tasks', async () => {
    const res = await call(ctx.app, 'GET', `/api/trends/${ids.negative}/ai-insights`, { key: bob.key });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, 'null');
    const search = await call(ctx.app, 'GET', '/api/insights/search', { key: bob.key });
    assert.equal(search.data.total, 0);
    const task = await call(ctx.app, 'POST', `/api/trends/${ids.negative}/ai-insights/generate`, {
      key: alice.key,
    });
    const other = await call(ctx.app, 'GET', `/api/trends/ai-insights/status/${task.data.task_id}`, {
      key: bob.key,
    });
    assertProblem(other, 404);
    await settle(ctx, alice.key, task.data.task_id);
    assert.equal(await ctx.app.services.insights.latestFor(bob.userId, ids.negative), null);
    assert.equal(
      (await ctx.app.services.insights.latestFor(alice.userId, ids.negative))?.trend_id,
      ids.negative,
    );
  });

  test('a second generate while one is pending returns that task and is not charged', async () => {
    const carol = await createUser(ctx, 'developer');
    const first = await call(ctx.app, 'POST', `/api/trends/${ids.positive}/ai-insights/generate`, {
      key: carol.key,
    });
    const second = await call(ctx.app, 'POST', `/api/trends/${ids.positive}/ai-insights/generate`, {
      key: carol.key,
    });
    assert.equal(first.statusCode, 202);
    assert.equal(first.data.status, 'queued');
    assert.equal(second.statusCode, 202);
    assert.equal(second.data.task_id, first.data.task_id);
    const queued = await call(ctx.app, 'GET', `/api/trends/ai-insights/status/${first.data.task_id}`, {
      key: carol.key,
    });
    assert.deepEqual(queued.data, { status: 'queued', error: null });
    await settle(ctx, carol.key, first.data.task_id);
    const insight = (
      await call(ctx.app, 'GET', `/api/trends/${ids.positive}/ai-insights`, { key: carol.key })
    ).data;
    assert.equal(insight.usage_count, 1);
  });

  test('force_refresh: true queues a new, charged task even while one is pending; false keeps the pending one', async () => {
    const gina = await createUser(ctx, 'developer');
    const path = `/api/trends/${ids.positive}/ai-insights/generate`;
    const first = await call(ctx.app, 'POST', path, { key: gina.key, body: { force_refresh: false } });
    assert.equal(first.statusCode, 202);
    const same = await call(ctx.app, 'POST', path, { key: gina.key, body: { force_refresh: false } });
    assert.equal(same.data.task_id, first.data.task_id);
    const forced = await call(ctx.app, 'POST', path, { key: gina.key, body: { force_refresh: true } });
    assert.equal(forced.statusCode, 202);
    assert.notEqual(forced.data.task_id, first.data.task_id);
    assert.match(forced.data.message, /queued/);
    const analyzed = await call(ctx.app, 'POST', `/api/trends/${ids.positive}/analyze`, {
      key: gina.key,
      body: { force_refresh: true },
    });
    assert.equal(analyzed.statusCode, 202);
    const again = await call(ctx.app, 'POST', `/api/trends/${ids.positive}/analyze`, {
      key: gina.key,
      body: { force_refresh: true },
    });
    assert.notEqual(again.data.task_id, analyzed.data.task_id);
    assert.equal((await ctx.app.services.insights.usage(gina.userId)).count, 4, 'every new task is charged');
    for (const body of [{ force_refresh: 'true' }, { force_refresh: 1 }, { force_refresh: true, x: 1 }]) {
      const bad = await call(ctx.app, 'POST', path, { key: gina.key, body });
      assertProblem(bad, 400);
      assert.match(JSON.stringify(bad.data.errors), /body\.(force_refresh|x)/);
    }
    for (const id of [first.data.task_id, forced.data.task_id, analyzed.data.task_id, again.data.task_id]) {
      await settle(ctx, gina.key, id);
    }
  });

  test('a developer’s 11th generation in a month is refused with the monthly limit in the headers', async () => {
    const dave = await createUser(ctx, 'developer');
    for (let i = 0; i < 10; i++) {
      const res = await call(ctx.app, 'POST', `/api/trends/${ids.positive}/ai-insights/generate`, {
        key: dave.key,
      });
      assert.equal(res.statusCode, 202, `generation ${i + 1}: ${res.body}`);
      // Finish it so the next one is a new, charged generation.
      await ctx.app.services.db
        .updateTable('insight_tasks')
        .set({ status: 'succeeded' })
        .where('id', '=', res.data.task_id)
        .execute();
    }
    const counted = async () =>
      (await call(ctx.app, 'GET', '/api/user/api-usage', { key: dave.key })).data.summary.requests_today;
    const before = await counted();
    const refused = await call(ctx.app, 'POST', `/api/trends/${ids.positive}/ai-insights/generate`, {
      key: dave.key,
    });
    assertProblem(refused, 429);
    assert.equal(refused.data.code, 'insight_limit_reached');
    // Refused by a limit: not counted against the daily quota either.
    assert.equal(await counted(), before);
    assert.equal(refused.headers['x-ratelimit-limit'], '10');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.equal(refused.headers['x-ratelimit-reset'], String(Date.parse('2026-12-01T00:00:00Z') / 1000));
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const analyze = await call(ctx.app, 'POST', `/api/trends/${ids.positive}/analyze`, { key: dave.key });
    assertProblem(analyze, 429);
    assert.equal((await ctx.app.services.insights.usage(dave.userId)).count, 10);
  });

  test('analyze queues a full re-analysis whose insight carries a forecast', async () => {
    const erin = await createUser(ctx, 'developer');
    const res = await call(ctx.app, 'POST', `/api/trends/${ids.negative}/analyze`, { key: erin.key });
    assert.equal(res.statusCode, 202);
    assert.deepEqual(Object.keys(res.data).sort(), ['status', 'task_id']);
    assert.equal(typeof res.data.task_id, 'string');
    assert.equal((await settle(ctx, erin.key, res.data.task_id)).status, 'succeeded');
    const insight = (await call(ctx.app, 'GET', `/api/trends/${ids.negative}/ai-insights`, { key: erin.key }))
      .data;
    assert.match(insight.analysis_notes, /Forecast: about \d+ mentions/);
  });

  test('search filters the caller’s latest insights', async () => {
    const q = async (query: string) =>
      (await call(ctx.app, 'GET', `/api/insights/search?${query}`, { key: alice.key })).data;
    const all = await q('');
    assert.equal(all.total, 3);
    assert.equal(all.meta.limit, 20);
    assert.equal(all.meta.offset, 0);
    const negative = await q('sentiment_category=negative');
    assert.ok(negative.trends.some((t: Json) => t.trend_id === ids.negative));
    assert.ok(negative.trends.every((t: Json) => t.sentiment_category === 'negative'));
    assert.ok(!negative.trends.some((t: Json) => t.trend_id === ids.positive));
    assert.equal(negative.meta.sentiment_category, 'negative');
    assert.equal((await q('key_theme=COMPLAINTS')).total, 1);
    assert.equal((await q('trend_name=zenith')).trends[0].trend_id, ids.positive);
    assert.equal((await q('audience_keyword=zenith phone')).total, 1);
    const topic = all.trends[0].overall_topic_category_llm as string;
    const parent = topic.split('/')[0]!;
    assert.ok((await q(`topic_category=${encodeURIComponent(parent)}`)).total >= 1);
    assert.equal((await q('trend_name=100%25_')).total, 0);
    assert.equal((await q('limit=1&offset=1')).trends.length, 1);
    // Upstream's `q`: free text over the trend name, key themes and audience keywords.
    assert.equal((await q('q=zenith')).trends[0].trend_id, ids.positive);
    assert.equal((await q('q=complaints')).total, 1);
    assert.equal((await q('q=zenith%20phone')).total, 1);
    assert.equal((await q('q=nothing-like-this')).total, 0);
    assert.equal((await q('q=zenith')).meta.q, 'zenith');
    // Each result also reads as a trend (upstream clients parse TrendItems): the trend's id and title.
    for (const item of all.trends) {
      assert.equal(item.id, item.trend_id);
      assert.equal(item.title, item.trend_name);
    }
  });

  test('search topic_category reads a category as GET /api/trends?category= does: path or slug, parent covers children, unknown → 400', async () => {
    const search = (query: string) =>
      call(ctx.app, 'GET', `/api/insights/search?${query}`, { key: alice.key });
    const all = (await search('')).data;
    const path = all.trends[0].overall_topic_category_llm as string;
    const category = categoryByNameOrSlug(path)!;
    const parent = categoryByNameOrSlug(path.split('/')[0]!)!;
    const byPath = (await search(`topic_category=${encodeURIComponent(path)}`)).data;
    assert.ok(byPath.total >= 1);
    for (const value of [category.slug, path.toUpperCase()]) {
      const res = await search(`topic_category=${encodeURIComponent(value)}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.data.total, byPath.total, value);
      assert.equal(res.data.meta.topic_category, value);
    }
    const byParentSlug = (await search(`topic_category=${parent.slug}`)).data;
    assert.ok(byParentSlug.total >= byPath.total);
    assert.ok(
      byParentSlug.trends.every((t: Json) =>
        descendantsOf(parent.name).includes(t.overall_topic_category_llm),
      ),
    );
    // A parent's slug finds the insight filed under its child (Acme Cloud: Crisis & Safety/Outages & …).
    const crisis = await search('topic_category=crisis-safety');
    assert.equal(crisis.statusCode, 200, crisis.body);
    assert.deepEqual(
      crisis.data.trends.map((t: Json) => t.trend_id),
      [ids.negative],
    );
    // A known category none of the insights is in: an empty answer, not an error.
    const sports = await search('topic_category=sports');
    assert.equal(sports.statusCode, 200, sports.body);
    assert.equal(sports.data.total, 0);
    for (const unknown of ['Nope', 'technology-nope', 'Technology/Nope']) {
      const res = await search(`topic_category=${encodeURIComponent(unknown)}`);
      assertProblem(res, 400);
      assert.deepEqual(
        res.data.errors.map((e: Json) => e.path),
        ['query.topic_category'],
      );
      const trends = await call(ctx.app, 'GET', `/api/trends?category=${encodeURIComponent(unknown)}`, {
        key: alice.key,
      });
      assertProblem(trends, 400);
    }
  });

  test('a task that keeps failing ends failed with a readable error, after its retries', async () => {
    const frank = await createUser(ctx, 'developer');
    const service = ctx.app.services.insights;
    const original = service.signalsFor;
    service.signalsFor = async () => {
      throw new Error('database went away');
    };
    const worker = ctx.app.services.worker;
    try {
      const res = await call(ctx.app, 'POST', `/api/trends/${ids.positive}/ai-insights/generate`, {
        key: frank.key,
      });
      worker.start();
      let status: Json = {};
      for (let i = 0; i < 400 && status.status !== 'failed'; i++) {
        // Past the retry backoff of the first attempts (≤ 2 s), well inside the 60 s lease: a lease that
        // expired under a running attempt would let a second worker run it again, as after a crash.
        clock.advance(5_000);
        worker.poke();
        await new Promise((r) => setTimeout(r, 25));
        status = (
          await call(ctx.app, 'GET', `/api/trends/ai-insights/status/${res.data.task_id}`, { key: frank.key })
        ).data;
      }
      assert.equal(status.status, 'failed');
      assert.match(status.error, /failed after 3 attempts/);
      assert.doesNotMatch(status.error, /database went away/);
    } finally {
      await worker.stop();
      service.signalsFor = original;
      clock.set('2026-11-21T10:30:00Z');
    }
  });

  test('errors: unknown task 404, unknown trend 404, no key 401, read-only key 403, bad query 400', async () => {
    assertProblem(await call(ctx.app, 'GET', '/api/trends/ai-insights/status/nope', { key: alice.key }), 404);
    assertProblem(await call(ctx.app, 'GET', '/api/trends/999999/ai-insights', { key: alice.key }), 404);
    assertProblem(
      await call(ctx.app, 'POST', '/api/trends/999999/ai-insights/generate', { key: alice.key }),
      404,
    );
    assertProblem(await call(ctx.app, 'POST', '/api/trends/999999/analyze', { key: alice.key }), 404);
    assertProblem(await call(ctx.app, 'GET', `/api/trends/${ids.negative}/ai-insights`), 401);
    assertProblem(await call(ctx.app, 'GET', '/api/insights/search'), 401);
    const reader = await createUser(ctx, 'developer', ['read']);
    assertProblem(
      await call(ctx.app, 'POST', `/api/trends/${ids.negative}/ai-insights/generate`, { key: reader.key }),
      403,
    );
    assertProblem(
      await call(ctx.app, 'GET', '/api/insights/search?sentiment_category=angry', { key: alice.key }),
      400,
    );
    assertProblem(await call(ctx.app, 'GET', '/api/insights/search?colour=red', { key: alice.key }), 400);
    assertProblem(
      await call(ctx.app, 'POST', `/api/trends/${ids.negative}/ai-insights/generate`, {
        key: alice.key,
        body: { x: 1 },
      }),
      400,
    );
  });

  test('the trend routes still answer next to the insight routes', async () => {
    const trend = await call(ctx.app, 'GET', `/api/trends/${ids.negative}`, { key: alice.key });
    assert.equal(trend.statusCode, 200);
    assert.equal(trend.data.title, 'Acme Cloud');
  });
});
