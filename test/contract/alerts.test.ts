// Black-box conformance of the alerting half of the contract (API-CONTRACT "Crisis events", "Integrations",
// WebhookSubscription, "Events", "Deliveries"; SPEC CrisisEvent, CrisisEvidence, CrisisReview,
// EvidenceCompleteness and the outbound alert body), in the contract's order, through real requests.
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { ManualClock } from '../../src/platform/clock.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../helpers/app.ts';
import { posts } from '../modules/crisis/posts.ts';
import {
  buildLoggedApp as buildIntegrationApp,
  type IntegrationTestContext,
  connect as oauthConnect,
  providerEnv,
  slackStandIn,
} from '../modules/integrations/stand-ins.ts';
import {
  buildLoggedApp as buildWorkflowApp,
  insertTrend,
  type LoggedContext,
  N8N_KEY,
  type N8nStandIn,
  n8nStandIn,
} from '../modules/integrations/workflow-stand-in.ts';
import { type Receiver, startReceiver, waitFor } from '../modules/webhooks/receiver.ts';

/** Body fields of the contract's events (sorted). */
const TREND_ALERT_FIELDS = [
  'id',
  'event',
  'trend_id',
  'trend_name',
  'category',
  'severity',
  'velocity',
  'timestamp',
  'summary',
  'source_link',
  'recommended_next_steps',
].sort();
const LIFECYCLE_FIELDS = [
  'id',
  'event',
  'trend_id',
  'trend_name',
  'category',
  'from_stage',
  'to_stage',
  'velocity',
  'timestamp',
  'source_link',
].sort();
const CRISIS_EVENT_FIELDS = [
  'id',
  'event',
  'crisis_event_id',
  'title',
  'severity',
  'status',
  'impacted_entity',
  'detected_at',
  'summary',
  'source_link',
].sort();

const MIN = 60_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const HEX32 = /^[0-9a-f]{32}$/;
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

type Kind = 'integer' | 'string' | 'number' | 'boolean' | 'array' | 'object' | 'iso';
function typeOk(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'integer':
      return Number.isInteger(value);
    case 'iso':
      return typeof value === 'string' && ISO.test(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === kind;
  }
}
/** Every field present with its type; `null` allowed for the nullable ones. */
function assertShape(obj: Json, required: Record<string, Kind>, nullable: Record<string, Kind> = {}) {
  for (const [field, kind] of Object.entries(required)) {
    assert.ok(field in obj, `missing ${field} in ${JSON.stringify(obj)}`);
    assert.ok(typeOk(obj[field], kind), `${field} should be ${kind}: ${JSON.stringify(obj[field])}`);
  }
  for (const [field, kind] of Object.entries(nullable)) {
    assert.ok(field in obj, `missing ${field} in ${JSON.stringify(obj)}`);
    if (obj[field] !== null) assert.ok(typeOk(obj[field], kind), `${field} should be ${kind}|null`);
  }
}

// SPEC "CrisisEvent": required, then optional fields (all always present in responses, nullable).
const CRISIS_REQUIRED: Record<string, Kind> = {
  id: 'integer',
  user_id: 'integer',
  title: 'string',
  summary: 'string',
  severity: 'string',
  status: 'string',
  detected_at: 'iso',
  created_at: 'iso',
  updated_at: 'iso',
};
const CRISIS_OPTIONAL: Record<string, Kind> = {
  source_keywords: 'array',
  impacted_entity: 'string',
  trend_id: 'integer',
  trend_snapshot_link: 'string',
  detection_method: 'string',
  method_version: 'string',
  evidence_as_of: 'iso',
  freshness: 'string',
  analysis_status: 'string',
  severity_basis: 'string',
  model_version: 'string',
  provider_severity: 'string',
  location: 'string',
  source_state: 'string',
  review_status: 'string',
  evidence_version: 'string',
  evidence_completeness: 'object',
  corroboration: 'object',
};
const EVIDENCE_REQUIRED: Record<string, Kind> = {
  id: 'integer',
  source_id: 'string',
  reference_id: 'string',
  source_url: 'string',
  observed_at: 'iso',
  retrieved_at: 'iso',
  excerpt: 'string',
  claim: 'string',
  content_hash: 'string',
};
const REVIEW_REQUIRED: Record<string, Kind> = {
  id: 'integer',
  reviewer_id: 'integer',
  assessment: 'string',
  rationale: 'string',
  evidence_version: 'string',
  created_at: 'iso',
};

function assertCrisisEvent(e: Json) {
  assertShape(e, CRISIS_REQUIRED, CRISIS_OPTIONAL);
  assert.ok(['low', 'medium', 'high', 'critical'].includes(e.severity), e.severity);
  assert.ok(['active', 'acknowledged', 'archived'].includes(e.status), e.status);
  assert.ok(['fresh', 'stale', 'missing'].includes(e.freshness), e.freshness);
  assert.ok(
    ['unreviewed', 'unconfirmed', 'supported', 'disputed', 'needs_review'].includes(e.review_status),
    e.review_status,
  );
  assert.ok(Array.isArray(e.limitations));
  if (e.evidence_completeness !== null) {
    assertShape(e.evidence_completeness, { score: 'integer', method: 'string' }, { meaning: 'string' });
  }
}

