// The workflow integration (n8n): connect (4) → workflows (5) → selection (6) → push (7), disconnect, and the
// safety edges: key refused / unreachable / private address, another URL never gets the key, tenants walled,
// secrets never in a body or a log line.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../../../src/platform/clock.ts';
import { bodySignature } from '../../../src/platform/signing.ts';
import { assertProblem, call, createUser, type Json } from '../../helpers/app.ts';
import {
  BODY_MARKER,
  buildLoggedApp,
  closedPortUrl,
  type LoggedContext,
  N8N_KEY,
  type N8nStandIn,
  n8nStandIn,
} from './workflow-stand-in.ts';

const ENV = { OUTBOUND_ALLOWLIST: '127.0.0.0/8' };

describe('workflow integration', () => {
  let ctx: LoggedContext;
  let tool: N8nStandIn;
  const bodies: string[] = [];

  async function req(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, key?: string, body?: unknown) {
    const res = await call(ctx.app, method, url, { key, body });
    bodies.push(res.body);
    return res;
  }

  async function connect(key: string, base = tool.url, extra: Json = {}) {
    return req('POST', '/api/integrations/workflow/connect', key, {
      api_key: N8N_KEY,
      api_base_url: base,
      include_metadata: false,
      ...extra,
    });
  }

  async function select(key: string, workflowId = 'wf1', base = tool.url, defaultEvent = 'trend_lifecycle') {
    return req('PUT', '/api/integrations/workflow/selection', key, {
      workflow_id: workflowId,
      workflow_name: 'Social response',
      default_event: defaultEvent,
      api_base_url: base,
    });
  }

  before(async () => {
    ctx = await buildLoggedApp({ env: ENV });
    tool = await n8nStandIn();
  });

  after(async () => {
    await tool.close();
    await ctx.close();
  });

  test('connect → list workflows → save selection → push runs end to end, signed with the secret', async () => {
    const user = await createUser(ctx);
    const connected = await connect(user.key, `${tool.url}/`);
    assert.equal(connected.statusCode, 200, connected.body);
    assert.equal(connected.data.connected, true);
    assert.equal(connected.data.api_base_url, tool.url);
    assert.match(connected.data.signing_secret, /^whsec_[A-Za-z0-9+/=]{44}$/);
    const check = tool.requests.at(-1)!;
    assert.equal(check.url, '/api/v1/workflows?limit=1');
    assert.equal(check.headers['x-n8n-api-key'], N8N_KEY);

    const list = await req('GET', '/api/integrations/workflow/workflows', user.key);
    assert.equal(list.statusCode, 200, list.body);
    // Three workflows over two pages of the tool's cursor paging.
    assert.deepEqual(list.data.workflows, [
      { id: 'wf1', name: 'Social response', active: true },
      { id: 'wf2', name: 'Weekly digest', active: false },
      { id: 'wf3', name: 'GET only', active: true },
    ]);
    assert.ok(tool.requests.some((r) => r.url.includes('cursor=')));

    // The API's own address names the same instance.
    const selected = await select(user.key, 'wf1', `${tool.url}/api/v1/`);
    assert.equal(selected.statusCode, 200, selected.body);
    assert.equal(selected.data.webhook_url, `${tool.url}/webhook/crestwatch-alerts`);
    assert.equal(selected.data.default_event, 'trend_lifecycle');
    assert.equal(selected.data.active, true);

    const pushed = await req('POST', '/api/integrations/workflow/push', user.key, {
      event: 'trend_lifecycle',
      data: { trend_id: 7, note: 'rising' },
    });
    assert.equal(pushed.statusCode, 200, pushed.body);
    assert.equal(pushed.data.delivered, true);
    assert.equal(pushed.data.status_code, 200);
    assert.ok(Number.isInteger(pushed.data.execution_id), pushed.body);

    const push = tool.pushes().at(-1)!;
    assert.equal(push.method, 'POST');
    assert.equal(push.url, '/webhook/crestwatch-alerts');
    assert.equal(push.headers['x-n8n-api-key'], undefined, 'the API key is not sent to the webhook');
    const body = JSON.parse(push.body);
    assert.deepEqual(Object.keys(body).sort(), ['data', 'event', 'sent_at']);
    assert.equal(body.event, 'trend_lifecycle');
    assert.deepEqual(body.data, { trend_id: 7, note: 'rising' });
    assert.equal(push.headers['webhook-id'], String(pushed.data.execution_id));
    // Verifiable with a stock Standard Webhooks library, and by the raw-body HMAC.
    new Webhook(connected.data.signing_secret).verify(push.body, {
      'webhook-id': String(push.headers['webhook-id']),
      'webhook-timestamp': String(push.headers['webhook-timestamp']),
      'webhook-signature': String(push.headers['webhook-signature']),
    });
    assert.equal(
      push.headers['x-webhook-signature'],
      bodySignature(connected.data.signing_secret, push.body),
    );

    const deliveries = await req('GET', '/api/integrations/workflow/deliveries', user.key);
    assert.equal(deliveries.data.deliveries[0].id, pushed.data.execution_id);
    assert.equal(deliveries.data.deliveries[0].status, 'delivered');
    assert.equal(deliveries.data.deliveries[0].origin, 'manual');

    const status = await req('GET', '/api/integrations/workflow/status', user.key);
    assert.equal(status.data.connected, true);
    assert.equal(status.data.selection.workflow_id, 'wf1');
    assert.equal(status.data.signing_secret, undefined);

    const audit = await req('GET', '/api/user/audit-log', user.key);
    assert.ok(audit.data.entries.some((e: Json) => e.action === 'integration.connected'));
  });

  test('include_metadata adds {source, version, user_id, delivery_id} to pushes', async () => {
    const user = await createUser(ctx);
    assert.equal((await connect(user.key, tool.url, { include_metadata: true })).statusCode, 200);
    assert.equal((await select(user.key)).statusCode, 200);
    const pushed = await req('POST', '/api/integrations/workflow/push', user.key, {
      event: 'custom.event',
      data: {},
    });
    assert.equal(pushed.statusCode, 200, pushed.body);
    const body = JSON.parse(tool.pushes().at(-1)!.body);
    assert.deepEqual(body.metadata, {
      source: 'crestwatch',
      version: '0.10.0',
      user_id: user.userId,
      delivery_id: pushed.data.execution_id,
      origin: 'manual',
    });
  });

  test('a refused key → 400 with the tool status code only, and nothing is stored', async () => {
    const user = await createUser(ctx);
    const res = await req('POST', '/api/integrations/workflow/connect', user.key, {
      api_key: 'wrong-key',
      api_base_url: tool.url,
      include_metadata: false,
    });
    assertProblem(res, 400);
    assert.equal(res.data.code, 'workflow_key_refused');
    assert.match(res.data.detail, /HTTP 401/);
    assert.ok(!res.body.includes(BODY_MARKER), 'the tool body is never echoed');
    assert.ok(!res.body.includes('unauthorized'));
    const status = await req('GET', '/api/integrations/workflow/status', user.key);
    assert.equal(status.data.connected, false);
  });

  test('an unreachable tool → 503 problem with Retry-After', async () => {
    const user = await createUser(ctx);
    const res = await connect(user.key, await closedPortUrl());
    assertProblem(res, 503);
    assert.equal(res.data.code, 'workflow_unreachable');
    assert.ok(res.headers['retry-after']);
  });

  test('a tool that is not n8n (no public API shape) → 400, never 500', async () => {
    const user = await createUser(ctx);
    const res = await connect(user.key, `${tool.url}/elsewhere`);
    assertProblem(res, 400);
  });

  test('selection with another api_base_url → 400 and the key is never sent there', async () => {
    const user = await createUser(ctx);
    const other = await n8nStandIn();
    try {
      assert.equal((await connect(user.key)).statusCode, 200);
      const res = await select(user.key, 'wf1', other.url);
      assertProblem(res, 400);
      assert.equal(res.data.code, 'api_base_url_mismatch');
      assert.equal(res.data.errors[0].path, 'body.api_base_url');
      assert.equal(other.requests.length, 0, 'the other URL received nothing');
      const bad = await select(user.key, 'wf1', 'not a url');
      assertProblem(bad, 400);
      assert.equal(other.requests.length, 0);
    } finally {
      await other.close();
    }
  });

  test('selection needs a workflow of the tool with a POST Webhook trigger (400 naming workflow_id)', async () => {
    const user = await createUser(ctx);
    assert.equal((await connect(user.key)).statusCode, 200);
    for (const [id, code] of [
      ['wf2', 'workflow_without_webhook'],
      ['wf3', 'workflow_webhook_not_post'],
      ['nope', 'workflow_not_found'],
    ] as const) {
      const res = await select(user.key, id);
      assertProblem(res, 400);
      assert.equal(res.data.code, code);
      assert.equal(res.data.errors[0].path, 'body.workflow_id');
      assert.match(res.data.detail, new RegExp(id));
    }
    const badEvent = await req('PUT', '/api/integrations/workflow/selection', user.key, {
      workflow_id: 'wf1',
      workflow_name: 'x',
      default_event: 'whenever',
      api_base_url: tool.url,
    });
    assertProblem(badEvent, 400);
  });

  test('private destinations outside OUTBOUND_ALLOWLIST and metadata addresses → 400 destination_not_allowed', async () => {
    const strict = await buildLoggedApp();
    try {
      const user = await createUser(strict);
      const before = tool.requests.length;
      const res = await call(strict.app, 'POST', '/api/integrations/workflow/connect', {
        key: user.key,
        body: { api_key: N8N_KEY, api_base_url: tool.url, include_metadata: false },
      });
      assertProblem(res, 400);
      assert.equal(res.data.code, 'destination_not_allowed');
      assert.equal(tool.requests.length, before);
    } finally {
      await strict.close();
    }
    const user = await createUser(ctx);
    const metadata = await connect(user.key, 'http://169.254.169.254/latest');
    assertProblem(metadata, 400);
    assert.equal(metadata.data.code, 'destination_not_allowed');
    const scheme = await connect(user.key, 'file:///etc/passwd');
    assertProblem(scheme, 400);
  });

  test('push answered non-2xx → delivered false with its status; unreachable → 503', async () => {
    const user = await createUser(ctx);
    const flaky = await n8nStandIn();
    assert.equal((await connect(user.key, flaky.url)).statusCode, 200);
    assert.equal((await select(user.key, 'wf1', flaky.url)).statusCode, 200);
    flaky.webhookAnswers.push(500);
    const failed = await req('POST', '/api/integrations/workflow/push', user.key, { event: 'x', data: {} });
    assert.equal(failed.statusCode, 200, failed.body);
    assert.equal(failed.data.delivered, false);
    assert.equal(failed.data.status_code, 500);
    assert.ok(!failed.body.includes(BODY_MARKER));
    await flaky.close();
    const down = await req('POST', '/api/integrations/workflow/push', user.key, { event: 'x', data: {} });
    assertProblem(down, 503);
    const deliveries = await req('GET', '/api/integrations/workflow/deliveries', user.key);
    assert.deepEqual(
      deliveries.data.deliveries.map((d: Json) => [d.status, d.response_status]),
      [
        ['failed', null],
        ['failed', 500],
      ],
    );
  });

  test('without a connection or a selection: workflows, selection and push → 409; disconnect → 404', async () => {
    const user = await createUser(ctx);
    for (const res of [
      await req('GET', '/api/integrations/workflow/workflows', user.key),
      await select(user.key),
      await req('POST', '/api/integrations/workflow/push', user.key, { event: 'x', data: {} }),
    ]) {
      assertProblem(res, 409);
      assert.equal(res.data.code, 'workflow_not_connected');
    }
    assertProblem(await req('DELETE', '/api/integrations/workflow/connection', user.key), 404);
    assert.equal((await connect(user.key)).statusCode, 200);
    const push = await req('POST', '/api/integrations/workflow/push', user.key, { event: 'x', data: {} });
    assertProblem(push, 409);
    assert.equal(push.data.code, 'workflow_not_selected');
  });

  test('disconnect forgets the connection (204, audited); reconnecting the same URL keeps the selection', async () => {
    const user = await createUser(ctx);
    assert.equal((await connect(user.key)).statusCode, 200);
    assert.equal((await select(user.key)).statusCode, 200);
    const again = await connect(user.key);
    assert.equal(again.statusCode, 200);
    const status = await req('GET', '/api/integrations/workflow/status', user.key);
    assert.equal(status.data.selection.workflow_id, 'wf1');

    const gone = await req('DELETE', '/api/integrations/workflow/connection', user.key);
    assert.equal(gone.statusCode, 204);
    assert.equal((await req('GET', '/api/integrations/workflow/status', user.key)).data.connected, false);
    assertProblem(
      await req('POST', '/api/integrations/workflow/push', user.key, { event: 'x', data: {} }),
      409,
    );
    const audit = await req('GET', '/api/user/audit-log', user.key);
    assert.ok(audit.data.entries.some((e: Json) => e.action === 'integration.disconnected'));
  });

  test("another user's connection is invisible: their routes answer as if nothing were connected", async () => {
    const owner = await createUser(ctx);
    const stranger = await createUser(ctx);
    assert.equal((await connect(owner.key)).statusCode, 200);
    assert.equal((await select(owner.key)).statusCode, 200);
    assertProblem(await req('GET', '/api/integrations/workflow/workflows', stranger.key), 409);
    assertProblem(await req('DELETE', '/api/integrations/workflow/connection', stranger.key), 404);
    assert.equal((await req('GET', '/api/integrations/workflow/status', stranger.key)).data.connected, false);
    assert.deepEqual((await req('GET', '/api/integrations/workflow/deliveries', stranger.key)).data, {
      deliveries: [],
    });
    // The owner's connection survived the stranger's attempts.
    assert.equal((await req('GET', '/api/integrations/workflow/status', owner.key)).data.connected, true);
  });

  test('no key → 401; a read-only key cannot connect, select, push or disconnect (403)', async () => {
    const reader = await createUser(ctx, 'developer', ['read']);
    assertProblem(await req('GET', '/api/integrations/workflow/workflows'), 401);
    assertProblem(await connect(reader.key), 403);
    assertProblem(await select(reader.key), 403);
    assertProblem(
      await req('POST', '/api/integrations/workflow/push', reader.key, { event: 'x', data: {} }),
      403,
    );
    assertProblem(await req('DELETE', '/api/integrations/workflow/connection', reader.key), 403);
    assert.equal((await req('GET', '/api/integrations/workflow/status', reader.key)).statusCode, 200);
  });

  test('strict bodies: unknown fields and wrong types → 400', async () => {
    const user = await createUser(ctx);
    assertProblem(await connect(user.key, tool.url, { extra: 1 }), 400);
    assertProblem(await connect(user.key, tool.url, { include_metadata: 'yes' }), 400);
    assertProblem(
      await req('POST', '/api/integrations/workflow/push', user.key, { event: 'x', data: {}, gate: {} }),
      400,
    );
  });

  // Last: every body and log line of the suite.
  test('no response body or log line ever contains the workflow key or a stored secret', async () => {
    const logs = ctx.logs();
    assert.ok(logs.length > 0, 'the logger captured lines');
    for (const text of [...bodies, logs]) {
      assert.ok(!text.includes(N8N_KEY), 'the workflow key leaked');
      assert.ok(!text.includes(BODY_MARKER), "the tool's body leaked");
    }
    const rows = await ctx.app.services.db.selectFrom('workflow_connections').selectAll().execute();
    assert.ok(rows.length > 0);
    for (const row of rows) {
      assert.ok(!JSON.stringify(row).includes(N8N_KEY), 'the key is encrypted at rest');
      assert.ok(!row.signing_secret_sealed.startsWith('whsec_'));
    }
  });
});

