import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import type { InsightLike } from '../../../src/modules/integrations/ads/service.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { assertProblem, call, createUser } from '../../helpers/app.ts';
import {
  buildLoggedApp,
  connect,
  type IntegrationTestContext,
  leaks,
  metaStandIn,
  providerEnv,
  SOCIAL,
} from './stand-ins.ts';

let meta: Awaited<ReturnType<typeof metaStandIn>>;
let ctx: IntegrationTestContext;
const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
const bodies: string[] = [];
let trendId: number;
let insight: InsightLike | null;
let crisisEvent: { id: number; title: string; severity: string } | null = null;
/** The preview reads the real insights module instead of the stand-in. */
let realInsights = false;

async function req(...args: Parameters<typeof call>) {
  const res = await call(...args);
  bodies.push(res.body);
  return res;
}

const SAFE_INSIGHT: InsightLike = {
  audience_injection: {
    interest_keywords: ['AI', 'machine learning', 'nothing-matches'],
    negative_keywords: ['scam'],
    platform_payloads: { social_ads: { interests: ['chatbots'] } },
  },
  brand_safety: { level: 'safe', flags: [] },
};

async function readySelection(strict = true) {
  const user = await createUser(ctx);
  await connect(ctx.app, user.key, '/api/integrations/ads/social_ads/auth');
  const sel = await req(ctx.app, 'PUT', '/api/integrations/ads/social_ads/selection', {
    key: user.key,
    body: {
      ad_account_id: 'act_123',
      ad_set_ids: ['2385', '2386'],
      trend_category: 'technology',
      strict_safety: strict,
    },
  });
  assert.equal(sel.statusCode, 200, sel.body);
  return user;
}

before(async () => {
  meta = await metaStandIn();
  // Stand-ins for the insights module and the crisis gate, read by the preview.
  ctx = await buildLoggedApp(providerEnv(undefined, undefined, meta), clock, {
    insights: {
      latestFor: async (userId, id) =>
        realInsights ? ctx.app.services.insights.latestFor(userId, id) : id === trendId ? insight : null,
      offlineInsight: async (id) => (realInsights ? ctx.app.services.insights.offlineInsight(id) : null),
    },
    crisisGate: { blockingEventFor: async () => crisisEvent },
  });
  const now = clock.now();
  const row = await ctx.app.services.db
    .insertInto('trends')
    .values({
      key: 'openai agents',
      title: 'OpenAI agents',
      type: 'keyword',
      category: 'Technology/AI',
      first_seen_at: now,
      last_seen_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  trendId = Number(row.id);
});

beforeEach(() => {
  insight = structuredClone(SAFE_INSIGHT);
  crisisEvent = null;
  meta.state.failUpdate = null;
});

after(async () => {
  await ctx?.close();
  await meta?.close();
});

test('ads flow: providers → auth → browser authorization → selection → preview → apply → rollback', async () => {
  const user = await createUser(ctx);
  const providers = await req(ctx.app, 'GET', '/api/integrations/ads/providers', { key: user.key });
  assert.equal(providers.statusCode, 200);
  assert.equal(providers.data.providers[0].id, 'social_ads');
  assert.equal(providers.data.providers[0].connected, false);
  assert.ok(providers.data.providers[0].capabilities.includes('targeting_apply'));

  const { auth, page, done } = await connect(ctx.app, user.key, '/api/integrations/ads/social_ads/auth');
  bodies.push(auth.body, done.body);
  const url = new URL(auth.data.authorization_url);
  assert.equal(url.pathname, '/v21.0/dialog/oauth');
  assert.equal(
    url.searchParams.get('redirect_uri'),
    'http://crestwatch.test/api/integrations/ads/social_ads/callback',
  );
  assert.ok(page.body.includes(user.email));
  assert.equal(done.statusCode, 200, done.body);
  assert.ok(done.body.includes('Ana Advertiser'));
  assert.equal(
    (await req(ctx.app, 'GET', '/api/integrations/ads/providers', { key: user.key })).data.providers[0]
      .connected,
    true,
  );

  const selection = {
    ad_account_id: 'act_123',
    ad_set_ids: ['2385', '2386'],
    trend_category: 'technology',
    strict_safety: true,
  };
  const sel = await req(ctx.app, 'PUT', '/api/integrations/ads/social_ads/selection', {
    key: user.key,
    body: selection,
  });
  assert.equal(sel.statusCode, 200, sel.body);
  assert.equal(sel.data.trend_category, 'Technology');

  const before2385 = structuredClone(meta.state.adSets.get('2385'));
  const before2386 = structuredClone(meta.state.adSets.get('2386'));
  const preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: user.key,
    body: { trend_id: trendId },
  });
  assert.equal(preview.statusCode, 200, preview.body);
  assert.equal(preview.data.blocked, false, JSON.stringify(preview.data.blocked_reasons));
  assert.deepEqual(preview.data.blocked_reasons, []);
  assert.equal(preview.data.trend_id, trendId);
  assert.equal(preview.data.expires_at, '2026-11-21T10:30:00.000Z');
  const [c1, c2] = preview.data.changes;
  assert.deepEqual(c1.before, before2385);
  assert.deepEqual(c1.after.flexible_spec, [
    {
      interests: [
        { id: '6003', name: 'Artificial intelligence' },
        { id: '6004', name: 'Machine learning' },
        { id: '6005', name: 'Chatbot' },
      ],
    },
  ]);
  assert.deepEqual(c1.after.geo_locations, { countries: ['US'] });
  assert.deepEqual(c1.after.exclusions, { interests: [{ id: '6007', name: 'Fraud' }] });
  assert.deepEqual(c2.after.exclusions, {
    interests: [
      { id: '9', name: 'Gambling' },
      { id: '6007', name: 'Fraud' },
    ],
  });
  assert.equal(meta.state.updates.length, 0, 'a preview changes nothing');

  const apply = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/apply', {
    key: user.key,
    body: { preview_id: preview.data.preview_id },
  });
  assert.equal(apply.statusCode, 200, apply.body);
  assert.equal(apply.data.status, 'applied');
  assert.deepEqual(meta.state.adSets.get('2385'), c1.after, 'applied targeting equals the preview’s after');
  assert.deepEqual(meta.state.adSets.get('2386'), c2.after);
  assert.equal(meta.state.updates.length, 2);

  const again = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/apply', {
    key: user.key,
    body: { preview_id: preview.data.preview_id },
  });
  assert.deepEqual(again.data, apply.data, 'a repeat returns the first result');
  assert.equal(meta.state.updates.length, 2, 'and writes nothing');

  const rollback = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/rollback', {
    key: user.key,
    body: { apply_id: apply.data.apply_id },
  });
  assert.equal(rollback.statusCode, 200, rollback.body);
  assert.equal(rollback.data.status, 'rolled_back');
  assert.deepEqual(meta.state.adSets.get('2385'), before2385, 'rollback restores before');
  assert.deepEqual(meta.state.adSets.get('2386'), before2386);

  const audit = await req(ctx.app, 'GET', '/api/user/audit-log', { key: user.key });
  const actions = audit.data.entries.map((e: { action: string }) => e.action);
  for (const action of ['integration.connected', 'ads.applied', 'ads.rolled_back'])
    assert.ok(actions.includes(action), action);
  // Every Graph call carried a valid appsecret_proof: the stand-in refuses any call without one.
});

