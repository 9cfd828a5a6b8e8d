// The two routes over known rows: every filter, both sorts, pagination, the action and feedback rules, each
// error status, permissions and the tenant wall.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BriefParts } from '../../../src/modules/recommendations/brief.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');

const PARTS: BriefParts = {
  why_now: 'A stored recommendation.',
  evidence: [
    {
      metric: 'volume',
      label: 'Mentions in the last 24 hours',
      value: 120,
      unit: 'mentions',
      interpretation: null,
      source: 'crestwatch',
      source_url: 'http://localhost:3000/api/trends/1',
      observed_at: new Date(NOW - 60_000).toISOString(),
    },
  ],
  checks: [{ signal: 'velocity', weight: 85, present: true, reason: 'Velocity measured.' }],
  freshness_weight: 15,
  expected_benefit: { outcome: 'o', basis: 'b', measurement: 'm' },
  urgency: { level: 'act_now', window: 'Next 24 hours', reason: 'r' },
  next_steps: ['Do it.'],
  snapshot_at: new Date(NOW - 60_000).toISOString(),
  blockers: [],
};

/** Carol's rows: [type, priority, status, source name], created one second apart (last = newest). */
const ROWS = [
  ['content_idea', 'high', 'new', 'Aurora Borealis'],
  ['pr_response', 'critical', 'new', 'Acme'],
  ['monitoring', 'low', 'viewed', 'Quantum Widget'],
  ['seo_optimization', 'medium', 'dismissed', 'Zenith Phone'],
  ['crm_strategy', 'medium', 'actioned', 'Acme Cloud'],
  ['marketing_angle', 'high', 'new', 'Aurora Tours'],
] as const;
const RANK = { low: 1, medium: 2, high: 3, critical: 4 } as const;

