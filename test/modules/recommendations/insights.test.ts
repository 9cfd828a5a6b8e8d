// Recommendations from the caller's latest AI insights, end to end: complaints → product_improvement and
// crm_strategy, buying intent → seo_optimization, with the insight's own numbers as evidence.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseComplaints } from '../../../src/modules/recommendations/facts.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { buildTestApp, call, createUser, type Json, type TestContext } from '../../helpers/app.ts';
import { RELAXED_PLANS, seed, settle } from '../insights/fixtures.ts';

describe('recommendations from AI insights', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));
  let erin: { userId: number; key: string };
  let frank: { userId: number; key: string };
  let ids: Awaited<ReturnType<typeof seed>>;
  const insights: Record<string, Json> = {};

  const recs = async (key: string, query = 'status=all') => {
    const res = await call(ctx.app, 'GET', `/api/intelligence/recommendations?${query}`, { key });
    assert.equal(res.statusCode, 200, res.body);
    return res.data.recommendations as Json[];
  };
  const evidence = (rec: Json, metric: string) =>
    rec.decision_brief.evidence.filter((e: Json) => e.metric === metric);

  before(async () => {
    ctx = await buildTestApp({ clock, env: { PLANS: RELAXED_PLANS } });
    erin = await createUser(ctx, 'enterprise');
    frank = await createUser(ctx, 'enterprise');
    ids = await seed(ctx, clock.now());
    await ctx.app.services.engine.tick();
    await call(ctx.app, 'POST', '/api/user/interests', { key: erin.key, body: { keyword: 'Zenith Phone' } });
    for (const [slot, id] of Object.entries(ids)) {
      const task = await call(ctx.app, 'POST', `/api/trends/${id}/ai-insights/generate`, {
        key: erin.key,
        body: {},
      });
      assert.equal(task.statusCode, 202, task.body);
      assert.equal((await settle(ctx, erin.key, task.data.task_id)).status, 'succeeded');
      insights[slot] = (await call(ctx.app, 'GET', `/api/trends/${id}/ai-insights`, { key: erin.key })).data;
    }
  });
  after(() => ctx.close());

  it('complaints in the insight → product_improvement and crm_strategy with the insight’s shares', async () => {
    const insight = insights.negative!;
    const complaints = parseComplaints(insight.crm_and_support_insights.common_complaints);
    const mine = (await recs(erin.key)).filter((r) => r.source_trend_id === String(ids.negative));
    assert.deepEqual(mine.map((r) => r.type).sort(), ['crm_strategy', 'product_improvement']);
    for (const rec of mine) {
      const kind = rec.type === 'product_improvement' ? 'product' : 'service';
      const expected = complaints
        .filter((c) => c.kind === kind && c.share_pct >= 10 && c.count >= 3)
        .slice(0, 3)
        .map((c) => c.share_pct);
      assert.ok(expected.length > 0);
      assert.deepEqual(
        evidence(rec, 'complaint_share').map((e: Json) => e.value),
        expected,
        rec.type,
      );
      assert.equal(evidence(rec, 'sample_size')[0].value, complaints[0]!.of);
      assert.equal(rec.priority, Math.max(...expected) >= 25 ? 'high' : 'medium');
      const first = rec.decision_brief.evidence[0];
      assert.equal(first.source_url, `${ctx.config.publicBaseUrl}/api/trends/${ids.negative}/ai-insights`);
      assert.equal(Date.parse(first.observed_at), Date.parse(insight.generated_at));
      assert.equal(rec.source_trend_name, insight.trend_name);
      assert.equal(rec.decision_brief.actionable, true);
    }
    const crm = mine.find((r) => r.type === 'crm_strategy')!;
    assert.equal(
      crm.decision_brief.next_steps[0],
      insight.crm_and_support_insights.suggested_responses.find(
        (s: string) => s.startsWith('On billing') || s.startsWith('On customer'),
      ),
    );
    // Complaints use buying words (refund, charged) but a negative conversation is not search demand.
    assert.equal(mine.filter((r) => r.type === 'seo_optimization').length, 0);
  });

  it('buying intent in a positive insight → seo_optimization with the insight’s numbers', async () => {
    const insight = insights.positive!;
    const [seo, ...others] = (await recs(erin.key, 'status=all&type=seo_optimization')) as Json[];
    assert.equal(others.length, 0);
    assert.equal(seo.source_trend_id, String(ids.positive));
    assert.equal(evidence(seo, 'commercial_intent')[0].value, insight.trend_metrics.commercial_intent);
    assert.equal(evidence(seo, 'predicted_cpc_usd')[0].value, insight.trend_metrics.predicted_cpc_usd);
    assert.equal(seo.priority, insight.trend_metrics.commercial_intent >= 0.3 ? 'high' : 'medium');
    // Zenith Phone is one of Erin's interests: its live numbers are part of the evidence.
    assert.ok(evidence(seo, 'volume').length === 1);
    assert.ok(!seo.decision_brief.confidence.missing_signals.includes('live_trend_metrics'));
  });

  it('a profane, complaint-free insight recommends nothing', async () => {
    assert.equal((await recs(erin.key)).filter((r) => r.source_trend_id === String(ids.profane)).length, 0);
  });

  it('match_user_interests keeps only the interest’s trend; other users see nothing of Erin’s', async () => {
    const matched = await recs(erin.key, 'status=all&match_user_interests=true');
    assert.ok(matched.length > 0);
    assert.ok(
      matched.every((r) => r.source_trend_name === 'Zenith Phone'),
      JSON.stringify(matched.map((r) => r.source_trend_name)),
    );
    assert.deepEqual(await recs(frank.key), []);
  });
});
