import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { FORUM_ADS_DELIVERY_JOB } from '../../../src/modules/integrations/forum-ads/service.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { type JobContext, RetryLaterError } from '../../../src/platform/jobs/worker.ts';
import { assertProblem, call, createUser } from '../../helpers/app.ts';
import {
  buildLoggedApp,
  connect,
  FORUM,
  type IntegrationTestContext,
  leaks,
  providerEnv,
  redditStandIn,
} from './stand-ins.ts';

let reddit: Awaited<ReturnType<typeof redditStandIn>>;
let ctx: IntegrationTestContext;
const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
const bodies: string[] = [];

async function req(...args: Parameters<typeof call>) {
  const res = await call(...args);
  bodies.push(res.body);
  return res;
}

/** Runs due delivery jobs by hand, as the worker would. */
async function runDeliveries(): Promise<string[]> {
  const out: string[] = [];
  for (const job of await ctx.app.services.jobs.claim('test-worker', 50, 60_000)) {
    if (job.type !== FORUM_ADS_DELIVERY_JOB) {
      await ctx.app.services.jobs.complete(job.id, 'test-worker');
      continue;
    }
    try {
      await ctx.app.services.integrations.forumAds.deliver(
        job as unknown as JobContext<{ delivery_id: number }>,
      );
      await ctx.app.services.jobs.complete(job.id, 'test-worker');
      out.push('done');
    } catch (error) {
      const retryAt = error instanceof RetryLaterError ? error.retryAt : undefined;
      const outcome = await ctx.app.services.jobs.fail(job.id, 'test-worker', String(error), { retryAt });
      out.push(retryAt ? `retry-at:${retryAt - clock.now()}` : `${outcome}`);
    }
  }
  return out;
}

async function connected() {
  const user = await createUser(ctx);
  await connect(ctx.app, user.key, '/api/integrations/forum-ads/auth');
  const sel = await req(ctx.app, 'PUT', '/api/integrations/forum-ads/selection', {
    key: user.key,
    body: { account_id: 't2_abc', pixel_id: 'a2_pixel1', event_name: 'Purchase' },
  });
  assert.equal(sel.statusCode, 200, sel.body);
  return user;
}

before(async () => {
  reddit = await redditStandIn();
  ctx = await buildLoggedApp(providerEnv(undefined, reddit), clock);
});

after(async () => {
  await ctx?.close();
  await reddit?.close();
});

test('forum ads flow: auth (PKCE) → browser authorization → selection → push → delivered with a stable conversion_id', async () => {
  const user = await createUser(ctx);
  const { auth, page, done } = await connect(ctx.app, user.key, '/api/integrations/forum-ads/auth');
  bodies.push(auth.body, done.body);
  const url = new URL(auth.data.authorization_url);
  assert.equal(url.pathname, '/api/v1/authorize');
  assert.equal(url.searchParams.get('response_type'), 'code');
  assert.equal(url.searchParams.get('duration'), 'permanent');
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(
    url.searchParams.get('redirect_uri'),
    'http://crestwatch.test/api/integrations/forum-ads/callback',
  );
  assert.ok(page.body.includes(user.email));
  assert.equal(done.statusCode, 200, done.body);
  // The token request used HTTP Basic client auth and the PKCE verifier (the stand-in checks both).
  const tokenCall = reddit.requests.find((r) => r.path === '/api/v1/access_token');
  assert.ok(tokenCall?.body.includes('code_verifier='));

  const selection = { account_id: 't2_abc', pixel_id: 'a2_pixel1', event_name: 'Purchase' };
  const sel = await req(ctx.app, 'PUT', '/api/integrations/forum-ads/selection', {
    key: user.key,
    body: selection,
  });
  assert.deepEqual(sel.data, selection);
  const status = await req(ctx.app, 'GET', '/api/integrations/forum-ads/status', { key: user.key });
  assert.deepEqual(status.data, { is_active: true, connected: true, ...selection });

  const push = await req(ctx.app, 'POST', '/api/integrations/forum-ads/push', {
    key: user.key,
    body: { event_name: 'purchase', data: { value: 49.9, currency: 'EUR', item_count: 2, order_ref: 'x1' } },
  });
  assert.equal(push.statusCode, 202, push.body);
  assert.deepEqual(Object.keys(push.data).sort(), ['id', 'status']);
  assert.equal(push.data.status, 'queued');

  // The first attempt meets a 503, the retry gets through: one conversion_id across both.
  reddit.state.failures.push({ status: 503, body: { error: { code: 503, message: 'unavailable' } } });
  assert.deepEqual(await runDeliveries(), ['retry']);
  let list = await req(ctx.app, 'GET', '/api/integrations/forum-ads/deliveries', { key: user.key });
  assert.equal(list.data.deliveries[0].status, 'queued');
  assert.equal(list.data.deliveries[0].attempts, 1);
  assert.equal(list.data.deliveries[0].response_status, 503);
  clock.advance(5000);
  assert.deepEqual(await runDeliveries(), ['done']);
  list = await req(ctx.app, 'GET', '/api/integrations/forum-ads/deliveries', { key: user.key });
  const d = list.data.deliveries[0];
  assert.equal(d.id, push.data.id);
  assert.equal(d.status, 'delivered');
  assert.equal(d.attempts, 2);
  assert.equal(d.response_status, 200);
  assert.equal(d.event_name, 'purchase');

  const sent = reddit.requests.filter((r) => r.path === '/api/v3/pixels/a2_pixel1/conversion_events');
  assert.equal(sent.length, 2);
  const ids = sent.map((r) => JSON.parse(r.body).data.events[0].metadata.conversion_id);
  assert.equal(ids[0], ids[1], 'the conversion_id is stable across retries');
  const event = reddit.state.events.at(-1) as {
    type: unknown;
    metadata: Record<string, unknown>;
    event_at: number;
  };
  assert.deepEqual(event.type, { tracking_type: 'Purchase' });
  assert.equal(event.metadata.value, 49.9);
  assert.equal(event.metadata.currency, 'EUR');
  assert.equal(event.metadata.item_count, 2);
  assert.equal(event.event_at, Date.parse('2026-11-21T10:00:00Z'));
  assert.ok(String(sent[0]!.headers.authorization).startsWith('Bearer '));
});