describe('recommendation routes', () => {
  let ctx: TestContext;
  const clock = new ManualClock(NOW);
  let carol: { userId: number; key: string };
  let alice: { userId: number; key: string };
  let readOnly: { userId: number; key: string };
  let writeOnly: { userId: number; key: string };
  const ids: number[] = [];

  before(async () => {
    ctx = await buildTestApp({ clock });
    carol = await createUser(ctx, 'enterprise');
    alice = await createUser(ctx, 'enterprise');
    readOnly = await createUser(ctx, 'enterprise', ['read']);
    writeOnly = await createUser(ctx, 'enterprise', ['write']);
    const interest = await call(ctx.app, 'POST', '/api/user/interests', {
      key: carol.key,
      body: { keyword: 'Acme' },
    });
    assert.equal(interest.statusCode, 201, interest.body);
    for (const [i, [type, priority, status, name]] of ROWS.entries()) {
      const row = await ctx.app.services.db
        .insertInto('recommendations')
        .values({
          user_id: carol.userId,
          type,
          source_key: `trend:${100 + i}`,
          source_trend_id: String(100 + i),
          source_trend_name: name,
          source_words: ` ${name.toLowerCase()} `,
          title: `About ${name}`,
          details: `Details about ${name}.`,
          priority,
          priority_rank: RANK[priority],
          status,
          user_feedback: null,
          brief: JSON.stringify(PARTS),
          fingerprint: 'f'.repeat(64),
          trigger_level: 75,
          acted_level: status === 'dismissed' || status === 'actioned' ? 75 : null,
          fresh_until: NOW + 3_600_000,
          lapsed_at: null,
          created_at: NOW - (ROWS.length - i) * 1000,
          updated_at: NOW - (ROWS.length - i) * 1000,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
  });
  after(() => ctx.close());

  const get = (query: string, key = carol.key) =>
    call(ctx.app, 'GET', `/api/intelligence/recommendations${query ? `?${query}` : ''}`, { key });
  /** The row indexes (into ROWS) a query answers, in order. */
  const answer = async (query: string) => {
    const res = await get(query);
    assert.equal(res.statusCode, 200, res.body);
    return (res.data.recommendations as Json[]).map((r) => ids.indexOf(r.id));
  };
  const act = (id: number, body: unknown, key = carol.key) =>
    call(ctx.app, 'POST', `/api/intelligence/recommendations/${id}/action`, { key, body });

  test('default: status new, by priority (critical first, then newest), in upstream’s shape', async () => {
    const res = await get('');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      res.data.recommendations.map((r: Json) => ids.indexOf(r.id)),
      [1, 5, 0],
    );
    assert.deepEqual(res.data.meta, {
      total: 3,
      limit: 20,
      offset: 0,
      sort_by: 'priority',
      order: 'desc',
      search: null,
      type: 'all',
      sourceTrendQ: null,
      priority: 'all',
      status: 'new',
      match_user_interests: false,
    });
    const rec = res.data.recommendations[2];
    assert.deepEqual(Object.keys(rec).sort(), [
      'created_at',
      'decision_brief',
      'details',
      'id',
      'priority',
      'source_trend_id',
      'source_trend_name',
      'status',
      'title',
      'type',
      'updated_at',
      'user_feedback',
      'user_id',
    ]);
    assert.equal(rec.user_id, carol.userId);
    assert.equal(rec.source_trend_id, '100');
    assert.equal(rec.created_at, new Date(NOW - 6000).toISOString());
    assert.deepEqual(rec.decision_brief.evidence, PARTS.evidence);
    assert.equal(rec.decision_brief.confidence.method, 'evidence_completeness_v1');
  });

  test('status filter and all', async () => {
    assert.deepEqual(await answer('status=viewed'), [2]);
    assert.deepEqual(await answer('status=dismissed'), [3]);
    assert.deepEqual(await answer('status=actioned'), [4]);
    assert.deepEqual(await answer('status=new'), [1, 5, 0]);
    assert.deepEqual(await answer('status=all'), [1, 5, 0, 4, 3, 2]);
  });

  test('sort=newest orders by creation, newest first', async () => {
    assert.deepEqual(await answer('status=all&sort=newest'), [5, 4, 3, 2, 1, 0]);
    assert.deepEqual(await answer('status=all&sort=priority'), [1, 5, 0, 4, 3, 2]);
  });

  test('type filter, each type and all', async () => {
    for (const [i, [type]] of ROWS.entries())
      assert.deepEqual(await answer(`status=all&type=${type}`), [i], type);
    assert.deepEqual(await answer('status=all&type=other'), []);
    assert.deepEqual(await answer('status=all&type=influencer_collab'), []);
    assert.equal((await answer('status=all&type=all')).length, 6);
  });

  test('priority filter', async () => {
    assert.deepEqual(await answer('status=all&priority=critical'), [1]);
    assert.deepEqual(await answer('status=all&priority=high'), [5, 0]);
    assert.deepEqual(await answer('status=all&priority=medium'), [4, 3]);
    assert.deepEqual(await answer('status=all&priority=low'), [2]);
    assert.equal((await answer('status=all&priority=all')).length, 6);
  });

  test('sourceTrendQ: case-insensitive substring of the source name, wildcards literal, blank ignored', async () => {
    assert.deepEqual(await answer('status=all&sourceTrendQ=aurora'), [5, 0]);
    assert.deepEqual(await answer('status=all&sourceTrendQ=AURORA%20TOURS'), [5]);
    assert.deepEqual(await answer('status=all&sourceTrendQ=%25'), []);
    assert.deepEqual(await answer('status=all&sourceTrendQ=_'), []);
    assert.equal((await answer('status=all&sourceTrendQ=%20%20')).length, 6);
    const res = await get('status=all&sourceTrendQ=acme');
    assert.equal(res.data.meta.sourceTrendQ, 'acme');
    assert.equal(res.data.meta.search, 'acme');
    assertProblem(await get(`sourceTrendQ=${'x'.repeat(101)}`), 400);
    assert.equal((await get(`sourceTrendQ=${'x'.repeat(100)}`)).statusCode, 200);
  });

  test('match_user_interests: only sources matching an active interest as whole words', async () => {
    assert.deepEqual(await answer('status=all&match_user_interests=true'), [1, 4]);
    assert.equal((await answer('status=all&match_user_interests=false')).length, 6);
    // Without interests nothing matches.
    const res = await get('status=all&match_user_interests=true', alice.key);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.data.recommendations, []);
    assert.equal(res.data.meta.total, 0);
    assert.equal(res.data.meta.match_user_interests, true);
  });

  test('pagination: limit, offset, total; limit above 100 is capped at 100', async () => {
    const page = await get('status=all&sort=newest&limit=2&offset=2');
    assert.deepEqual(
      page.data.recommendations.map((r: Json) => ids.indexOf(r.id)),
      [3, 2],
    );
    assert.deepEqual([page.data.meta.total, page.data.meta.limit, page.data.meta.offset], [6, 2, 2]);
    assert.deepEqual(await answer('status=all&sort=newest&limit=2&offset=6'), []);
    const capped = await get('status=all&limit=250');
    assert.equal(capped.statusCode, 200);
    assert.equal(capped.data.meta.limit, 100);
    assert.equal(capped.data.recommendations.length, 6);
    for (const bad of ['limit=0', 'limit=-1', 'limit=ten', 'offset=-1', 'offset=1.5'])
      assertProblem(await get(bad), 400);
  });

  test('invalid and unknown parameters → 400 naming them', async () => {
    for (const [query, path] of [
      ['type=launch', 'query.type'],
      ['priority=urgent', 'query.priority'],
      ['status=open', 'query.status'],
      ['sort=popular', 'query.sort'],
      ['match_user_interests=maybe', 'query.match_user_interests'],
      ['foo=1', 'query.foo'],
      ['source_trend_query=x', 'query.source_trend_query'],
    ]) {
      const res = await get(query!);
      assertProblem(res, 400);
      assert.ok(
        res.data.errors.some((e: Json) => e.path === path),
        `${query}: ${JSON.stringify(res.data.errors)}`,
      );
      assert.ok(res.data.detail.length > 0);
    }
  });

  test('auth: no key → 401, a key without read → 403, a key without write → 403 on the action', async () => {
    assertProblem(await call(ctx.app, 'GET', '/api/intelligence/recommendations'), 401);
    assertProblem(await act(ids[0]!, { action: 'viewed' }, 'cw_notakey'), 401);
    assertProblem(await get('', writeOnly.key), 403);
    assertProblem(await act(ids[0]!, { action: 'viewed' }, readOnly.key), 403);
    assert.equal((await get('', readOnly.key)).statusCode, 200);
  });

  test('the tenant wall: nobody else sees or changes Carol’s recommendations (404)', async () => {
    const res = await get('status=all', alice.key);
    assert.deepEqual(res.data.recommendations, []);
    for (const id of ids) assertProblem(await act(id, { action: 'dismissed' }, alice.key), 404);
    assertProblem(await act(ids[0]!, { feedback: 'mine now' }, alice.key), 404);
    assertProblem(await act(999_999, { action: 'viewed' }), 404);
    const untouched = await ctx.app.services.db
      .selectFrom('recommendations')
      .select(['status', 'user_feedback'])
      .where('id', '=', ids[0]!)
      .executeTakeFirstOrThrow();
    assert.deepEqual(untouched, { status: 'new', user_feedback: null });
  });

  test('action: viewed, dismissed and new change the state; the answer is the recommendation', async () => {
    clock.advance(1000);
    const viewed = await act(ids[5]!, { action: 'viewed' });
    assert.equal(viewed.statusCode, 200, viewed.body);
    assert.equal(viewed.data.id, ids[5]);
    assert.equal(viewed.data.status, 'viewed');
    assert.equal(viewed.data.updated_at, new Date(clock.now()).toISOString());
    assert.ok(viewed.data.decision_brief);
    assert.deepEqual(await answer('status=viewed&sort=newest'), [5, 2]);
    assert.equal((await act(ids[5]!, { action: 'dismissed' })).data.status, 'dismissed');
    assert.equal((await act(ids[5]!, { action: 'new' })).data.status, 'new');
  });

  test('feedback: stored (trimmed) without changing the state; at most 500 characters', async () => {
    const res = await act(ids[0]!, { feedback: '  Published a thread about it.  ' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.user_feedback, 'Published a thread about it.');
    assert.equal(res.data.status, 'new');
    assert.equal((await act(ids[0]!, { feedback: 'x'.repeat(500) })).statusCode, 200);
    const long = await act(ids[0]!, { feedback: 'x'.repeat(501) });
    assertProblem(long, 400);
    assert.equal(long.data.errors[0].path, 'body.feedback');
  });

  test('exactly one of action or feedback; unknown fields and values → 400', async () => {
    const id = ids[0]!;
    const both = await act(id, { action: 'viewed', feedback: 'and a note' });
    assertProblem(both, 400);
    assert.match(both.data.detail, /either action or feedback/);
    const neither = await act(id, {});
    assertProblem(neither, 400);
    assert.equal(neither.data.errors[0].path, 'body.action');
    assertProblem(await act(id, { feedback: '   ' }), 400);
    assertProblem(
      await call(ctx.app, 'POST', `/api/intelligence/recommendations/${id}/action`, { key: carol.key }),
      400,
    );
    assertProblem(await act(id, { action: 'launched' }), 400);
    assertProblem(await act(id, { action: 'completed', feedback: 'x' }), 400);
    assertProblem(await act(id, { action: 'viewed', extra: true }), 400);
    assertProblem(await act(id, { feedback: 5 }), 400);
    for (const bad of ['0', 'abc', '-1', '1.5']) {
      assertProblem(
        await call(ctx.app, 'POST', `/api/intelligence/recommendations/${bad}/action`, {
          key: carol.key,
          body: { action: 'viewed' },
        }),
        400,
      );
    }
  });

  test('actioned is refused with 409 while the brief is not actionable (these rows’ trigger lapsed)', async () => {
    // No rule fires for Carol (no matching trends or events): her stored rows lapsed on the first read.
    const [rec] = (await get('status=all&type=content_idea')).data.recommendations;
    assert.equal(rec.decision_brief.actionable, false);
    assert.equal(rec.decision_brief.data_quality.status, 'lapsed');
    assert.ok(rec.decision_brief.confidence.missing_signals.includes('current_trigger'));
    const refused = await act(rec.id, { action: 'actioned' });
    assertProblem(refused, 409);
    assert.equal(refused.data.code, 'recommendation_not_actionable');
    assert.match(refused.data.detail, /trigger no longer holds/);
    assert.equal((await get('status=all&type=content_idea')).data.recommendations[0].status, rec.status);
  });
});
