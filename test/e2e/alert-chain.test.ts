// End to end through one app instance: signals → trend engine / crisis detector → domain events → webhooks,
// live stream, chat, workflow, ads gate and insight-based next steps, each against its stand-in.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import WebSocket from 'ws';
import { type AIInsight, recommendedNextSteps } from '../../src/modules/insights/index.ts';
import { derivedNextSteps } from '../../src/modules/webhooks/payloads.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { DOMAIN_EVENT_JOB, type DomainEvent } from '../../src/platform/events.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../helpers/app.ts';
import { drainJobs } from '../helpers/jobs.ts';
import { streamBarrier } from '../helpers/stream.ts';
import { posts } from '../modules/crisis/posts.ts';
import { connect, metaStandIn, providerEnv, slackStandIn } from '../modules/integrations/stand-ins.ts';
import { N8N_KEY, type N8nStandIn, n8nStandIn } from '../modules/integrations/workflow-stand-in.ts';
import { type Receiver, startReceiver, waitFor } from '../modules/webhooks/receiver.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const WEBHOOKS = '/api/integrations/webhooks';

interface StreamClient {
  ws: WebSocket;
  messages: { type: string; data: Json }[];
}

type User = Awaited<ReturnType<typeof createUser>>;

// standardwebhooks checks the signature timestamp against the real clock: the manual clock starts at real time.
const clock = new ManualClock(Date.now());
let ctx: TestContext;
let slack: Awaited<ReturnType<typeof slackStandIn>>;
let meta: Awaited<ReturnType<typeof metaStandIn>>;
let feeder: string;
let seq = 0;
const closers: (() => Promise<unknown> | unknown)[] = [];