test('push validation: value ≥ 0 and an ISO 4217 currency; 409 before connecting or selecting', async () => {
  const user = await connected();
  for (const data of [
    { value: -1, currency: 'USD' },
    { value: '5', currency: 'USD' },
    { value: 5, currency: 'usd' },
    { value: 5, currency: 'XYZ' },
    { value: 5 },
  ]) {
    const res = await req(ctx.app, 'POST', '/api/integrations/forum-ads/push', {
      key: user.key,
      body: { event_name: 'Lead', data },
    });
    assertProblem(res, 400);
  }
  const fresh = await createUser(ctx);
  const res = await req(ctx.app, 'POST', '/api/integrations/forum-ads/push', {
    key: fresh.key,
    body: { event_name: 'Lead', data: { value: 1, currency: 'USD' } },
  });
  assertProblem(res, 409);
  assert.equal(res.data.code, 'integration_not_connected');
  const noSel = await createUser(ctx);
  await connect(ctx.app, noSel.key, '/api/integrations/forum-ads/auth');
  const res2 = await req(ctx.app, 'POST', '/api/integrations/forum-ads/push', {
    key: noSel.key,
    body: { event_name: 'Lead', data: { value: 1, currency: 'USD' } },
  });
  assertProblem(res2, 409);
  assert.equal(res2.data.code, 'selection_required');
});

test('429 retries after Retry-After; a 400 refusal fails the delivery with the provider reason; custom events', async () => {
  const user = await connected();
  await runDeliveries();
  await req(ctx.app, 'POST', '/api/integrations/forum-ads/push', {
    key: user.key,
    body: { event_name: 'webinar_signup', data: { value: 0, currency: 'USD' } },
  });
  reddit.state.failures.push({
    status: 429,
    body: { error: { code: 429, message: 'rate limited' } },
    headers: { 'retry-after': '12' },
  });
  assert.deepEqual(await runDeliveries(), ['retry-at:12000']);
  clock.advance(12_000);
  assert.deepEqual(await runDeliveries(), ['done']);
  assert.deepEqual((reddit.state.events.at(-1) as Record<string, unknown>).type, {
    tracking_type: 'Custom',
    custom_event_name: 'webinar_signup',
  });

  await req(ctx.app, 'POST', '/api/integrations/forum-ads/push', {
    key: user.key,
    body: { event_name: 'Lead', data: { value: 1, currency: 'USD' } },
  });
  reddit.state.failures.push({
    status: 400,
    body: { error: { code: 400, message: 'invalid action_source: web' } },
  });
  assert.deepEqual(await runDeliveries(), ['done']);
  const list = await req(ctx.app, 'GET', '/api/integrations/forum-ads/deliveries?limit=1', { key: user.key });
  assert.equal(list.data.deliveries.length, 1);
  assert.equal(list.data.deliveries[0].status, 'failed');
  assert.equal(list.data.deliveries[0].response_status, 400);
  assert.match(list.data.deliveries[0].error, /invalid action_source/);
});