test('preview is blocked by brand safety under strict_safety, by a crisis, and outside the category', async () => {
  const user = await readySelection(true);
  insight = { ...SAFE_INSIGHT, brand_safety: { level: 'caution', flags: ['violence'] } };
  let preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: user.key,
    body: { trend_id: trendId },
  });
  assert.equal(preview.data.blocked, true);
  assert.match(preview.data.blocked_reasons.join(' '), /caution \(violence\)/);
  const blockedApply = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/apply', {
    key: user.key,
    body: { preview_id: preview.data.preview_id },
  });
  assertProblem(blockedApply, 409);
  assert.equal(blockedApply.data.code, 'preview_blocked');

  const lax = await readySelection(false);
  preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: lax.key,
    body: { trend_id: trendId },
  });
  assert.equal(preview.data.blocked, false, 'without strict_safety a caution trend is allowed');

  insight = structuredClone(SAFE_INSIGHT);
  crisisEvent = { id: 41, title: 'OpenAI outage', severity: 'high' };
  preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: lax.key,
    body: { trend_id: trendId },
  });
  assert.equal(preview.data.blocked, true);
  assert.match(preview.data.blocked_reasons[0], /Crisis event 41/);

  crisisEvent = null;
  await req(ctx.app, 'PUT', '/api/integrations/ads/social_ads/selection', {
    key: lax.key,
    body: { ad_account_id: 'act_123', ad_set_ids: ['2385'], trend_category: 'Sports', strict_safety: false },
  });
  preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: lax.key,
    body: { trend_id: trendId },
  });
  assert.equal(preview.data.blocked, true);
  assert.match(preview.data.blocked_reasons[0], /outside the selected category/);

  insight = null;
  preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: user.key,
    body: { trend_id: trendId },
  });
  assert.equal(preview.data.blocked, true);
});

