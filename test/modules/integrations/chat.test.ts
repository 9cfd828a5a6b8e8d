import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CHAT_POST_JOB } from '../../../src/modules/integrations/chat/service.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import type { EventOf } from '../../../src/platform/events.ts';
import type { JobContext } from '../../../src/platform/jobs/worker.ts';
import { RetryLaterError } from '../../../src/platform/jobs/worker.ts';
import type { AppEvents } from '../../../src/services.ts';
import { assertProblem, call, createUser } from '../../helpers/app.ts';
import {
  authorizeInBrowser,
  buildLoggedApp,
  CHAT,
  connect,
  type IntegrationTestContext,
  leaks,
  providerEnv,
  slackStandIn,
} from './stand-ins.ts';

let slack: Awaited<ReturnType<typeof slackStandIn>>;
let ctx: IntegrationTestContext;
const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
const bodies: string[] = [];

async function req(...args: Parameters<typeof call>) {
  const res = await call(...args);
  bodies.push(res.body);
  return res;
}

/** Runs every due chat-post job by hand; returns what each did. */
async function runChatJobs(): Promise<string[]> {
  const outcomes: string[] = [];
  const jobs = await ctx.app.services.jobs.claim('test-worker', 50, 60_000);
  for (const job of jobs) {
    if (job.type === 'domain-event') {
      await ctx.app.services.events.dispatch(job.payload as never);
      await ctx.app.services.jobs.complete(job.id, 'test-worker');
      outcomes.push('event');
      continue;
    }
    if (job.type !== CHAT_POST_JOB) continue;
    try {
      await ctx.app.services.integrations.chat.deliver(job as unknown as JobContext<never>);
      await ctx.app.services.jobs.complete(job.id, 'test-worker');
      outcomes.push('done');
    } catch (error) {
      await ctx.app.services.jobs.fail(job.id, 'test-worker', String(error), {
        retryAt: error instanceof RetryLaterError ? error.retryAt : undefined,
      });
      outcomes.push(error instanceof RetryLaterError ? `retry-at:${error.retryAt - clock.now()}` : 'retry');
    }
  }
  return outcomes;
}

async function recordEvent<K extends keyof AppEvents>(
  type: K,
  data: AppEvents[K],
  id = `${type}:${Math.random()}`,
) {
  const event = { id, type, occurred_at: clock.now(), data } as EventOf<AppEvents>;
  await ctx.app.services.events.record(ctx.app.services.db, event);
}

before(async () => {
  slack = await slackStandIn();
  ctx = await buildLoggedApp(providerEnv(slack), clock);
});

after(async () => {
  await ctx?.close();
  await slack?.close();
});