test('an expired access token is refreshed with the refresh token before delivery', async () => {
  const user = await connected();
  await runDeliveries();
  clock.advance(3600_000);
  const issued = reddit.state.issued.length;
  await req(ctx.app, 'POST', '/api/integrations/forum-ads/push', {
    key: user.key,
    body: { event_name: 'Lead', data: { value: 1, currency: 'GBP' } },
  });
  assert.deepEqual(await runDeliveries(), ['done']);
  assert.equal(reddit.state.issued.length, issued + 1, 'one new access token');
  assert.ok(
    reddit.requests.some(
      (r) => r.path === '/api/v1/access_token' && r.body.includes('grant_type=refresh_token'),
    ),
  );
});

test('a refused code exchange is 400 with the provider reason; nothing is stored', async () => {
  const user = await createUser(ctx);
  const auth = await req(ctx.app, 'GET', '/api/integrations/forum-ads/auth', { key: user.key });
  const state = auth.data.state;
  // A code the provider never issued: the callback page still renders, the exchange is refused.
  const page = await ctx.app.inject({
    method: 'GET',
    url: `/api/integrations/forum-ads/callback?state=${state}&code=bogus`,
    headers: { accept: 'text/html' },
  });
  const form = Object.fromEntries(
    [...page.body.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
  );
  const done = await ctx.app.inject({
    method: 'POST',
    url: '/api/integrations/forum-ads/callback',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  assert.equal(done.statusCode, 400);
  assert.match(JSON.parse(done.body).detail, /invalid_grant/);
  const push = await req(ctx.app, 'PUT', '/api/integrations/forum-ads/selection', {
    key: user.key,
    body: { account_id: 'a', pixel_id: 'b', event_name: 'Lead' },
  });
  assertProblem(push, 409);
});

test('deliveries and connections are the owner’s alone; DELETE revokes at the provider', async () => {
  const owner = await connected();
  const other = await createUser(ctx);
  await req(ctx.app, 'POST', '/api/integrations/forum-ads/push', {
    key: owner.key,
    body: { event_name: 'Lead', data: { value: 1, currency: 'USD' } },
  });
  const theirs = await req(ctx.app, 'GET', '/api/integrations/forum-ads/deliveries', { key: other.key });
  assert.deepEqual(theirs.data.deliveries, []);
  const theirStatus = await req(ctx.app, 'GET', '/api/integrations/forum-ads/status', { key: other.key });
  assert.deepEqual(theirStatus.data, {
    is_active: false,
    connected: false,
    account_id: null,
    pixel_id: null,
    event_name: null,
  });
  assertProblem(
    await req(ctx.app, 'DELETE', '/api/integrations/forum-ads/connection', { key: other.key }),
    404,
  );
  assertProblem(await req(ctx.app, 'GET', '/api/integrations/forum-ads/deliveries'), 401);
  const reader = await createUser(ctx, 'developer', ['read']);
  assertProblem(
    await req(ctx.app, 'POST', '/api/integrations/forum-ads/push', {
      key: reader.key,
      body: { event_name: 'Lead', data: { value: 1, currency: 'USD' } },
    }),
    403,
  );
  assertProblem(
    await req(ctx.app, 'GET', '/api/integrations/forum-ads/deliveries?limit=0', { key: owner.key }),
    400,
  );

  const revoked = reddit.state.revoked.length;
  assert.equal(
    (await req(ctx.app, 'DELETE', '/api/integrations/forum-ads/connection', { key: owner.key })).statusCode,
    204,
  );
  assert.equal(reddit.state.revoked.length, revoked + 1);
  assert.ok(reddit.state.revoked.at(-1)?.startsWith('fa-refresh-'));
  // Queued deliveries of a disconnected user fail rather than retry forever.
  await runDeliveries();
  const list = await req(ctx.app, 'GET', '/api/integrations/forum-ads/deliveries', { key: owner.key });
  assert.equal(list.data.deliveries[0].status, 'failed');
});

test('PKCE: the verifier is stored sealed, never in the clear', async () => {
  const user = await createUser(ctx);
  const auth = await req(ctx.app, 'GET', '/api/integrations/forum-ads/auth', { key: user.key });
  const challenge = new URL(auth.data.authorization_url).searchParams.get('code_challenge');
  const row = await ctx.app.services.db
    .selectFrom('integration_oauth_states')
    .selectAll()
    .where('user_id', '=', user.userId)
    .executeTakeFirstOrThrow();
  const verifier = ctx.app.services.box.decrypt(String(row.verifier_sealed));
  assert.equal(createHash('sha256').update(verifier).digest('base64url'), challenge);
  assert.ok(!String(row.state_hash).includes(auth.data.state));
});

test('no response body or log line carries a token or the client secret', () => {
  const secrets = [FORUM.secret, ...reddit.state.issued];
  assert.deepEqual(leaks(bodies.join('\n'), secrets), []);
  assert.deepEqual(leaks(ctx.logs.join('\n'), secrets), []);
});