test('apply refuses an expired preview, and a preview whose ad sets changed since (nothing written)', async () => {
  const user = await readySelection();
  let preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: user.key,
    body: { trend_id: trendId },
  });
  clock.advance(30 * 60_000);
  const expired = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/apply', {
    key: user.key,
    body: { preview_id: preview.data.preview_id },
  });
  assertProblem(expired, 409);
  assert.equal(expired.data.code, 'preview_expired');

  preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: user.key,
    body: { trend_id: trendId },
  });
  meta.state.adSets.set('2386', { geo_locations: { countries: ['FR'] } });
  const updates = meta.state.updates.length;
  const changed = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/apply', {
    key: user.key,
    body: { preview_id: preview.data.preview_id },
  });
  assertProblem(changed, 409);
  assert.equal(changed.data.code, 'targeting_changed');
  assert.equal(meta.state.updates.length, updates);

  // A provider refusal during apply: 400 with Graph's message, the ad sets written so far are restored.
  preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: user.key,
    body: { trend_id: trendId },
  });
  meta.state.failUpdate = {
    status: 400,
    body: { error: { message: 'Invalid parameter', type: 'OAuthException', code: 100, fbtrace_id: 'x' } },
  };
  const refused = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/apply', {
    key: user.key,
    body: { preview_id: preview.data.preview_id },
  });
  assertProblem(refused, 400);
  assert.match(refused.data.detail, /Invalid parameter/);
  meta.state.failUpdate = null;
  const retried = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/apply', {
    key: user.key,
    body: { preview_id: preview.data.preview_id },
  });
  assert.equal(retried.statusCode, 200, 'after a failed apply the same preview can be applied');
});

test('provider errors: refusal → 400 with the Graph message, unreachable → 503, revoked token → broken', async () => {
  const user = await readySelection();
  await req(ctx.app, 'PUT', '/api/integrations/ads/social_ads/selection', {
    key: user.key,
    body: {
      ad_account_id: 'act_123',
      ad_set_ids: ['999'],
      trend_category: 'Technology/AI',
      strict_safety: true,
    },
  });
  const refused = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: user.key,
    body: { trend_id: trendId },
  });
  assertProblem(refused, 400);
  assert.match(refused.data.detail, /Object with ID '999' does not exist/);
  assertProblem(
    await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
      key: user.key,
      body: { trend_id: 99999 },
    }),
    404,
  );

  meta.state.tokens.clear();
  const revoked = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: user.key,
    body: { trend_id: trendId },
  });
  assertProblem(revoked, 400);
  assert.equal(revoked.data.code, 'integration_broken');
  assert.equal(
    (await req(ctx.app, 'GET', '/api/integrations/ads/providers', { key: user.key })).data.providers[0]
      .connected,
    false,
  );

  const down = await buildLoggedApp(
    { ...providerEnv(undefined, undefined, meta), SOCIAL_ADS_API_BASE_URL: 'http://127.0.0.1:9' },
    clock,
  );
  try {
    const u = await createUser(down);
    const auth = await call(down.app, 'GET', '/api/integrations/ads/social_ads/auth', { key: u.key });
    assert.equal(auth.statusCode, 200);
    const res = await fetch(auth.data.authorization_url, { redirect: 'manual' });
    const loc = new URL(String(res.headers.get('location')));
    const page = await down.app.inject({ method: 'GET', url: `${loc.pathname}${loc.search}` });
    const form = Object.fromEntries(
      [...page.body.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    const done = await down.app.inject({
      method: 'POST',
      url: loc.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
    assert.equal(done.statusCode, 503);
    assert.equal(JSON.parse(done.body).code, 'provider_unavailable');
  } finally {
    await down.close();
  }
});

test('ads routes: unknown platform 404, other users’ previews and applies 404, permissions, validation', async () => {
  const owner = await readySelection();
  const other = await createUser(ctx);
  assertProblem(await req(ctx.app, 'GET', '/api/integrations/ads/tiktok/auth', { key: other.key }), 404);
  assertProblem(await req(ctx.app, 'GET', '/api/integrations/ads/tiktok/callback?code=a&state=b'), 404);
  assertProblem(
    await req(ctx.app, 'PUT', '/api/integrations/ads/tiktok/selection', {
      key: other.key,
      body: { ad_account_id: 'a', ad_set_ids: ['1'], trend_category: 'Technology', strict_safety: true },
    }),
    404,
  );
  assertProblem(
    await req(ctx.app, 'PUT', '/api/integrations/ads/social_ads/selection', {
      key: owner.key,
      body: { ad_account_id: 'a', ad_set_ids: ['1'], trend_category: 'Nope/Nothing', strict_safety: true },
    }),
    400,
  );
  assertProblem(
    await req(ctx.app, 'PUT', '/api/integrations/ads/social_ads/selection', {
      key: owner.key,
      body: { ad_account_id: 'a', ad_set_ids: ['1'], trend_category: 'Technology', strict_safety: 'yes' },
    }),
    400,
  );
  const preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: owner.key,
    body: { trend_id: trendId },
  });
  assertProblem(
    await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/apply', {
      key: other.key,
      body: { preview_id: preview.data.preview_id },
    }),
    404,
  );
  const apply = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/apply', {
    key: owner.key,
    body: { preview_id: preview.data.preview_id },
  });
  assertProblem(
    await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/rollback', {
      key: other.key,
      body: { apply_id: apply.data.apply_id },
    }),
    404,
  );
  assertProblem(
    await req(ctx.app, 'POST', '/api/integrations/ads/tiktok/rollback', {
      key: owner.key,
      body: { apply_id: apply.data.apply_id },
    }),
    404,
  );
  const notConnected = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
    key: other.key,
    body: { trend_id: trendId },
  });
  assertProblem(notConnected, 409);
  const reader = await createUser(ctx, 'developer', ['read']);
  assertProblem(
    await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
      key: reader.key,
      body: { trend_id: trendId },
    }),
    403,
  );
  assertProblem(await req(ctx.app, 'GET', '/api/integrations/ads/providers'), 401);
  assertProblem(
    await req(ctx.app, 'DELETE', '/api/integrations/ads/social_ads/connection', { key: other.key }),
    404,
  );

  const deleted = meta.state.permissionsDeleted;
  assert.equal(
    (await req(ctx.app, 'DELETE', '/api/integrations/ads/social_ads/connection', { key: owner.key }))
      .statusCode,
    204,
  );
  assert.equal(meta.state.permissionsDeleted, deleted + 1);
});