before(async () => {
  slack = await slackStandIn();
  meta = await metaStandIn();
  ctx = await buildTestApp({
    clock,
    env: {
      OUTBOUND_ALLOWLIST: '127.0.0.0/8',
      ...providerEnv(slack, undefined, meta),
      PLANS: JSON.stringify({
        enterprise: { burst_per_second: 100_000 },
        scale: { burst_per_second: 100_000, daily_quota: null },
      }),
    },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  ctx.app.services.worker.start();
  feeder = (await createUser(ctx, 'enterprise', ['read', 'ingest'])).key;
});

after(async () => {
  for (const close of closers.reverse()) await close();
  await ctx?.close();
  await slack?.close();
  await meta?.close();
});

// ---------- helpers

async function ingest(signals: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < signals.length; i += 1000) {
    const res = await call(ctx.app, 'POST', '/api/signals', {
      key: feeder,
      body: { signals: signals.slice(i, i + 1000) },
    });
    assert.equal(res.statusCode, 202, res.body);
    assert.deepEqual(res.data.rejected, [], res.body);
  }
}

/** Waits until the job worker has nothing due and nothing running (domain events, then what they queue). */
const drain = () => drainJobs(ctx);

/** A calm phrase: 10 mentions an hour for the past day, 10 in the last hour, all on two platforms. */
function calm(name: string): Record<string, unknown>[] {
  const now = clock.now();
  const out: Record<string, unknown>[] = [];
  for (let k = 0; k <= 24; k++) {
    for (let i = 0; i < 10; i++) {
      out.push({
        source: i % 2 === 0 ? 'x' : 'reddit',
        external_id: `${name}-calm-${++seq}`,
        text: name,
        keywords: [name],
        observed_at: new Date(now - k * HOUR - 30 * MIN - i * MIN).toISOString(),
      });
    }
  }
  return out;
}

/** 100 mentions of the phrase within the last four minutes. */
function surge(name: string): Record<string, unknown>[] {
  const now = clock.now();
  return Array.from({ length: 100 }, (_, i) => ({
    source: ['x', 'reddit', 'bluesky'][i % 3],
    external_id: `${name}-surge-${++seq}`,
    text: name,
    keywords: [name],
    observed_at: new Date(now - 4 * MIN + Math.floor((i * 4 * MIN) / 100)).toISOString(),
  }));
}

async function trendId(key: string): Promise<number> {
  const row = await ctx.app.services.db
    .selectFrom('trends')
    .select('id')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  closers.push(() => r.close());
  return r;
}

async function n8n(): Promise<N8nStandIn> {
  const t = await n8nStandIn();
  closers.push(() => t.close());
  return t;
}

async function subscribe(user: User, url: string, body: Record<string, unknown>): Promise<Json> {
  const res = await call(ctx.app, 'POST', WEBHOOKS, {
    key: user.key,
    body: { url, delivery_mode: 'instant_stream', cooldown_seconds: 0, threshold_value: 0, ...body },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.data;
}

function stream(user: User, query = ''): Promise<StreamClient> {
  const { port } = ctx.app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/trends-live${query}`, {
      headers: { authorization: `Bearer ${user.key}` },
    });
    const client: StreamClient = { ws, messages: [] };
    ws.on('message', (raw) => client.messages.push(JSON.parse(String(raw))));
    ws.once('open', () => {
      closers.push(() => ws.terminate());
      resolve(client);
    });
    ws.once('unexpected-response', (_req, res) =>
      reject(new Error(`stream refused: HTTP ${res.statusCode}`)),
    );
    ws.once('error', reject);
  });
}

/** Connects chat through the real OAuth callback flow against the Slack stand-in, then saves channel and settings. */
async function connectChat(user: User, channel: 'C1' | 'G2', settings: Record<string, unknown>) {
  const { done } = await connect(ctx.app, user.key, '/api/integrations/chat/auth');
  assert.equal(done.statusCode, 200, done.body);
  const saved = await call(ctx.app, 'POST', '/api/integrations/chat/save-channel', {
    key: user.key,
    body: { channel_id: channel, channel_name: channel === 'C1' ? 'general' : 'alerts' },
  });
  assert.equal(saved.statusCode, 200, saved.body);
  const put = await call(ctx.app, 'PUT', '/api/integrations/chat/settings', {
    key: user.key,
    body: settings,
  });
  assert.equal(put.statusCode, 200, put.body);
}

async function connectWorkflow(user: User, tool: N8nStandIn, defaultEvent: string) {
  const connected = await call(ctx.app, 'POST', '/api/integrations/workflow/connect', {
    key: user.key,
    body: { api_key: N8N_KEY, api_base_url: tool.url, include_metadata: false },
  });
  assert.equal(connected.statusCode, 200, connected.body);
  const selected = await call(ctx.app, 'PUT', '/api/integrations/workflow/selection', {
    key: user.key,
    body: {
      workflow_id: 'wf1',
      workflow_name: 'Social',
      default_event: defaultEvent,
      api_base_url: tool.url,
    },
  });
  assert.equal(selected.statusCode, 200, selected.body);
}

const slackPosts = (channel: string, includes: string) =>
  slack.state.posts.filter((p) => p.channel === channel && String(p.text).includes(includes));

function verified(r: Receiver, secret: string): Json[] {
  return r.received.map(
    (got) => new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as Json,
  );
}

// ---------- 1. trend chain

describe('trend chain: a calm phrase surges', () => {
  const NAME = 'Glimmerwave';
  test('webhook, live stream, chat and workflow each get the alert exactly once; a non-matching user gets nothing', async () => {
    const alice = await createUser(ctx, 'scale');
    const bob = await createUser(ctx, 'scale');
    const aliceHook = await receiver();
    const bobHook = await receiver();
    const aliceTool = await n8n();
    const bobTool = await n8n();

    const aliceSub = await subscribe(alice, aliceHook.url, {
      trigger_type: 'trend_velocity',
      threshold_value: 60,
      filters: { keywords: [NAME.toLowerCase()] },
    });
    await subscribe(bob, bobHook.url, {
      trigger_type: 'trend_velocity',
      threshold_value: 60,
      filters: { keywords: ['quietphrase'] },
    });
    const aliceStream = await stream(alice, `?trends=${NAME.toLowerCase()}`);
    const bobStream = await stream(bob, '?trends=quietphrase');
    slack.state.posts.length = 0;
    await connectChat(alice, 'C1', {
      new_trend_alerts: true,
      crisis_alerts: false,
      min_severity: 'high',
      velocity_threshold: 60,
    });
    await connectChat(bob, 'G2', {
      new_trend_alerts: false,
      crisis_alerts: false,
      min_severity: 'high',
      velocity_threshold: 60,
    });
    await connectWorkflow(alice, aliceTool, 'trend_velocity');
    await connectWorkflow(bob, bobTool, 'crisis_event');

    // The calm baseline: a trend with a low velocity, no alert.
    await ingest(calm(NAME));
    await ctx.app.services.engine.tick();
    await drain();
    const id = await trendId(NAME.toLowerCase());
    const calmView = await call(ctx.app, 'GET', `/api/trends/${id}`, { key: alice.key });
    assert.ok(calmView.data.velocity_score < 60, `calm velocity ${calmView.data.velocity_score}`);
    assert.equal(aliceHook.received.length, 0);

    await ingest(surge(NAME));
    await ctx.app.services.engine.tick();
    await drain();
    const hot = await call(ctx.app, 'GET', `/api/trends/${id}`, { key: alice.key });
    assert.ok(hot.data.velocity_score >= 60, `surge velocity ${hot.data.velocity_score}`);

    // Webhook: signed, verified by a stock library, exactly once.
    const bodies = verified(aliceHook, aliceSub.secret);
    assert.equal(bodies.length, 1, JSON.stringify(bodies));
    assert.equal(bodies[0]!.event, 'trend.alert.created');
    assert.equal(bodies[0]!.trend_id, id);
    assert.equal(bodies[0]!.velocity, hot.data.velocity_score);
    assert.equal(bobHook.received.length, 0);

    // Live stream: the filtered client gets the alert once; the other filter gets no message about the trend.
    await streamBarrier(ctx, alice.userId, aliceStream.messages);
    const alerts = aliceStream.messages.filter((m) => m.type === 'trend.alert.created');
    assert.equal(alerts.length, 1);
    assert.equal(alerts[0]!.data.trend_id, id);
    assert.ok(aliceStream.messages.some((m) => m.type === 'trend.update' && m.data.trend_id === id));
    await streamBarrier(ctx, bob.userId, bobStream.messages);
    assert.equal(bobStream.messages.filter((m) => m.data?.trend_id === id).length, 0);

    // Chat: one velocity alert to the saved channel; nothing to the other user's channel.
    assert.equal(slackPosts('C1', `Trend alert: ${NAME}`).length, 1, JSON.stringify(slack.state.posts));
    assert.equal(slack.state.posts.filter((p) => p.channel === 'G2').length, 0);

    // Workflow: one trend_velocity push, signed; nothing to the crisis_event selection.
    const pushes = aliceTool.pushes();
    assert.equal(pushes.length, 1);
    const push = JSON.parse(pushes[0]!.body);
    assert.equal(push.event, 'trend_velocity');
    assert.equal(push.data.event_type, 'trend.velocity.crossed');
    assert.equal(push.data.trend_id, id);
    assert.ok(pushes[0]!.headers['webhook-signature']);
    assert.equal(bobTool.pushes().length, 0);

    // Domain events are at-least-once: the same event handled again posts, pushes and delivers nothing new.
    const recorded = await ctx.app.services.db
      .selectFrom('jobs')
      .select('payload')
      .where('type', '=', DOMAIN_EVENT_JOB)
      .execute();
    const crossed = recorded
      .map((j) => JSON.parse(j.payload) as DomainEvent<string, { trend_id?: number }>)
      .filter((e) => e.type === 'trend.velocity.crossed' && e.data.trend_id === id);
    assert.equal(crossed.length, 1);
    await ctx.app.services.events.dispatch(crossed[0]!);
    await drain();
    assert.equal(aliceHook.received.length, 1);
    assert.equal(slackPosts('C1', `Trend alert: ${NAME}`).length, 1);
    assert.equal(aliceTool.pushes().length, 1);
  });
});

// ---------- 2. crisis chain

describe('crisis chain: a negative surge about a followed interest', () => {
  const ENTITY = 'Quorblex';
  let alice: User;
  let bob: User;
  let aliceTool: N8nStandIn;
  let bobTool: N8nStandIn;

  test('the owner gets crisis.event.opened on webhook, stream and chat; a subscriber who does not follow it gets nothing', async () => {
    alice = await createUser(ctx, 'scale');
    bob = await createUser(ctx, 'scale');
    const follow = await call(ctx.app, 'POST', '/api/user/interests', {
      key: alice.key,
      body: { keyword: ENTITY },
    });
    assert.equal(follow.statusCode, 201, follow.body);
    const aliceHook = await receiver();
    const bobHook = await receiver();
    const aliceSub = await subscribe(alice, aliceHook.url, { trigger_type: 'crisis_event' });
    await subscribe(bob, bobHook.url, { trigger_type: 'crisis_event' });
    const aliceStream = await stream(alice);
    const bobStream = await stream(bob);
    await connectChat(alice, 'C1', {
      new_trend_alerts: false,
      crisis_alerts: true,
      min_severity: 'low',
      velocity_threshold: 100,
    });
    await connectChat(bob, 'G2', {
      new_trend_alerts: false,
      crisis_alerts: true,
      min_severity: 'low',
      velocity_threshold: 100,
    });
    aliceTool = await n8n();
    bobTool = await n8n();
    await connectWorkflow(alice, aliceTool, 'crisis_event');
    await connectWorkflow(bob, bobTool, 'crisis_event');
    const before = slack.state.posts.length;

    // A calm baseline half a day ago, then 30 negative posts from 3 platforms within 20 minutes.
    const now = clock.now();
    await ingest([
      {
        source: 'reddit',
        external_id: `${ENTITY}-calm-1`,
        text: `${ENTITY} opened a new office in town`,
        author: 'a',
        observed_at: new Date(now - 12 * HOUR).toISOString(),
      },
      {
        source: 'x',
        external_id: `${ENTITY}-calm-2`,
        text: `${ENTITY} support was slow and bad today`,
        author: 'b',
        observed_at: new Date(now - 12 * HOUR + MIN).toISOString(),
      },
    ]);
    await ctx.app.services.engine.tick();
    const platforms = ['reddit', 'x', 'bluesky'];
    await ingest(
      posts(ENTITY, 30, 'negative', 7).map((text, i) => ({
        source: platforms[i % 3],
        external_id: `${ENTITY}-neg-${i}`,
        text,
        url: `https://${platforms[i % 3]}.example.com/p/${i}`,
        author: `user${i}`,
        observed_at: new Date(now - 20 * MIN + Math.round((i * 20 * MIN) / 30)).toISOString(),
      })),
    );
    await ctx.app.services.engine.tick();
    await ctx.app.services.engine.tick();
    await drain();

    const list = await call(ctx.app, 'GET', '/api/intelligence/crisis-events?status=active', {
      key: alice.key,
    });
    assert.equal(list.data.events.length, 1, list.body);
    const event = list.data.events[0];

    const bodies = verified(aliceHook, aliceSub.secret);
    assert.equal(bodies.length, 1, JSON.stringify(bodies));
    assert.equal(bodies[0]!.event, 'crisis.event.opened');
    assert.equal(bodies[0]!.crisis_event_id, event.id);
    assert.equal(bodies[0]!.severity, event.severity);
    assert.equal(bobHook.received.length, 0);

    await streamBarrier(ctx, alice.userId, aliceStream.messages);
    const opened = aliceStream.messages.filter((m) => m.type.startsWith('crisis.'));
    assert.deepEqual(
      opened.map((m) => [m.type, m.data.crisis_event_id]),
      [['crisis.event.opened', event.id]],
    );
    await streamBarrier(ctx, bob.userId, bobStream.messages);
    assert.equal(bobStream.messages.filter((m) => m.type.startsWith('crisis.')).length, 0);

    const chat = slack.state.posts.slice(before);
    assert.equal(
      chat.filter((p) => p.channel === 'C1' && String(p.text).startsWith('Crisis opened')).length,
      1,
      JSON.stringify(chat),
    );
    assert.equal(chat.filter((p) => p.channel === 'G2').length, 0);

    // Workflow: the owner's crisis_event selection gets one push; the other user's gets none.
    assert.equal(aliceTool.pushes().length, 1);
    const push = JSON.parse(aliceTool.pushes()[0]!.body);
    assert.equal(push.event, 'crisis_event');
    assert.equal(push.data.event_type, 'crisis.event.opened');
    assert.equal(push.data.crisis_event_id, event.id);
    assert.equal(bobTool.pushes().length, 0);
  });

  test('a workflow push gated on the crisis trend is refused 409 blocked_by_crisis at high severity; the ads preview is blocked', async () => {
    const list = await call(ctx.app, 'GET', '/api/intelligence/crisis-events?status=active', {
      key: alice.key,
    });
    const event = list.data.events[0];
    const id = await trendId(ENTITY.toLowerCase());
    const { done } = await connect(ctx.app, alice.key, '/api/integrations/ads/social_ads/auth');
    assert.equal(done.statusCode, 200, done.body);
    const sel = await call(ctx.app, 'PUT', '/api/integrations/ads/social_ads/selection', {
      key: alice.key,
      body: {
        ad_account_id: 'act_123',
        ad_set_ids: ['2385'],
        trend_category: 'technology',
        strict_safety: false,
      },
    });
    assert.equal(sel.statusCode, 200, sel.body);

    const push = await call(ctx.app, 'POST', '/api/integrations/workflow/push', {
      key: alice.key,
      body: { event: 'trend_lifecycle', data: { trend_id: id }, gate: { trend_id: id } },
    });
    const preview = await call(ctx.app, 'POST', '/api/integrations/ads/social_ads/preview', {
      key: alice.key,
      body: { trend_id: id },
    });
    assert.equal(preview.statusCode, 200, preview.body);
    // Only active events of severity high or critical gate pushes and previews; this surge is one.
    assert.ok(['high', 'critical'].includes(event.severity), event.severity);
    assertProblem(push, 409);
    assert.equal(push.data.code, 'blocked_by_crisis');
    assert.equal(aliceTool.pushes().length, 1, 'only the automatic crisis push');
    assert.equal(preview.data.blocked, true);
    assert.ok(
      preview.data.blocked_reasons.some((r: string) => r.includes(`Crisis event ${event.id}`)),
      JSON.stringify(preview.data.blocked_reasons),
    );
    const apply = await call(ctx.app, 'POST', '/api/integrations/ads/social_ads/apply', {
      key: alice.key,
      body: { preview_id: preview.data.preview_id },
    });
    assertProblem(apply, 409);
    assert.equal(apply.data.code, 'preview_blocked');
    assert.equal(meta.state.updates.length, 0);
    // The other user's push for the same trend is not gated by Alice's crisis.
    const bobPush = await call(ctx.app, 'POST', '/api/integrations/workflow/push', {
      key: bob.key,
      body: { event: 'trend_lifecycle', data: { trend_id: id }, gate: { trend_id: id } },
    });
    assert.equal(bobPush.statusCode, 200, bobPush.body);
    assert.equal(bobTool.pushes().length, 1);
    assert.equal(JSON.parse(bobTool.pushes()[0]!.body).event, 'trend_lifecycle');
  });
});