test('chat flow: auth → browser authorization → channels → save-channel → settings → status', async () => {
  const user = await createUser(ctx);
  const before = await req(ctx.app, 'GET', '/api/integrations/chat/status', { key: user.key });
  assert.deepEqual(before.data, {
    is_active: false,
    team_name: null,
    channel: null,
    channel_id: null,
    configuration_url: null,
    new_trend_alerts: false,
  });

  const auth = await req(ctx.app, 'GET', '/api/integrations/chat/auth', { key: user.key });
  assert.equal(auth.statusCode, 200);
  const url = new URL(auth.data.authorization_url);
  assert.equal(url.origin + url.pathname, `${slack.url}/oauth/v2/authorize`);
  assert.equal(url.searchParams.get('client_id'), CHAT.id);
  assert.equal(url.searchParams.get('state'), auth.data.state);
  assert.equal(url.searchParams.get('redirect_uri'), 'http://crestwatch.test/api/integrations/chat/callback');
  assert.ok(url.searchParams.get('scope')?.includes('chat:write'));

  const { page, done } = await authorizeInBrowser(ctx.app, auth.data.authorization_url);
  bodies.push(done.body);
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.equal(
    page.headers['content-security-policy'],
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  );
  assert.ok(page.body.includes(user.email), 'the confirmation page names the Crestwatch account');
  assert.equal(done.statusCode, 200, done.body);
  assert.ok(done.body.includes('Acme &lt;Ops&gt;'), 'provider text is escaped');
  assert.ok(!done.body.includes('Acme <Ops>'));

  const channels = await req(ctx.app, 'GET', '/api/integrations/chat/channels', { key: user.key });
  assert.equal(channels.statusCode, 200, channels.body);
  assert.deepEqual(channels.data.channels, [
    { id: 'C1', name: 'general', is_private: false },
    { id: 'G2', name: 'alerts', is_private: true },
  ]);

  const saved = await req(ctx.app, 'POST', '/api/integrations/chat/save-channel', {
    key: user.key,
    body: { channel_id: 'C1', channel_name: 'general' },
  });
  assert.equal(saved.statusCode, 200, saved.body);
  const settings = {
    new_trend_alerts: true,
    crisis_alerts: true,
    min_severity: 'medium',
    velocity_threshold: 50,
  };
  const put = await req(ctx.app, 'PUT', '/api/integrations/chat/settings', { key: user.key, body: settings });
  assert.equal(put.statusCode, 200, put.body);
  assert.deepEqual(put.data, settings);

  const status = await req(ctx.app, 'GET', '/api/integrations/chat/status', { key: user.key });
  assert.deepEqual(status.data, {
    is_active: true,
    team_name: 'Acme <Ops>',
    channel: 'general',
    channel_id: 'C1',
    configuration_url: 'https://acme.slack.example/services/B1',
    new_trend_alerts: true,
  });

  const audit = await req(ctx.app, 'GET', '/api/user/audit-log', { key: user.key });
  assert.ok(audit.data.entries.some((e: { action: string }) => e.action === 'integration.connected'));
});

test('matching trend and crisis events are posted with escaped text and neutralised mass mentions; others are not', async () => {
  const owner = await createUser(ctx);
  const other = await createUser(ctx);
  for (const [u, channel] of [
    [owner, 'C1'],
    [other, 'G2'],
  ] as const) {
    await connect(ctx.app, u.key, '/api/integrations/chat/auth');
    await req(ctx.app, 'POST', '/api/integrations/chat/save-channel', {
      key: u.key,
      body: { channel_id: channel, channel_name: channel },
    });
  }
  await req(ctx.app, 'PUT', '/api/integrations/chat/settings', {
    key: other.key,
    body: { new_trend_alerts: false, crisis_alerts: true, min_severity: 'critical', velocity_threshold: 90 },
  });
  slack.state.posts.length = 0;
  await runChatJobs();

  await recordEvent(
    'trend.velocity.crossed',
    {
      trend_id: 7,
      trend_name: '<!channel> AI & chips @here',
      category: 'Technology/AI',
      velocity: 80,
      volume: 1200,
      from_velocity: 60,
      levels: [75],
    },
    'trend.velocity.crossed:7:75:1',
  );
  await recordEvent('trend.velocity.crossed', {
    trend_id: 8,
    trend_name: 'slow',
    category: 'General/Other',
    velocity: 30,
    volume: 5,
    from_velocity: 20,
    levels: [25],
  });
  await recordEvent('crisis.event.opened', {
    crisis_event_id: 3,
    user_id: owner.userId,
    title: 'Outage <b>',
    severity: 'high',
    status: 'active',
    impacted_entity: 'Acme',
    detected_at: '2026-11-21T10:00:00Z',
    summary: 'Users report @everyone',
    source_link: 'javascript:alert(1)',
    trend_id: null,
    source_keywords: ['acme'],
  });
  assert.deepEqual((await runChatJobs()).filter((o) => o === 'event').length, 3);
  await runChatJobs();
  // owner (C1): velocity 80 ≥ default 75 and crisis high ≥ default high; the first test's user (C1, threshold
  // 50) gets the trend alert too; other (G2): crisis high < critical, trend alerts off. The slow trend: nobody.
  const texts = slack.state.posts.map((p) => String(p.text));
  assert.equal(slack.state.posts.filter((p) => p.channel === 'G2').length, 0);
  assert.equal(texts.filter((t) => t.startsWith('Crisis opened')).length, 1);
  assert.equal(texts.filter((t) => t.startsWith('Trend alert')).length, 2);
  assert.equal(slack.state.posts.length, 3, JSON.stringify(slack.state.posts));
  const text = JSON.stringify(slack.state.posts);
  assert.ok(!text.includes('<!channel>'));
  assert.ok(!/@here|@everyone/.test(text));
  assert.ok(text.includes('&lt;!\u2060channel&gt; AI &amp; chips'));
  assert.ok(!text.includes('javascript:'), 'only http(s) links');
  assert.ok(slack.state.posts.every((p) => Array.isArray(p.blocks) && typeof p.text === 'string'));

  // The same event again (at-least-once listener) posts nothing new.
  await recordEvent(
    'trend.velocity.crossed',
    {
      trend_id: 7,
      trend_name: 'x',
      category: 'Technology/AI',
      velocity: 80,
      volume: 1,
      from_velocity: 60,
      levels: [75],
    },
    'trend.velocity.crossed:7:75:1',
  );
  await runChatJobs();
  await runChatJobs();
  assert.equal(slack.state.posts.length, 3);
});

