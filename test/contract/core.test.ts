// Black-box conformance of the core HTTP contract (API-CONTRACT.md: Conventions … Configuration; SPEC.md schemas),
// in contract order. Shapes are written out here from the documents, not read from the implementation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.ts';
import { sha256Hex } from '../../src/platform/crypto.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../helpers/app.ts';
import { testRedisUrl } from '../helpers/db.ts';
import { RELAXED_PLANS, seed, settle } from '../modules/insights/fixtures.ts';

type Shape = Record<string, string>;
const DT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const DATE = /^\d{4}-\d\d-\d\d$/;

function is(value: unknown, type: string): boolean {
  if (type.endsWith('|null')) return value === null || is(value, type.slice(0, -5));
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'dt':
      return typeof value === 'string' && DT.test(value);
    case 'date':
      return typeof value === 'string' && DATE.test(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'array':
      return Array.isArray(value);
    default:
      throw new Error(`unknown type ${type}`);
  }
}

/** Every field of `shape` is present (a black-box user reads them all) with the documented type. */
function conforms(value: Json | null | undefined, shape: Shape, where: string): void {
  assert.ok(value && typeof value === 'object', `${where} is an object`);
  for (const [field, type] of Object.entries(shape)) {
    assert.ok(field in value, `${where}.${field} is present`);
    assert.ok(is(value[field], type), `${where}.${field} is ${type}, got ${JSON.stringify(value[field])}`);
  }
}

// SPEC.md schemas.
const AI_INSIGHT: Shape = {
  trend_id: 'integer',
  trend_name: 'string|null',
  sentiment_summary: 'string|null',
  sentiment_category: 'string|null',
  key_themes: 'string[]',
  content_brief: 'object',
  ad_platform_targeting: 'object',
  trend_metrics: 'object|null',
  platform_signal: 'object|null',
  audience_injection: 'object|null',
  brand_safety: 'object|null',
  crm_and_support_insights: 'object',
  overall_topic_category_llm: 'string|null',
  analysis_notes: 'string|null',
  llm_model_used: 'string|null',
  generated_at: 'dt|null',
  usage_count: 'integer|null',
  usage_limit: 'integer|null',
};
const TREND_METRICS: Shape = {
  velocity_score: 'number|null',
  velocity_1h: 'number|null',
  predicted_cpc_usd: 'number|null',
  commercial_intent: 'number|null',
};
const PLATFORM_SIGNAL: Shape = { primary_source: 'string|null', virality_distribution: 'object' };
const AUDIENCE_INJECTION: Shape = {
  demographics: 'object',
  interest_keywords: 'string[]',
  negative_keywords: 'string[]',
  platform_payloads: 'object',
};
const BRAND_SAFETY: Shape = { level: 'string|null', flags: 'string[]' };
const API_KEY: Shape = {
  id: 'integer',
  name: 'string',
  prefix: 'string|null',
  created_at: 'dt|null',
  last_used_at: 'dt|null',
  permissions: 'string[]',
  is_active: 'boolean',
  expires_at: 'dt|null', // contract: "ApiKey also returns expires_at"
};
const API_KEY_CREATE: Shape = {
  id: 'integer',
  name: 'string',
  api_key: 'string|null',
  prefix: 'string|null',
  created_at: 'dt|null',
};
const USAGE_SUMMARY: Shape = {
  plan_daily_limit: 'integer|null',
  requests_today: 'integer|null',
  remaining_today: 'integer|null',
  total_requests_last_30_days: 'integer|null',
  cost_estimated_today: 'number|null',
};
const BLOG_POST: Shape = {
  id: 'integer',
  title: 'string',
  slug: 'string',
  excerpt: 'string|null',
  cover_image: 'string|null',
  published_at: 'dt',
  author_name: 'string|null',
  reading_time_minutes: 'integer',
  content: 'string|null',
};
const PAGINATION_META: Shape = {
  total: 'integer|null',
  limit: 'integer|null',
  offset: 'integer|null',
  period: 'string|null',
  sort_by: 'string|null',
  order: 'string|null',
  search: 'string|null',
  category: 'string|null',
  start_date: 'date|null',
  end_date: 'date|null',
};
const CATEGORY_INFO: Shape = {
  name: 'string',
  trend_count: 'integer',
  id: 'integer|null',
  slug: 'string|null',
  description: 'string|null',
};
const RELEASE: Shape = { id: 'string', title: 'string', published_at: 'string', source: 'string' };
const COMPONENT: Shape = { name: 'string', status: 'string' };
const TREND_ITEM: Shape = {
  id: 'integer',
  title: 'string',
  volume: 'integer',
  timestamp: 'dt',
  category: 'string',
  sentiment: 'string',
  sentiment_category: 'string',
  type: 'string',
  meta_description: 'string',
  growth: 'number|null',
  previous_volume: 'integer',
  absolute_change: 'integer',
  average_velocity: 'number',
  trend_stability: 'number',
  overall_trend: 'string',
  velocity_score: 'number',
  velocity_1h: 'integer',
  lifecycle_stage: 'string',
  platforms: 'object',
};
const USER_PROFILE: Shape = {
  id: 'integer',
  email: 'string',
  full_name: 'string|null',
  is_active: 'boolean',
  organization_role: 'string',
  subscription: 'object',
  created_at: 'dt|null',
};

function rateHeaders(res: { headers: Record<string, unknown> }, where: string): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    assert.match(String(res.headers[name]), /^\d+$/, `${where}: ${name} is an integer`);
  }
}

const NOW = Date.parse('2026-11-21T10:30:00Z');

