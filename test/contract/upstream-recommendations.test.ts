// TrendsAGI's SDK 0.10.0 against the recommendation routes: the recommendation models of `models.py` added to
// the checker's MODELS, and the requests `get_recommendations` and `perform_recommendation_action` send
// (client.py, as its own tests pin them), replayed with the SDK's headers and held against those models.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.ts';
import { buildTestApp, call, createUser, type Json, type TestContext } from '../helpers/app.ts';
import { posts } from '../modules/crisis/posts.ts';
import { checkModel, MODELS } from './upstream-models.ts';

Object.assign(MODELS, {
  RecommendationEvidence: {
    metric: 'str',
    label: 'str',
    // `value: Any` is required but accepts null; presence is checked below.
    value: 'any?',
    unit: 'str?',
    interpretation: 'str?',
    source: 'str',
    source_url: 'str?',
    observed_at: 'datetime?',
  },
  RecommendationConfidence: {
    score: 'int',
    level: 'str',
    method: 'str',
    reasons: 'list<str>=',
    missing_signals: 'list<str>=',
  },
  RecommendationExpectedBenefit: { outcome: 'str', basis: 'str', measurement: 'str' },
  RecommendationUrgency: { level: 'str', window: 'str', reason: 'str' },
  RecommendationDataQuality: {
    status: 'str',
    freshness: 'str',
    snapshot_at: 'datetime?',
    evidence_count: 'int',
    missing_signals: 'list<str>=',
  },
  RecommendationDecisionBrief: {
    why_now: 'str',
    evidence: 'list<RecommendationEvidence>=',
    confidence: 'RecommendationConfidence',
    expected_benefit: 'RecommendationExpectedBenefit',
    urgency: 'RecommendationUrgency',
    next_steps: 'list<str>=',
    data_quality: 'RecommendationDataQuality',
    actionable: 'bool',
  },
  Recommendation: {
    id: 'int',
    user_id: 'int',
    type: 'str',
    title: 'str',
    details: 'str',
    source_trend_id: 'str|int?',
    source_trend_name: 'str?',
    priority: 'str',
    status: 'str',
    created_at: 'datetime',
    updated_at: 'datetime',
    user_feedback: 'str?',
    decision_brief: 'RecommendationDecisionBrief?',
  },
  RecommendationListResponse: { recommendations: 'list<Recommendation>', meta: 'PaginationMeta' },
});

/** The Field(ge=…, le=…) bounds and the Any field the checker does not express. */
function bounds(rec: Json): void {
  const brief = rec.decision_brief;
  assert.ok(brief.confidence.score >= 0 && brief.confidence.score <= 100);
  assert.ok(brief.data_quality.evidence_count >= 0);
  for (const e of brief.evidence) assert.ok('value' in e, JSON.stringify(e));
}

const SDK_HEADERS = {
  'user-agent': 'python-requests/2.32.3',
  'accept-encoding': 'gzip, deflate',
  accept: 'application/json',
  connection: 'keep-alive',
  'content-type': 'application/json',
};
const MIN = 60_000;
const NOW = Date.parse('2026-11-21T10:59:00Z');
const CURRENT_HOUR = Date.parse('2026-11-21T10:00:00Z');

