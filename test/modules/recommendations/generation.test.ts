// The two scenarios that must hold, end to end through ingestion, the trend engine and crisis detection:
// a trend crossing velocity 75 for an interest → one content recommendation whose evidence is the trend's
// numbers; an open high-severity crisis event → one pr_response, actionable only while its evidence is fresh.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';
import { posts } from '../crisis/posts.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
// 10:59 UTC: the current hour bucket is 10:00–10:59.
const NOW = Date.parse('2026-11-21T10:59:00Z');
const CURRENT_HOUR = Date.parse('2026-11-21T10:00:00Z');

/**
 * `perHour(k)` mentions of `name` in each hour k hours before the current one; the current hour's (k = 0) are
 * spread over its first `spreadMinutes` minutes.
 */
function series(name: string, hours: number, perHour: (k: number) => number, tag = '', spreadMinutes = 58) {
  const out: Record<string, unknown>[] = [];
  for (let k = hours; k >= 0; k--) {
    const n = perHour(k);
    for (let i = 0; i < n; i++) {
      const at =
        k === 0
          ? CURRENT_HOUR + Math.floor((i * spreadMinutes * MIN) / n)
          : CURRENT_HOUR - k * HOUR + 30 * MIN;
      out.push({
        source: ['x', 'reddit'][i % 2],
        external_id: `${name}-${tag}${k}-${i}`,
        text: `${name} update`,
        keywords: [name],
        observed_at: new Date(at).toISOString(),
      });
    }
  }
  return out;
}

/** Negative posts spread over the 20 minutes before now, round-robin over three platforms. */
function burst(texts: string[], now: number, tag: string) {
  const platforms = ['reddit', 'x', 'bluesky'];
  return texts.map((text, i) => ({
    source: platforms[i % 3],
    external_id: `${tag}-${i}`,
    text,
    url: `https://${platforms[i % 3]}.example.com/p/${tag}-${i}`,
    author: `user${i}`,
    observed_at: new Date(now - 20 * MIN + Math.round((i * 20 * MIN) / texts.length)).toISOString(),
  }));
}

