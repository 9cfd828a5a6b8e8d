// The TrendsAGI SDK's generate_custom_report and get_session_info against Crestwatch: each request sent as the
// SDK's requests.Session sends it, each answer held field by field against the SDK model that parses it
// (CustomReport with ReportMeta, SessionInfoResponse; models.py 0.10.0), and the public demo-signals answer
// against the shape upstream's OpenAPI 0.10.0 declares for it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.ts';
import { buildTestApp, call, createUser, type Json, type TestContext } from '../helpers/app.ts';
import { checkModel, MODELS } from './upstream-models.ts';

// models.py: ReportMeta, CustomReport, SessionInfoResponse.
Object.assign(MODELS, {
  ReportMeta: {
    row_count: 'int',
    limit_applied: 'int?',
    time_period: 'str',
    start_date: 'str?',
    end_date: 'str?',
    usage_count: 'int?',
    usage_limit: 'int?',
  },
  CustomReport: { columns: 'list<str>', rows: 'list<dict>', meta: 'ReportMeta' },
  SessionInfoResponse: { country: 'str' },
  // openapi.json 0.10.0, GET /api/v1/public/demo-signals (every field required).
  DemoSignal: {
    title: 'str',
    source_url: 'str',
    source: 'str',
    observed_at: 'datetime',
    freshness: 'str',
    limitations: 'str',
  },
  DemoSignals: { signals: 'list<DemoSignal>', mode: 'str', fetched_at: 'datetime', schema_version: 'str' },
});

/** json.dumps with its default separators, as requests sends `json=`. */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

describe('the SDK’s report and session-info requests', () => {
  let ctx: TestContext;
  let key: string;
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));

  async function sdk(method: 'GET' | 'POST', path: string, json?: unknown) {
    const res = await ctx.app.inject({
      method,
      url: path,
      headers: {
        'user-agent': 'python-requests/2.32.3',
        'accept-encoding': 'gzip, deflate',
        accept: 'application/json',
        connection: 'keep-alive',
        'content-type': 'application/json',
        'x-api-key': key,
      },
      ...(json !== undefined ? { payload: pythonJson(json) } : {}),
    });
    return { status: res.statusCode, body: res.body, data: JSON.parse(res.body) as Json };
  }

  before(async () => {
    ctx = await buildTestApp({ clock });
    key = (await createUser(ctx, 'developer', ['read'])).key;
    const signals = Array.from({ length: 12 }, (_, i) => ({
      source: ['reddit', 'news', 'x'][i % 3],
      external_id: `s-${i}`,
      text: i % 2 ? 'Solar kettles are great' : 'Solar kettles keep failing, terrible',
      url: `https://www.reddit.com/r/kettles/comments/${i}/`,
      observed_at: new Date(clock.now() - i * 40 * 60_000).toISOString(),
    }));
    const res = await call(ctx.app, 'POST', '/api/signals', { key: ctx.operatorKey, body: { signals } });
    assert.equal(res.statusCode, 202, res.body);
    await ctx.app.services.engine.tick();
  });
  after(async () => ctx.close());

  test('generate_custom_report: CustomReport parses, for each shape of request', async () => {
    for (const request of [
      {
        dimensions: ['trend_name', 'category'],
        metrics: ['volume', 'growth', 'sentiment'],
        time_period: '7d',
      },
      { dimensions: ['day', 'platform'], metrics: ['volume'], filters: { search: 'kettle' }, limit: 2 },
      { metrics: ['volume', 'trend_count'], start_date: '2026-11-20', end_date: '2026-11-21' },
      { dataset: 'crisis_events', dimensions: ['severity'], metrics: ['event_count'] },
      {},
    ]) {
      const res = await sdk('POST', '/api/reports/custom', request);
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(checkModel(res.data, 'CustomReport'), [], JSON.stringify(request));
    }
    const capped = await sdk('POST', '/api/reports/custom', {
      dimensions: ['trend_name', 'platform'],
      metrics: ['volume'],
      limit: 1,
    });
    assert.equal(capped.data.meta.limit_applied, 1);
    assert.deepEqual(checkModel(capped.data, 'CustomReport'), []);
  });

  test('get_session_info: SessionInfoResponse parses', async () => {
    const res = await sdk('GET', '/api/user/session-info');
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(checkModel(res.data, 'SessionInfoResponse'), []);
  });

  test('demo signals: the answer has every field upstream’s OpenAPI requires', async () => {
    for (const mode of ['paid-media', 'resilience']) {
      const res = await call(ctx.app, 'GET', `/api/v1/public/demo-signals?mode=${mode}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(checkModel(res.data, 'DemoSignals'), []);
      assert.equal(res.data.schema_version, '1');
      assert.ok(res.data.signals.length <= 3);
    }
    const paid = await call(ctx.app, 'GET', '/api/v1/public/demo-signals');
    assert.equal(paid.data.signals.length, 3);
  });
});