describe('workflow status: connected_at', () => {
  let ctx: LoggedContext;
  let tool: N8nStandIn;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));

  before(async () => {
    ctx = await buildLoggedApp({ env: ENV, clock });
    tool = await n8nStandIn();
  });

  after(async () => {
    await tool.close();
    await ctx.close();
  });

  test('saving a selection keeps connected_at at the connection time; reconnecting moves it', async () => {
    const user = await createUser(ctx);
    const iso = () => new Date(clock.now()).toISOString();
    const body = { api_key: N8N_KEY, api_base_url: tool.url, include_metadata: false };
    const connect = () =>
      call(ctx.app, 'POST', '/api/integrations/workflow/connect', { key: user.key, body });
    const status = async () =>
      (await call(ctx.app, 'GET', '/api/integrations/workflow/status', { key: user.key })).data;

    assert.equal((await connect()).statusCode, 200);
    const connectedAt = iso();
    assert.equal((await status()).connected_at, connectedAt);

    clock.advance(60_000);
    const selected = await call(ctx.app, 'PUT', '/api/integrations/workflow/selection', {
      key: user.key,
      body: {
        workflow_id: 'wf1',
        workflow_name: 'Social response',
        default_event: 'trend_lifecycle',
        api_base_url: tool.url,
      },
    });
    assert.equal(selected.statusCode, 200, selected.body);
    const selectedAt = iso();
    const afterSelection = await status();
    assert.equal(afterSelection.selection.selected_at, selectedAt);
    assert.equal(afterSelection.connected_at, connectedAt);

    // A reconnect is a new connection (new key check, new signing secret); the same URL keeps the selection.
    clock.advance(60_000);
    assert.equal((await connect()).statusCode, 200);
    const afterReconnect = await status();
    assert.equal(afterReconnect.connected_at, iso());
    assert.equal(afterReconnect.selection.selected_at, selectedAt);
  });
});
