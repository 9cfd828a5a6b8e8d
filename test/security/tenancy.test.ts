// Tenant walls, driven by the OpenAPI document: every route whose path names a user-owned resource answers
// another user 404 problem+json on every method, and no list shows another user's rows. A route with a path
// parameter that the tables below do not cover fails the test, so a new route cannot skip the check.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem, call, createUser, type Json } from '../helpers/app.ts';
import { seed, settle } from '../modules/insights/fixtures.ts';
import {
  buildLoggedApp,
  connect,
  type IntegrationTestContext,
  providerEnv,
  redditStandIn,
  slackStandIn,
} from '../modules/integrations/stand-ins.ts';
import {
  insertCrisisEvent,
  N8N_KEY,
  n8nStandIn,
  runJobs,
} from '../modules/integrations/workflow-stand-in.ts';
import { type Receiver, startReceiver } from '../modules/webhooks/receiver.ts';

type Resource =
  | 'key'
  | 'interest'
  | 'task'
  | 'crisis'
  | 'webhook'
  | 'execution'
  | 'member'
  | 'invite'
  | 'recommendation'
  | 'export';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface OwnedRoute {
  /** Which of user A's resources each path parameter names. */
  params: Record<string, Resource>;
  /** Every method the document lists for the path, with a body valid for it (so only ownership can fail). */
  methods: Partial<Record<Method, unknown>>;
}

const REVIEW = { assessment: 'supported', rationale: 'checked', evidence_version: 'a'.repeat(32) };

/** Routes naming a user-owned resource; how user A creates each resource is in `before` below. */
const OWNED: Record<string, OwnedRoute> = {
  '/api/user/api-keys/{key_id}': { params: { key_id: 'key' }, methods: { delete: undefined } },
  '/api/user/api-keys/{key_id}/rotate': { params: { key_id: 'key' }, methods: { post: {} } },
  '/api/user/interests/{interest_id}': {
    params: { interest_id: 'interest' },
    methods: { delete: undefined },
  },
  // The same route at the path an earlier upstream SDK generation calls.
  '/api/user/topic-interests/{interest_id}': {
    params: { interest_id: 'interest' },
    methods: { delete: undefined },
  },
  '/api/trends/ai-insights/status/{task_id}': { params: { task_id: 'task' }, methods: { get: undefined } },
  '/api/intelligence/crisis-events/{id}': { params: { id: 'crisis' }, methods: { get: undefined } },
  '/api/intelligence/crisis-events/{id}/action': {
    params: { id: 'crisis' },
    methods: { post: { action: 'archive' } },
  },
  '/api/intelligence/crisis-events/{id}/evidence': { params: { id: 'crisis' }, methods: { get: undefined } },
  '/api/intelligence/crisis-events/{id}/reviews': { params: { id: 'crisis' }, methods: { post: REVIEW } },
  '/api/intelligence/crisis-events/{id}/export': { params: { id: 'crisis' }, methods: { get: undefined } },
  '/api/integrations/webhooks/{id}': {
    params: { id: 'webhook' },
    methods: { patch: { is_active: false, url: 'http://127.0.0.1:9/stolen' }, delete: undefined },
  },
  '/api/integrations/webhooks/{id}/rotate-secret': {
    params: { id: 'webhook' },
    methods: { post: undefined },
  },
  '/api/integrations/webhooks/{id}/test': { params: { id: 'webhook' }, methods: { post: undefined } },
  '/api/integrations/webhooks/{id}/executions': { params: { id: 'webhook' }, methods: { get: undefined } },
  '/api/integrations/webhooks/{id}/executions/{execution_id}/redeliver': {
    params: { id: 'webhook', execution_id: 'execution' },
    methods: { post: undefined },
  },
  '/api/org/members/{id}': {
    params: { id: 'member' },
    methods: { patch: { role: 'admin' }, delete: undefined },
  },
  '/api/org/invites/{id}': { params: { id: 'invite' }, methods: { delete: undefined } },
  '/api/intelligence/recommendations/{recommendation_id}/action': {
    params: { recommendation_id: 'recommendation' },
    methods: { post: { action: 'viewed' } },
  },
  '/api/user/export/settings/{config_id}': {
    params: { config_id: 'export' },
    methods: { delete: undefined },
  },
  '/api/user/export/configurations/{config_id}/run-now': {
    params: { config_id: 'export' },
    methods: { post: undefined },
  },
};

