// TrendsAGI's official Python SDK 0.10.0 against Crestwatch: every request its client.py sends for a route
// Crestwatch serves (method, path, query, headers and body, written down as test data with the SDK method it
// comes from), replayed against the app, and each answer held field by field against the SDK model that
// parses it (upstream-models.ts). The SDK's own unwrapping (list or wrapper) is mirrored where it has one.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.ts';
import { buildTestApp, call, createUser, type Json, type TestContext } from '../helpers/app.ts';
import { posts } from '../modules/crisis/posts.ts';
import { seed, settle } from '../modules/insights/fixtures.ts';
import { checkModel, checkType, MODELS } from './upstream-models.ts';

/** Every public method of the SDK's TrendsAGIClient, by what Crestwatch does with its route. */
const SERVED = [
  'get_trends',
  'get_trend_autocomplete',
  'get_trend_categories',
  'search_insights',
  'get_trend',
  'get_ai_insights',
  'generate_ai_insights',
  'get_ai_insight_status',
  'get_trend_analytics',
  'analyze_trend',
  'get_crisis_events',
  'get_crisis_event',
  'perform_crisis_event_action',
  'get_crisis_evidence',
  'review_crisis_event',
  'export_crisis_event',
  'get_resilience_sources',
  'get_resilience_settings',
  'set_resilience_location',
  'get_topic_interests',
  'create_topic_interest',
  'delete_topic_interest',
  'get_available_plans',
  'get_api_status',
  'get_api_status_history',
  'get_blog_posts',
  'get_blog_post',
  'get_user_profile',
  'get_api_keys',
  'create_api_key',
  'delete_api_key',
  'get_api_usage',
  'get_webhooks',
  'get_slack_status',
] as const;
/** Capabilities a self-hosted service does not offer: 503 `CAPABILITY_UNAVAILABLE`, the SDK's typed error. */
const UNAVAILABLE = [
  'get_financial_data',
  'get_public_homepage_financial_data',
  'get_billing_portal_url',
  'track_visitor_event',
] as const;
/** Served route groups whose SDK requests are replayed in their module's own contract file beside this one. */
const REPLAYED_BESIDE: Record<string, string> = {
  generate_custom_report: 'upstream-reports.test.ts',
  get_session_info: 'upstream-reports.test.ts',
  get_recommendations: 'upstream-recommendations.test.ts',
  perform_recommendation_action: 'upstream-recommendations.test.ts',
  get_export_settings: 'upstream-exports.test.ts',
  save_export_settings: 'upstream-exports.test.ts',
  delete_export_setting: 'upstream-exports.test.ts',
  run_export_now: 'upstream-exports.test.ts',
  get_export_history: 'upstream-exports.test.ts',
  get_dashboard_overview: 'upstream-notifications.test.ts',
  get_recent_notifications: 'upstream-notifications.test.ts',
  mark_notifications_read: 'upstream-notifications.test.ts',
  get_organization_members: 'upstream-organisations.test.ts',
  get_organization_invites: 'upstream-organisations.test.ts',
};
/** The WebSocket methods are covered by the stream tests (the SDK only opens wss:// URLs). */
const WEBSOCKET = ['trends_stream', 'finance_stream'];

/** Headers of the SDK's requests.Session: the key, JSON both ways, requests' own defaults. */
const SDK_HEADERS = {
  'user-agent': 'python-requests/2.32.3',
  'accept-encoding': 'gzip, deflate',
  accept: 'application/json',
  connection: 'keep-alive',
  'content-type': 'application/json',
};

interface SdkRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** `params=` after the SDK dropped its None values. */
  params?: Record<string, string | number | boolean>;
  /** `json=`: sent as Python's json.dumps writes it. */
  json?: unknown;
  /** get_public_homepage_financial_data pops the key header first. */
  withoutKey?: boolean;
}

