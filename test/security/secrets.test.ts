// Secrets never leave: a broad flow (API keys, webhooks, the workflow tool, chat and forum-ads OAuth) with a
// debug-level logger, then every secret is looked for in every response body but the one that created it,
// in every log line, and in every column of every table.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { call, createUser, type Json } from '../helpers/app.ts';
import { usingPostgres } from '../helpers/db.ts';
import {
  buildLoggedApp,
  CHAT,
  connect,
  FORUM,
  type IntegrationTestContext,
  metaStandIn,
  providerEnv,
  redditStandIn,
  SOCIAL,
  slackStandIn,
} from '../modules/integrations/stand-ins.ts';
import { N8N_KEY, n8nStandIn, runJobs } from '../modules/integrations/workflow-stand-in.ts';
import { type Receiver, startReceiver } from '../modules/webhooks/receiver.ts';

interface Response {
  label: string;
  text: string;
}

describe('secrets never leave (responses, logs, stored rows)', () => {
  let ctx: IntegrationTestContext;
  let slack: Awaited<ReturnType<typeof slackStandIn>>;
  let reddit: Awaited<ReturnType<typeof redditStandIn>>;
  let meta: Awaited<ReturnType<typeof metaStandIn>>;
  let n8n: Awaited<ReturnType<typeof n8nStandIn>>;
  let receiver: Receiver;
  const responses: Response[] = [];
  /** secret value → labels of the responses allowed to carry it (the one that created it). */
  const secrets = new Map<string, { name: string; allowedIn: string[] }>();
  const secret = (name: string, value: string | undefined, ...allowedIn: string[]) => {
    assert.ok(value && value.length >= 8, `${name} was not captured`);
    secrets.set(value, { name, allowedIn });
  };

  async function req(
    label: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    key?: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) {
    const res = await call(ctx.app, method, url, { key, body, headers });
    responses.push({ label, text: `${JSON.stringify(res.headers)}\n${res.body}` });
    assert.ok(res.statusCode < 300, `${label}: ${res.statusCode} ${res.body}`);
    return res.data;
  }

  before(async () => {
    slack = await slackStandIn();
    reddit = await redditStandIn();
    meta = await metaStandIn();
    n8n = await n8nStandIn();
    receiver = await startReceiver();
    ctx = await buildLoggedApp({ ...providerEnv(slack, reddit, meta), OUTBOUND_ALLOWLIST: '127.0.0.0/8' });
    secret('bootstrap key', ctx.operatorKey);
    secret('chat client secret', CHAT.secret);
    secret('forum client secret', FORUM.secret);
    secret('social ads app secret', SOCIAL.secret);
    secret('workflow tool api key', N8N_KEY);

    const user = await createUser(ctx, 'enterprise');
    // createUser's key came from the operator route's 201: that response is not recorded here.
    secret('user key', user.key);
    await req('profile', 'GET', '/api/user/profile', user.key);

    // API keys: create (with an Idempotency-Key, so a stored response holds it), list, rotate, revoke.
    const created = await req(
      'key create',
      'POST',
      '/api/user/api-keys',
      user.key,
      { name: 'ci' },
      {
        'idempotency-key': 'sec-key-1',
      },
    );
    secret('created key', created.api_key, 'key create', 'key create replay');
    await req(
      'key create replay',
      'POST',
      '/api/user/api-keys',
      user.key,
      { name: 'ci' },
      {
        'idempotency-key': 'sec-key-1',
      },
    );
    await req('key list', 'GET', '/api/user/api-keys', user.key);
    const rotated = await req('key rotate', 'POST', `/api/user/api-keys/${created.id}/rotate`, user.key, {});
    secret('rotated key', rotated.api_key, 'key rotate');
    await req('key list 2', 'GET', '/api/user/api-keys', rotated.api_key);
    await req('key revoke', 'DELETE', `/api/user/api-keys/${rotated.id}`, user.key);

    // Webhooks: create, list, patch, rotate the secret, a test delivery to a 127.0.0.1 receiver, executions.
    const hook = await req(
      'webhook create',
      'POST',
      '/api/integrations/webhooks',
      user.key,
      {
        url: receiver.url,
        trigger_type: 'trend_velocity',
        delivery_mode: 'instant_stream',
        threshold_value: 60,
        cooldown_seconds: 60,
      },
      { 'idempotency-key': 'sec-hook-1' },
    );
    secret('webhook secret', hook.secret, 'webhook create');
    await req('webhook list', 'GET', '/api/integrations/webhooks', user.key);
    await req('webhook patch', 'PATCH', `/api/integrations/webhooks/${hook.id}`, user.key, {
      cooldown_seconds: 90,
    });
    const rotatedHook = await req(
      'webhook rotate',
      'POST',
      `/api/integrations/webhooks/${hook.id}/rotate-secret`,
      user.key,
    );
    secret('rotated webhook secret', rotatedHook.secret, 'webhook rotate');
    await req('webhook test', 'POST', `/api/integrations/webhooks/${hook.id}/test`, user.key);
    assert.ok(receiver.received.length >= 1, 'the receiver got the test delivery');
    await req('webhook executions', 'GET', `/api/integrations/webhooks/${hook.id}/executions`, user.key);

    // The workflow tool: connect, list workflows, select, push, status, deliveries.
    const wf = await req('workflow connect', 'POST', '/api/integrations/workflow/connect', user.key, {
      api_key: N8N_KEY,
      api_base_url: n8n.url,
      include_metadata: true,
    });
    secret('workflow signing secret', wf.signing_secret, 'workflow connect');
    await req('workflow list', 'GET', '/api/integrations/workflow/workflows', user.key);
    await req('workflow select', 'PUT', '/api/integrations/workflow/selection', user.key, {
      workflow_id: 'wf1',
      workflow_name: 'Social response',
      default_event: 'trend_lifecycle',
      api_base_url: n8n.url,
    });
    await req('workflow push', 'POST', '/api/integrations/workflow/push', user.key, {
      event: 'custom.event',
      data: { note: 'hello' },
    });
    await req('workflow status', 'GET', '/api/integrations/workflow/status', user.key);
    await req('workflow deliveries', 'GET', '/api/integrations/workflow/deliveries', user.key);

    // Chat OAuth (Slack's wire format): auth → callback page → confirm; channels, save, status.
    const chat = await connect(ctx.app, user.key, '/api/integrations/chat/auth');
    responses.push(
      { label: 'chat auth', text: chat.auth.body },
      { label: 'chat callback page', text: chat.page.body },
      { label: 'chat callback done', text: `${JSON.stringify(chat.done.headers)}\n${chat.done.body}` },
    );
    assert.equal(chat.done.statusCode, 200, chat.done.body);
    secret('chat code', chat.form.code, 'chat callback page');
    secret('chat confirm token', chat.form.confirm_token, 'chat callback page');
    for (const token of slack.state.issued) secret('chat access token', token);
    // Slack's incoming-webhook URL is a credential too (anyone holding it can post).
    secret('chat incoming webhook url', 'https://hooks.example/SECRET');
    await req('chat channels', 'GET', '/api/integrations/chat/channels', user.key);
    await req('chat save', 'POST', '/api/integrations/chat/save-channel', user.key, {
      channel_id: 'C1',
      channel_name: 'general',
    });
    await req('chat status', 'GET', '/api/integrations/chat/status', user.key);

    // Forum ads OAuth with PKCE: the verifier only ever goes to the provider's token endpoint.
    const forum = await connect(ctx.app, user.key, '/api/integrations/forum-ads/auth');
    responses.push(
      { label: 'forum auth', text: forum.auth.body },
      { label: 'forum callback page', text: forum.page.body },
      { label: 'forum callback done', text: `${JSON.stringify(forum.done.headers)}\n${forum.done.body}` },
    );
    assert.equal(forum.done.statusCode, 200, forum.done.body);
    secret('forum code', forum.form.code, 'forum callback page');
    const tokenCall = reddit.requests.find((r) => r.path === '/api/v1/access_token');
    secret('forum PKCE verifier', new URLSearchParams(tokenCall?.body).get('code_verifier') ?? undefined);
    for (const token of reddit.state.issued) secret('forum token', token);
    await req('forum status', 'GET', '/api/integrations/forum-ads/status', user.key);
    await req('forum selection', 'PUT', '/api/integrations/forum-ads/selection', user.key, {
      account_id: 't2_abc',
      pixel_id: 'a2_pixel1',
      event_name: 'Purchase',
    });
    await req('forum push', 'POST', '/api/integrations/forum-ads/push', user.key, {
      event_name: 'purchase',
      data: { value: 10, currency: 'EUR' },
    });
    // Social ads OAuth (Meta's Graph API takes the token and its appsecret_proof in the query string).
    const social = await connect(ctx.app, user.key, '/api/integrations/ads/social_ads/auth');
    responses.push(
      { label: 'social auth', text: social.auth.body },
      { label: 'social callback page', text: social.page.body },
      { label: 'social callback done', text: `${JSON.stringify(social.done.headers)}\n${social.done.body}` },
    );
    assert.equal(social.done.statusCode, 200, social.done.body);
    secret('social code', social.form.code, 'social callback page');
    for (const token of meta.state.issued) {
      secret('social token', token);
      secret('social appsecret_proof', createHmac('sha256', SOCIAL.secret).update(token).digest('hex'));
    }
    await req('social selection', 'PUT', '/api/integrations/ads/social_ads/selection', user.key, {
      ad_account_id: 'act_123',
      ad_set_ids: ['2385'],
      trend_category: 'technology',
      strict_safety: false,
    });
    await req('ads providers', 'GET', '/api/integrations/ads/providers', user.key);
    await runJobs(ctx);
    await req('forum deliveries', 'GET', '/api/integrations/forum-ads/deliveries', user.key);
    await req('audit log', 'GET', '/api/user/audit-log?limit=100', user.key);
    await req('openapi', 'GET', '/api/openapi.json');

    // Disconnects revoke at the provider; nothing they answer may carry a secret either.
    await req('chat disconnect', 'DELETE', '/api/integrations/chat/connection', user.key);
    await req('forum disconnect', 'DELETE', '/api/integrations/forum-ads/connection', user.key);
    await req('social disconnect', 'DELETE', '/api/integrations/ads/social_ads/connection', user.key);
    await req('workflow disconnect', 'DELETE', '/api/integrations/workflow/connection', user.key);
  });

  after(async () => {
    await ctx?.close();
    await Promise.all([slack?.close(), reddit?.close(), meta?.close(), n8n?.close(), receiver?.close()]);
  });

  test('the flow ran with debug logging and captured every kind of secret', () => {
    assert.ok(ctx.logs.length > 20, 'debug logs were written');
    const names = new Set([...secrets.values()].map((s) => s.name));
    for (const name of [
      'chat access token',
      'forum token',
      'forum PKCE verifier',
      'workflow signing secret',
    ]) {
      assert.ok(names.has(name), name);
    }
  });

  test('no response body or header carries a secret, except the one response that created it', () => {
    const leaks: string[] = [];
    for (const [value, { name, allowedIn }] of secrets) {
      for (const response of responses) {
        if (allowedIn.includes(response.label)) continue;
        if (response.text.includes(value)) leaks.push(`${name} in "${response.label}"`);
      }
      // The scan is not vacuous: the creating response did carry it.
      if (allowedIn.length > 0) {
        assert.ok(
          responses.some((r) => r.label === allowedIn[0] && r.text.includes(value)),
          `${name} not in "${allowedIn[0]}"`,
        );
      }
    }
    assert.deepEqual(leaks, []);
  });

  test('no log line carries a secret (the bootstrap key included)', () => {
    const leaks: string[] = [];
    for (const [value, { name }] of secrets) {
      const line = ctx.logs.find((l) => l.includes(value));
      if (line) leaks.push(`${name}: ${line.slice(0, 300)}`);
    }
    assert.deepEqual(leaks, []);
  });

  test('no table holds a secret in plaintext (every column of every table)', async () => {
    const db = ctx.app.services.db;
    const tables = usingPostgres
      ? (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
        ).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows;
    const names = tables.map((t) => t.name);
    for (const expected of [
      'api_keys',
      'webhook_subscriptions',
      'integration_connections',
      'workflow_connections',
      'idempotency_keys',
      'jobs',
    ]) {
      assert.ok(
        names.some((n) => n === expected || n.startsWith(expected)),
        `${expected} not found in ${names}`,
      );
    }
    const leaks: string[] = [];
    for (const table of names) {
      const rows = (await sql<Json>`select * from ${sql.table(table)}`.execute(db)).rows;
      const text = JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
      for (const [value, { name }] of secrets) {
        if (text.includes(value)) leaks.push(`${name} in table ${table}`);
        // An API key's secret part (after the 11-character prefix) must not be there either.
        if (value.startsWith('cw_') && text.includes(value.slice(11))) leaks.push(`${name} body in ${table}`);
      }
    }
    assert.deepEqual(leaks, []);
  });
});