/** Path parameters that do not name a user-owned resource, and why. */
const EXEMPT: Record<string, string> = {
  '/api/trends/{trend_id}': 'trends are shared by the deployment',
  '/api/trends/{trend_id}/analytics': 'trends are shared',
  '/api/trends/{trend_id}/ai-insights':
    'shared trend; the answer is the caller’s own insight (checked below)',
  '/api/trends/{trend_id}/ai-insights/generate': 'shared trend; generates the caller’s own insight',
  '/api/trends/{trend_id}/analyze': 'shared trend; generates the caller’s own insight',
  '/api/blog/posts/{slug}': 'blog posts are public',
  '/api/admin/blog/posts/{id}': 'operator route (permission admin; a user gets 403, checked below)',
  '/api/admin/users/{id}': 'operator route (checked below)',
  '/api/admin/users/{id}/api-keys': 'operator route (checked below)',
  '/api/integrations/ads/{platform}/auth': '`platform` is a provider name, not a resource',
  '/api/integrations/ads/{platform}/selection': '`platform` is a provider name',
  '/api/integrations/ads/{platform}/rollback': '`platform` is a provider name (apply ids: ads.test.ts)',
  '/api/integrations/ads/{platform}/connection': '`platform` is a provider name',
  '/api/integrations/ads/{platform}/callback': '`platform` is a provider name',
};

const METHODS: Method[] = ['get', 'post', 'put', 'patch', 'delete'];