test('a disabled account (e.g. a removed organisation member) gets nothing posted; re-enabled, it does', async () => {
  const user = await createUser(ctx);
  await connect(ctx.app, user.key, '/api/integrations/chat/auth');
  await req(ctx.app, 'POST', '/api/integrations/chat/save-channel', {
    key: user.key,
    body: { channel_id: 'C1', channel_name: 'general' },
  });
  await runChatJobs();
  slack.state.posts.length = 0;
  const admin = (active: boolean) =>
    req(ctx.app, 'PATCH', `/api/admin/users/${user.userId}`, {
      key: ctx.operatorKey,
      body: { is_active: active },
    });
  const crisis = (id: number) =>
    recordEvent('crisis.event.opened', {
      crisis_event_id: id,
      user_id: user.userId,
      title: `Outage ${id}`,
      severity: 'high',
      status: 'active',
      impacted_entity: 'Acme',
      detected_at: '2026-11-21T10:00:00Z',
      summary: 'Users report errors',
      source_link: 'https://status.example/outage',
      trend_id: null,
      source_keywords: ['acme'],
    });
  assert.equal((await admin(false)).statusCode, 200);
  await crisis(31);
  await runChatJobs();
  await runChatJobs();
  assert.equal(slack.state.posts.length, 0, 'nothing posted for a disabled account');
  assert.equal((await admin(true)).statusCode, 200);
  await crisis(32);
  await runChatJobs();
  await runChatJobs();
  assert.deepEqual(
    slack.state.posts.map((p) => String(p.text).includes('Outage 32')),
    [true],
  );
});