describe('recommendations generated from trends and crisis events', () => {
  let ctx: TestContext;
  const clock = new ManualClock(NOW);
  let alice: { userId: number; key: string };
  let bob: { userId: number; key: string };
  let auroraId: number;

  async function ingest(signals: Record<string, unknown>[]) {
    for (let i = 0; i < signals.length; i += 1000) {
      const res = await call(ctx.app, 'POST', '/api/signals', {
        key: ctx.operatorKey,
        body: { signals: signals.slice(i, i + 1000) },
      });
      assert.equal(res.statusCode, 202, res.body);
      assert.deepEqual(res.data.rejected, []);
    }
    await ctx.app.services.engine.tick();
  }
  const recs = async (key: string, query = 'status=all') => {
    const res = await call(ctx.app, 'GET', `/api/intelligence/recommendations?${query}`, { key });
    assert.equal(res.statusCode, 200, res.body);
    return res.data.recommendations as Json[];
  };
  /** Past the 30 s regeneration debounce. */
  const later = () => clock.advance(31_000);

  before(async () => {
    ctx = await buildTestApp({ clock });
    alice = await createUser(ctx, 'enterprise');
    bob = await createUser(ctx, 'enterprise');
    for (const keyword of ['Aurora Borealis', 'Acme']) {
      const res = await call(ctx.app, 'POST', '/api/user/interests', { key: alice.key, body: { keyword } });
      assert.equal(res.statusCode, 201, res.body);
    }
    // Bob follows the same trend: his recommendations are his own rows.
    await call(ctx.app, 'POST', '/api/user/interests', {
      key: bob.key,
      body: { keyword: 'aurora borealis' },
    });
    // A steady 10 an hour for two days, the current hour included.
    await ingest(series('aurora borealis', 48, () => 10));
    const row = await ctx.app.services.db
      .selectFrom('trends')
      .select('id')
      .where('key', '=', 'aurora borealis')
      .executeTakeFirstOrThrow();
    auroraId = Number(row.id);
  });
  after(() => ctx.close());

  it('a steady trend matching an interest yields no content recommendation', async () => {
    const trend = (await call(ctx.app, 'GET', `/api/trends/${auroraId}`, { key: alice.key })).data;
    assert.ok(trend.velocity_score < 50, String(trend.velocity_score));
    assert.deepEqual(await recs(alice.key), []);
  });

  it('a trend crossing velocity 75 for an interest yields one content_idea whose evidence is the trend’s numbers', async () => {
    // 90 more in the current hour: 100 against a baseline of 10.
    await ingest(series('aurora borealis', 0, () => 90, 'burst'));
    later();
    const list = await call(ctx.app, 'GET', '/api/trends?sort_by=velocity', { key: alice.key });
    const trend = list.data.trends.find((t: Json) => t.id === auroraId);
    assert.ok(trend.velocity_score >= 75, String(trend.velocity_score));
    const mine = await recs(alice.key);
    const content = mine.filter((r) => r.type === 'content_idea' || r.type === 'marketing_angle');
    assert.equal(content.length, 1, JSON.stringify(mine.map((r) => [r.type, r.source_trend_name])));
    const rec = content[0]!;
    assert.equal(rec.type, 'content_idea'); // no insight measuring buying intent
    assert.equal(rec.user_id, alice.userId);
    assert.equal(rec.status, 'new');
    assert.equal(rec.source_trend_id, String(auroraId));
    assert.equal(rec.source_trend_name, trend.title);
    assert.equal(rec.priority, trend.velocity_score >= 90 ? 'high' : 'medium');
    const brief = rec.decision_brief;
    const value = (metric: string) => brief.evidence.find((e: Json) => e.metric === metric)?.value;
    for (const metric of [
      'velocity_score',
      'velocity_1h',
      'volume',
      'previous_volume',
      'growth',
      'average_velocity',
      'lifecycle_stage',
    ]) {
      assert.deepEqual(value(metric), trend[metric], metric);
    }
    assert.equal(value('interest_match'), 'Aurora Borealis');
    const trendEvidence = brief.evidence.filter((e: Json) => e.metric === 'velocity_score')[0];
    assert.equal(trendEvidence.source, 'crestwatch');
    assert.equal(trendEvidence.source_url, `${ctx.config.publicBaseUrl}/api/trends/${auroraId}`);
    assert.equal(trendEvidence.observed_at, trend.timestamp);
    assert.equal(brief.actionable, true);
    assert.equal(brief.data_quality.freshness, 'fresh');
    assert.equal(brief.data_quality.snapshot_at, trend.timestamp);
    assert.equal(brief.data_quality.evidence_count, brief.evidence.length);
    assert.equal(brief.confidence.method, 'evidence_completeness_v1');
    assert.ok(brief.confidence.missing_signals.includes('ai_insight'));
    // velocity 25 + growth baseline 20 + two platforms 20 + fresh 15; no insight (20).
    assert.equal(brief.confidence.score, 80);
    assert.equal(brief.confidence.level, 'high');
    assert.equal(brief.urgency.level, 'act_now');
    assert.ok(brief.why_now.includes(String(trend.velocity_score)));
    assert.ok(brief.next_steps.length >= 3);
    // Bob follows the same trend: his own recommendation, not Alice's.
    const bobs = await recs(bob.key);
    assert.equal(bobs.filter((r) => r.type === 'content_idea').length, 1);
    assert.ok(bobs.every((r) => r.user_id === bob.userId && r.id !== rec.id));
  });

  it('reading again does not duplicate it; new numbers refresh the same row', async () => {
    const before = (await recs(alice.key)).find((r) => r.type === 'content_idea')!;
    await ingest(series('aurora borealis', 0, () => 20, 'more'));
    later();
    const mine = await recs(alice.key);
    const content = mine.filter((r) => r.type === 'content_idea');
    assert.equal(content.length, 1);
    const after = content[0]!;
    assert.equal(after.id, before.id);
    assert.equal(after.created_at, before.created_at);
    const trend = (
      await call(ctx.app, 'GET', '/api/trends?sort_by=velocity', { key: alice.key })
    ).data.trends.find((t: Json) => t.id === auroraId);
    const volume = after.decision_brief.evidence.find((e: Json) => e.metric === 'volume').value;
    assert.equal(volume, trend.volume);
    assert.ok(volume > before.decision_brief.evidence.find((e: Json) => e.metric === 'volume').value);
    const rows = await ctx.app.services.db
      .selectFrom('recommendations')
      .select(['id'])
      .where('user_id', '=', alice.userId)
      .where('source_key', '=', `trend:${auroraId}`)
      .where('type', '=', 'content_idea')
      .execute();
    assert.equal(rows.length, 1);
  });

  it('an open high-severity crisis event yields one pr_response, actionable only while its evidence is fresh', async () => {
    // A calm baseline the day before, then 30 negative posts from 3 platforms within 20 minutes.
    clock.advance(-12 * HOUR);
    await ingest([
      { source: 'reddit', external_id: 'calm-1', text: 'Acme opened a new office in town', author: 'a' },
      { source: 'x', external_id: 'calm-2', text: 'Acme support was slow and bad today', author: 'b' },
    ]);
    clock.advance(12 * HOUR);
    later();
    await ingest(burst(posts('Acme', 30, 'negative', 7), clock.now(), 'acme'));
    await ctx.app.services.engine.tick();
    const events = (await call(ctx.app, 'GET', '/api/intelligence/crisis-events', { key: alice.key })).data
      .events as Json[];
    assert.equal(events.length, 1);
    const event = events[0]!;
    assert.ok(['high', 'critical'].includes(event.severity), event.severity);
    later();
    const pr = (await recs(alice.key)).filter((r) => r.type === 'pr_response');
    assert.equal(pr.length, 1);
    const rec = pr[0]!;
    assert.equal(rec.priority, event.severity);
    assert.equal(rec.source_trend_name, 'Acme');
    const brief = rec.decision_brief;
    assert.equal(brief.actionable, true);
    assert.equal(brief.data_quality.freshness, 'fresh');
    const severity = brief.evidence.find((e: Json) => e.metric === 'severity');
    assert.equal(severity.value, event.severity);
    assert.equal(severity.interpretation, event.severity_basis);
    assert.equal(
      severity.source_url,
      `${ctx.config.publicBaseUrl}/api/intelligence/crisis-events/${event.id}`,
    );
    assert.equal(severity.observed_at, event.evidence_as_of);
    assert.equal(
      brief.evidence.find((e: Json) => e.metric === 'independent_sources').value,
      event.corroboration.independent_sources,
    );
    assert.equal(
      brief.evidence.find((e: Json) => e.metric === 'evidence_completeness').value,
      event.evidence_completeness.score,
    );
    assert.ok(brief.confidence.missing_signals.includes('human_review'));
    // It matches the interest "Acme".
    const matched = await recs(alice.key, 'status=all&type=pr_response&match_user_interests=true');
    assert.deepEqual(
      matched.map((r) => r.id),
      [rec.id],
    );
    // A trend about Acme would now be held back by the crisis; the brief says so in its blockers.
    const viewed = await call(ctx.app, 'POST', `/api/intelligence/recommendations/${rec.id}/action`, {
      key: alice.key,
      body: { action: 'viewed' },
    });
    assert.equal(viewed.statusCode, 200, viewed.body);
    assert.equal(viewed.data.status, 'viewed');

    // Seven hours later the social evidence (6 h window) is stale: no longer actionable, and `actioned` → 409.
    clock.advance(7 * HOUR);
    const stale = (await recs(alice.key)).find((r) => r.id === rec.id)!;
    assert.equal(stale.decision_brief.actionable, false);
    assert.equal(stale.decision_brief.data_quality.freshness, 'stale');
    assert.ok(stale.decision_brief.confidence.missing_signals.includes('fresh_evidence'));
    assert.equal(stale.decision_brief.urgency.level, 'verify_first');
    assert.ok(stale.decision_brief.confidence.score < brief.confidence.score);
    const refused = await call(ctx.app, 'POST', `/api/intelligence/recommendations/${rec.id}/action`, {
      key: alice.key,
      body: { action: 'actioned' },
    });
    assertProblem(refused, 409);
    assert.equal(refused.data.code, 'recommendation_not_actionable');
    assert.match(refused.data.detail, /stale/);
    // Another user cannot touch it.
    const other = await call(ctx.app, 'POST', `/api/intelligence/recommendations/${rec.id}/action`, {
      key: bob.key,
      body: { action: 'dismissed' },
    });
    assertProblem(other, 404);
    assert.equal((await recs(bob.key)).filter((r) => r.type === 'pr_response').length, 0);
  });

  it('the stale trend’s content recommendation is no longer actionable either', async () => {
    const content = (await recs(alice.key)).find((r) => r.type === 'content_idea')!;
    assert.equal(content.decision_brief.actionable, false);
    const refused = await call(ctx.app, 'POST', `/api/intelligence/recommendations/${content.id}/action`, {
      key: alice.key,
      body: { action: 'actioned' },
    });
    assertProblem(refused, 409);
  });
});