describe('the SDK’s recommendation requests, replayed', () => {
  let ctx: TestContext;
  const clock = new ManualClock(NOW);
  let user: { userId: number; key: string };

  async function sdk(
    method: 'GET' | 'POST',
    path: string,
    params?: Record<string, string | number>,
    json?: unknown,
  ) {
    const query = params
      ? `?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`
      : '';
    const res = await ctx.app.inject({
      method,
      url: `${path}${query}`,
      headers: { ...SDK_HEADERS, 'x-api-key': user.key },
      // json.dumps with its default separators.
      ...(json !== undefined ? { payload: JSON.stringify(json).replace(/":/g, '": ') } : {}),
    });
    return { status: res.statusCode, body: res.body, data: JSON.parse(res.body) as Json };
  }
  function parses(res: { status: number; body: string; data: Json }, model: string) {
    assert.equal(res.status, 200, res.body.slice(0, 300));
    assert.deepEqual(checkModel(res.data, model), []);
  }

  before(async () => {
    ctx = await buildTestApp({ clock });
    user = await createUser(ctx, 'enterprise');
    for (const keyword of ['Aurora Borealis', 'Acme']) {
      await call(ctx.app, 'POST', '/api/user/interests', { key: user.key, body: { keyword } });
    }
    // A trend jumping from 10 an hour to 100, and a crisis about Acme: a content_idea and a pr_response.
    const signals: Record<string, unknown>[] = [];
    for (let k = 48; k >= 0; k--) {
      const n = k === 0 ? 100 : 10;
      for (let i = 0; i < n; i++) {
        signals.push({
          source: ['x', 'reddit'][i % 2],
          external_id: `aurora-${k}-${i}`,
          text: 'aurora borealis update',
          keywords: ['aurora borealis'],
          observed_at: new Date(
            k === 0 ? CURRENT_HOUR + Math.floor((i * 58 * MIN) / n) : CURRENT_HOUR - k * 3_600_000 + 30 * MIN,
          ).toISOString(),
        });
      }
    }
    signals.push(
      ...posts('Acme', 30, 'negative', 7).map((text, i) => ({
        source: ['reddit', 'x', 'bluesky'][i % 3],
        external_id: `acme-${i}`,
        text,
        author: `user${i}`,
        observed_at: new Date(NOW - 20 * MIN + i * 40_000).toISOString(),
      })),
    );
    for (let i = 0; i < signals.length; i += 1000) {
      const res = await call(ctx.app, 'POST', '/api/signals', {
        key: ctx.operatorKey,
        body: { signals: signals.slice(i, i + 1000) },
      });
      assert.equal(res.statusCode, 202, res.body);
    }
    await ctx.app.services.engine.tick();
    await ctx.app.services.engine.tick();
  });
  after(() => ctx.close());

  test('get_recommendations() with its defaults parses as RecommendationListResponse', async () => {
    const res = await sdk('GET', '/api/intelligence/recommendations', {
      limit: 10,
      offset: 0,
      status: 'new',
      match_user_interests: 'false',
      sort: 'priority',
    });
    parses(res, 'RecommendationListResponse');
    const types = res.data.recommendations.map((r: Json) => r.type).sort();
    assert.ok(types.includes('content_idea') && types.includes('pr_response'), types.join());
    for (const rec of res.data.recommendations) {
      assert.deepEqual(checkModel(rec.decision_brief, 'RecommendationDecisionBrief'), []);
      bounds(rec);
    }
    assert.equal(res.data.meta.limit, 10);
  });

  test('get_recommendations(limit=250, …every filter…) as the SDK serialises it', async () => {
    const res = await sdk('GET', '/api/intelligence/recommendations', {
      limit: 100,
      offset: 0,
      type: 'pr_response',
      sourceTrendQ: 'acme',
      priority: 'all',
      status: 'all',
      match_user_interests: 'true',
      sort: 'newest',
    });
    parses(res, 'RecommendationListResponse');
    assert.equal(res.data.recommendations.length, 1);
    assert.equal(res.data.recommendations[0].type, 'pr_response');
    // A client that does not cap: upstream caps at 100.
    const raw = await sdk('GET', '/api/intelligence/recommendations', { limit: 250 });
    parses(raw, 'RecommendationListResponse');
    assert.equal(raw.data.meta.limit, 100);
  });

  test('perform_recommendation_action(action=…) and (feedback=…) parse as Recommendation', async () => {
    const list = await sdk('GET', '/api/intelligence/recommendations', {
      limit: 10,
      offset: 0,
      status: 'new',
    });
    const id = list.data.recommendations[0].id;
    const viewed = await sdk('POST', `/api/intelligence/recommendations/${id}/action`, undefined, {
      action: 'viewed',
    });
    parses(viewed, 'Recommendation');
    bounds(viewed.data);
    assert.equal(viewed.data.status, 'viewed');
    const noted = await sdk('POST', `/api/intelligence/recommendations/${id}/action`, undefined, {
      feedback: 'Shared with the team.',
    });
    parses(noted, 'Recommendation');
    assert.equal(noted.data.user_feedback, 'Shared with the team.');
    // What the SDK turns into ConflictError: a 409 problem.
    clock.advance(7 * 3_600_000);
    const refused = await sdk('POST', `/api/intelligence/recommendations/${id}/action`, undefined, {
      action: 'actioned',
    });
    assert.equal(refused.status, 409, refused.body);
    assert.equal(refused.data.code, 'recommendation_not_actionable');
  });
});
