import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import { buildTestApp, call, createUser, type Json, type TestContext } from '../../helpers/app.ts';
import { RELAXED_PLANS, seed, settle } from './fixtures.ts';

/** A stand-in for an OpenAI-compatible endpoint: answers POST /chat/completions with `reply()`. */
function standIn(
  reply: (body: Json) => { status: number; body: unknown },
): Promise<{ server: Server; url: string; requests: Json[] }> {
  const requests: Json[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw) as Json;
      requests.push({ ...body, authorization: req.headers.authorization });
      const out = reply(body);
      res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }),
    ),
  );
}

const completion = (content: string, model = 'stand-in-model-1') => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model,
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
});

const list = (label: string) => [`${label} one`, `${label} two`];
const VALID = {
  sentiment_summary: 'Customers are angry about repeated outages.',
  sentiment_category: 'negative',
  key_themes: ['repeated outages', 'billing errors'],
  content_brief: {
    target_audience_segments: list('segment'),
    key_angles_for_content: list('angle'),
    suggested_content_formats: list('format'),
    call_to_action_ideas: list('cta'),
  },
  ad_platform_targeting: {
    primary_audience_keywords: ['acme cloud'],
    secondary_audience_keywords: ['cloud hosting'],
    potential_demographics_summary: 'IT buyers 25–54.',
  },
  crm_and_support_insights: {
    common_complaints: ['outages'],
    common_questions: ['When will it be fixed?'],
    suggested_responses: ['Share a status page.'],
  },
  overall_topic_category: 'Technology/Cloud',
  interest_keywords: ['cloud computing'],
  negative_keywords: ['outage'],
};

describe('AI insights with an LLM endpoint', () => {
  let ctx: TestContext;
  let ids: Awaited<ReturnType<typeof seed>>;
  let user: Awaited<ReturnType<typeof createUser>>;
  let mode: 'garbage' | 'valid' | 'error' = 'garbage';
  let llm: Awaited<ReturnType<typeof standIn>>;
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));

  before(async () => {
    llm = await standIn(() => {
      if (mode === 'error') return { status: 500, body: { error: { message: 'overloaded' } } };
      if (mode === 'garbage')
        return { status: 200, body: completion('here are some thoughts, not JSON at all {') };
      return { status: 200, body: completion(JSON.stringify(VALID)) };
    });
    ctx = await buildTestApp({
      clock,
      env: {
        PLANS: RELAXED_PLANS,
        LLM_BASE_URL: llm.url,
        LLM_API_KEY: 'sk-test',
        LLM_MODEL: 'stand-in-model',
      },
    });
    ids = await seed(ctx, clock.now());
    user = await createUser(ctx, 'advantage');
  });
  after(async () => {
    await ctx.close();
    llm.server.close();
  });

  async function generate(): Promise<Json> {
    const res = await call(ctx.app, 'POST', `/api/trends/${ids.negative}/ai-insights/generate`, {
      key: user.key,
    });
    assert.equal(res.statusCode, 202);
    assert.equal((await settle(ctx, user.key, res.data.task_id)).status, 'succeeded');
    return (await call(ctx.app, 'GET', `/api/trends/${ids.negative}/ai-insights`, { key: user.key })).data;
  }

  test('a garbage reply falls back to the offline analyzer and says so', async () => {
    mode = 'garbage';
    const insight = await generate();
    assert.match(insight.llm_model_used, /^crestwatch-offline\//);
    assert.match(
      insight.analysis_notes,
      /LLM fallback: the LLM reply was not a chat completion carrying JSON/,
    );
    assert.equal(insight.sentiment_category, 'negative');
    const request = llm.requests.at(-1)!;
    assert.equal(request.model, 'stand-in-model');
    assert.equal(request.authorization, 'Bearer sk-test');
    assert.equal(request.response_format.type, 'json_schema');
    assert.ok(request.messages.at(-1).content.includes('Sample posts'));
  });

  test('an HTTP error falls back too', async () => {
    mode = 'error';
    const insight = await generate();
    assert.match(insight.analysis_notes, /LLM fallback: the LLM endpoint answered HTTP 500/);
  });

  test('a valid reply fills the qualitative fields while numbers stay computed', async () => {
    mode = 'valid';
    const insight = await generate();
    assert.equal(insight.llm_model_used, 'stand-in-model-1');
    assert.deepEqual(insight.key_themes, VALID.key_themes);
    assert.equal(insight.overall_topic_category_llm, 'Technology/Cloud');
    assert.deepEqual(insight.content_brief, VALID.content_brief);
    // The numbers are the offline analyzer's for the same data, not the model's.
    const offline = await ctx.app.services.insights.offlineInsight(ids.negative);
    assert.deepEqual(insight.trend_metrics, offline.trend_metrics);
    assert.deepEqual(insight.platform_signal, offline.platform_signal);
    assert.deepEqual(
      insight.audience_injection.platform_payloads,
      offline.audience_injection?.platform_payloads,
    );
    assert.ok(insight.audience_injection.platform_payloads.social_ads);
    assert.ok(insight.audience_injection.negative_keywords.includes('outage'));
  });

  test('a reply that breaks the schema falls back', async () => {
    mode = 'valid';
    const saved = VALID.sentiment_category;
    VALID.sentiment_category = 'furious';
    try {
      const insight = await generate();
      assert.match(insight.analysis_notes, /did not match the schema/);
      assert.match(insight.llm_model_used, /^crestwatch-offline\//);
    } finally {
      VALID.sentiment_category = saved;
    }
  });
});