describe('contract: core routes, black-box', () => {
  let ctx: TestContext;
  let user: { userId: number; key: string; keyId: number; email: string };
  let other: { userId: number; key: string; keyId: number; email: string };
  let ids: Record<'negative' | 'positive' | 'profane', number>;
  const clock = new ManualClock(NOW);

  before(async () => {
    ctx = await buildTestApp({ clock, env: { PLANS: RELAXED_PLANS } });
    ids = await seed(ctx, NOW);
    await ctx.app.services.engine.tick();
    user = await createUser(ctx, 'developer');
    other = await createUser(ctx, 'developer');
  });
  after(async () => ctx.close());

  describe('Conventions', () => {
    test('the OpenAPI document is 3.1, version 0.10.0, with both security schemes and webhooks', async () => {
      const res = await call(ctx.app, 'GET', '/api/openapi.json');
      assert.equal(res.statusCode, 200);
      assert.match(res.data.openapi, /^3\.1\./);
      assert.equal(res.data.info.version, '0.10.0');
      const schemes = Object.values(res.data.components.securitySchemes) as Json[];
      assert.ok(schemes.some((s) => s.type === 'http' && s.scheme === 'bearer'));
      assert.ok(schemes.some((s) => s.type === 'apiKey' && s.in === 'header' && s.name === 'X-API-Key'));
      assert.ok(Object.keys(res.data.webhooks).length > 0);
      // The document declares the headers every response carries.
      for (const [path, item] of Object.entries(res.data.paths as Record<string, Json>)) {
        for (const [method, op] of Object.entries(item)) {
          const authenticated = (op.security ?? []).length > 0;
          for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
            const where = `${method.toUpperCase()} ${path} ${status}`;
            const headers = response.headers ?? {};
            assert.ok(headers['X-Request-Id'], `${where} declares X-Request-Id`);
            if (status === '429') {
              for (const h of [
                'Retry-After',
                'X-RateLimit-Limit',
                'X-RateLimit-Remaining',
                'X-RateLimit-Reset',
              ]) {
                assert.equal(headers[h]?.schema?.type, 'integer', `${where} declares ${h}`);
              }
            }
            if (status.startsWith('2') && authenticated) {
              assert.equal(
                headers['X-RateLimit-Reset']?.schema?.type,
                'integer',
                `${where} declares X-RateLimit-*`,
              );
            }
          }
        }
      }
      assert.equal(res.headers['x-ratelimit-limit'], undefined, 'openapi.json is never counted');
      assert.ok(res.headers['x-request-id']);
    });

    test('both servers are listed when STAGING_BASE_URL is set', async () => {
      const staged = await buildTestApp({
        env: { PUBLIC_BASE_URL: 'https://api.example.com', STAGING_BASE_URL: 'https://staging.example.com' },
      });
      try {
        const res = await call(staged.app, 'GET', '/api/openapi.json');
        const urls = (res.data.servers as Json[]).map((s) => s.url);
        assert.deepEqual(urls.sort(), ['https://api.example.com', 'https://staging.example.com']);
        // /docs "Try it out" calls the server the page came from first, whatever the configured addresses.
        const docs = await call(staged.app, 'GET', '/docs/json', { headers: { host: '127.0.0.1:4321' } });
        assert.equal(docs.statusCode, 200);
        assert.deepEqual(
          (docs.data.servers as Json[]).map((s) => s.url),
          ['http://127.0.0.1:4321', 'https://api.example.com', 'https://staging.example.com'],
        );
      } finally {
        await staged.close();
      }
    });

    test('a key is accepted as Bearer and as X-API-Key; missing, unknown or revoked → 401 problem', async () => {
      const bearer = await call(ctx.app, 'GET', '/api/user/profile', { key: user.key });
      const header = await call(ctx.app, 'GET', '/api/user/profile', { key: user.key, header: 'x-api-key' });
      assert.equal(bearer.statusCode, 200);
      assert.equal(header.statusCode, 200);
      for (const res of [
        await call(ctx.app, 'GET', '/api/user/profile'),
        await call(ctx.app, 'GET', '/api/user/profile', { key: `cw_${'a'.repeat(40)}` }),
        await call(ctx.app, 'GET', '/api/user/profile', { key: 'garbage' }),
      ]) {
        assertProblem(res, 401);
        assert.ok(res.headers['x-request-id']);
        assert.equal(res.data.request_id, res.headers['x-request-id']);
      }
    });

    test('a valid key lacking the permission → 403 problem', async () => {
      const reader = await createUser(ctx, 'developer', ['read']);
      assertProblem(
        await call(ctx.app, 'POST', '/api/user/interests', { key: reader.key, body: { keyword: 'x' } }),
        403,
      );
      assertProblem(await call(ctx.app, 'GET', '/api/admin/users', { key: user.key }), 403);
      assertProblem(
        await call(ctx.app, 'POST', '/api/signals', { key: user.key, body: { signals: [] } }),
        403,
      );
    });

    test('validation failures are 400 problems with errors[{path, message}] and no coercion of bodies', async () => {
      const res = await call(ctx.app, 'POST', '/api/user/interests', {
        key: user.key,
        body: { keyword: 'x', alert_condition_type: 'volume_above', volume_threshold_value: '5' },
      });
      assertProblem(res, 400);
      assert.ok(Array.isArray(res.data.errors) && res.data.errors.length > 0);
      for (const e of res.data.errors) conforms(e, { path: 'string', message: 'string' }, 'errors[]');
      assert.equal(typeof res.data.detail, 'string');
      assert.ok(res.data.detail.length > 0);
      const unknown = await call(ctx.app, 'POST', '/api/user/interests', {
        key: user.key,
        body: { keyword: 'x', surprise: 1 },
      });
      assertProblem(unknown, 400);
      // Rules checked past the schema name their field the same way the schema validator does.
      const rule = await call(ctx.app, 'POST', '/api/user/interests', {
        key: user.key,
        body: { keyword: 'solar power', alert_condition_type: 'volume_above' },
      });
      assertProblem(rule, 400);
      assert.deepEqual(
        rule.data.errors.map((e: Json) => e.path),
        ['body.volume_threshold_value'],
      );
      const category = await call(ctx.app, 'GET', '/api/trends?category=Nowhere', { key: user.key });
      assertProblem(category, 400);
      assert.equal(category.data.errors[0].path, 'query.category');
      const range = await call(ctx.app, 'GET', '/api/trends?start_date=2026-11-21&end_date=2026-11-20', {
        key: user.key,
      });
      assertProblem(range, 400);
      assert.equal(range.data.errors[0].path, 'query.start_date');
      const blogRange = await call(
        ctx.app,
        'GET',
        '/api/blog/posts?start_date=2026-11-21&end_date=2026-11-20',
      );
      assertProblem(blogRange, 400);
      assert.equal(blogRange.data.errors[0].path, 'query.start_date');
      const crisisRange = await call(
        ctx.app,
        'GET',
        '/api/intelligence/crisis-events?start_date=2026-11-21&end_date=2026-11-20',
        { key: user.key },
      );
      assertProblem(crisisRange, 400);
      assert.equal(crisisRange.data.errors[0].path, 'query.start_date');
      const location = await call(ctx.app, 'PUT', '/api/intelligence/resilience-settings', {
        key: user.key,
        body: { location_query: '95,0,10' },
      });
      assertProblem(location, 400);
      assert.equal(location.data.errors[0].path, 'body.location_query');
    });

    test('query values are parsed from strings; bad query values → 400', async () => {
      const ok = await call(ctx.app, 'GET', '/api/trends?limit=5&offset=0', { key: user.key });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.data.meta.limit, 5);
      assertProblem(await call(ctx.app, 'GET', '/api/trends?limit=0', { key: user.key }), 400);
      assertProblem(await call(ctx.app, 'GET', '/api/trends?limit=101', { key: user.key }), 400);
      assertProblem(await call(ctx.app, 'GET', '/api/trends?offset=-1', { key: user.key }), 400);
      assertProblem(await call(ctx.app, 'GET', '/api/trends?period=2h', { key: user.key }), 400);
      assertProblem(await call(ctx.app, 'GET', '/api/trends?start_date=2026-13-01', { key: user.key }), 400);
    });

    test('a non-JSON body → 415, over 1 MiB → 413, a POST without body where none is taken is fine', async () => {
      const text = await ctx.app.inject({
        method: 'POST',
        url: '/api/user/api-keys',
        headers: { authorization: `Bearer ${user.key}`, 'content-type': 'text/plain' },
        payload: 'name=x',
      });
      assertProblem({ ...text, data: JSON.parse(text.body) }, 415);
      const big = await ctx.app.inject({
        method: 'POST',
        url: '/api/user/api-keys',
        headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
      });
      assertProblem({ ...big, data: JSON.parse(big.body) }, 413);
      for (const res of [text, big]) {
        assert.ok(res.headers['x-request-id']);
        assert.equal(JSON.parse(res.body).request_id, res.headers['x-request-id']);
      }
      const analyze = await call(ctx.app, 'POST', `/api/trends/${ids.positive}/analyze`, { key: user.key });
      assert.equal(analyze.statusCode, 202);
    });

    test('Idempotency-Key replays status and body; a different body → 422; over 255 chars → 400', async () => {
      const headers = { 'idempotency-key': `core-${Math.random()}` };
      const first = await call(ctx.app, 'POST', '/api/user/interests', {
        key: user.key,
        headers,
        body: { keyword: 'idem' },
      });
      const second = await call(ctx.app, 'POST', '/api/user/interests', {
        key: user.key,
        headers,
        body: { keyword: 'idem' },
      });
      assert.equal(first.statusCode, 201);
      assert.equal(second.statusCode, 201);
      assert.deepEqual(second.data, first.data);
      assert.equal(second.headers['idempotent-replayed'], 'true');
      const different = await call(ctx.app, 'POST', '/api/user/interests', {
        key: user.key,
        headers,
        body: { keyword: 'other' },
      });
      assertProblem(different, 422);
      assertProblem(
        await call(ctx.app, 'POST', '/api/user/interests', {
          key: user.key,
          headers: { 'idempotency-key': 'k'.repeat(256) },
          body: { keyword: 'long' },
        }),
        400,
      );
    });

    test('Idempotency-Key: the same fields in another order or spacing are the same request', async () => {
      const headers = {
        'idempotency-key': `core-order-${Math.random()}`,
        'content-type': 'application/json',
      };
      const first = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        headers,
        body: '{"name":"ordered","permissions":["read"]}',
      });
      assert.equal(first.statusCode, 201, first.body);
      const reordered = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        headers,
        body: '{ "permissions": [ "read" ],\n  "name": "ordered" }',
      });
      assert.equal(reordered.statusCode, 201, reordered.body);
      assert.equal(reordered.headers['idempotent-replayed'], 'true');
      assert.equal(reordered.data.id, first.data.id);
      // Array order is content, not spelling: it stays a different request.
      const otherList = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        headers,
        body: '{"name":"ordered","permissions":["read","write"]}',
      });
      assertProblem(otherList, 422);
    });

    test('Idempotency-Key stored by the earlier rule (the body as sent) still replays an identical retry', async () => {
      const key = `core-legacy-${Math.random()}`;
      const body = '{"name":"legacy","permissions":["read"]}';
      const headers = { 'idempotency-key': key, 'content-type': 'application/json' };
      const first = await call(ctx.app, 'POST', '/api/user/api-keys', { key: user.key, headers, body });
      assert.equal(first.statusCode, 201, first.body);
      // As an upgrade finds it: the hash of the method, URL and body as it was sent.
      await ctx.app.services.db
        .updateTable('idempotency_keys')
        .set({ request_hash: sha256Hex(`POST /api/user/api-keys\n${body}`) })
        .where('idempotency_key', '=', key)
        .execute();
      const retry = await call(ctx.app, 'POST', '/api/user/api-keys', { key: user.key, headers, body });
      assert.equal(retry.statusCode, 201, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      const other = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        headers,
        body: '{"name":"legacy2","permissions":["read"]}',
      });
      assertProblem(other, 422);
    });

    test('a request that failed validation is not stored under its Idempotency-Key', async () => {
      const headers = { 'idempotency-key': `core-invalid-${Math.random()}` };
      assertProblem(
        await call(ctx.app, 'POST', '/api/user/interests', { key: user.key, headers, body: { keyword: '' } }),
        400,
      );
      const ok = await call(ctx.app, 'POST', '/api/user/interests', {
        key: user.key,
        headers,
        body: { keyword: 'after-invalid' },
      });
      assert.equal(ok.statusCode, 201);
      assert.equal(ok.headers['idempotent-replayed'], undefined);
    });

    test('every authenticated response carries X-RateLimit-* integers; every response X-Request-Id', async () => {
      for (const url of [
        '/api/trends',
        '/api/user/profile',
        '/api/user/api-keys',
        '/api/trends/categories',
      ]) {
        const res = await call(ctx.app, 'GET', url, { key: user.key });
        assert.equal(res.statusCode, 200, url);
        rateHeaders(res, url);
        assert.ok(res.headers['x-request-id'], url);
      }
      const missing = await call(ctx.app, 'GET', '/api/trends/999999', { key: user.key });
      assertProblem(missing, 404);
      rateHeaders(missing, '404');
      const bad = await call(ctx.app, 'GET', '/api/trends?limit=abc', { key: user.key });
      assertProblem(bad, 400);
      rateHeaders(bad, '400');
      for (const url of ['/status', '/api/plans', '/api/releases', '/api/blog/posts', '/nowhere']) {
        const res = await call(ctx.app, 'GET', url);
        assert.ok(res.headers['x-request-id'], `${url} has X-Request-Id`);
      }
      const nowhere = await call(ctx.app, 'GET', '/api/nowhere', { key: user.key });
      assertProblem(nowhere, 404);
    });

    test('a caller-supplied X-Request-Id is not required; ids are unique per response', async () => {
      const a = await call(ctx.app, 'GET', '/status');
      const b = await call(ctx.app, 'GET', '/status');
      assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
    });
  });

  describe('Plans', () => {
    test('GET /api/plans is public and lists the default table', async () => {
      const plain = await buildTestApp();
      try {
        const res = await call(plain.app, 'GET', '/api/plans');
        assert.equal(res.statusCode, 200);
        // Upstream's shape: a bare array of SubscriptionPlan; our terms stay at the top level too.
        assert.ok(Array.isArray(res.data));
        const byName = Object.fromEntries((res.data as Json[]).map((p) => [p.name, p]));
        const terms = (p: Json) => ({
          name: p.name,
          daily_quota: p.daily_quota,
          burst_per_second: p.burst_per_second,
          insight_generations_per_month: p.insight_generations_per_month,
          live_stream: p.live_stream,
          price_per_1k_requests: p.price_per_1k_requests,
        });
        assert.deepEqual(terms(byName.developer), {
          name: 'developer',
          daily_quota: 100,
          burst_per_second: 10,
          insight_generations_per_month: 10,
          live_stream: false,
          price_per_1k_requests: 0,
        });
        assert.deepEqual(terms(byName.advantage), {
          name: 'advantage',
          daily_quota: 10_000,
          burst_per_second: 25,
          insight_generations_per_month: 500,
          live_stream: false,
          price_per_1k_requests: 0.5,
        });
        assert.deepEqual(terms(byName.scale), {
          name: 'scale',
          daily_quota: 25_000,
          burst_per_second: 50,
          insight_generations_per_month: 2000,
          live_stream: true,
          price_per_1k_requests: 0.4,
        });
        // buildTestApp raises the enterprise burst; everything else is the default.
        assert.equal(byName.enterprise.daily_quota, null);
        assert.equal(byName.enterprise.insight_generations_per_month, null);
        assert.equal(byName.enterprise.live_stream, true);
        assert.equal(byName.enterprise.price_per_1k_requests, 0.3);
        assert.equal(Object.keys(byName).length, 4);
        assert.equal(byName.enterprise.burst_per_second, 100_000, 'PLANS is merged over the table');
      } finally {
        await plain.close();
      }
    });
  });

  describe('Keys and permissions', () => {
    test('create → 201 ApiKeyCreateResponse: cw_ + 40 base62, prefix = first 11, default read+write', async () => {
      const res = await call(ctx.app, 'POST', '/api/user/api-keys', { key: user.key, body: { name: 'ci' } });
      assert.equal(res.statusCode, 201);
      conforms(res.data, API_KEY_CREATE, 'ApiKeyCreateResponse');
      rateHeaders(res, 'create key');
      assert.match(res.data.api_key, /^cw_[0-9A-Za-z]{40}$/);
      assert.equal(res.data.prefix, res.data.api_key.slice(0, 11));
      assert.deepEqual([...res.data.permissions].sort(), ['read', 'write']);
      assert.equal(res.data.expires_at, null);
      const list = await call(ctx.app, 'GET', '/api/user/api-keys', { key: user.key });
      assert.equal(list.statusCode, 200);
      assert.ok(Array.isArray(list.data.keys));
      const listed = (list.data.keys as Json[]).find((k) => k.id === res.data.id);
      conforms(listed, API_KEY, 'ApiKey');
      assert.equal(listed?.is_active, true);
      assert.equal(listed?.prefix, res.data.prefix);
      assert.ok(!('api_key' in (listed ?? {})), 'the key value is shown once');
      assert.ok(!JSON.stringify(list.data).includes(res.data.api_key));
    });

    test('expires_at is echoed, a past expires_at → 400, an expired key → 401', async () => {
      const later = new Date(NOW + 3_600_000).toISOString();
      const res = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        body: { name: 'short', expires_at: later },
      });
      assert.equal(res.statusCode, 201);
      assert.equal(Date.parse(res.data.expires_at), Date.parse(later));
      const past = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        body: { name: 'past', expires_at: new Date(NOW - 1000).toISOString() },
      });
      assertProblem(past, 400);
      assert.equal(
        (await call(ctx.app, 'GET', '/api/user/profile', { key: res.data.api_key })).statusCode,
        200,
      );
      clock.advance(3_600_001);
      try {
        assertProblem(await call(ctx.app, 'GET', '/api/user/profile', { key: res.data.api_key }), 401);
      } finally {
        clock.set(NOW);
      }
    });

    test('a key can never grant a permission it lacks (403), on create and on rotate', async () => {
      const reader = await createUser(ctx, 'developer', ['read', 'write']);
      assertProblem(
        await call(ctx.app, 'POST', '/api/user/api-keys', {
          key: reader.key,
          body: { name: 'x', permissions: ['admin'] },
        }),
        403,
      );
      const narrow = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: reader.key,
        body: { name: 'narrow', permissions: ['read'] },
      });
      assert.equal(narrow.statusCode, 201);
      assert.deepEqual(narrow.data.permissions, ['read']);
      // A read-only key cannot rotate a read+write key into existence.
      const readOnly = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: reader.key,
        body: { name: 'ro', permissions: ['read', 'write'] },
      });
      assertProblem(
        await call(ctx.app, 'POST', `/api/user/api-keys/${readOnly.data.id}/rotate`, {
          key: narrow.data.api_key,
        }),
        403,
      );
    });

    test('rotate → 201 with the same name and permissions; grace default 86,400 s, max 604,800', async () => {
      const created = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        body: { name: 'rotating', permissions: ['read'] },
      });
      const rotated = await call(ctx.app, 'POST', `/api/user/api-keys/${created.data.id}/rotate`, {
        key: user.key,
      });
      assert.equal(rotated.statusCode, 201);
      conforms(rotated.data, API_KEY_CREATE, 'rotate');
      assert.equal(rotated.data.name, 'rotating');
      assert.deepEqual(rotated.data.permissions, ['read']);
      assert.notEqual(rotated.data.api_key, created.data.api_key);
      assert.notEqual(rotated.data.id, created.data.id);
      const list = await call(ctx.app, 'GET', '/api/user/api-keys', { key: user.key });
      const old = (list.data.keys as Json[]).find((k) => k.id === created.data.id);
      assert.equal(
        Date.parse(old?.expires_at),
        NOW + 86_400_000,
        'the old key expires after the grace period',
      );
      assert.equal(
        (await call(ctx.app, 'GET', '/api/trends', { key: created.data.api_key })).statusCode,
        200,
      );
      // Rotating the old key a second time would hand out a key that dies with the grace period: refused.
      const twice = await call(ctx.app, 'POST', `/api/user/api-keys/${created.data.id}/rotate`, {
        key: user.key,
      });
      assertProblem(twice, 409);
      assert.equal(twice.data.code, 'api_key_rotated');
      // The successor keeps the old key's own expiry (none here).
      assert.equal(rotated.data.expires_at, null);
      assertProblem(
        await call(ctx.app, 'POST', `/api/user/api-keys/${rotated.data.id}/rotate`, {
          key: user.key,
          body: { grace_period_seconds: 604_801 },
        }),
        400,
      );
      assertProblem(
        await call(ctx.app, 'POST', `/api/user/api-keys/${created.data.id}/rotate`, { key: other.key }),
        404,
      );
    });

    test('DELETE revokes (204); the key answers 401 next; another user’s key → 404', async () => {
      const created = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: user.key,
        body: { name: 'gone' },
      });
      assertProblem(
        await call(ctx.app, 'DELETE', `/api/user/api-keys/${created.data.id}`, { key: other.key }),
        404,
      );
      const del = await call(ctx.app, 'DELETE', `/api/user/api-keys/${created.data.id}`, { key: user.key });
      assert.equal(del.statusCode, 204);
      assert.equal(del.body, '');
      rateHeaders(del, 'DELETE 204');
      assertProblem(await call(ctx.app, 'GET', '/api/user/profile', { key: created.data.api_key }), 401);
      assertProblem(await call(ctx.app, 'DELETE', `/api/user/api-keys/999999`, { key: user.key }), 404);
      // The revoked key stays listed, no longer active.
      const list = await call(ctx.app, 'GET', '/api/user/api-keys', { key: user.key });
      const revoked = (list.data.keys as Json[]).find((k) => k.id === created.data.id);
      assert.equal(revoked?.is_active, false);
    });
  });

  describe('Trends and insights', () => {
    test('GET /api/trends → {trends: TrendItem[], total, meta} with defaults echoed in meta', async () => {
      const res = await call(ctx.app, 'GET', '/api/trends', { key: user.key });
      assert.equal(res.statusCode, 200);
      assert.ok(Array.isArray(res.data.trends) && res.data.trends.length >= 3);
      assert.ok(Number.isInteger(res.data.total));
      conforms(res.data.meta, PAGINATION_META, 'meta');
      const m = res.data.meta;
      assert.equal(m.total, res.data.total);
      assert.equal(m.limit, 20);
      assert.equal(m.offset, 0);
      assert.equal(m.period, '24h');
      assert.equal(m.sort_by, 'volume');
      assert.equal(m.order, 'desc');
      assert.equal(m.search, null);
      assert.equal(m.category, null);
      assert.equal(m.start_date, null);
      assert.equal(m.end_date, null);
      assert.equal(m.interest, null, 'the interest filter is echoed too');
      for (const t of res.data.trends) {
        conforms(t, TREND_ITEM, `TrendItem ${t.title}`);
        assert.ok(['positive', 'negative', 'neutral', 'mixed'].includes(t.sentiment_category));
        assert.ok(['hashtag', 'keyword', 'entity', 'query', 'hazard'].includes(t.type));
        assert.ok(['growing', 'declining', 'stable'].includes(t.overall_trend));
        assert.ok(['emerging', 'rising', 'peaking', 'declining', 'stable'].includes(t.lifecycle_stage));
        assert.ok(t.velocity_score >= 0 && t.velocity_score <= 100);
        assert.match(t.sentiment, /^-?\d+(\.\d+)?$/);
        assert.ok(!Number.isNaN(Number(t.sentiment)));
        for (const v of Object.values(t.platforms)) assert.ok(Number.isInteger(v));
      }
      const volumes = res.data.trends.map((t: Json) => t.volume);
      assert.deepEqual(
        volumes,
        [...volumes].sort((a, b) => b - a),
        'volume desc by default',
      );
    });

    test('meta echoes the filters; start_date/end_date replace period, reported as custom', async () => {
      const res = await call(
        ctx.app,
        'GET',
        '/api/trends?search=zenith&category=Technology&sort_by=name&order=asc&limit=5&offset=1',
        { key: user.key },
      );
      assert.equal(res.statusCode, 200);
      const m = res.data.meta;
      assert.deepEqual(
        [m.search, m.category, m.sort_by, m.order, m.limit, m.offset, m.period],
        ['zenith', 'Technology', 'name', 'asc', 5, 1, '24h'],
      );
      const custom = await call(
        ctx.app,
        'GET',
        '/api/trends?period=7d&start_date=2026-11-20&end_date=2026-11-21',
        {
          key: user.key,
        },
      );
      assert.equal(custom.statusCode, 200);
      assert.equal(custom.data.meta.period, 'custom');
      assert.equal(custom.data.meta.start_date, '2026-11-20');
      assert.equal(custom.data.meta.end_date, '2026-11-21');
      assertProblem(
        await call(ctx.app, 'GET', '/api/trends?start_date=2026-11-21&end_date=2026-11-20', {
          key: user.key,
        }),
        400,
      );
      // One bound alone is a range too.
      const from = await call(ctx.app, 'GET', '/api/trends?start_date=2026-11-21', { key: user.key });
      assert.equal(from.statusCode, 200);
      assert.equal(from.data.meta.period, 'custom');
      assert.equal(from.data.meta.start_date, '2026-11-21');
      const positive = (from.data.trends as Json[]).find((t) => t.id === ids.positive);
      assert.equal(positive?.volume, 30);
    });

    test('pages are stable: one-by-one pages equal the full list, in every sort', async () => {
      for (const sort of ['volume', 'velocity', 'growth', 'timestamp', 'name']) {
        for (const order of ['desc', 'asc']) {
          const all = await call(ctx.app, 'GET', `/api/trends?sort_by=${sort}&order=${order}&limit=100`, {
            key: user.key,
          });
          const paged: number[] = [];
          for (let offset = 0; offset < all.data.total; offset++) {
            const page = await call(
              ctx.app,
              'GET',
              `/api/trends?sort_by=${sort}&order=${order}&limit=1&offset=${offset}`,
              { key: user.key },
            );
            paged.push(page.data.trends[0].id);
          }
          assert.deepEqual(
            paged,
            all.data.trends.map((t: Json) => t.id),
            `${sort} ${order}`,
          );
        }
      }
    });

    test('interest filter: own interest → 200, another user’s → 404', async () => {
      const mine = await call(ctx.app, 'POST', '/api/user/interests', {
        key: other.key,
        body: { keyword: 'zenith' },
      });
      assert.equal(mine.statusCode, 201);
      const ok = await call(ctx.app, 'GET', `/api/trends?interest=${mine.data.id}`, { key: other.key });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.data.meta.interest, mine.data.id);
      assert.ok(ok.data.trends.every((t: Json) => t.title.toLowerCase().includes('zenith')));
      assertProblem(
        await call(ctx.app, 'GET', `/api/trends?interest=${mine.data.id}`, { key: user.key }),
        404,
      );
    });

    test('GET /api/trends/{id} → TrendItem; unknown → 404', async () => {
      const res = await call(ctx.app, 'GET', `/api/trends/${ids.positive}`, { key: user.key });
      assert.equal(res.statusCode, 200);
      conforms(res.data, TREND_ITEM, 'TrendItem');
      assert.equal(res.data.id, ids.positive);
      assertProblem(await call(ctx.app, 'GET', '/api/trends/999999', { key: user.key }), 404);
    });

    test('analytics → the documented fields, period default 7d', async () => {
      const res = await call(ctx.app, 'GET', `/api/trends/${ids.positive}/analytics`, { key: user.key });
      assert.equal(res.statusCode, 200);
      conforms(
        res.data,
        {
          trend_id: 'integer',
          name: 'string',
          period: 'string',
          current_volume: 'integer',
          previous_volume: 'integer',
          volume_change_percent: 'number|null',
          data: 'array',
          velocity_per_hour: 'number',
          velocity_trend: 'string',
        },
        'analytics',
      );
      assert.equal(res.data.period, '7d');
      assert.deepEqual([res.data.trend_id, res.data.name], [ids.positive, 'Zenith Phone']);
      // The seeded 30 mentions, all inside the default 7 days, spread over the series.
      assert.equal(res.data.current_volume, 30);
      assert.equal(
        res.data.data.reduce((a: number, p: Json) => a + p.volume, 0),
        30,
      );
      const custom = await call(
        ctx.app,
        'GET',
        `/api/trends/${ids.positive}/analytics?period=1h&start_date=2026-11-20&end_date=2026-11-21`,
        { key: user.key },
      );
      assert.equal(custom.statusCode, 200);
      assert.equal(custom.data.period, 'custom', 'dates replace period');
      const sum = custom.data.data.reduce((a: number, p: Json) => a + p.volume, 0);
      assert.equal(sum, custom.data.current_volume);
      assert.equal(custom.data.current_volume, 30, 'whole UTC days, inclusive');
      for (const point of res.data.data) conforms(point, { timestamp: 'dt', volume: 'integer' }, 'data[]');
      assertProblem(await call(ctx.app, 'GET', '/api/trends/999999/analytics', { key: user.key }), 404);
    });

    test('autocomplete: query ≥ 1 char, limit default 10, best prefix matches first', async () => {
      const res = await call(ctx.app, 'GET', '/api/trends/autocomplete?query=ze', { key: user.key });
      assert.equal(res.statusCode, 200);
      assert.ok(Array.isArray(res.data.results));
      assert.ok(res.data.results.length >= 1);
      for (const r of res.data.results) {
        conforms(
          r,
          { name: 'string', category: 'string|null', volume: 'integer|null', suggestion: 'string|null' },
          'r',
        );
      }
      assert.equal(res.data.results[0].name, 'Zenith Phone');
      assertProblem(await call(ctx.app, 'GET', '/api/trends/autocomplete?query=', { key: user.key }), 400);
      assertProblem(await call(ctx.app, 'GET', '/api/trends/autocomplete', { key: user.key }), 400);
      // Default limit 10: feed 12 trends sharing a prefix.
      const feeder = await createUser(ctx, 'enterprise', ['ingest']);
      const signals = Array.from({ length: 12 }, (_, i) => ({
        source: 'x',
        external_id: `auto-${i}`,
        text: `Quokkabrand${String.fromCharCode(97 + i)} launches today`,
        keywords: [`Quokka ${String.fromCharCode(97 + i)}x`],
        observed_at: new Date(NOW - 60_000).toISOString(),
      }));
      await call(ctx.app, 'POST', '/api/signals', { key: feeder.key, body: { signals } });
      await ctx.app.services.trendProcessor.drain();
      await ctx.app.services.engine.tick();
      const many = await call(ctx.app, 'GET', '/api/trends/autocomplete?query=quokka', { key: user.key });
      assert.equal(many.statusCode, 200);
      assert.equal(many.data.results.length, 10);
      const three = await call(ctx.app, 'GET', '/api/trends/autocomplete?query=quokka&limit=3', {
        key: user.key,
      });
      assert.equal(three.data.results.length, 3);
    });

    test('categories: the whole taxonomy as slash paths, trend_count defaults to 0', async () => {
      const res = await call(ctx.app, 'GET', '/api/trends/categories', { key: user.key });
      assert.equal(res.statusCode, 200);
      assert.ok(Array.isArray(res.data.categories));
      for (const c of res.data.categories) conforms(c, CATEGORY_INFO, `category ${c.name}`);
      const names = new Set(res.data.categories.map((c: Json) => c.name));
      assert.ok(names.has('Technology/AI'));
      for (const c of res.data.categories) {
        if (!c.name.includes('/')) continue;
        const parent = c.name.slice(0, c.name.lastIndexOf('/'));
        assert.ok(names.has(parent), `${c.name}'s parent ${parent} is listed`);
      }
      assert.ok(
        res.data.categories.some((c: Json) => c.trend_count === 0),
        'empty categories included',
      );
      // Both spellings of a category filter the list.
      const ai = res.data.categories.find((c: Json) => c.name === 'Technology/AI');
      for (const value of [ai.name, ai.slug]) {
        const filtered = await call(ctx.app, 'GET', `/api/trends?category=${encodeURIComponent(value)}`, {
          key: user.key,
        });
        assert.equal(filtered.statusCode, 200, value);
      }
    });

    test('ai-insights: JSON null before a generation; generate → 202 queued; status; AIInsight after', async () => {
      const user = await createUser(ctx, 'developer');
      const before = await call(ctx.app, 'GET', `/api/trends/${ids.negative}/ai-insights`, { key: user.key });
      assert.equal(before.statusCode, 200);
      assert.equal(before.body, 'null');
      assert.match(String(before.headers['content-type']), /^application\/json/);
      rateHeaders(before, 'ai-insights');
      assertProblem(await call(ctx.app, 'GET', '/api/trends/999999/ai-insights', { key: user.key }), 404);
      assertProblem(
        await call(ctx.app, 'POST', '/api/trends/999999/ai-insights/generate', { key: user.key }),
        404,
      );

      const gen = await call(ctx.app, 'POST', `/api/trends/${ids.negative}/ai-insights/generate`, {
        key: user.key,
      });
      assert.equal(gen.statusCode, 202);
      conforms(gen.data, { task_id: 'string', status: 'string', message: 'string' }, 'generate');
      assert.equal(gen.data.status, 'queued');
      rateHeaders(gen, 'generate 202');
      const again = await call(ctx.app, 'POST', `/api/trends/${ids.negative}/ai-insights/generate`, {
        key: user.key,
      });
      assert.equal(again.statusCode, 202);
      assert.equal(again.data.task_id, gen.data.task_id, 'a second call returns the queued task');

      const status = await call(ctx.app, 'GET', `/api/trends/ai-insights/status/${gen.data.task_id}`, {
        key: user.key,
      });
      assert.equal(status.statusCode, 200);
      conforms(status.data, { status: 'string', error: 'string|null' }, 'AIInsightTaskStatus');
      // No worker runs until settle() below: the task is still waiting.
      assert.deepEqual([status.data.status, status.data.error], ['queued', null]);
      assertProblem(
        await call(ctx.app, 'GET', `/api/trends/ai-insights/status/${gen.data.task_id}`, { key: other.key }),
        404,
      );
      assertProblem(
        await call(ctx.app, 'GET', '/api/trends/ai-insights/status/nope', { key: user.key }),
        404,
      );

      const done = await settle(ctx, user.key, gen.data.task_id);
      assert.equal(done.status, 'succeeded');
      assert.equal(done.error, null);
      const after = await call(ctx.app, 'GET', `/api/trends/${ids.negative}/ai-insights`, { key: user.key });
      assert.equal(after.statusCode, 200);
      conforms(after.data, AI_INSIGHT, 'AIInsight');
      conforms(after.data.trend_metrics, TREND_METRICS, 'trend_metrics');
      conforms(after.data.platform_signal, PLATFORM_SIGNAL, 'platform_signal');
      for (const v of Object.values(after.data.platform_signal.virality_distribution)) {
        assert.equal(typeof v, 'number');
      }
      conforms(after.data.audience_injection, AUDIENCE_INJECTION, 'audience_injection');
      conforms(after.data.brand_safety, BRAND_SAFETY, 'brand_safety');
      assert.equal(after.data.trend_id, ids.negative);
      assert.equal(after.data.usage_count, 1, 'the repeated call was not charged');
      assert.equal(after.data.usage_limit, 10);
      // The insight is the caller's own.
      const theirs = await call(ctx.app, 'GET', `/api/trends/${ids.negative}/ai-insights`, {
        key: other.key,
      });
      assert.equal(theirs.body, 'null');
    });

    test('analyze → 202 AnalysisResponse {task_id: string, status: string}', async () => {
      const res = await call(ctx.app, 'POST', `/api/trends/${ids.profane}/analyze`, { key: user.key });
      assert.equal(res.statusCode, 202);
      conforms(res.data, { task_id: 'string', status: 'string' }, 'AnalysisResponse');
      assert.equal(res.data.status, 'queued');
      const status = await call(ctx.app, 'GET', `/api/trends/ai-insights/status/${res.data.task_id}`, {
        key: user.key,
      });
      assert.equal(status.statusCode, 200, 'the task id is one the status route knows');
      assert.equal(status.data.status, 'queued');
      assertProblem(await call(ctx.app, 'POST', '/api/trends/999999/analyze', { key: user.key }), 404);
    });

    test('insights search → {trends, total, meta} with limit/offset defaults', async () => {
      const reader = await createUser(ctx, 'developer');
      const gen = await call(ctx.app, 'POST', `/api/trends/${ids.negative}/ai-insights/generate`, {
        key: reader.key,
      });
      assert.equal(gen.statusCode, 202, gen.body);
      assert.equal((await settle(ctx, reader.key, gen.data.task_id)).status, 'succeeded');
      const res = await call(ctx.app, 'GET', '/api/insights/search', { key: reader.key });
      assert.equal(res.statusCode, 200);
      assert.equal(res.data.total, 1);
      assert.deepEqual(
        res.data.trends.map((i: Json) => i.trend_id),
        [ids.negative],
      );
      conforms(res.data.trends[0], AI_INSIGHT, 'search AIInsight');
      assert.equal(res.data.meta.limit, 20);
      assert.equal(res.data.meta.offset, 0);
      assert.equal(res.data.meta.total, 1);
      const filtered = await call(ctx.app, 'GET', '/api/insights/search?sentiment_category=negative', {
        key: reader.key,
      });
      assert.equal(filtered.data.meta.sentiment_category, 'negative');
      assert.deepEqual(
        filtered.data.trends.map((i: Json) => i.trend_id),
        [ids.negative],
      );
      const positive = await call(ctx.app, 'GET', '/api/insights/search?sentiment_category=positive', {
        key: reader.key,
      });
      assert.deepEqual([positive.data.total, positive.data.trends], [0, []]);
      const theirs = await call(ctx.app, 'GET', '/api/insights/search', { key: other.key });
      assert.equal(theirs.data.total, 0, 'insights are the caller’s own');
    });
  });

  describe('Signals (ingestion)', () => {
    test('POST /api/signals → 202 {accepted, duplicates, rejected[{index, detail}]}; dedup on (source, external_id)', async () => {
      const feeder = await createUser(ctx, 'enterprise', ['ingest']);
      const body = {
        signals: [
          { source: 'news', external_id: 'c-1', text: 'Contract check one' },
          { source: 'news', external_id: 'c-1', text: 'Contract check one again' },
          {
            source: 'reddit',
            external_id: 'c-2',
            text: 'Contract check two',
            title: 't',
            url: 'https://example.com/a',
            author: 'a',
            observed_at: new Date(NOW - 1000).toISOString(),
            lang: 'en',
            location: 'GB',
            keywords: ['contract'],
            engagement: { likes: 1, shares: 2, comments: 3, views: 4 },
          },
        ],
      };
      const res = await call(ctx.app, 'POST', '/api/signals', { key: feeder.key, body });
      assert.equal(res.statusCode, 202);
      conforms(res.data, { accepted: 'integer', duplicates: 'integer', rejected: 'array' }, 'ingest');
      assert.equal(res.data.accepted, 2);
      assert.equal(res.data.duplicates, 1);
      assert.deepEqual(res.data.rejected, []);
      const over = await call(ctx.app, 'POST', '/api/signals', {
        key: feeder.key,
        body: {
          signals: Array.from({ length: 1001 }, (_, i) => ({ source: 'x', external_id: `o${i}`, text: 't' })),
        },
      });
      assertProblem(over, 400);
      // An item over 10,000 chars is rejected by index; the batch is still accepted.
      const long = await call(ctx.app, 'POST', '/api/signals', {
        key: feeder.key,
        body: {
          signals: [
            { source: 'x', external_id: 'ok', text: 'fine' },
            { source: 'x', external_id: 'long', text: 'x'.repeat(10_001) },
          ],
        },
      });
      assert.equal(long.statusCode, 202);
      assert.equal(long.data.accepted, 1);
      assert.equal(long.data.rejected.length, 1);
      conforms(long.data.rejected[0], { index: 'integer', detail: 'string' }, 'rejected[]');
      assert.equal(long.data.rejected[0].index, 1);
    });

    test('GET /api/intelligence/sources lists sources with the documented health fields', async () => {
      const demo = await buildTestApp({ env: { SOURCES: 'demo' } });
      try {
        const key = (await createUser(demo, 'developer', ['read'])).key;
        const res = await call(demo.app, 'GET', '/api/intelligence/sources', { key });
        assert.equal(res.statusCode, 200);
        assert.ok(res.data.sources.length >= 1);
        for (const s of res.data.sources) {
          conforms(
            s,
            {
              id: 'string',
              name: 'string',
              attribution: 'string',
              licence_url: 'string',
              coverage: 'string',
              status: 'string',
              last_attempt_at: 'dt|null',
              last_success_at: 'dt|null',
              observation_count: 'integer',
              fetch_duration_ms: 'integer|null',
            },
            `source ${s.id}`,
          );
        }
      } finally {
        await demo.close();
      }
    });
  });

  describe('Account', () => {
    test('profile → UserProfile with subscription', async () => {
      const res = await call(ctx.app, 'GET', '/api/user/profile', { key: user.key });
      conforms(res.data, USER_PROFILE, 'UserProfile');
      conforms(
        res.data.subscription,
        {
          plan_name: 'string',
          status: 'string',
          current_period_end: 'dt|null',
          cancel_at_period_end: 'boolean',
        },
        'subscription',
      );
      assert.equal(res.data.subscription.plan_name, 'developer');
      assert.equal(res.data.id, user.userId);
      assert.equal(res.data.email, user.email);
    });

    test('api-usage → ApiUsageResponse: summary, 30 daily_usage days oldest first, cost', async () => {
      const fresh = await createUser(ctx, 'advantage');
      for (let i = 0; i < 3; i++) await call(ctx.app, 'GET', '/api/trends', { key: fresh.key });
      const res = await call(ctx.app, 'GET', '/api/user/api-usage', { key: fresh.key });
      assert.equal(res.statusCode, 200);
      rateHeaders(res, 'api-usage');
      conforms(res.data.summary, USAGE_SUMMARY, 'summary');
      conforms(
        res.data,
        {
          daily_usage: 'array',
          total_requests_last_30_days: 'integer|null',
          cost_estimated_today: 'number|null',
        },
        'ApiUsageResponse',
      );
      assert.equal(res.data.daily_usage.length, 30);
      for (const d of res.data.daily_usage) conforms(d, { date: 'date', request_count: 'integer' }, 'daily');
      const dates = res.data.daily_usage.map((d: Json) => d.date);
      assert.deepEqual(dates, [...dates].sort(), 'oldest first');
      assert.equal(dates.at(-1), '2026-11-21', 'today last');
      assert.equal(res.data.summary.plan_daily_limit, 10_000);
      assert.equal(res.data.summary.requests_today, 3);
      assert.equal(res.data.summary.remaining_today, 9_997);
      assert.equal(res.data.summary.cost_estimated_today, 0.0015, '3 × 0.50 / 1000');
      assert.equal(res.data.cost_estimated_today, 0.0015);
      assert.equal(res.data.summary.total_requests_last_30_days, 3);
      assert.equal(res.data.total_requests_last_30_days, 3);
      assert.equal(res.data.daily_usage.at(-1).request_count, 3);
    });

    test('usage of an unlimited plan reports plan_daily_limit and remaining_today null', async () => {
      const ent = await createUser(ctx, 'enterprise');
      const res = await call(ctx.app, 'GET', '/api/user/api-usage', { key: ent.key });
      assert.equal(res.data.summary.plan_daily_limit, null);
      assert.equal(res.data.summary.remaining_today, null);
    });

    test('audit log → {entries: [...]} with the documented fields, key creation recorded', async () => {
      const fresh = await createUser(ctx, 'developer');
      const created = await call(ctx.app, 'POST', '/api/user/api-keys', {
        key: fresh.key,
        body: { name: 'audited' },
      });
      assert.equal(created.statusCode, 201, created.body);
      const res = await call(ctx.app, 'GET', '/api/user/audit-log', { key: fresh.key });
      assert.equal(res.statusCode, 200);
      // The entry for this key, made by this request.
      const entry = (res.data.entries as Json[]).find(
        (e) => e.target_type === 'api_key' && e.target_id === String(created.data.id),
      );
      assert.deepEqual(
        [entry?.action, entry?.request_id, entry?.created_at],
        ['api_key.created', created.headers['x-request-id'], new Date(clock.now()).toISOString()],
        JSON.stringify(res.data.entries),
      );
      const theirs = await call(ctx.app, 'GET', '/api/user/audit-log', { key: other.key });
      assert.ok(
        !(theirs.data.entries as Json[]).some((e) => res.data.entries.some((m: Json) => m.id === e.id)),
        'audit entries are the caller’s own',
      );
      for (const e of res.data.entries) {
        conforms(
          e,
          {
            id: 'integer',
            action: 'string',
            target_type: 'string',
            target_id: 'string|null',
            detail: 'string|null',
            request_id: 'string|null',
            created_at: 'dt',
          },
          'audit entry',
        );
      }
    });

    test('interests: TopicInterest fields; DELETE 204; another user’s → 404', async () => {
      const res = await call(ctx.app, 'POST', '/api/user/interests', {
        key: user.key,
        body: { keyword: 'acme', alert_condition_type: 'volume_above', volume_threshold_value: 5 },
      });
      assert.equal(res.statusCode, 201);
      conforms(
        res.data,
        {
          id: 'integer',
          user_id: 'integer',
          keyword: 'string',
          alert_condition_type: 'string',
          volume_threshold_value: 'integer|null',
          percentage_growth_value: 'number|null',
          created_at: 'dt',
          status: 'string',
        },
        'TopicInterest',
      );
      const list = await call(ctx.app, 'GET', '/api/user/interests', { key: user.key });
      assert.equal(list.statusCode, 200);
      // Upstream declares a bare array of TopicInterest.
      assert.ok(Array.isArray(list.data));
      assert.ok((list.data as Json[]).some((i) => i.id === res.data.id));
      assertProblem(
        await call(ctx.app, 'DELETE', `/api/user/interests/${res.data.id}`, { key: other.key }),
        404,
      );
      const del = await call(ctx.app, 'DELETE', `/api/user/interests/${res.data.id}`, { key: user.key });
      assert.equal(del.statusCode, 204);
    });
  });

  describe('Content and status', () => {
    let postSlug = '';
    before(async () => {
      const base = { content: 'word '.repeat(450), excerpt: 'Short', author_name: 'Ann', category: 'news' };
      const published = await call(ctx.app, 'POST', '/api/admin/blog/posts', {
        key: ctx.operatorKey,
        body: { ...base, title: 'Contract post', slug: 'contract-post', status: 'published' },
      });
      assert.equal(published.statusCode, 201, published.body);
      postSlug = published.data.slug;
      const older = await call(ctx.app, 'POST', '/api/admin/blog/posts', {
        key: ctx.operatorKey,
        body: {
          ...base,
          title: 'Older post',
          slug: 'older-post',
          status: 'published',
          published_at: '2026-11-01T09:00:00Z',
        },
      });
      assert.equal(older.statusCode, 201, older.body);
      const draft = await call(ctx.app, 'POST', '/api/admin/blog/posts', {
        key: ctx.operatorKey,
        body: { ...base, title: 'Draft post', slug: 'draft-post', status: 'draft' },
      });
      assert.equal(draft.statusCode, 201, draft.body);
      assert.equal(draft.data.published_at, null);
    });

    test('GET /api/blog/posts is public: BlogPost fields exactly, published only, meta', async () => {
      const res = await call(ctx.app, 'GET', '/api/blog/posts');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-limit'], undefined);
      conforms(res.data.meta, PAGINATION_META, 'meta');
      assert.equal(res.data.meta.limit, 20);
      assert.equal(res.data.meta.offset, 0);
      const slugs = res.data.posts.map((p: Json) => p.slug);
      assert.ok(slugs.includes(postSlug));
      assert.ok(!slugs.includes('draft-post'));
      for (const p of res.data.posts) {
        conforms(p, BLOG_POST, 'BlogPost');
        // `tags` is Crestwatch's addition.
        assert.deepEqual(
          Object.keys(p).sort(),
          [...Object.keys(BLOG_POST), 'tags'].sort(),
          'no admin fields in public posts',
        );
      }
      // Pagination's `order` (desc by default) applies to blog posts too.
      const published = res.data.posts.map((p: Json) => Date.parse(p.published_at));
      assert.deepEqual(
        published,
        [...published].sort((a: number, b: number) => b - a),
        'newest first',
      );
      assert.equal(res.data.meta.order, 'desc');
      const asc = await call(ctx.app, 'GET', '/api/blog/posts?order=asc');
      assert.equal(asc.statusCode, 200);
      assert.equal(asc.data.meta.order, 'asc');
      assert.deepEqual(
        asc.data.posts.map((p: Json) => p.id),
        [...res.data.posts].reverse().map((p: Json) => p.id),
      );
      assertProblem(await call(ctx.app, 'GET', '/api/blog/posts?order=up'), 400);
      const searched = await call(ctx.app, 'GET', '/api/blog/posts?search=contract&category=news');
      assert.equal(searched.data.meta.search, 'contract');
      assert.equal(searched.data.meta.category, 'news');
    });

    test('GET /api/blog/posts/{slug} → BlogPost with content; drafts and unknown → 404', async () => {
      const res = await call(ctx.app, 'GET', `/api/blog/posts/${postSlug}`);
      assert.equal(res.statusCode, 200);
      conforms(res.data, BLOG_POST, 'BlogPost');
      assert.equal(typeof res.data.content, 'string');
      assert.ok(res.data.reading_time_minutes >= 2, '450 words take a couple of minutes');
      assertProblem(await call(ctx.app, 'GET', '/api/blog/posts/draft-post'), 404);
      assertProblem(await call(ctx.app, 'GET', '/api/blog/posts/nope'), 404);
    });

    test('GET /api/releases is public and a bare array of CombinedReleaseResponse', async () => {
      const res = await call(ctx.app, 'GET', '/api/releases');
      assert.equal(res.statusCode, 200);
      assert.ok(Array.isArray(res.data));
      assert.ok(res.data.length >= 1, 'the service’s own changelog is listed');
      const dates = res.data.map((r: Json) => Date.parse(r.published_at));
      assert.deepEqual(
        dates,
        [...dates].sort((a: number, b: number) => b - a),
        'newest first',
      );
      for (const r of res.data) {
        conforms(r, RELEASE, 'release');
        assert.ok(r.source_id === undefined || r.source_id === null || typeof r.source_id === 'string');
      }
    });

    test('GET /status: {overall_status, last_updated, components[]} with api, database, jobs', async () => {
      const res = await call(ctx.app, 'GET', '/status');
      assert.equal(res.statusCode, 200);
      conforms(res.data, { overall_status: 'string', last_updated: 'dt', components: 'array' }, 'status');
      const states = ['operational', 'degraded', 'outage'];
      assert.ok(states.includes(res.data.overall_status));
      for (const c of res.data.components) {
        conforms(c, COMPONENT, 'ComponentStatus');
        assert.ok(states.includes(c.status));
        assert.ok(c.description === undefined || c.description === null || typeof c.description === 'string');
      }
      const names = res.data.components.map((c: Json) => c.name);
      for (const n of ['api', 'database', 'jobs']) assert.ok(names.includes(n), n);
      assert.equal(names.includes('redis'), Boolean(testRedisUrl), 'redis only when configured');
      assert.ok(!names.includes('llm'), 'llm only when configured');
    });

    test('GET /status/history: uptime_percentages and daily_statuses', async () => {
      const res = await call(ctx.app, 'GET', '/status/history');
      assert.equal(res.statusCode, 200);
      conforms(res.data, { uptime_percentages: 'object', daily_statuses: 'object' }, 'history');
      for (const v of Object.values(res.data.uptime_percentages)) assert.equal(typeof v, 'number');
      for (const [date, byComponent] of Object.entries(res.data.daily_statuses)) {
        assert.match(date, DATE);
        assert.equal(typeof byComponent, 'object');
      }
    });
  });

  describe('Configuration', () => {
    test('an integration whose OAuth app is unset answers its auth route 503 integration_not_configured', async () => {
      for (const url of [
        '/api/integrations/chat/auth',
        '/api/integrations/forum-ads/auth',
        '/api/integrations/ads/social_ads/auth',
      ]) {
        const res = await call(ctx.app, 'GET', url, { key: user.key });
        assertProblem(res, 503);
        assert.equal(res.data.code, 'integration_not_configured', url);
      }
    });

    test('SOURCES=none lists no sources', async () => {
      const res = await call(ctx.app, 'GET', '/api/intelligence/sources', { key: user.key });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.data, { sources: [] });
    });
  });

  describe('Operator', () => {
    test('admin users: create 201 UserProfile, list, patch, key for that user; 403 without admin', async () => {
      const created = await call(ctx.app, 'POST', '/api/admin/users', {
        key: ctx.operatorKey,
        body: {
          email: `op-${Math.random().toString(36).slice(2)}@example.com`,
          full_name: 'Op',
          plan: 'scale',
        },
      });
      assert.equal(created.statusCode, 201);
      conforms(created.data, USER_PROFILE, 'UserProfile');
      assert.equal(created.data.subscription.plan_name, 'scale');
      const dup = await call(ctx.app, 'POST', '/api/admin/users', {
        key: ctx.operatorKey,
        body: { email: created.data.email, plan: 'scale' },
      });
      assertProblem(dup, 409);
      const list = await call(ctx.app, 'GET', '/api/admin/users', { key: ctx.operatorKey });
      assert.equal(list.statusCode, 200);
      assert.ok(list.data.users.some((u: Json) => u.id === created.data.id));
      const patched = await call(ctx.app, 'PATCH', `/api/admin/users/${created.data.id}`, {
        key: ctx.operatorKey,
        body: { plan: 'advantage', is_active: false },
      });
      assert.equal(patched.statusCode, 200);
      assert.equal(patched.data.subscription.plan_name, 'advantage');
      assert.equal(patched.data.is_active, false);
      assertProblem(
        await call(ctx.app, 'PATCH', '/api/admin/users/999999', {
          key: ctx.operatorKey,
          body: { plan: 'scale' },
        }),
        404,
      );
      const key = await call(ctx.app, 'POST', `/api/admin/users/${created.data.id}/api-keys`, {
        key: ctx.operatorKey,
        body: { name: 'issued' },
      });
      assert.equal(key.statusCode, 201);
      conforms(key.data, API_KEY_CREATE, 'ApiKeyCreateResponse');
      assert.deepEqual([...key.data.permissions].sort(), ['read', 'write']);
      // The key is valid but the account is disabled: refused as forbidden, with its own code.
      const disabled = await call(ctx.app, 'GET', '/api/user/profile', { key: key.data.api_key });
      assertProblem(disabled, 403);
      assert.equal(disabled.data.code, 'account_disabled');
      assertProblem(await call(ctx.app, 'GET', '/api/admin/users', { key: user.key }), 403);
      assertProblem(await call(ctx.app, 'GET', '/api/admin/users'), 401);
    });
  });
});