test('a 429 retries after Retry-After, and a revoked token marks the connection broken in status', async () => {
  const user = await createUser(ctx);
  await connect(ctx.app, user.key, '/api/integrations/chat/auth');
  await req(ctx.app, 'POST', '/api/integrations/chat/save-channel', {
    key: user.key,
    body: { channel_id: 'C1', channel_name: 'general' },
  });
  await runChatJobs();
  slack.state.posts.length = 0;
  await recordEvent('crisis.event.escalated', {
    crisis_event_id: 4,
    user_id: user.userId,
    title: 't',
    severity: 'critical',
    status: 'active',
    impacted_entity: 'e',
    detected_at: '2026-11-21T10:00:00Z',
    summary: 's',
    source_link: 'https://x.example/1',
    trend_id: null,
    source_keywords: [],
  });
  await runChatJobs();
  slack.state.rateLimitNext = 1;
  assert.deepEqual(await runChatJobs(), ['retry-at:7000']);
  clock.advance(7000);
  assert.deepEqual(await runChatJobs(), ['done']);
  assert.equal(slack.state.posts.length, 1);

  // Channels with a rate limit → 503 with Retry-After.
  slack.state.rateLimitNext = 1;
  const limited = await req(ctx.app, 'GET', '/api/integrations/chat/channels', { key: user.key });
  assertProblem(limited, 503);
  assert.equal(limited.headers['retry-after'], '7');

  slack.state.failNextPost = 'token_revoked';
  await recordEvent('crisis.event.resolved', {
    crisis_event_id: 4,
    user_id: user.userId,
    title: 't',
    severity: 'critical',
    status: 'active',
    impacted_entity: 'e',
    detected_at: '2026-11-21T10:00:00Z',
    summary: 's',
    source_link: 'https://x.example/1',
    trend_id: null,
    source_keywords: [],
  });
  await runChatJobs();
  assert.deepEqual(await runChatJobs(), ['done']);
  const status = await req(ctx.app, 'GET', '/api/integrations/chat/status', { key: user.key });
  assert.equal(status.data.is_active, false);
  assert.equal(status.data.team_name, 'Acme <Ops>');
  const channels = await req(ctx.app, 'GET', '/api/integrations/chat/channels', { key: user.key });
  assertProblem(channels, 409);
  assert.equal(channels.data.code, 'integration_broken');
});

test('a provider refusal is a 400 with its reason; an unreachable provider a 503', async () => {
  const user = await createUser(ctx);
  await connect(ctx.app, user.key, '/api/integrations/chat/auth');
  slack.state.revoked = true;
  const refused = await req(ctx.app, 'GET', '/api/integrations/chat/channels', { key: user.key });
  assertProblem(refused, 400);
  assert.match(refused.data.detail, /token_revoked/);
  slack.state.revoked = false;

  const down = await buildLoggedApp(
    { ...providerEnv(slack), CHAT_API_BASE_URL: 'http://127.0.0.1:9/api' },
    clock,
  );
  try {
    const u = await createUser(down);
    const auth = await call(down.app, 'GET', '/api/integrations/chat/auth', { key: u.key });
    const { done } = await authorizeInBrowser(down.app, auth.data.authorization_url);
    assert.equal(done.statusCode, 503);
    assert.match(String(done.headers['content-type']), /^text\/html/);
    assert.equal(
      (await call(down.app, 'GET', '/api/integrations/chat/status', { key: u.key })).data.is_active,
      false,
    );
  } finally {
    await down.close();
  }
});

test('token rotation: an expired access token is refreshed before use', async () => {
  slack.state.rotate = true;
  try {
    const user = await createUser(ctx);
    await connect(ctx.app, user.key, '/api/integrations/chat/auth');
    const issuedBefore = slack.state.issued.length;
    clock.advance(43_200_000);
    const channels = await req(ctx.app, 'GET', '/api/integrations/chat/channels', { key: user.key });
    assert.equal(channels.statusCode, 200, channels.body);
    assert.equal(slack.state.issued.length, issuedBefore + 2, 'a new access and refresh token were issued');
    assert.ok(slack.requests.some((r) => r.body.includes('grant_type=refresh_token')));
  } finally {
    slack.state.rotate = false;
  }
});