// ---------------------------------------------------------------------------------------------------------
describe('OpenAPI document: the alerting schemas are the contract’s', () => {
  let ctx: TestContext;
  let doc: Json;
  before(async () => {
    ctx = await buildTestApp();
    doc = (await call(ctx.app, 'GET', '/api/openapi.json')).data;
  });
  after(() => ctx.close());

  test('CrisisEvent, CrisisEvidence, CrisisReview, EvidenceCompleteness: SPEC’s fields and required lists', () => {
    const s = doc.components.schemas;
    const req = (name: string) => [...(s[name].required ?? [])].sort();
    assert.deepEqual(req('CrisisEvent'), Object.keys(CRISIS_REQUIRED).sort());
    assert.deepEqual(
      Object.keys(s.CrisisEvent.properties).sort(),
      [
        ...Object.keys(CRISIS_REQUIRED),
        ...Object.keys(CRISIS_OPTIONAL),
        'source_refs',
        'reviews',
        'limitations',
      ].sort(),
    );
    assert.deepEqual(req('CrisisEvidence'), Object.keys(EVIDENCE_REQUIRED).sort());
    assert.deepEqual(
      Object.keys(s.CrisisEvidence.properties).sort(),
      [...Object.keys(EVIDENCE_REQUIRED), 'attribution', 'licence_url'].sort(),
    );
    assert.deepEqual(req('CrisisReview'), Object.keys(REVIEW_REQUIRED).sort());
    assert.deepEqual(req('EvidenceCompleteness'), ['method', 'score']);
    assert.deepEqual(Object.keys(s.EvidenceCompleteness.properties).sort(), ['meaning', 'method', 'score']);
  });

  test('webhooks section: every event of the Events table with its body fields', () => {
    const bodyOf = (name: string) => {
      const op = doc.webhooks[name].post;
      return op.requestBody.content['application/json'].schema;
    };
    const fields = (name: string) => Object.keys(bodyOf(name).properties).sort();
    assert.deepEqual(fields('trend.alert.created'), TREND_ALERT_FIELDS);
    assert.deepEqual(fields('trend.lifecycle.changed'), LIFECYCLE_FIELDS);
    for (const name of ['crisis.event.opened', 'crisis.event.escalated', 'crisis.event.resolved']) {
      assert.deepEqual(fields(name), CRISIS_EVENT_FIELDS);
      assert.deepEqual(bodyOf(name).properties.event.enum, [name]);
      assert.deepEqual(
        [...bodyOf(name).required].sort(),
        fields(name),
        `${name}: every field is always sent`,
      );
    }
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [
      'crisis.event.escalated',
      'crisis.event.opened',
      'crisis.event.resolved',
      'digest',
      'trend.alert.created',
      'trend.lifecycle.changed',
      'webhook.test',
    ]);
    assert.deepEqual(fields('digest'), ['event', 'events', 'id', 'window_end', 'window_start']);
    assert.deepEqual(fields('webhook.test'), ['event', 'id', 'sample']);
  });

  test('integration response schemas carry the contract’s fields (ids integers)', () => {
    const ok = (path: string, method: string, status = '200') =>
      doc.paths[path][method].responses[status].content['application/json'].schema;
    const push = ok('/api/integrations/workflow/push', 'post');
    assert.deepEqual([...push.required].sort(), ['delivered', 'execution_id', 'status_code']);
    assert.equal(push.properties.execution_id.type, 'integer', 'Resource ids are integers');
    const preview = ok('/api/integrations/ads/social_ads/preview', 'post');
    assert.deepEqual([...preview.required].sort(), [
      'blocked',
      'blocked_reasons',
      'changes',
      'expires_at',
      'preview_id',
      'trend_id',
    ]);
    assert.deepEqual([...preview.properties.changes.items.required].sort(), ['ad_set_id', 'after', 'before']);
    const apply = ok('/api/integrations/ads/social_ads/apply', 'post');
    assert.deepEqual([...apply.required].sort(), ['apply_id', 'changes', 'preview_id', 'status']);
    const rollback = ok('/api/integrations/ads/{platform}/rollback', 'post');
    assert.deepEqual([...rollback.required].sort(), ['apply_id', 'changes', 'status']);
    assert.deepEqual(rollback.properties.status.enum, ['rolled_back']);
    const deliveries = ok('/api/integrations/forum-ads/deliveries', 'get').properties.deliveries.items;
    assert.deepEqual([...deliveries.required].sort(), [
      'attempts',
      'created_at',
      'delivered_at',
      'error',
      'event_name',
      'id',
      'response_status',
      'status',
    ]);
    assert.deepEqual(deliveries.properties.status.enum, ['queued', 'delivered', 'failed']);
    const queued = ok('/api/integrations/forum-ads/push', 'post', '202');
    assert.deepEqual([...queued.required].sort(), ['id', 'status']);
    assert.equal(queued.properties.id.type, 'integer');
    const sub = ok('/api/integrations/webhooks', 'post', '201');
    assert.deepEqual(
      Object.keys(sub.properties).sort(),
      [
        'id',
        'url',
        'target_url',
        'events',
        'trigger_type',
        'delivery_mode',
        'threshold_value',
        'cooldown_seconds',
        'filters',
        'is_active',
        'failure_count',
        'last_delivery_at',
        'created_at',
        'secret',
      ].sort(),
    );
    assert.deepEqual(sub.properties.trigger_type.enum, ['trend_velocity', 'trend_lifecycle', 'crisis_event']);
    assert.deepEqual(sub.properties.delivery_mode.enum, ['instant_stream', 'digest']);
    assert.deepEqual(Object.keys(sub.properties.filters.properties).sort(), [
      'category',
      'keywords',
      'min_severity',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('Crisis events (route 3 and the + rows)', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.now());
  let alice: { userId: number; key: string };
  let bob: { userId: number; key: string };
  let receiver: Receiver;
  let hook: Json;
  let eventId: number;
  let ws: WebSocket;
  const live: Json[] = [];
  const base = '/api/intelligence/crisis-events';

  async function ingest(signals: Record<string, unknown>[]) {
    const res = await call(ctx.app, 'POST', '/api/signals', { key: ctx.operatorKey, body: { signals } });
    assert.equal(res.statusCode, 202, res.body);
  }

  before(async () => {
    ctx = await buildTestApp({ clock, env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8' } });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    ctx.app.services.worker.start();
    receiver = await startReceiver();
    alice = await createUser(ctx, 'enterprise');
    bob = await createUser(ctx, 'enterprise');
    const { port } = ctx.app.server.address() as AddressInfo;
    ws = new WebSocket(`ws://127.0.0.1:${port}/ws/trends-live`, { headers: { 'x-api-key': alice.key } });
    ws.on('message', (raw) => live.push(JSON.parse(String(raw))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const interest = await call(ctx.app, 'POST', '/api/user/interests', {
      key: alice.key,
      body: { keyword: 'Acme' },
    });
    assert.equal(interest.statusCode, 201, interest.body);
    const sub = await call(ctx.app, 'POST', '/api/integrations/webhooks', {
      key: alice.key,
      body: {
        url: receiver.url,
        trigger_type: 'crisis_event',
        delivery_mode: 'instant_stream',
        threshold_value: 0,
        cooldown_seconds: 0,
      },
    });
    assert.equal(sub.statusCode, 201, sub.body);
    hook = sub.data;
    clock.advance(-12 * 60 * MIN);
    await ingest([
      { source: 'reddit', external_id: 'calm-1', text: 'Acme opened a new office in town', author: 'a' },
      { source: 'x', external_id: 'calm-2', text: 'Acme support was slow and bad today', author: 'b' },
    ]);
    await ctx.app.services.engine.tick();
    clock.advance(12 * 60 * MIN);
    const platforms = ['reddit', 'x', 'bluesky'];
    await ingest(
      posts('Acme', 30, 'negative', 7).map((text, i) => ({
        source: platforms[i % 3],
        external_id: `acme-${i}`,
        text,
        url: `https://${platforms[i % 3]}.example.com/p/acme-${i}`,
        author: `user${i}`,
        observed_at: new Date(clock.now() - 20 * MIN + i * 40_000).toISOString(),
      })),
    );
    await ctx.app.services.engine.tick();
    await ctx.app.services.engine.tick();
  });
  after(async () => {
    ws.terminate();
    await receiver.close();
    await ctx.close();
  });

  test('live stream: {type, data, sent_at} with the owner’s crisis.event.opened (webhook body fields)', async () => {
    const msg = await waitFor('live crisis message', () =>
      live.find((m) => m.type === 'crisis.event.opened'),
    );
    assert.deepEqual(Object.keys(msg).sort(), ['data', 'sent_at', 'type']);
    assert.match(msg.sent_at, ISO);
    assert.deepEqual(Object.keys(msg.data).sort(), CRISIS_EVENT_FIELDS);
    assert.equal(msg.data.status, 'active');
  });

  test('GET list → {events: CrisisEvent[], meta} with meta echoing every filter and its defaults', async () => {
    const res = await call(ctx.app, 'GET', base, { key: alice.key });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.data).sort(), ['events', 'meta']);
    assert.equal(res.data.events.length, 1, res.body);
    for (const e of res.data.events) assertCrisisEvent(e);
    eventId = res.data.events[0].id;
    assert.equal(res.data.events[0].user_id, alice.userId);
    assert.equal('source_refs' in res.data.events[0], false, 'the list leaves evidence to /evidence');
    assert.deepEqual(res.data.meta, {
      total: 1,
      limit: 20,
      offset: 0,
      order: 'desc',
      period: null,
      start_date: null,
      end_date: null,
      status: 'all',
      severity: 'all',
      source: 'all',
      freshness: 'all',
      review_status: 'all',
      keyword: null,
      location: null,
    });
    const other = await call(ctx.app, 'GET', base, { key: bob.key });
    assert.deepEqual(other.data.events, [], 'events are the caller’s own');
  });

  test('each filter value is accepted and echoed; a bad value → 400 naming the parameter', async () => {
    const values: Record<string, string[]> = {
      status: ['all', 'active', 'acknowledged', 'archived'],
      severity: ['all', 'low', 'medium', 'high', 'critical'],
      period: ['1h', '24h', '7d', '30d'],
      source: ['all', 'social', 'x', 'reddit', 'bluesky', 'news', 'hackernews', 'usgs', 'environment_agency'],
      freshness: ['all', 'fresh', 'stale', 'missing'],
      review_status: ['all', 'unreviewed', 'unconfirmed', 'supported', 'disputed', 'needs_review'],
      keyword: ['acme'],
      location: ['Leeds'],
    };
    for (const [name, list] of Object.entries(values)) {
      for (const value of list) {
        const res = await call(ctx.app, 'GET', `${base}?${name}=${value}`, { key: alice.key });
        assert.equal(res.statusCode, 200, `${name}=${value}: ${res.body}`);
        assert.equal(res.data.meta[name], value, `${name}=${value} echoed`);
      }
    }
    const hit = await call(
      ctx.app,
      'GET',
      `${base}?status=active&source=social&freshness=fresh&keyword=acme`,
      {
        key: alice.key,
      },
    );
    assert.equal(hit.data.events.length, 1, hit.body);
    const miss = await call(ctx.app, 'GET', `${base}?source=usgs`, { key: alice.key });
    assert.equal(miss.data.events.length, 0, 'usgs: no evidence from that source');
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    const dated = await call(ctx.app, 'GET', `${base}?start_date=${today}&end_date=${today}&period=7d`, {
      key: alice.key,
    });
    assert.equal(dated.statusCode, 200, dated.body);
    assert.equal(dated.data.meta.period, 'custom', 'dates replace period');
    assert.equal(dated.data.meta.start_date, today);
    assert.equal(dated.data.events.length, 1);
    const paged = await call(ctx.app, 'GET', `${base}?limit=1&offset=1`, { key: alice.key });
    assert.deepEqual([paged.data.meta.limit, paged.data.meta.offset, paged.data.events.length], [1, 1, 0]);

    const bad: [string, string][] = [
      ['status', 'open'],
      ['severity', 'severe'],
      ['period', '2d'],
      ['source', 'myspace'],
      ['freshness', 'old'],
      ['review_status', 'done'],
      ['start_date', '2026-13-01'],
      ['end_date', 'yesterday'],
      ['limit', '0'],
      ['limit', '101'],
      ['offset', '-1'],
    ];
    for (const [name, value] of bad) {
      const res = await call(ctx.app, 'GET', `${base}?${name}=${value}`, { key: alice.key });
      assertProblem(res, 400);
      assert.ok(
        JSON.stringify(res.data).includes(name),
        `${name}=${value}: the problem names the parameter: ${res.body}`,
      );
    }
  });

  test('GET one → CrisisEvent; another user’s or a missing id → 404; no key → 401', async () => {
    const res = await call(ctx.app, 'GET', `${base}/${eventId}`, { key: alice.key });
    assert.equal(res.statusCode, 200, res.body);
    assertCrisisEvent(res.data);
    assertProblem(await call(ctx.app, 'GET', `${base}/${eventId}`, { key: bob.key }), 404);
    assertProblem(await call(ctx.app, 'GET', `${base}/999999`, { key: alice.key }), 404);
    assertProblem(await call(ctx.app, 'GET', `${base}/${eventId}`), 401);
  });

  test('evidence: source_refs (CrisisEvidence) and reviews filled; both hashes recompute', async () => {
    const res = await call(ctx.app, 'GET', `${base}/${eventId}/evidence`, { key: alice.key });
    assert.equal(res.statusCode, 200, res.body);
    assertCrisisEvent(res.data);
    assert.ok(Array.isArray(res.data.reviews));
    assert.ok(res.data.source_refs.length > 0);
    for (const item of res.data.source_refs) {
      assertShape(item, EVIDENCE_REQUIRED, { attribution: 'string', licence_url: 'string' });
      const normal = item.excerpt.normalize('NFC').replace(/\s+/gu, ' ').trim();
      assert.equal(item.content_hash, sha(normal));
    }
    const hashes = res.data.source_refs.map((r: Json) => r.content_hash as string).sort();
    assert.match(res.data.evidence_version, HEX32);
    assert.equal(res.data.evidence_version, sha(hashes.join('\n')).slice(0, 32));
  });

  test('reviews: strict body → 400; current evidence_version → 201 CrisisEvent; stale → 409', async () => {
    const current = (await call(ctx.app, 'GET', `${base}/${eventId}/evidence`, { key: alice.key })).data;
    const url = `${base}/${eventId}/reviews`;
    const good = {
      assessment: 'supported',
      rationale: 'Matches the posts.',
      evidence_version: current.evidence_version,
    };
    const bad: [string, Json][] = [
      ['extra', { ...good, extra: 1 }],
      ['assessment', { ...good, assessment: 'needs_review' }],
      ['rationale', { ...good, rationale: '' }],
      ['rationale', { ...good, rationale: 'x'.repeat(2001) }],
      ['evidence_version', { ...good, evidence_version: current.evidence_version.toUpperCase() }],
      ['evidence_version', { ...good, evidence_version: 'abc' }],
      ['assessment', { rationale: good.rationale, evidence_version: good.evidence_version }],
    ];
    for (const [field, body] of bad) {
      const res = await call(ctx.app, 'POST', url, { key: alice.key, body });
      assertProblem(res, 400);
      assert.ok(res.body.includes(field), `400 names ${field}: ${res.body}`);
    }
    const stale = await call(ctx.app, 'POST', url, {
      key: alice.key,
      body: { ...good, evidence_version: '0'.repeat(32) },
    });
    assertProblem(stale, 409);
    assertProblem(await call(ctx.app, 'POST', url, { key: bob.key, body: good }), 404);
    const ok = await call(ctx.app, 'POST', url, {
      key: alice.key,
      body: { ...good, rationale: 'x'.repeat(2000) },
    });
    assert.equal(ok.statusCode, 201, ok.body);
    assertCrisisEvent(ok.data);
    assert.equal(ok.data.review_status, 'supported', 'review_status takes the latest assessment');
    const review = ok.data.reviews.at(-1);
    assertShape(review, REVIEW_REQUIRED);
    assert.equal(review.reviewer_id, alice.userId);
    assert.equal(review.evidence_version, current.evidence_version);
  });

  test('actions follow the transition table; every other combination → 409', async () => {
    const url = `${base}/${eventId}/action`;
    const act = (action: string, key = alice.key) => call(ctx.app, 'POST', url, { key, body: { action } });
    const conflictFrom = async (from: string, actions: string[]) => {
      for (const action of actions) assertProblem(await act(action), 409);
      const now = await call(ctx.app, 'GET', `${base}/${eventId}`, { key: alice.key });
      assert.equal(now.data.status, from, 'a refused action changes nothing');
    };
    const step = async (action: string, to: string) => {
      const res = await act(action);
      assert.equal(res.statusCode, 200, res.body);
      assertCrisisEvent(res.data);
      assert.equal(res.data.status, to);
    };
    await conflictFrom('active', ['reopen']);
    await step('acknowledge', 'acknowledged');
    await conflictFrom('acknowledged', ['acknowledge']);
    await step('reopen', 'active');
    await step('archive', 'archived');
    await conflictFrom('archived', ['acknowledge', 'archive']);
    await step('reopen', 'active');
    await step('acknowledge', 'acknowledged');
    await step('archive', 'archived');
    await step('reopen', 'active');
    assertProblem(await call(ctx.app, 'POST', url, { key: alice.key, body: { action: 'resolve' } }), 400);
    assertProblem(
      await call(ctx.app, 'POST', url, { key: alice.key, body: { action: 'archive', x: 1 } }),
      400,
    );
    assertProblem(await act('archive', bob.key), 404);
  });

  test('export: json (default, application/json) and html (text/html, self-contained)', async () => {
    const json = await call(ctx.app, 'GET', `${base}/${eventId}/export`, { key: alice.key });
    assert.equal(json.statusCode, 200, json.body);
    assert.match(String(json.headers['content-type']), /^application\/json/);
    assertCrisisEvent(json.data.event);
    assert.ok(json.data.event.source_refs.length > 0);
    assert.ok(Array.isArray(json.data.event.reviews));
    const explicit = await call(ctx.app, 'GET', `${base}/${eventId}/export?format=json`, { key: alice.key });
    assert.equal(explicit.statusCode, 200);
    const html = await call(ctx.app, 'GET', `${base}/${eventId}/export?format=html`, { key: alice.key });
    assert.equal(html.statusCode, 200);
    assert.match(String(html.headers['content-type']), /^text\/html/);
    assert.ok(!/<script|src=["']?https?:/i.test(html.body), 'no scripts or external resources');
    assertProblem(
      await call(ctx.app, 'GET', `${base}/${eventId}/export?format=pdf`, { key: alice.key }),
      400,
    );
    assertProblem(await call(ctx.app, 'GET', `${base}/${eventId}/export`, { key: bob.key }), 404);
  });

  test('crisis.event.opened reaches the owner’s crisis_event webhook with every Events-table field', async () => {
    const got = await waitFor('crisis webhook', () =>
      receiver.received.find((r) => r.body.includes('crisis.event.opened')),
    );
    const body = JSON.parse(got.body);
    assert.deepEqual(Object.keys(body).sort(), CRISIS_EVENT_FIELDS);
    assert.equal(body.event, 'crisis.event.opened');
    assert.equal(body.crisis_event_id, eventId);
    assert.equal(got.headers['webhook-id'], body.id);
    // The event as it was opened: the API's record of it.
    const event = (await call(ctx.app, 'GET', `${base}/${eventId}`, { key: alice.key })).data;
    assert.deepEqual(
      [body.title, body.severity, body.impacted_entity, body.detected_at],
      [event.title, event.severity, event.impacted_entity, event.detected_at],
    );
    assert.equal(body.source_link, `http://localhost:3000/api/intelligence/crisis-events/${eventId}`);
    assert.ok(body.summary.length > 0);
    // Delivered through the owner's subscription, and recorded under it.
    const executions = (
      await call(ctx.app, 'GET', `/api/integrations/webhooks/${hook.id}/executions`, { key: alice.key })
    ).data.executions as Json[];
    assert.deepEqual(
      executions.map((e) => [e.event, e.event_id, e.status]),
      [['crisis.event.opened', body.id, 'succeeded']],
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('Webhooks (routes 20–23 and the + rows), Events and Deliveries', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.now());
  let user: { userId: number; key: string };
  let other: { userId: number; key: string };
  let receiver: Receiver;
  let created: Json;
  const BASE = '/api/integrations/webhooks';
  const SUB_FIELDS: Record<string, Kind> = {
    id: 'integer',
    url: 'string',
    target_url: 'string',
    events: 'array',
    trigger_type: 'string',
    delivery_mode: 'string',
    threshold_value: 'number',
    cooldown_seconds: 'integer',
    filters: 'object',
    is_active: 'boolean',
    failure_count: 'integer',
    created_at: 'iso',
  };
  const EXECUTION: Record<string, Kind> = {
    id: 'integer',
    event_id: 'string',
    event: 'string',
    attempt: 'integer',
    status: 'string',
    created_at: 'iso',
  };
  const EXECUTION_NULLABLE: Record<string, Kind> = {
    response_status: 'integer',
    duration_ms: 'integer',
    error: 'string',
    next_attempt_at: 'iso',
  };

  before(async () => {
    ctx = await buildTestApp({ clock, env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8' } });
    ctx.app.services.worker.start();
    receiver = await startReceiver();
    user = await createUser(ctx, 'enterprise');
    other = await createUser(ctx, 'enterprise');
  });
  after(async () => {
    await receiver.close();
    await ctx.close();
  });

  test('create → 201 WebhookSubscription with `secret` (whsec_ + 32 bytes) only here', async () => {
    const res = await call(ctx.app, 'POST', BASE, {
      key: user.key,
      body: {
        url: receiver.url,
        trigger_type: 'trend_velocity',
        delivery_mode: 'instant_stream',
        threshold_value: 50,
        cooldown_seconds: 0,
        filters: { category: 'Technology', keywords: ['widgets'], min_severity: 'low' },
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    assertShape(res.data, { ...SUB_FIELDS, secret: 'string' }, { last_delivery_at: 'iso' });
    assert.deepEqual(
      Object.keys(res.data).sort(),
      [...Object.keys(SUB_FIELDS), 'last_delivery_at', 'secret'].sort(),
    );
    assert.match(res.data.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(res.data.secret.slice(6), 'base64').length, 32);
    assert.deepEqual(res.data.filters, {
      category: 'Technology',
      keywords: ['widgets'],
      min_severity: 'low',
    });
    assert.deepEqual(
      [res.data.is_active, res.data.failure_count, res.data.last_delivery_at],
      [true, 0, null],
    );
    created = res.data;
    for (const body of [
      { ...res.data, secret: undefined, id: undefined },
      {
        url: receiver.url,
        trigger_type: 'trend_spike',
        delivery_mode: 'instant_stream',
        threshold_value: 1,
        cooldown_seconds: 0,
      },
      {
        url: receiver.url,
        trigger_type: 'trend_velocity',
        delivery_mode: 'batch',
        threshold_value: 1,
        cooldown_seconds: 0,
      },
      {
        url: receiver.url,
        trigger_type: 'trend_velocity',
        delivery_mode: 'digest',
        threshold_value: '5',
        cooldown_seconds: 0,
      },
    ]) {
      assertProblem(await call(ctx.app, 'POST', BASE, { key: user.key, body }), 400);
    }
  });

  test('list → {webhooks} without secrets; PATCH any field; re-enabling resets failure_count', async () => {
    const list = await call(ctx.app, 'GET', BASE, { key: user.key });
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(Object.keys(list.data), ['webhooks']);
    assert.equal(list.data.webhooks.length, 1);
    assert.equal('secret' in list.data.webhooks[0], false);
    assert.equal(list.body.includes(created.secret), false);
    assertShape(list.data.webhooks[0], SUB_FIELDS, { last_delivery_at: 'iso' });
    assert.deepEqual((await call(ctx.app, 'GET', BASE, { key: other.key })).data, { webhooks: [] });

    await ctx.app.services.db
      .updateTable('webhook_subscriptions')
      .set({ failure_count: 3, is_active: 0 })
      .execute();
    const patched = await call(ctx.app, 'PATCH', `${BASE}/${created.id}`, {
      key: user.key,
      body: { threshold_value: 60, cooldown_seconds: 30, filters: {}, is_active: true },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assertShape(patched.data, SUB_FIELDS, { last_delivery_at: 'iso' });
    assert.equal('secret' in patched.data, false);
    assert.deepEqual(
      [
        patched.data.threshold_value,
        patched.data.cooldown_seconds,
        patched.data.is_active,
        patched.data.failure_count,
      ],
      [60, 30, true, 0],
    );
    assertProblem(
      await call(ctx.app, 'PATCH', `${BASE}/${created.id}`, {
        key: user.key,
        body: { trigger_type: 'crisis_event' },
      }),
      400,
    );
    assertProblem(
      await call(ctx.app, 'PATCH', `${BASE}/${created.id}`, { key: other.key, body: { is_active: false } }),
      404,
    );
  });

  test('test → the execution record; the delivery carries the exact headers and a webhook.test body', async () => {
    const res = await call(ctx.app, 'POST', `${BASE}/${created.id}/test`, { key: user.key });
    assert.equal(res.statusCode, 200, res.body);
    assertShape(res.data, EXECUTION, EXECUTION_NULLABLE);
    assert.equal(res.data.event, 'webhook.test');
    assert.equal(res.data.status, 'succeeded');
    assert.equal(res.data.response_status, 200);
    const got = receiver.received.at(-1)!;
    assert.equal(got.method, 'POST');
    const h = got.headers as Record<string, string>;
    assert.match(h['content-type'], /^application\/json/);
    assert.equal(h['user-agent'], 'Crestwatch-Webhooks/0.10.0');
    const body = JSON.parse(got.body);
    assert.equal(h['webhook-id'], body.id);
    assert.equal(res.data.event_id, body.id);
    assert.match(h['webhook-timestamp'], /^\d{10}$/);
    assert.ok(Math.abs(Number(h['webhook-timestamp']) - clock.now() / 1000) < 5);
    const key = Buffer.from(created.secret.slice('whsec_'.length), 'base64');
    const v1 = createHmac('sha256', key)
      .update(`${h['webhook-id']}.${h['webhook-timestamp']}.${got.body}`)
      .digest('base64');
    assert.equal(h['webhook-signature'], `v1,${v1}`);
    assert.equal(
      h['x-webhook-signature'],
      `sha256=${createHmac('sha256', key).update(got.body).digest('hex')}`,
    );
    assert.deepEqual(Object.keys(body).sort(), ['event', 'id', 'sample']);
    assert.equal(body.event, 'webhook.test');
    const sample = body.sample;
    assert.equal(sample.event, 'trend.alert.created');
    // SPEC "Outbound webhook delivery" alert body, plus the contract's trend_id.
    assertShape(sample, {
      id: 'string',
      trend_id: 'integer',
      trend_name: 'string',
      category: 'string',
      severity: 'string',
      velocity: 'number',
      timestamp: 'iso',
      summary: 'string',
      source_link: 'string',
      recommended_next_steps: 'array',
    });
    assert.match(sample.category, /^[^/]+(\/[^/]+)*$/);
    assert.match(sample.source_link, /^https?:\/\//);
    const again = await call(ctx.app, 'POST', `${BASE}/${created.id}/test`, { key: user.key });
    assert.equal(JSON.parse(receiver.received.at(-1)!.body).id, body.id, 'the test payload is deterministic');
    assert.equal(receiver.received.at(-1)!.body, got.body);
    assert.equal(again.statusCode, 200);
    assertProblem(await call(ctx.app, 'POST', `${BASE}/${created.id}/test`, { key: other.key }), 404);
  });

  test('trend.alert.created and trend.lifecycle.changed bodies carry every Events-table field', async () => {
    await call(ctx.app, 'PATCH', `${BASE}/${created.id}`, {
      key: user.key,
      body: { threshold_value: 50, cooldown_seconds: 0 },
    });
    const life = await call(ctx.app, 'POST', BASE, {
      key: user.key,
      body: {
        url: receiver.url,
        trigger_type: 'trend_lifecycle',
        delivery_mode: 'instant_stream',
        threshold_value: 0,
        cooldown_seconds: 0,
      },
    });
    assert.equal(life.statusCode, 201, life.body);
    const at = clock.now();
    const data = {
      trend_id: 7,
      trend_name: 'Quantum widgets',
      category: 'Technology/AI',
      velocity: 80,
      volume: 120,
    };
    await ctx.app.services.events.record(ctx.app.services.db, {
      id: `trend.velocity.crossed:contract:${at}`,
      type: 'trend.velocity.crossed',
      occurred_at: at,
      data: { ...data, from_velocity: 40, levels: [50] },
    });
    await ctx.app.services.events.record(ctx.app.services.db, {
      id: `trend.lifecycle.changed:contract:${at}`,
      type: 'trend.lifecycle.changed',
      occurred_at: at,
      data: { ...data, from_stage: 'emerging', to_stage: 'rising' },
    });
    const bodyOf = async (event: string) =>
      JSON.parse(
        (await waitFor(event, () => receiver.received.find((r) => JSON.parse(r.body).event === event)))!.body,
      );
    const alert = await bodyOf('trend.alert.created');
    assert.deepEqual(Object.keys(alert).sort(), TREND_ALERT_FIELDS);
    assert.deepEqual(
      [alert.trend_id, alert.trend_name, alert.category, alert.velocity, alert.severity],
      [7, 'Quantum widgets', 'Technology/AI', 80, 'high'],
    );
    assert.equal(alert.timestamp, new Date(at).toISOString(), 'when the crossing happened');
    assert.ok(alert.recommended_next_steps.length > 0);
    assert.ok(alert.recommended_next_steps.every((s: unknown) => typeof s === 'string' && s.length > 0));
    const lifecycle = await bodyOf('trend.lifecycle.changed');
    assert.deepEqual(Object.keys(lifecycle).sort(), LIFECYCLE_FIELDS);
    assert.deepEqual(
      [lifecycle.from_stage, lifecycle.to_stage, lifecycle.velocity],
      ['emerging', 'rising', 80],
    );
    await call(ctx.app, 'DELETE', `${BASE}/${life.data.id}`, { key: user.key });
  });

  test('executions: limit default 20, newest first, the contract’s fields; limit bounds → 400', async () => {
    for (let i = 0; i < 20; i++) {
      clock.advance(1000);
      const res = await call(ctx.app, 'POST', `${BASE}/${created.id}/test`, { key: user.key });
      assert.equal(res.statusCode, 200, res.body);
    }
    const res = await call(ctx.app, 'GET', `${BASE}/${created.id}/executions`, { key: user.key });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.data), ['executions']);
    const list = res.data.executions as Json[];
    assert.equal(list.length, 20);
    for (const e of list) {
      assertShape(e, EXECUTION, EXECUTION_NULLABLE);
      assert.deepEqual(
        Object.keys(e).sort(),
        [...Object.keys(EXECUTION), ...Object.keys(EXECUTION_NULLABLE)].sort(),
      );
      // The 20 test sends just made, each answered 200 by the receiver.
      assert.deepEqual([e.event, e.status, e.response_status], ['webhook.test', 'succeeded', 200]);
    }
    for (let i = 1; i < list.length; i++) {
      assert.ok(
        list[i - 1]!.created_at > list[i]!.created_at ||
          (list[i - 1]!.created_at === list[i]!.created_at && list[i - 1]!.id > list[i]!.id),
        'newest first',
      );
    }
    const three = await call(ctx.app, 'GET', `${BASE}/${created.id}/executions?limit=3`, { key: user.key });
    assert.deepEqual(
      three.data.executions.map((e: Json) => e.id),
      list.slice(0, 3).map((e) => e.id),
    );
    assertProblem(
      await call(ctx.app, 'GET', `${BASE}/${created.id}/executions?limit=0`, { key: user.key }),
      400,
    );
    assertProblem(
      await call(ctx.app, 'GET', `${BASE}/${created.id}/executions?limit=101`, { key: user.key }),
      400,
    );
    assertProblem(await call(ctx.app, 'GET', `${BASE}/${created.id}/executions`, { key: other.key }), 404);
  });

  test('redeliver → 202 and the same webhook-id; rotate-secret → 201 {secret}, both signatures for 24 h', async () => {
    const [latest] = (
      await call(ctx.app, 'GET', `${BASE}/${created.id}/executions?limit=1`, { key: user.key })
    ).data.executions as Json[];
    const before = receiver.received.length;
    const re = await call(ctx.app, 'POST', `${BASE}/${created.id}/executions/${latest!.id}/redeliver`, {
      key: user.key,
    });
    assert.equal(re.statusCode, 202, re.body);
    const got = await waitFor('redelivery', () => receiver.received[before]);
    assert.equal(got.headers['webhook-id'], latest!.event_id);
    assertProblem(
      await call(ctx.app, 'POST', `${BASE}/${created.id}/executions/${latest!.id}/redeliver`, {
        key: other.key,
      }),
      404,
    );
    assertProblem(
      await call(ctx.app, 'POST', `${BASE}/${created.id}/executions/99999999/redeliver`, { key: user.key }),
      404,
    );

    const rotated = await call(ctx.app, 'POST', `${BASE}/${created.id}/rotate-secret`, { key: user.key });
    assert.equal(rotated.statusCode, 201, rotated.body);
    assert.deepEqual(Object.keys(rotated.data), ['secret']);
    assert.match(rotated.data.secret, /^whsec_/);
    assert.notEqual(rotated.data.secret, created.secret);
    await call(ctx.app, 'POST', `${BASE}/${created.id}/test`, { key: user.key });
    const signed = receiver.received.at(-1)!.headers['webhook-signature'] as string;
    assert.equal(signed.split(' ').length, 2, 'both secrets sign during the overlap');
    assert.ok(signed.split(' ').every((s) => s.startsWith('v1,')));
  });

  test('DELETE → 204; later calls for that id → 404', async () => {
    const del = await call(ctx.app, 'DELETE', `${BASE}/${created.id}`, { key: other.key });
    assertProblem(del, 404);
    const res = await call(ctx.app, 'DELETE', `${BASE}/${created.id}`, { key: user.key });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    for (const [method, path, body] of [
      ['DELETE', '', undefined],
      ['PATCH', '', { is_active: true }],
      ['POST', '/test', undefined],
      ['POST', '/rotate-secret', undefined],
      ['GET', '/executions', undefined],
    ] as const) {
      assertProblem(
        await call(ctx.app, method, `${BASE}/${created.id}${path}`, { key: user.key, body }),
        404,
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('Integrations: OAuth routes, chat status, forum-ads, providers, callbacks', () => {
  let bare: TestContext;
  let ctx: IntegrationTestContext;
  let slack: Awaited<ReturnType<typeof slackStandIn>>;
  let user: { userId: number; key: string };
  const CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'";

  before(async () => {
    bare = await buildTestApp();
    slack = await slackStandIn();
    ctx = await buildIntegrationApp(providerEnv(slack));
    user = await createUser(ctx, 'enterprise');
  });
  after(async () => {
    await ctx.close();
    await bare.close();
    await slack.close();
  });

  test('auth routes without operator credentials → 503 integration_not_configured', async () => {
    const u = await createUser(bare, 'enterprise');
    for (const path of [
      '/api/integrations/chat/auth',
      '/api/integrations/forum-ads/auth',
      '/api/integrations/ads/social_ads/auth',
    ]) {
      const res = await call(bare.app, 'GET', path, { key: u.key });
      assertProblem(res, 503);
      assert.equal(res.data.code, 'integration_not_configured', path);
    }
    assertProblem(await call(bare.app, 'GET', '/api/integrations/ads/myspace/auth', { key: u.key }), 404);
  });

  test('auth → {authorization_url, state}; every callback answer sends the page CSP; a state is single use', async () => {
    const auth = await call(ctx.app, 'GET', '/api/integrations/chat/auth', { key: user.key });
    assert.equal(auth.statusCode, 200, auth.body);
    assert.deepEqual(Object.keys(auth.data).sort(), ['authorization_url', 'state']);
    const url = new URL(auth.data.authorization_url);
    assert.equal(url.searchParams.get('state'), auth.data.state);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/api/integrations/chat/callback?code=abc&state=not-a-state',
      headers: { accept: 'text/html' },
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.headers['content-security-policy'], CSP);
    // A state missing altogether fails validation (problem+json) but still carries the page CSP.
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/integrations/chat/callback?code=abc' });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.headers['content-security-policy'], CSP);
    const flow = await oauthConnect(ctx.app, user.key, '/api/integrations/chat/auth');
    assert.equal(flow.page.statusCode, 200);
    assert.match(String(flow.page.headers['content-type']), /^text\/html/);
    assert.equal(flow.page.headers['content-security-policy'], CSP);
    assert.deepEqual(Object.keys(flow.form).sort(), ['code', 'confirm_token', 'state']);
    assert.equal(flow.done.statusCode, 200, flow.done.body);
    assert.equal(flow.done.headers['content-security-policy'], CSP);
    const reused = await ctx.app.inject({
      method: 'POST',
      url: '/api/integrations/chat/callback',
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(flow.form).toString(),
    });
    assert.equal(reused.statusCode, 400, 'a state is single use');
  });

  test('chat status → {is_active, team_name, channel, channel_id, configuration_url, new_trend_alerts}', async () => {
    const fields = [
      'channel',
      'channel_id',
      'configuration_url',
      'is_active',
      'new_trend_alerts',
      'team_name',
    ];
    const stranger = await createUser(ctx, 'enterprise');
    const none = await call(ctx.app, 'GET', '/api/integrations/chat/status', { key: stranger.key });
    assert.equal(none.statusCode, 200, none.body);
    assert.deepEqual(Object.keys(none.data).sort(), fields);
    assert.equal(none.data.is_active, false);
    const channels = await call(ctx.app, 'GET', '/api/integrations/chat/channels', { key: user.key });
    assert.equal(channels.statusCode, 200, channels.body);
    for (const c of channels.data.channels)
      assertShape(c, { id: 'string', name: 'string', is_private: 'boolean' });
    const c = channels.data.channels[0];
    const saved = await call(ctx.app, 'POST', '/api/integrations/chat/save-channel', {
      key: user.key,
      body: { channel_id: c.id, channel_name: c.name },
    });
    assert.equal(saved.statusCode, 200, saved.body);
    const status = await call(ctx.app, 'GET', '/api/integrations/chat/status', { key: user.key });
    assert.deepEqual(Object.keys(status.data).sort(), fields);
    assert.deepEqual([status.data.is_active, status.data.channel_id], [true, c.id]);
    assert.equal(status.data.new_trend_alerts, true, 'on by default; the settings below turn it off');
    const settings = await call(ctx.app, 'PUT', '/api/integrations/chat/settings', {
      key: user.key,
      body: { new_trend_alerts: false, crisis_alerts: true, min_severity: 'high', velocity_threshold: 70 },
    });
    assert.equal(settings.statusCode, 200, settings.body);
    assert.equal(
      (await call(ctx.app, 'GET', '/api/integrations/chat/status', { key: user.key })).data.new_trend_alerts,
      false,
    );
    const gone = await call(ctx.app, 'DELETE', '/api/integrations/chat/connection', { key: user.key });
    assert.equal(gone.statusCode, 204);
  });

  test('providers → {providers: [{id, name, connected, capabilities}]} with social_ads; forum-ads deliveries shape', async () => {
    const res = await call(ctx.app, 'GET', '/api/integrations/ads/providers', { key: user.key });
    assert.equal(res.statusCode, 200, res.body);
    for (const p of res.data.providers) {
      assertShape(p, { id: 'string', name: 'string', connected: 'boolean', capabilities: 'array' });
    }
    assert.ok(res.data.providers.some((p: Json) => p.id === 'social_ads'));
    assertProblem(await call(ctx.app, 'GET', '/api/integrations/ads/myspace/auth', { key: user.key }), 404);
    const deliveries = await call(ctx.app, 'GET', '/api/integrations/forum-ads/deliveries', {
      key: user.key,
    });
    assert.equal(deliveries.statusCode, 200, deliveries.body);
    assert.deepEqual(deliveries.data, { deliveries: [] });
    assertProblem(
      await call(ctx.app, 'GET', '/api/integrations/forum-ads/deliveries?limit=0', { key: user.key }),
      400,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('Integrations: workflow tool (routes 4–7)', () => {
  let ctx: LoggedContext;
  let tool: N8nStandIn;
  let user: { userId: number; key: string };

  before(async () => {
    ctx = await buildWorkflowApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8' } });
    tool = await n8nStandIn();
    user = await createUser(ctx, 'enterprise');
  });
  after(async () => {
    await tool.close();
    await ctx.close();
  });

  test('connect → {connected, api_base_url, signing_secret}; workflows; selection; push → integer execution_id', async () => {
    const connected = await call(ctx.app, 'POST', '/api/integrations/workflow/connect', {
      key: user.key,
      body: { api_key: N8N_KEY, api_base_url: tool.url, include_metadata: false },
    });
    assert.equal(connected.statusCode, 200, connected.body);
    assert.equal(connected.data.connected, true);
    assert.equal(connected.data.api_base_url, tool.url);
    assert.match(connected.data.signing_secret, /^whsec_/);
    const workflows = await call(ctx.app, 'GET', '/api/integrations/workflow/workflows', { key: user.key });
    assert.equal(workflows.statusCode, 200, workflows.body);
    assert.deepEqual(Object.keys(workflows.data), ['workflows']);
    for (const w of workflows.data.workflows)
      assertShape(w, { id: 'string', name: 'string', active: 'boolean' });
    const selection = await call(ctx.app, 'PUT', '/api/integrations/workflow/selection', {
      key: user.key,
      body: {
        workflow_id: 'wf1',
        workflow_name: 'Social response',
        default_event: 'trend_lifecycle',
        api_base_url: tool.url,
      },
    });
    assert.equal(selection.statusCode, 200, selection.body);
    const mismatch = await call(ctx.app, 'PUT', '/api/integrations/workflow/selection', {
      key: user.key,
      body: {
        workflow_id: 'wf1',
        workflow_name: 'Social response',
        default_event: 'trend_lifecycle',
        api_base_url: 'https://elsewhere.example.com',
      },
    });
    assertProblem(mismatch, 400);
    const pushed = await call(ctx.app, 'POST', '/api/integrations/workflow/push', {
      key: user.key,
      body: { event: 'trend_lifecycle', data: { a: 1 } },
    });
    assert.equal(pushed.statusCode, 200, pushed.body);
    assert.deepEqual(Object.keys(pushed.data).sort(), ['delivered', 'execution_id', 'status_code']);
    assert.ok(Number.isInteger(pushed.data.execution_id), 'Resource ids are integers');
    assert.deepEqual([pushed.data.delivered, pushed.data.status_code], [true, 200]);
    const push = tool.pushes().at(-1)!;
    assert.equal(push.headers['webhook-id'], String(pushed.data.execution_id));
    const body = JSON.parse(push.body);
    assert.deepEqual(Object.keys(body).sort(), ['data', 'event', 'sent_at']);
    const deliveries = await call(ctx.app, 'GET', '/api/integrations/workflow/deliveries', { key: user.key });
    assert.equal(deliveries.data.deliveries[0].id, pushed.data.execution_id);
  });

  test('push with gate → 409 blocked_by_crisis while an active high crisis concerns the trend', async () => {
    const trendId = await insertTrend(ctx, 'Acme recall');
    const { insertCrisisEvent } = await import('../modules/integrations/workflow-stand-in.ts');
    await insertCrisisEvent(ctx, {
      userId: user.userId,
      title: 'Acme',
      severity: 'high',
      keywords: ['Acme'],
    });
    const res = await call(ctx.app, 'POST', '/api/integrations/workflow/push', {
      key: user.key,
      body: { event: 'trend_lifecycle', data: {}, gate: { trend_id: trendId } },
    });
    assertProblem(res, 409);
    assert.equal(res.data.code, 'blocked_by_crisis');
  });
});