describe('a recommendation’s life: watched, recommended, dismissed, back on a stronger trigger, lapsed', () => {
  let ctx: TestContext;
  // 10:45, with this hour's mentions spread over 10:00–10:40: the scenario stays within one hour.
  const clock = new ManualClock(CURRENT_HOUR + 45 * MIN);
  let dana: { userId: number; key: string };

  async function ingest(signals: Record<string, unknown>[]) {
    const res = await call(ctx.app, 'POST', '/api/signals', { key: ctx.operatorKey, body: { signals } });
    assert.equal(res.statusCode, 202, res.body);
    await ctx.app.services.engine.tick();
    clock.advance(31_000);
  }
  const mine = async () => {
    const res = await call(ctx.app, 'GET', '/api/intelligence/recommendations?status=all', { key: dana.key });
    assert.equal(res.statusCode, 200, res.body);
    return res.data.recommendations as Json[];
  };
  const of = (recs: Json[], type: string) => recs.filter((r) => r.type === type);

  before(async () => {
    ctx = await buildTestApp({ clock });
    dana = await createUser(ctx, 'enterprise');
    await call(ctx.app, 'POST', '/api/user/interests', { key: dana.key, body: { keyword: 'nova lights' } });
    // 10 an hour for two days; 40 in the current hour.
    const signals = series('nova lights', 48, (k) => (k === 0 ? 40 : 10), '', 40);
    for (let i = 0; i < signals.length; i += 1000) {
      const res = await call(ctx.app, 'POST', '/api/signals', {
        key: ctx.operatorKey,
        body: { signals: signals.slice(i, i + 1000) },
      });
      assert.equal(res.statusCode, 202, res.body);
    }
    await ctx.app.services.engine.tick();
  });
  after(() => ctx.close());

  it('velocity between 50 and 75 → one monitoring recommendation (low)', async () => {
    const recs = await mine();
    assert.deepEqual(
      recs.map((r) => [r.type, r.priority]),
      [['monitoring', 'low']],
    );
    const score = recs[0]!.decision_brief.evidence.find((e: Json) => e.metric === 'velocity_score').value;
    assert.ok(score >= 50 && score < 75, String(score));
  });

  it('crossing 75 → content_idea (medium); the monitoring one lapses', async () => {
    await ingest(series('nova lights', 0, () => 30, 'b', 40));
    const recs = await mine();
    const [content] = of(recs, 'content_idea');
    assert.ok(content, JSON.stringify(recs.map((r) => r.type)));
    assert.equal(content.priority, 'medium');
    assert.equal(content.status, 'new');
    const [watch] = of(recs, 'monitoring');
    assert.equal(watch.decision_brief.data_quality.status, 'lapsed');
    assert.equal(watch.decision_brief.actionable, false);
  });

  it('dismissed, it stays dismissed while the trigger is the same; crossing 90 brings it back as new (high)', async () => {
    const [content] = of(await mine(), 'content_idea');
    const dismissed = await call(ctx.app, 'POST', `/api/intelligence/recommendations/${content.id}/action`, {
      key: dana.key,
      body: { action: 'dismissed' },
    });
    assert.equal(dismissed.data.status, 'dismissed');
    // More mentions, same level: refreshed, still dismissed, not in the default (new) list.
    await ingest(series('nova lights', 0, () => 5, 'c', 40));
    const same = of(await mine(), 'content_idea')[0]!;
    assert.equal(same.status, 'dismissed');
    assert.equal(same.priority, 'medium');
    const defaults = await call(ctx.app, 'GET', '/api/intelligence/recommendations', { key: dana.key });
    assert.ok(defaults.data.recommendations.every((r: Json) => r.id !== content.id));
    // Past 90.
    await ingest(series('nova lights', 0, () => 50, 'd', 40));
    const back = of(await mine(), 'content_idea')[0]!;
    assert.equal(back.id, content.id);
    assert.equal(back.status, 'new');
    assert.equal(back.priority, 'high');
    assert.ok(back.decision_brief.evidence.find((e: Json) => e.metric === 'velocity_score').value >= 90);
  });

  it('actioned while actionable → 200; the feedback is kept', async () => {
    const [content] = of(await mine(), 'content_idea');
    assert.equal(content.decision_brief.actionable, true);
    const done = await call(ctx.app, 'POST', `/api/intelligence/recommendations/${content.id}/action`, {
      key: dana.key,
      body: { action: 'actioned' },
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(done.data.status, 'actioned');
    const noted = await call(ctx.app, 'POST', `/api/intelligence/recommendations/${content.id}/action`, {
      key: dana.key,
      body: { feedback: 'Posted a short video.' },
    });
    assert.equal(noted.data.status, 'actioned');
    assert.equal(noted.data.user_feedback, 'Posted a short video.');
  });

  it('when the trend calms down its recommendations lapse, keeping their state', async () => {
    clock.advance(3 * HOUR);
    await ctx.app.services.engine.tick();
    clock.advance(31_000);
    const recs = await mine();
    const [content] = of(recs, 'content_idea');
    assert.equal(content.status, 'actioned');
    assert.equal(content.user_feedback, 'Posted a short video.');
    assert.equal(content.decision_brief.data_quality.status, 'lapsed');
    assert.equal(content.decision_brief.actionable, false);
    assert.equal(recs.length, 2);
  });
});
