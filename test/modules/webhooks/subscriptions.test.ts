// Webhook subscription routes: create, list, update, rotate, delete; validation, the outbound guard and
// tenant walls.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';

const BASE = '/api/integrations/webhooks';
const body = (extra: Record<string, unknown> = {}) => ({
  url: 'http://127.0.0.1:9/hook',
  trigger_type: 'trend_velocity',
  delivery_mode: 'instant_stream',
  threshold_value: 60,
  cooldown_seconds: 60,
  ...extra,
});

describe('webhook subscriptions', () => {
  let ctx: TestContext;
  let alice: { key: string; userId: number };
  let bob: { key: string; userId: number };
  let readOnly: string;
  before(async () => {
    ctx = await buildTestApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8' } });
    alice = await createUser(ctx, 'enterprise');
    bob = await createUser(ctx, 'enterprise');
    readOnly = (await createUser(ctx, 'developer', ['read'])).key;
  });
  after(async () => ctx.close());

  test('create returns the subscription with its secret once; list never shows the secret', async () => {
    const res = await call(ctx.app, 'POST', BASE, {
      key: alice.key,
      body: body({ filters: { category: 'Technology', keywords: ['AI'], min_severity: 'medium' } }),
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.match(res.data.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(res.data.secret.slice(6), 'base64').length, 32);
    assert.deepEqual(
      { ...res.data, id: 0, secret: '', created_at: '' },
      {
        id: 0,
        url: 'http://127.0.0.1:9/hook',
        target_url: 'http://127.0.0.1:9/hook',
        events: ['trend.alert.created'],
        trigger_type: 'trend_velocity',
        delivery_mode: 'instant_stream',
        threshold_value: 60,
        cooldown_seconds: 60,
        filters: { category: 'Technology', keywords: ['AI'], min_severity: 'medium' },
        is_active: true,
        failure_count: 0,
        last_delivery_at: null,
        created_at: '',
        secret: '',
      },
    );
    const list = await call(ctx.app, 'GET', BASE, { key: alice.key });
    assert.equal(list.statusCode, 200);
    assert.equal(list.data.webhooks.length, 1);
    assert.equal(list.data.webhooks[0].id, res.data.id);
    assert.equal('secret' in list.data.webhooks[0], false);
    const stored = await ctx.app.services.db
      .selectFrom('webhook_subscriptions')
      .select('secret')
      .where('id', '=', res.data.id)
      .executeTakeFirstOrThrow();
    assert.ok(!stored.secret.includes(res.data.secret.slice(6)), 'the secret is encrypted at rest');
    const audit = await call(ctx.app, 'GET', '/api/user/audit-log', { key: alice.key });
    assert.ok(audit.data.entries.some((e: { action: string }) => e.action === 'webhook.created'));
  });

  test('every record carries upstream’s target_url and the event names its deliveries carry', async () => {
    const expected: [string, string, string[]][] = [
      ['trend_velocity', 'instant_stream', ['trend.alert.created']],
      ['trend_lifecycle', 'instant_stream', ['trend.lifecycle.changed']],
      [
        'crisis_event',
        'instant_stream',
        ['crisis.event.opened', 'crisis.event.escalated', 'crisis.event.resolved'],
      ],
      // A digest subscription receives `event: "digest"` bodies that wrap the others.
      ['trend_velocity', 'digest', ['digest']],
      ['crisis_event', 'digest', ['digest']],
    ];
    const user = await createUser(ctx, 'enterprise');
    const ids = new Map<number, string[]>();
    const createdAt = new Map<number, string>();
    for (const [trigger_type, delivery_mode, events] of expected) {
      const url = `http://127.0.0.1:9/${trigger_type}-${delivery_mode}`;
      const res = await call(ctx.app, 'POST', BASE, {
        key: user.key,
        body: body({ url, trigger_type, delivery_mode }),
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.data.target_url, url);
      assert.deepEqual(res.data.events, events, `${trigger_type}/${delivery_mode}`);
      ids.set(res.data.id, events);
      createdAt.set(res.data.id, res.data.created_at);
    }
    const list = await call(ctx.app, 'GET', BASE, { key: user.key });
    assert.deepEqual(Object.keys(list.data), ['webhooks'], 'the list keeps its wrapper');
    assert.deepEqual(
      list.data.webhooks.map((hook: { id: number }) => hook.id).sort((a: number, b: number) => a - b),
      [...ids.keys()].sort((a, b) => a - b),
      'every subscription just created, and only those',
    );
    for (const hook of list.data.webhooks) {
      // Upstream's WebhookSubscription: secret null or absent; target_url, events, is_active, created_at.
      assert.equal('secret' in hook, false);
      assert.equal(hook.target_url, hook.url);
      assert.deepEqual(hook.events, ids.get(hook.id));
      assert.equal(hook.is_active, true);
      assert.equal(hook.created_at, createdAt.get(hook.id));
    }
    const [first] = ids.keys();
    const moved = await call(ctx.app, 'PATCH', `${BASE}/${first}`, {
      key: user.key,
      body: { url: 'http://127.0.0.1:9/moved' },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(moved.data.target_url, 'http://127.0.0.1:9/moved');
    assert.deepEqual(moved.data.events, ['trend.alert.created']);
    // target_url and events are answers, not inputs: unknown body fields stay 400.
    for (const extra of [{ target_url: 'http://127.0.0.1:9/x' }, { events: ['digest'] }]) {
      const res = await call(ctx.app, 'PATCH', `${BASE}/${first}`, { key: user.key, body: extra });
      assertProblem(res, 400);
      assert.match(JSON.stringify(res.data.errors), new RegExp(Object.keys(extra)[0]!));
    }
  });

  test('the OpenAPI document describes every outbound event in its webhooks section', async () => {
    const doc = await call(ctx.app, 'GET', '/api/openapi.json');
    const hooks = doc.data.webhooks;
    for (const name of [
      'trend.alert.created',
      'trend.lifecycle.changed',
      'crisis.event.opened',
      'crisis.event.escalated',
      'crisis.event.resolved',
      'digest',
      'webhook.test',
    ]) {
      assert.ok(hooks[name]?.post?.requestBody, name);
    }
    const alert = hooks['trend.alert.created'].post.requestBody.content['application/json'].schema;
    assert.ok(alert.properties.recommended_next_steps);
    assert.ok(doc.data.paths['/api/integrations/webhooks/{id}/executions/{execution_id}/redeliver']);
  });

  test('invalid input → 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [body({ url: 'ftp://example.com/x' }), 'body.url'],
      [body({ url: 'not a url' }), 'body.url'],
      [body({ threshold_value: -1 }), 'threshold_value'],
      [body({ threshold_value: 101 }), 'body.threshold_value'],
      [body({ cooldown_seconds: 86_401 }), 'cooldown_seconds'],
      [body({ cooldown_seconds: -1 }), 'cooldown_seconds'],
      [body({ cooldown_seconds: '60' }), 'cooldown_seconds'],
      [body({ trigger_type: 'sometimes' }), 'trigger_type'],
      [body({ delivery_mode: 'carrier_pigeon' }), 'delivery_mode'],
      [body({ filters: { colour: 'red' } }), 'filters'],
      [body({ filters: { min_severity: 'apocalyptic' } }), 'min_severity'],
      [body({ filters: { category: 'Nope/Nope' } }), 'body.filters.category'],
      [body({ filters: { keywords: ['ok', '  '] } }), 'body.filters.keywords[1]'],
      // Crisis events carry no category: such a filter would hold every event back.
      [body({ trigger_type: 'crisis_event', filters: { category: 'Technology' } }), 'body.filters.category'],
      [body({ extra: 1 }), 'extra'],
    ];
    for (const [payload, field] of cases) {
      const res = await call(ctx.app, 'POST', BASE, { key: alice.key, body: payload });
      assertProblem(res, 400);
      assert.ok(JSON.stringify(res.data).includes(field), `${field}: ${JSON.stringify(res.data)}`);
    }
    const missing = await call(ctx.app, 'POST', BASE, { key: alice.key, body: { url: 'http://127.0.0.1/' } });
    assertProblem(missing, 400);
    // A slug is read as GET /api/trends reads it, and stored as the category's name.
    const bySlug = await call(ctx.app, 'POST', BASE, {
      key: alice.key,
      body: body({ filters: { category: 'technology-ai' } }),
    });
    assert.equal(bySlug.statusCode, 201, bySlug.body);
    assert.equal(bySlug.data.filters.category, 'Technology/AI');
  });

  test('private destinations are refused unless allow-listed; metadata addresses always', async () => {
    const res = await call(ctx.app, 'POST', BASE, {
      key: alice.key,
      body: body({ url: 'http://10.0.0.1/' }),
    });
    assertProblem(res, 400);
    assert.equal(res.data.code, 'destination_not_allowed');
    assert.match(res.data.detail, /body\.url/);
    const meta = await call(ctx.app, 'POST', BASE, {
      key: alice.key,
      body: body({ url: 'http://169.254.169.254/latest/meta-data' }),
    });
    assertProblem(meta, 400);
    assert.equal(meta.data.code, 'destination_not_allowed');

    const wide = await buildTestApp({ env: { OUTBOUND_ALLOWLIST: '10.0.0.0/8,169.254.0.0/16' } });
    try {
      const user = await createUser(wide);
      const ok = await call(wide.app, 'POST', BASE, {
        key: user.key,
        body: body({ url: 'http://10.0.0.1/' }),
      });
      assert.equal(ok.statusCode, 201, ok.body);
      const still = await call(wide.app, 'POST', BASE, {
        key: user.key,
        body: body({ url: 'http://169.254.169.254/' }),
      });
      assertProblem(still, 400);
    } finally {
      await wide.close();
    }
  });

  test('PATCH changes fields, re-enabling resets failure_count, and a refused URL is a 400', async () => {
    const created = await call(ctx.app, 'POST', BASE, { key: alice.key, body: body() });
    const id = created.data.id;
    await ctx.app.services.db
      .updateTable('webhook_subscriptions')
      .set({ is_active: 0, failure_count: 7, failing_since: 1 })
      .where('id', '=', id)
      .execute();
    const res = await call(ctx.app, 'PATCH', `${BASE}/${id}`, {
      key: alice.key,
      body: { threshold_value: 80, cooldown_seconds: 0, filters: { keywords: ['llm'] }, is_active: true },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.threshold_value, 80);
    assert.equal(res.data.cooldown_seconds, 0);
    assert.deepEqual(res.data.filters, { keywords: ['llm'] });
    assert.equal(res.data.is_active, true);
    assert.equal(res.data.failure_count, 0);
    const bad = await call(ctx.app, 'PATCH', `${BASE}/${id}`, {
      key: alice.key,
      body: { url: 'http://169.254.169.254/' },
    });
    assertProblem(bad, 400);
    assertProblem(
      await call(ctx.app, 'PATCH', `${BASE}/${id}`, { key: alice.key, body: { secret: 'x' } }),
      400,
    );
    const audit = await call(ctx.app, 'GET', '/api/user/audit-log', { key: alice.key });
    assert.ok(audit.data.entries.some((e: { action: string }) => e.action === 'webhook.changed'));
  });

  test('rotate-secret → 201 with a new secret', async () => {
    const created = await call(ctx.app, 'POST', BASE, { key: alice.key, body: body() });
    const res = await call(ctx.app, 'POST', `${BASE}/${created.data.id}/rotate-secret`, { key: alice.key });
    assert.equal(res.statusCode, 201, res.body);
    assert.match(res.data.secret, /^whsec_/);
    assert.notEqual(res.data.secret, created.data.secret);
  });

  test('another user’s subscription → 404 on every route; after DELETE → 404', async () => {
    const created = await call(ctx.app, 'POST', BASE, { key: alice.key, body: body() });
    const id = created.data.id;
    const routes: [string, string, unknown?][] = [
      ['PATCH', `${BASE}/${id}`, { cooldown_seconds: 5 }],
      ['POST', `${BASE}/${id}/rotate-secret`],
      ['POST', `${BASE}/${id}/test`],
      ['GET', `${BASE}/${id}/executions`],
      ['POST', `${BASE}/${id}/executions/1/redeliver`],
      ['DELETE', `${BASE}/${id}`],
    ];
    for (const [method, url, payload] of routes) {
      assertProblem(await call(ctx.app, method as 'GET', url, { key: bob.key, body: payload }), 404);
    }
    const bobList = await call(ctx.app, 'GET', BASE, { key: bob.key });
    assert.deepEqual(bobList.data.webhooks, []);

    const del = await call(ctx.app, 'DELETE', `${BASE}/${id}`, { key: alice.key });
    assert.equal(del.statusCode, 204);
    for (const [method, url, payload] of routes) {
      assertProblem(await call(ctx.app, method as 'GET', url, { key: alice.key, body: payload }), 404);
    }
    const audit = await call(ctx.app, 'GET', '/api/user/audit-log', { key: alice.key });
    assert.ok(audit.data.entries.some((e: { action: string }) => e.action === 'webhook.deleted'));
  });

  test('no key → 401; a read-only key cannot change anything (403)', async () => {
    assertProblem(await call(ctx.app, 'GET', BASE), 401);
    assertProblem(await call(ctx.app, 'POST', BASE, { body: body() }), 401);
    assertProblem(await call(ctx.app, 'POST', BASE, { key: readOnly, body: body() }), 403);
    assert.equal((await call(ctx.app, 'GET', BASE, { key: readOnly })).statusCode, 200);
  });

  test('executions of an unknown execution id → 404 on redeliver', async () => {
    const created = await call(ctx.app, 'POST', BASE, { key: alice.key, body: body() });
    const res = await call(ctx.app, 'POST', `${BASE}/${created.data.id}/executions/999999/redeliver`, {
      key: alice.key,
    });
    assertProblem(res, 404);
    const list = await call(ctx.app, 'GET', `${BASE}/${created.data.id}/executions?limit=0`, {
      key: alice.key,
    });
    assertProblem(list, 400);
  });
});