// ---------- 3. insight chain

describe('insight chain: next steps in a velocity alert', () => {
  const NAME = 'Sparkloom';
  test("the alert's recommended_next_steps come from the subscriber's insight; without one, from the metrics", async () => {
    const carol = await createUser(ctx, 'enterprise');
    const dave = await createUser(ctx, 'enterprise');
    const carolHook = await receiver();
    const daveHook = await receiver();
    const filters = { keywords: [NAME.toLowerCase()] };
    const carolSub = await subscribe(carol, carolHook.url, {
      trigger_type: 'trend_velocity',
      threshold_value: 60,
      filters,
    });
    const daveSub = await subscribe(dave, daveHook.url, {
      trigger_type: 'trend_velocity',
      threshold_value: 60,
      filters,
    });

    await ingest(calm(NAME));
    await ctx.app.services.engine.tick();
    await drain();
    const id = await trendId(NAME.toLowerCase());

    const task = await call(ctx.app, 'POST', `/api/trends/${id}/ai-insights/generate`, { key: carol.key });
    assert.equal(task.statusCode, 202, task.body);
    await waitFor(
      'the insight task',
      async () => {
        ctx.app.services.worker.poke();
        const res = await call(ctx.app, 'GET', `/api/trends/ai-insights/status/${task.data.task_id}`, {
          key: carol.key,
        });
        assert.notEqual(res.data.status, 'failed', res.body);
        return res.data.status === 'succeeded';
      },
      20_000,
    );
    const insight = (await call(ctx.app, 'GET', `/api/trends/${id}/ai-insights`, { key: carol.key })).data;
    const expected = recommendedNextSteps(insight as AIInsight);
    assert.ok(expected.length > 0);

    await ingest(surge(NAME));
    await ctx.app.services.engine.tick();
    await drain();

    const [carolAlert] = verified(carolHook, carolSub.secret);
    const [daveAlert] = verified(daveHook, daveSub.secret);
    assert.ok(carolAlert && daveAlert, 'both subscribers were alerted');
    assert.deepEqual(carolAlert.recommended_next_steps, expected);
    const view = (await call(ctx.app, 'GET', `/api/trends/${id}`, { key: dave.key })).data;
    assert.deepEqual(
      daveAlert.recommended_next_steps,
      derivedNextSteps(
        {
          trend_id: id,
          trend_name: daveAlert.trend_name,
          category: daveAlert.category,
          velocity: daveAlert.velocity,
        } as never,
        { lifecycle_stage: view.lifecycle_stage, sentiment_category: view.sentiment_category } as never,
      ),
    );
    assert.notDeepEqual(daveAlert.recommended_next_steps, expected);
  });
});