test('callback state: wrong, reused and expired states are 400 and store nothing; GET alone stores nothing', async () => {
  const user = await createUser(ctx);
  const auth = await req(ctx.app, 'GET', '/api/integrations/chat/auth', { key: user.key });
  const res = await fetch(auth.data.authorization_url, { redirect: 'manual' });
  const location = new URL(String(res.headers.get('location')));
  const code = location.searchParams.get('code')!;

  const wrong = await req(ctx.app, 'GET', `/api/integrations/chat/callback?code=${code}&state=nope`);
  assertProblem(wrong, 400);
  assert.equal(wrong.data.code, 'invalid_state');
  const wrongHtml = await ctx.app.inject({
    method: 'GET',
    url: `/api/integrations/chat/callback?code=${code}&state=nope`,
    headers: { accept: 'text/html' },
  });
  assert.equal(wrongHtml.statusCode, 400);
  assert.match(String(wrongHtml.headers['content-type']), /^text\/html/);

  const page = await ctx.app.inject({
    method: 'GET',
    url: `${location.pathname}${location.search}`,
    headers: { accept: 'text/html' },
  });
  assert.equal(page.statusCode, 200);
  assert.equal(
    (await req(ctx.app, 'GET', '/api/integrations/chat/status', { key: user.key })).data.is_active,
    false,
    'GET stored nothing',
  );

  const form = Object.fromEntries(
    [...page.body.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
  );
  // Another provider's callback does not accept this state.
  const cross = await ctx.app.inject({
    method: 'POST',
    url: '/api/integrations/forum-ads/callback',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  assert.equal(cross.statusCode, 400);
  const forged = await ctx.app.inject({
    method: 'POST',
    url: location.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...form, confirm_token: 'forged' }).toString(),
  });
  assert.equal(forged.statusCode, 400);
  const ok = await ctx.app.inject({
    method: 'POST',
    url: location.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  assert.equal(ok.statusCode, 200, ok.body);
  const reused = await ctx.app.inject({
    method: 'POST',
    url: location.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  assert.equal(reused.statusCode, 400);
  assert.equal(JSON.parse(reused.body).code, 'invalid_state');

  // Expired: 10 minutes later the state is refused, and nothing is stored.
  const late = await createUser(ctx);
  const auth2 = await req(ctx.app, 'GET', '/api/integrations/chat/auth', { key: late.key });
  const res2 = await fetch(auth2.data.authorization_url, { redirect: 'manual' });
  const loc2 = new URL(String(res2.headers.get('location')));
  const page2 = await ctx.app.inject({
    method: 'GET',
    url: `${loc2.pathname}${loc2.search}`,
    headers: { accept: 'text/html' },
  });
  const form2 = Object.fromEntries(
    [...page2.body.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
  );
  clock.advance(10 * 60_000 + 1);
  const expired = await ctx.app.inject({
    method: 'POST',
    url: loc2.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form2).toString(),
  });
  assert.equal(expired.statusCode, 400);
  assert.equal(
    (await req(ctx.app, 'GET', '/api/integrations/chat/status', { key: late.key })).data.team_name,
    null,
  );
});

test('other routes still refuse form bodies with 415', async () => {
  const user = await createUser(ctx);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/integrations/chat/save-channel',
    headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'channel_id=C1&channel_name=general',
  });
  assert.equal(res.statusCode, 415);
});

test('chat routes: 401 without a key, 403 without permission, 409 before connecting, owner-only', async () => {
  const reader = await createUser(ctx, 'developer', ['read']);
  assertProblem(await req(ctx.app, 'GET', '/api/integrations/chat/status'), 401);
  assertProblem(
    await req(ctx.app, 'PUT', '/api/integrations/chat/settings', {
      key: reader.key,
      body: { new_trend_alerts: true, crisis_alerts: true, min_severity: 'high', velocity_threshold: 75 },
    }),
    403,
  );
  assertProblem(await req(ctx.app, 'DELETE', '/api/integrations/chat/connection', { key: reader.key }), 403);
  const fresh = await createUser(ctx);
  const notConnected = await req(ctx.app, 'GET', '/api/integrations/chat/channels', { key: fresh.key });
  assertProblem(notConnected, 409);
  assert.equal(notConnected.data.code, 'integration_not_connected');
  const bad = await req(ctx.app, 'PUT', '/api/integrations/chat/settings', {
    key: fresh.key,
    body: { new_trend_alerts: true, crisis_alerts: true, min_severity: 'huge', velocity_threshold: 75 },
  });
  assertProblem(bad, 400);
  assertProblem(await req(ctx.app, 'DELETE', '/api/integrations/chat/connection', { key: fresh.key }), 404);

  // One user's connection is invisible to another.
  const owner = await createUser(ctx);
  await connect(ctx.app, owner.key, '/api/integrations/chat/auth');
  assert.equal(
    (await req(ctx.app, 'GET', '/api/integrations/chat/status', { key: fresh.key })).data.is_active,
    false,
  );
});

test("upstream's GET /api/integrations/slack/status answers the chat status under the same key rules", async () => {
  const user = await createUser(ctx);
  await connect(ctx.app, user.key, '/api/integrations/chat/auth');
  const saved = await req(ctx.app, 'POST', '/api/integrations/chat/save-channel', {
    key: user.key,
    body: { channel_id: 'C1', channel_name: 'general' },
  });
  assert.equal(saved.statusCode, 200, saved.body);
  const chat = await req(ctx.app, 'GET', '/api/integrations/chat/status', { key: user.key });
  const upstream = await req(ctx.app, 'GET', '/api/integrations/slack/status', {
    key: user.key,
    header: 'x-api-key',
  });
  assert.equal(upstream.statusCode, 200, upstream.body);
  assert.equal(chat.data.is_active, true);
  assert.equal(upstream.data.channel_id, 'C1');
  assert.deepEqual(upstream.data, chat.data);

  assertProblem(await req(ctx.app, 'GET', '/api/integrations/slack/status'), 401);
  const writeOnly = await createUser(ctx, 'developer', ['write']);
  assertProblem(await req(ctx.app, 'GET', '/api/integrations/slack/status', { key: writeOnly.key }), 403);

  const doc = (await call(ctx.app, 'GET', '/api/openapi.json')).data;
  const alias = doc.paths['/api/integrations/slack/status'].get;
  const original = doc.paths['/api/integrations/chat/status'].get;
  assert.match(alias.description, /upstream/i);
  assert.deepEqual(alias.responses['200'].content, original.responses['200'].content);
  assert.deepEqual(alias.security, original.security);
});

test('DELETE connection forgets the token, revokes it at the provider, and is audited', async () => {
  const user = await createUser(ctx);
  await connect(ctx.app, user.key, '/api/integrations/chat/auth');
  const revokesBefore = slack.requests.filter((r) => r.path === '/api/auth.revoke').length;
  const res = await req(ctx.app, 'DELETE', '/api/integrations/chat/connection', { key: user.key });
  assert.equal(res.statusCode, 204);
  assert.equal(slack.requests.filter((r) => r.path === '/api/auth.revoke').length, revokesBefore + 1);
  assert.equal(
    (await req(ctx.app, 'GET', '/api/integrations/chat/status', { key: user.key })).data.team_name,
    null,
  );
  const audit = await req(ctx.app, 'GET', '/api/user/audit-log', { key: user.key });
  assert.ok(audit.data.entries.some((e: { action: string }) => e.action === 'integration.disconnected'));
});

test('not configured → 503 integration_not_configured', async () => {
  const bare = await buildLoggedApp({}, clock);
  try {
    const u = await createUser(bare);
    const res = await call(bare.app, 'GET', '/api/integrations/chat/auth', { key: u.key });
    assertProblem(res, 503);
    assert.equal(res.data.code, 'integration_not_configured');
  } finally {
    await bare.close();
  }
});

test('no response body or log line carries a token or the client secret', () => {
  const secrets = [CHAT.secret, ...slack.state.issued];
  assert.ok(slack.state.issued.length > 3);
  assert.deepEqual(leaks(bodies.join('\n'), secrets), []);
  assert.deepEqual(leaks(ctx.logs.join('\n'), secrets), []);
  assert.ok(ctx.logs.length > 10, 'logs were captured');
  assert.ok(!ctx.logs.join('\n').includes('code-'), 'authorization codes are not logged');
});