/** json.dumps with its default separators (", " and ": "). */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`);
    return `{${entries.join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** Python's str() of a query value: requests sends True/False for booleans, which the SDK lowercases first. */
const pythonStr = (v: string | number | boolean) =>
  typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v);

describe('the TrendsAGI SDK’s requests, replayed', () => {
  let ctx: TestContext;
  let user: { userId: number; key: string };
  let ids: Awaited<ReturnType<typeof seed>>;
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));
  const called = new Set<string>();

  /** Sends the request as the SDK does and returns the status and parsed JSON (or text). */
  async function sdk(method: string, request: SdkRequest) {
    called.add(method);
    const query = request.params
      ? `?${new URLSearchParams(Object.entries(request.params).map(([k, v]): [string, string] => [k, pythonStr(v)]))}`
      : '';
    const res = await ctx.app.inject({
      method: request.method,
      url: `${request.path}${query}`,
      headers: { ...SDK_HEADERS, ...(request.withoutKey ? {} : { 'x-api-key': user.key }) },
      ...(request.json !== undefined ? { payload: pythonJson(request.json) } : {}),
    });
    let data: Json | null = null;
    try {
      data = res.body ? JSON.parse(res.body) : null;
    } catch {
      data = null;
    }
    return { status: res.statusCode, headers: res.headers, body: res.body, data };
  }

  /** The answer is 2xx and parses as `model` (a model name or a type such as `list<TopicInterest>`). */
  function parses(res: { status: number; data: unknown; body: string }, model: string, method: string) {
    assert.ok(res.status >= 200 && res.status < 300, `${method}: ${res.status} ${res.body.slice(0, 300)}`);
    const problems = model in MODELS ? checkModel(res.data, model) : checkType(res.data, model, model);
    assert.deepEqual(problems, [], `${method}: the SDK's ${model} would not parse the answer`);
  }

  before(async () => {
    ctx = await buildTestApp({
      clock,
      env: {
        OUTBOUND_ALLOWLIST: '127.0.0.0/8',
        PLANS: JSON.stringify({ enterprise: { burst_per_second: 100_000 } }),
      },
    });
    user = await createUser(ctx, 'enterprise');
    ids = await seed(ctx, clock.now());
    // A crisis event of the user's: an interest, then a negative surge on three platforms.
    const interest = await call(ctx.app, 'POST', '/api/user/interests', {
      key: user.key,
      body: { keyword: 'Acme' },
    });
    assert.equal(interest.statusCode, 201, interest.body);
    const surge = posts('Acme', 30, 'negative', 7).map((text, i) => ({
      source: ['reddit', 'x', 'bluesky'][i % 3],
      external_id: `surge-${i}`,
      text,
      url: `https://example.com/p/${i}`,
      author: `user${i}`,
      observed_at: new Date(clock.now() - 20 * 60_000 + i * 40_000).toISOString(),
    }));
    const ingest = await call(ctx.app, 'POST', '/api/signals', {
      key: ctx.operatorKey,
      body: { signals: surge },
    });
    assert.equal(ingest.statusCode, 202, ingest.body);
    await ctx.app.services.engine.tick();
    await ctx.app.services.engine.tick();
    // A webhook and a published blog post with a tag.
    const hook = await call(ctx.app, 'POST', '/api/integrations/webhooks', {
      key: user.key,
      body: {
        url: 'http://127.0.0.1:9/hook',
        trigger_type: 'trend_velocity',
        delivery_mode: 'instant_stream',
        threshold_value: 60,
        cooldown_seconds: 300,
      },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const post = await call(ctx.app, 'POST', '/api/admin/blog/posts', {
      key: ctx.operatorKey,
      body: {
        title: 'Reading velocity',
        content: 'How the velocity score is computed.',
        status: 'published',
        published_at: '2026-11-20T09:00:00Z',
        tags: ['Product'],
      },
    });
    assert.equal(post.statusCode, 201, post.body);
  });
  after(() => ctx.close());

  test('trends and insights', async () => {
    // get_trends(): page from offset // limit + 1, sort_dir, None values dropped.
    const trends = await sdk('get_trends', {
      method: 'GET',
      path: '/api/trends',
      params: { page: 1, limit: 20, sort_by: 'volume', sort_dir: 'desc' },
    });
    parses(trends, 'TrendListResponse', 'get_trends');
    assert.ok(trends.data!.trends.length >= 3);
    // get_trends(sort_by='velocity', sort_dir='asc', limit=1, offset=1, period='7d', min_snapshots=1,
    //            exclude_sentiment='mixed', interests=['Acme Cloud', 'zenith'])
    const filtered = await sdk('get_trends', {
      method: 'GET',
      path: '/api/trends',
      params: {
        page: 2,
        limit: 1,
        sort_by: 'velocity',
        sort_dir: 'asc',
        period: '7d',
        min_snapshots: 1,
        exclude_sentiment: 'mixed',
        interests: 'Acme Cloud,zenith',
      },
    });
    parses(filtered, 'TrendListResponse', 'get_trends');
    assert.equal(filtered.data!.meta.offset, 1);
    assert.equal(filtered.data!.trends.length, 1);
    const everyMatch = await sdk('get_trends', {
      method: 'GET',
      path: '/api/trends',
      params: { page: 1, limit: 20, sort_by: 'volume', sort_dir: 'desc', interests: 'Acme Cloud,zenith' },
    });
    const titles = everyMatch.data!.trends.map((t: Json) => t.title.toLowerCase());
    assert.ok(titles.includes('acme cloud') && titles.includes('zenith phone'), titles.join());
    assert.ok(
      titles.every((t: string) => /\bacme cloud\b|\bzenith\b/.test(t)),
      titles.join(),
    );
    // get_trends(start_date='2026-11-21', end_date='2026-11-21', order='asc'): order overrides sort_dir.
    parses(
      await sdk('get_trends', {
        method: 'GET',
        path: '/api/trends',
        params: {
          page: 1,
          limit: 20,
          sort_by: 'volume',
          sort_dir: 'asc',
          start_date: '2026-11-21',
          end_date: '2026-11-21',
        },
      }),
      'TrendListResponse',
      'get_trends',
    );
    // get_trend_autocomplete('ze')
    const auto = await sdk('get_trend_autocomplete', {
      method: 'GET',
      path: '/api/trends/autocomplete',
      params: { q: 'ze' },
    });
    parses(auto, 'AutocompleteResponse', 'get_trend_autocomplete');
    assert.equal(auto.data!.results[0].name.toLowerCase(), 'zenith phone');
    // get_trend_categories()
    parses(
      await sdk('get_trend_categories', { method: 'GET', path: '/api/trends/categories' }),
      'CategoryListResponse',
      'get_trend_categories',
    );
    // get_trend(trend_id)
    const one = await sdk('get_trend', { method: 'GET', path: `/api/trends/${ids.positive}` });
    parses(one, 'TrendItem', 'get_trend');
    // get_ai_insights(trend_id) before any generation: JSON null, which the SDK returns as None.
    const none = await sdk('get_ai_insights', {
      method: 'GET',
      path: `/api/trends/${ids.positive}/ai-insights`,
    });
    assert.equal(none.status, 200);
    assert.equal(none.body, 'null');
    // generate_ai_insights(trend_id) and generate_ai_insights(trend_id, force_refresh=True)
    const generated = await sdk('generate_ai_insights', {
      method: 'POST',
      path: `/api/trends/${ids.positive}/ai-insights/generate`,
      json: { force_refresh: false },
    });
    parses(generated, 'GenerateAIInsightResponse', 'generate_ai_insights');
    const forced = await sdk('generate_ai_insights', {
      method: 'POST',
      path: `/api/trends/${ids.positive}/ai-insights/generate`,
      json: { force_refresh: true },
    });
    parses(forced, 'GenerateAIInsightResponse', 'generate_ai_insights');
    assert.notEqual(forced.data!.task_id, generated.data!.task_id);
    await settle(ctx, user.key, generated.data!.task_id);
    await settle(ctx, user.key, forced.data!.task_id);
    // get_ai_insight_status(task_id)
    const status = await sdk('get_ai_insight_status', {
      method: 'GET',
      path: `/api/trends/ai-insights/status/${forced.data!.task_id}`,
    });
    parses(status, 'AIInsightTaskStatus', 'get_ai_insight_status');
    assert.equal(status.data!.status, 'succeeded');
    // get_ai_insights(trend_id) after: an AIInsight.
    const insight = await sdk('get_ai_insights', {
      method: 'GET',
      path: `/api/trends/${ids.positive}/ai-insights`,
    });
    parses(insight, 'AIInsight', 'get_ai_insights');
    // search_insights('zenith'): q and limit=10, parsed as a trend list.
    const search = await sdk('search_insights', {
      method: 'GET',
      path: '/api/insights/search',
      params: { q: 'zenith', limit: 10 },
    });
    parses(search, 'TrendListResponse', 'search_insights');
    assert.equal(search.data!.trends[0].id, ids.positive);
    assert.equal(search.data!.trends[0].title, 'Zenith Phone');
    // get_trend_analytics(trend_id) (period='7d') and period='24h'
    for (const period of ['7d', '24h']) {
      parses(
        await sdk('get_trend_analytics', {
          method: 'GET',
          path: `/api/trends/${ids.positive}/analytics`,
          params: { period },
        }),
        'TrendAnalyticsResponse',
        'get_trend_analytics',
      );
    }
    // analyze_trend(trend_id)
    const analysis = await sdk('analyze_trend', {
      method: 'POST',
      path: `/api/trends/${ids.negative}/analyze`,
      json: { force_refresh: false },
    });
    parses(analysis, 'AnalysisResponse', 'analyze_trend');
    await settle(ctx, user.key, analysis.data!.task_id);
  });

  test('crisis events, evidence, reviews, export and resilience settings', async () => {
    // get_crisis_events(): limit=10, offset=0, status='active', period=time_range='24h'.
    const events = await sdk('get_crisis_events', {
      method: 'GET',
      path: '/api/intelligence/crisis-events',
      params: { limit: 10, offset: 0, status: 'active', period: '24h' },
    });
    parses(events, 'CrisisEventListResponse', 'get_crisis_events');
    assert.equal(events.data!.events.length, 1, events.body);
    const id = events.data!.events[0].id as number;
    // get_crisis_events(status='all', start_date=…, end_date=…, severity='all', source='x', freshness='fresh',
    //                   review_status='all', keyword='Acme'): startDate/endDate, upstream's names.
    const dated = await sdk('get_crisis_events', {
      method: 'GET',
      path: '/api/intelligence/crisis-events',
      params: {
        limit: 10,
        offset: 0,
        status: 'all',
        keyword: 'Acme',
        severity: 'all',
        period: '24h',
        startDate: '2026-11-21',
        endDate: '2026-11-21',
        source: 'x',
        freshness: 'fresh',
        review_status: 'all',
      },
    });
    parses(dated, 'CrisisEventListResponse', 'get_crisis_events');
    assert.equal(dated.data!.events.length, 1);
    // get_crisis_event(event_id)
    parses(
      await sdk('get_crisis_event', { method: 'GET', path: `/api/intelligence/crisis-events/${id}` }),
      'CrisisEvent',
      'get_crisis_event',
    );
    // get_crisis_evidence(event_id)
    const evidence = await sdk('get_crisis_evidence', {
      method: 'GET',
      path: `/api/intelligence/crisis-events/${id}/evidence`,
    });
    parses(evidence, 'CrisisEvent', 'get_crisis_evidence');
    assert.ok(evidence.data!.source_refs.length > 0);
    // review_crisis_event(event_id, 'supported', rationale, evidence_version)
    const review = await sdk('review_crisis_event', {
      method: 'POST',
      path: `/api/intelligence/crisis-events/${id}/reviews`,
      json: {
        assessment: 'supported',
        rationale: 'Thirty independent complaints in twenty minutes.',
        evidence_version: evidence.data!.evidence_version,
      },
    });
    parses(review, 'CrisisEvent', 'review_crisis_event');
    // perform_crisis_event_action(event_id, 'acknowledge')
    const acknowledged = await sdk('perform_crisis_event_action', {
      method: 'POST',
      path: `/api/intelligence/crisis-events/${id}/action`,
      json: { action: 'acknowledge' },
    });
    parses(acknowledged, 'CrisisEvent', 'perform_crisis_event_action');
    assert.equal(acknowledged.data!.status, 'acknowledged');
    // export_crisis_event(event_id) and format='html' (read as text)
    const exported = await sdk('export_crisis_event', {
      method: 'GET',
      path: `/api/intelligence/crisis-events/${id}/export`,
      params: { format: 'json' },
    });
    parses(exported, 'dict', 'export_crisis_event');
    const html = await sdk('export_crisis_event', {
      method: 'GET',
      path: `/api/intelligence/crisis-events/${id}/export`,
      params: { format: 'html' },
    });
    assert.equal(html.status, 200);
    assert.match(String(html.headers['content-type']), /^text\/html/);
    // get_resilience_sources()
    parses(
      await sdk('get_resilience_sources', { method: 'GET', path: '/api/intelligence/sources' }),
      'ResilienceSourceList',
      'get_resilience_sources',
    );
    // get_resilience_settings() before any is set: location_query is '' (a str), not null.
    const unset = await sdk('get_resilience_settings', {
      method: 'GET',
      path: '/api/intelligence/resilience-settings',
    });
    parses(unset, 'ResilienceSettings', 'get_resilience_settings');
    assert.equal(unset.data!.location_query, '');
    // set_resilience_location('Tadcaster') and set_resilience_location('') (empty disables matching)
    for (const location of ['Tadcaster', '']) {
      const set = await sdk('set_resilience_location', {
        method: 'PUT',
        path: '/api/intelligence/resilience-settings',
        json: { location_query: location },
      });
      parses(set, 'ResilienceSettings', 'set_resilience_location');
      assert.equal(set.data!.location_query, location);
    }
  });

  test('account: profile, keys, usage, interests, plans', async () => {
    // get_user_profile()
    parses(
      await sdk('get_user_profile', { method: 'GET', path: '/api/user/profile' }),
      'UserProfile',
      'get_user_profile',
    );
    // get_api_keys(): the SDK reads `keys` from a wrapper, or a bare list.
    const keys = await sdk('get_api_keys', { method: 'GET', path: '/api/user/api-keys' });
    const keyList = Array.isArray(keys.data) ? keys.data : keys.data!.keys;
    parses({ ...keys, data: keyList }, 'list<ApiKey>', 'get_api_keys');
    // create_api_key('ci'): permissions=None is sent as [] and means the defaults.
    const created = await sdk('create_api_key', {
      method: 'POST',
      path: '/api/user/api-keys',
      json: { name: 'ci', permissions: [] },
    });
    parses(created, 'ApiKeyCreateResponse', 'create_api_key');
    assert.match(created.data!.api_key, /^cw_/);
    const listed = (await sdk('get_api_keys', { method: 'GET', path: '/api/user/api-keys' })).data!;
    const fresh = (Array.isArray(listed) ? listed : listed.keys).find((k: Json) => k.id === created.data!.id);
    assert.deepEqual(fresh.permissions, ['read', 'write']);
    // create_api_key('reader', ['read'])
    parses(
      await sdk('create_api_key', {
        method: 'POST',
        path: '/api/user/api-keys',
        json: { name: 'reader', permissions: ['read'] },
      }),
      'ApiKeyCreateResponse',
      'create_api_key',
    );
    // delete_api_key(key_id): 204, None.
    const deleted = await sdk('delete_api_key', {
      method: 'DELETE',
      path: `/api/user/api-keys/${created.data!.id}`,
    });
    assert.equal(deleted.status, 204);
    // get_api_usage()
    parses(
      await sdk('get_api_usage', { method: 'GET', path: '/api/user/api-usage' }),
      'ApiUsageResponse',
      'get_api_usage',
    );
    // get_topic_interests(): a bare list of TopicInterest.
    parses(
      await sdk('get_topic_interests', { method: 'GET', path: '/api/user/interests' }),
      'list<TopicInterest>',
      'get_topic_interests',
    );
    // create_topic_interest('zenith', 'volume_above', volume_threshold_value=50) and a growth one
    const interest = await sdk('create_topic_interest', {
      method: 'POST',
      path: '/api/user/interests',
      json: { keyword: 'zenith', alert_condition_type: 'volume_above', volume_threshold_value: 50 },
    });
    parses(interest, 'TopicInterest', 'create_topic_interest');
    parses(
      await sdk('create_topic_interest', {
        method: 'POST',
        path: '/api/user/interests',
        json: { keyword: 'blorp', alert_condition_type: 'growth_above', percentage_growth_value: 20.5 },
      }),
      'TopicInterest',
      'create_topic_interest',
    );
    // delete_topic_interest(interest_id)
    const gone = await sdk('delete_topic_interest', {
      method: 'DELETE',
      path: `/api/user/interests/${interest.data!.id}`,
    });
    assert.equal(gone.status, 204);
    // An earlier client.py generation calls the same three at /api/user/topic-interests.
    const earlier = await sdk('create_topic_interest', {
      method: 'POST',
      path: '/api/user/topic-interests',
      json: { keyword: 'quorvex', alert_condition_type: 'volume_above', volume_threshold_value: 10 },
    });
    parses(earlier, 'TopicInterest', 'create_topic_interest');
    const earlierList = await sdk('get_topic_interests', {
      method: 'GET',
      path: '/api/user/topic-interests',
    });
    parses(earlierList, 'list<TopicInterest>', 'get_topic_interests');
    assert.ok(earlierList.data!.some((i: Json) => i.id === earlier.data!.id));
    const removed = await sdk('delete_topic_interest', {
      method: 'DELETE',
      path: `/api/user/topic-interests/${earlier.data!.id}`,
    });
    assert.equal(removed.status, 204);
    // get_available_plans(): a bare list of SubscriptionPlan.
    const plans = await sdk('get_available_plans', { method: 'GET', path: '/api/plans' });
    parses(plans, 'list<SubscriptionPlan>', 'get_available_plans');
    assert.deepEqual(
      plans.data!.map((p: Json) => p.name),
      ['developer', 'advantage', 'scale', 'enterprise'],
    );
  });

  test('status, blog, webhooks and the chat status', async () => {
    // get_api_status()
    parses(await sdk('get_api_status', { method: 'GET', path: '/status' }), 'StatusPage', 'get_api_status');
    // get_api_status_history(): the SDK substitutes dummy data when uptime_percentages is missing; it must not be.
    const history = await sdk('get_api_status_history', { method: 'GET', path: '/status/history' });
    parses(history, 'StatusHistoryResponse', 'get_api_status_history');
    assert.ok('uptime_percentages' in history.data!);
    // get_blog_posts() and get_blog_posts(tag='product')
    const blog = await sdk('get_blog_posts', {
      method: 'GET',
      path: '/api/blog/posts',
      params: { limit: 20, offset: 0 },
    });
    parses(blog, 'BlogPostListResponse', 'get_blog_posts');
    const tagged = await sdk('get_blog_posts', {
      method: 'GET',
      path: '/api/blog/posts',
      params: { limit: 20, offset: 0, tag: 'product' },
    });
    parses(tagged, 'BlogPostListResponse', 'get_blog_posts');
    assert.deepEqual(
      tagged.data!.posts.map((p: Json) => p.title),
      ['Reading velocity'],
    );
    // get_blog_post(slug)
    parses(
      await sdk('get_blog_post', { method: 'GET', path: `/api/blog/posts/${tagged.data!.posts[0].slug}` }),
      'BlogPost',
      'get_blog_post',
    );
    // get_webhooks(): the SDK reads `webhooks` from a wrapper, or a bare list.
    const hooks = await sdk('get_webhooks', { method: 'GET', path: '/api/integrations/webhooks' });
    const hookList = Array.isArray(hooks.data) ? hooks.data : hooks.data!.webhooks;
    parses({ ...hooks, data: hookList }, 'list<WebhookSubscription>', 'get_webhooks');
    assert.equal(hookList[0].target_url, 'http://127.0.0.1:9/hook');
    assert.deepEqual(hookList[0].events, ['trend.alert.created']);
    // get_slack_status()
    const slack = await sdk('get_slack_status', { method: 'GET', path: '/api/integrations/slack/status' });
    parses(slack, 'SlackStatus', 'get_slack_status');
    assert.equal(slack.data!.is_active, false);
  });

  test('capabilities a self-hosted service lacks raise the SDK’s CapabilityUnavailableError', async () => {
    const requests: [string, SdkRequest][] = [
      // get_financial_data()
      ['get_financial_data', { method: 'GET', path: '/api/intelligence/financial-data' }],
      // get_public_homepage_financial_data(): sent without the key.
      [
        'get_public_homepage_financial_data',
        { method: 'GET', path: '/api/public/homepage-data', withoutKey: true },
      ],
      // get_billing_portal_url(return_url='https://example.com/account')
      [
        'get_billing_portal_url',
        {
          method: 'POST',
          path: '/api/billing/create-portal-session',
          json: { return_url: 'https://example.com/account' },
        },
      ],
      // track_visitor_event('s1', 'page_view', page_url='/pricing')
      [
        'track_visitor_event',
        {
          method: 'POST',
          path: '/api/events/track',
          json: { session_id: 's1', event_type: 'page_view', page_url: '/pricing' },
        },
      ],
    ];
    for (const [method, request] of requests) {
      const res = await sdk(method, request);
      // client.py: a 503 whose JSON `code` is CAPABILITY_UNAVAILABLE raises CapabilityUnavailableError.
      assert.equal(res.status, 503, `${method}: ${res.body}`);
      assert.equal(res.data!.code, 'CAPABILITY_UNAVAILABLE', method);
      assert.ok(String(res.data!.detail).length > 20, method);
    }
  });

  test('every SDK method is accounted for, and each served one was replayed', () => {
    const all = [...SERVED, ...UNAVAILABLE, ...Object.keys(REPLAYED_BESIDE), ...WEBSOCKET];
    assert.equal(new Set(all).size, 54, 'the SDK has 54 public methods');
    for (const [method, file] of Object.entries(REPLAYED_BESIDE)) {
      const text = fs.readFileSync(path.join(import.meta.dirname, file), 'utf8');
      assert.ok(text.includes(method), `${file} replays ${method}`);
    }
    assert.deepEqual(
      [...called].sort(),
      [...SERVED, ...UNAVAILABLE].sort(),
      'a served method without a replayed request',
    );
  });
});