test('with the real insights module the preview reads the offline insight of the trend', async () => {
  realInsights = true;
  try {
    const user = await readySelection(false);
    const preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
      key: user.key,
      body: { trend_id: trendId },
    });
    assert.equal(preview.statusCode, 200, preview.body);
    assert.ok(!preview.data.blocked_reasons.some((r: string) => r.includes('no insight')), preview.body);
    assert.equal(preview.data.changes.length, 2);
  } finally {
    realInsights = false;
  }
});

test('callback routes are in the OpenAPI document as public HTML pages', async () => {
  const doc = await req(ctx.app, 'GET', '/api/openapi.json');
  for (const path of [
    '/api/integrations/chat/callback',
    '/api/integrations/forum-ads/callback',
    '/api/integrations/ads/{platform}/callback',
  ]) {
    const item = doc.data.paths[path];
    assert.ok(item?.get && item?.post, path);
    assert.deepEqual(item.get.security, []);
    assert.ok(item.get.responses['200'].content['text/html'], path);
    assert.ok(item.post.requestBody.content['application/x-www-form-urlencoded'], path);
  }
});

async function storedConnection(userId: number) {
  return ctx.app.services.db
    .selectFrom('integration_connections')
    .select(['status', 'token_expires_at'])
    .where('user_id', '=', userId)
    .where('provider', '=', 'social_ads')
    .executeTakeFirstOrThrow();
}

test("the code's short-lived token is traded for a long-lived one, so the connection outlives the hour", async () => {
  const user = await readySelection();
  const stored = await storedConnection(user.userId);
  assert.equal(stored.status, 'active');
  // Meta's long-lived user tokens last about 60 days (expires_in 5,183,944 s).
  assert.equal(Number(stored.token_expires_at), clock.now() + 5_183_944_000);
  assert.ok(meta.state.longLived.length > 0);
  const started = clock.now();
  clock.advance(3 * 3_600_000); // the short-lived token would have expired
  try {
    const preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
      key: user.key,
      body: { trend_id: trendId },
    });
    assert.equal(preview.statusCode, 200, preview.body);
  } finally {
    clock.set(started);
  }
});

test('when Meta refuses the long-lived exchange the short-lived token is kept and expires as Meta said', async () => {
  meta.state.refuseLongLived = true;
  try {
    const user = await readySelection();
    const stored = await storedConnection(user.userId);
    assert.equal(stored.status, 'active');
    assert.equal(Number(stored.token_expires_at), clock.now() + 5_183_000);
    const started = clock.now();
    clock.advance(3 * 3_600_000);
    try {
      const preview = await req(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
        key: user.key,
        body: { trend_id: trendId },
      });
      assertProblem(preview, 409);
      assert.equal(preview.data.code, 'integration_broken');
      assert.equal((await storedConnection(user.userId)).status, 'broken');
    } finally {
      clock.set(started);
    }
  } finally {
    meta.state.refuseLongLived = false;
  }
});

test('no response body or log line carries a token or the app secret', () => {
  const secrets = [SOCIAL.secret, ...meta.state.issued];
  assert.ok(meta.state.issued.length > 3);
  assert.deepEqual(leaks(bodies.join('\n'), secrets), []);
  assert.deepEqual(leaks(ctx.logs.join('\n'), secrets), []);
});