describe('tenant walls (every user-owned resource, every route in the OpenAPI document)', () => {
  let ctx: IntegrationTestContext;
  let slack: Awaited<ReturnType<typeof slackStandIn>>;
  let reddit: Awaited<ReturnType<typeof redditStandIn>>;
  let n8n: Awaited<ReturnType<typeof n8nStandIn>>;
  let receiver: Receiver;
  let paths: Record<string, Record<string, unknown>>;
  let alice: Awaited<ReturnType<typeof createUser>>;
  let bob: Awaited<ReturnType<typeof createUser>>;
  const mine = {} as Record<Resource, number | string>;
  let bobWebhook: number;
  let aliceTrend: number;
  let aliceWorkflowDelivery: number;
  let aliceForumDelivery: number;

  async function ok(method: 'GET' | 'POST' | 'PUT', url: string, key: string, body?: unknown): Promise<Json> {
    const res = await call(ctx.app, method, url, { key, body });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.data;
  }

  before(async () => {
    slack = await slackStandIn();
    reddit = await redditStandIn();
    n8n = await n8nStandIn();
    receiver = await startReceiver();
    ctx = await buildLoggedApp({ ...providerEnv(slack, reddit), OUTBOUND_ALLOWLIST: '127.0.0.0/8' });
    alice = await createUser(ctx, 'enterprise');
    bob = await createUser(ctx, 'enterprise');
    paths = (await call(ctx.app, 'GET', '/api/openapi.json')).data.paths;

    mine.key = (await ok('POST', '/api/user/api-keys', alice.key, { name: 'alice-extra' })).id;
    mine.interest = (await ok('POST', '/api/user/interests', alice.key, { keyword: 'Acme' })).id;
    mine.member = ((await ok('GET', '/api/org/members', alice.key)) as unknown as Json[])[0]!.id;
    mine.invite = (
      await ok('POST', '/api/org/invites', alice.key, { email: 'alice-invitee@example.com', role: 'member' })
    ).id;
    const webhook = {
      url: receiver.url,
      trigger_type: 'trend_velocity',
      delivery_mode: 'instant_stream',
      threshold_value: 60,
      cooldown_seconds: 60,
    };
    mine.webhook = (await ok('POST', '/api/integrations/webhooks', alice.key, webhook)).id;
    mine.execution = (await ok('POST', `/api/integrations/webhooks/${mine.webhook}/test`, alice.key)).id;
    bobWebhook = (await ok('POST', '/api/integrations/webhooks', bob.key, webhook)).id;
    mine.crisis = await insertCrisisEvent(ctx, {
      userId: alice.userId,
      title: 'Acme outage',
      keywords: ['Acme'],
    });
    // Alice's high-severity crisis event gives her a pr_response recommendation.
    const recommended = await ok('GET', '/api/intelligence/recommendations?status=all', alice.key);
    mine.recommendation = (recommended.recommendations as Json[])[0]!.id;
    mine.export = (
      await ok('POST', '/api/user/export/settings', alice.key, {
        destination: 'aws',
        config: {
          bucket: 'alice',
          access_key_id: 'AKIDALICE',
          secret_access_key: 'alice-secret',
          endpoint: new URL(receiver.url).origin,
        },
        schedule: 'daily',
        schedule_time: '03:00',
        is_active: true,
        selected_fields: [],
      })
    ).id;

    const trends = await seed(ctx, ctx.app.services.clock.now());
    aliceTrend = trends.negative;
    mine.task = (await ok('POST', `/api/trends/${aliceTrend}/ai-insights/generate`, alice.key)).task_id;
    assert.equal((await settle(ctx, alice.key, String(mine.task))).status, 'succeeded');

    // Integrations: the workflow tool, the forum ads platform and the chat tool, all connected by Alice.
    await ok('POST', '/api/integrations/workflow/connect', alice.key, {
      api_key: N8N_KEY,
      api_base_url: n8n.url,
      include_metadata: false,
    });
    await ok('PUT', '/api/integrations/workflow/selection', alice.key, {
      workflow_id: 'wf1',
      workflow_name: 'Social response',
      default_event: 'trend_lifecycle',
      api_base_url: n8n.url,
    });
    aliceWorkflowDelivery = (
      await ok('POST', '/api/integrations/workflow/push', alice.key, { event: 'custom.event', data: {} })
    ).execution_id;
    await connect(ctx.app, alice.key, '/api/integrations/forum-ads/auth');
    await ok('PUT', '/api/integrations/forum-ads/selection', alice.key, {
      account_id: 't2_abc',
      pixel_id: 'a2_pixel1',
      event_name: 'Purchase',
    });
    aliceForumDelivery = (
      await ok('POST', '/api/integrations/forum-ads/push', alice.key, {
        event_name: 'purchase',
        data: { value: 10, currency: 'EUR' },
      })
    ).id;
    await connect(ctx.app, alice.key, '/api/integrations/chat/auth');
    await ok('POST', '/api/integrations/chat/save-channel', alice.key, {
      channel_id: 'C1',
      channel_name: 'general',
    });
    await runJobs(ctx);
  });

  after(async () => {
    await ctx?.close();
    await Promise.all([slack?.close(), reddit?.close(), n8n?.close(), receiver?.close()]);
  });

  test('every path parameter in the document is covered: owned (with every method) or exempt with a reason', () => {
    const uncovered: string[] = [];
    for (const [path, item] of Object.entries(paths)) {
      if (!path.includes('{')) continue;
      if (EXEMPT[path]) continue;
      const owned = OWNED[path];
      if (!owned) {
        uncovered.push(path);
        continue;
      }
      const documented = METHODS.filter((m) => m in item).sort();
      assert.deepEqual(Object.keys(owned.methods).sort(), documented, `methods of ${path}`);
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
      assert.deepEqual(Object.keys(owned.params).sort(), params, `parameters of ${path}`);
    }
    assert.deepEqual(uncovered, [], 'routes with a path id that neither OWNED nor EXEMPT covers');
    for (const path of [...Object.keys(OWNED), ...Object.keys(EXEMPT)]) {
      assert.ok(paths[path], `${path} is no longer in the document: drop it from the table`);
    }
  });

  test("another user's id answers 404 problem+json on every method of every owned route", async () => {
    const failures: string[] = [];
    for (const [path, route] of Object.entries(OWNED)) {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => String(mine[route.params[name]!]));
      for (const [method, body] of Object.entries(route.methods)) {
        const res = await call(ctx.app, method.toUpperCase() as 'GET', url, { key: bob.key, body });
        try {
          assertProblem(res, 404);
          for (const value of [alice.email, 'Acme outage', receiver.url]) {
            assert.ok(!res.body.includes(value), `404 body leaks ${value}`);
          }
        } catch (error) {
          failures.push(`${method.toUpperCase()} ${url}: ${(error as Error).message}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  test("another user's execution under one's own webhook → 404", async () => {
    const res = await call(
      ctx.app,
      'POST',
      `/api/integrations/webhooks/${bobWebhook}/executions/${mine.execution}/redeliver`,
      { key: bob.key },
    );
    assertProblem(res, 404);
  });

  test("the same Idempotency-Key from another user never replays the first user's response", async () => {
    const headers = { 'idempotency-key': 'shared-key-1' };
    const first = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: alice.key,
      body: { name: 'idem' },
      headers,
    });
    assert.equal(first.statusCode, 201, first.body);
    const second = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: bob.key,
      body: { name: 'idem' },
      headers,
    });
    assert.equal(second.statusCode, 201, second.body);
    assert.equal(second.headers['idempotent-replayed'], undefined);
    assert.notEqual(second.data.api_key, first.data.api_key);
    assert.notEqual(second.data.id, first.data.id);
    const revoke = await call(ctx.app, 'DELETE', `/api/user/api-keys/${second.data.id}`, { key: bob.key });
    assert.equal(revoke.statusCode, 204);
    const cleanup = await call(ctx.app, 'DELETE', `/api/user/api-keys/${first.data.id}`, { key: alice.key });
    assert.equal(cleanup.statusCode, 204);
  });

  test('operator routes with path ids answer a user 403, never the resource', async () => {
    for (const [method, url, body] of [
      ['PATCH', `/api/admin/users/${alice.userId}`, { is_active: false }],
      ['POST', `/api/admin/users/${alice.userId}/api-keys`, { name: 'steal' }],
      ['GET', '/api/admin/blog/posts/1', undefined],
    ] as const) {
      assertProblem(await call(ctx.app, method, url, { key: bob.key, body }), 403);
    }
  });

  test("Alice's resources survived Bob's attempts unchanged", async () => {
    assert.ok((await ok('GET', '/api/user/api-keys', alice.key)).keys.some((k: Json) => k.id === mine.key));
    const interests = (await ok('GET', '/api/user/interests', alice.key)) as Json[];
    assert.ok(interests.some((i) => i.id === mine.interest));
    const hooks = (await ok('GET', '/api/integrations/webhooks', alice.key)).webhooks as Json[];
    const hook = hooks.find((h) => h.id === mine.webhook);
    assert.equal(hook?.is_active, true);
    assert.equal(hook?.url, receiver.url);
    const event = await ok('GET', `/api/intelligence/crisis-events/${mine.crisis}`, alice.key);
    assert.equal(event.status, 'active');
    assert.equal(event.review_status, 'needs_review');
  });

  test("no list shows another user's rows", async () => {
    const has = (data: unknown, id: number | string) =>
      JSON.stringify(data).includes(`"id":${typeof id === 'string' ? JSON.stringify(id) : id}`);
    const interests = await ok('GET', '/api/user/interests', bob.key);
    assert.ok(!has(interests, mine.interest), JSON.stringify(interests));
    const keys = (await ok('GET', '/api/user/api-keys', bob.key)).keys as Json[];
    assert.ok(keys.some((k) => k.id === bob.keyId));
    assert.deepEqual(
      keys.filter((k) => k.id === mine.key || k.id === alice.keyId),
      [],
    );
    const hooks = await ok('GET', '/api/integrations/webhooks', bob.key);
    assert.deepEqual(
      hooks.webhooks.map((h: Json) => h.id),
      [bobWebhook],
    );
    const crises = await ok('GET', '/api/intelligence/crisis-events', bob.key);
    assert.deepEqual(crises.events, []);
    const search = await ok('GET', '/api/insights/search', bob.key);
    assert.equal(search.total, 0);
    assert.deepEqual(search.trends, []);
    const insight = await call(ctx.app, 'GET', `/api/trends/${aliceTrend}/ai-insights`, { key: bob.key });
    assert.ok(insight.statusCode === 200 || insight.statusCode === 404, insight.body);
    assert.ok(
      insight.body === 'null' || insight.statusCode === 404,
      `Bob sees Alice's insight: ${insight.body}`,
    );

    const aliceAudit = (await ok('GET', '/api/user/audit-log?limit=100', alice.key)).entries as Json[];
    assert.ok(aliceAudit.length >= 3);
    const bobAudit = (await ok('GET', '/api/user/audit-log?limit=100', bob.key)).entries as Json[];
    const aliceEntryIds = new Set(aliceAudit.map((e) => e.id));
    assert.deepEqual(
      bobAudit.filter((e) => aliceEntryIds.has(e.id)),
      [],
    );
    assert.ok(!JSON.stringify(bobAudit).includes('alice-extra'));

    // Usage is per user: a fresh user's report counts only their own requests.
    const carol = await createUser(ctx, 'enterprise');
    await ok('GET', '/api/user/profile', carol.key);
    const usage = await ok('GET', '/api/user/api-usage', carol.key);
    assert.equal(usage.summary.requests_today, 1);

    const workflow = await ok('GET', '/api/integrations/workflow/status', bob.key);
    assert.equal(workflow.connected, false, JSON.stringify(workflow));
    assert.ok(!JSON.stringify(workflow).includes(n8n.url));
    const workflowDeliveries = await call(ctx.app, 'GET', '/api/integrations/workflow/deliveries', {
      key: bob.key,
    });
    assert.ok(!has(workflowDeliveries.data, aliceWorkflowDelivery), workflowDeliveries.body);
    const forum = await call(ctx.app, 'GET', '/api/integrations/forum-ads/deliveries', { key: bob.key });
    assert.ok(!has(forum.data, aliceForumDelivery), forum.body);
    const forumStatus = await call(ctx.app, 'GET', '/api/integrations/forum-ads/status', { key: bob.key });
    assert.ok(!forumStatus.body.includes('a2_pixel1'), forumStatus.body);
    const chat = await ok('GET', '/api/integrations/chat/status', bob.key);
    assert.equal(chat.is_active, false);
    assert.equal(chat.channel_id, null);
    // Alice's own views do show them (the checks above are not vacuous).
    assert.ok(has(await ok('GET', '/api/integrations/forum-ads/deliveries', alice.key), aliceForumDelivery));
    assert.ok(
      has(await ok('GET', '/api/integrations/workflow/deliveries', alice.key), aliceWorkflowDelivery),
    );
    assert.equal((await ok('GET', '/api/integrations/chat/status', alice.key)).channel_id, 'C1');
    assert.equal((await ok('GET', '/api/insights/search', alice.key)).total, 1);
  });
});
