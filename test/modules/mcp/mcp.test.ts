// The MCP endpoint through the MCP SDK's own client over Streamable HTTP, against a real app on 127.0.0.1: tools
// answer what their routes answer, with the same keys, permissions, quotas and tenant walls.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TOOLS } from '../../../src/modules/mcp/index.ts';
import { isUpstreamAlias } from '../../../src/platform/query.ts';
import { buildTestApp, call, createUser, type Json, type TestContext } from '../../helpers/app.ts';
import { seed } from '../insights/fixtures.ts';
import { insertCrisisEvent } from '../integrations/workflow-stand-in.ts';

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Json;
}

describe('MCP server at /mcp', () => {
  let ctx: TestContext;
  let url: string;
  let trends: Record<string, number>;
  const clients: Client[] = [];

  before(async () => {
    ctx = await buildTestApp({
      env: {
        OUTBOUND_ALLOWLIST: '127.0.0.0/8',
        PLANS: JSON.stringify({
          developer: { burst_per_second: 100_000 },
          enterprise: { burst_per_second: 100_000 },
        }),
      },
    });
    trends = await seed(ctx, ctx.app.services.clock.now());
    await ctx.app.services.engine.tick();
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/mcp`;
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await ctx.close();
  });

  async function connect(key: string, header: 'bearer' | 'x-api-key' = 'bearer'): Promise<Client> {
    const headers: Record<string, string> =
      header === 'bearer' ? { Authorization: `Bearer ${key}` } : { 'X-API-Key': key };
    const client = new Client({ name: 'crestwatch-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  const callTool = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as unknown as ToolResult;

  test('lists every tool with the input schema of the route it wraps and honest annotations', async () => {
    const user = await createUser(ctx, 'enterprise', ['read']);
    const client = await connect(user.key);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'autocomplete_trends',
      'crisis_gate',
      'generate_ai_insight',
      'get_ai_insight',
      'get_crisis_evidence',
      'get_trend',
      'get_trend_analytics',
      'get_usage',
      'list_categories',
      'list_crisis_events',
      'list_recommendations',
      'list_trends',
      'list_webhooks',
      'review_crisis_event',
      'search_insights',
    ]);
    const doc = (await call(ctx.app, 'GET', '/api/openapi.json')).data;
    for (const spec of TOOLS) {
      const tool = tools.find((t) => t.name === spec.name)!;
      const writes = spec.route?.method === 'POST';
      assert.equal(tool.annotations?.readOnlyHint, !writes, `${spec.name} readOnlyHint`);
      assert.equal(tool.annotations?.destructiveHint, false, `${spec.name} destructiveHint`);
      if (!spec.route) continue;
      // Every wrapped route is served, and every one of its parameters is an argument of the tool, but for
      // upstream's second names (`sort_dir` beside `order`): a tool offers one name per parameter.
      const openApiPath = spec.route.url.replace(/:([a-z_]+)/g, '{$1}');
      const operation = doc.paths[openApiPath]?.[spec.route.method.toLowerCase()];
      assert.ok(
        operation,
        `${spec.name} wraps ${spec.route.method} ${openApiPath}, which the document lacks`,
      );
      const query = Object.fromEntries(
        (operation.parameters ?? []).filter((p: Json) => p.in === 'query').map((p: Json) => [p.name, p]),
      );
      const routeArgs = [
        ...(operation.parameters ?? [])
          .filter((p: Json) => p.in !== 'header' && !(p.in === 'query' && isUpstreamAlias(p.name, query)))
          .map((p: Json) => p.name),
        ...Object.keys(operation.requestBody?.content?.['application/json']?.schema?.properties ?? {}),
      ].sort();
      const extra = spec.name === 'generate_ai_insight' ? ['wait_seconds'] : [];
      assert.deepEqual(
        Object.keys(tool.inputSchema.properties ?? {}).sort(),
        [...routeArgs, ...extra].sort(),
        spec.name,
      );
    }
    const listTrends = tools.find((t) => t.name === 'list_trends')!;
    assert.ok(JSON.stringify((listTrends.inputSchema.properties as Json).sort_by).includes('velocity'));
    assert.ok((tools.find((t) => t.name === 'get_trend')!.inputSchema.required ?? []).includes('trend_id'));
  });

  test('every other reading tool answers what its route answers', async () => {
    const user = await createUser(ctx, 'enterprise', ['read', 'write']);
    const hook = await call(ctx.app, 'POST', '/api/integrations/webhooks', {
      key: user.key,
      body: {
        url: 'http://127.0.0.1:9/hook',
        trigger_type: 'trend_velocity',
        delivery_mode: 'instant_stream',
        threshold_value: 60,
        cooldown_seconds: 60,
      },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const client = await connect(user.key);
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'get_trend_analytics',
        { trend_id: trends.negative, period: '24h' },
        `/api/trends/${trends.negative}/analytics?period=24h`,
      ],
      ['autocomplete_trends', { query: 'Ac', limit: 5 }, '/api/trends/autocomplete?query=Ac&limit=5'],
      ['list_categories', {}, '/api/trends/categories'],
      ['search_insights', { q: 'Acme' }, '/api/insights/search?q=Acme'],
      ['list_recommendations', { limit: 5 }, '/api/intelligence/recommendations?limit=5'],
      ['list_webhooks', {}, '/api/integrations/webhooks'],
    ];
    for (const [name, args, path] of cases) {
      const result = await callTool(client, name, args);
      assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(result.content)}`);
      const http = await call(ctx.app, 'GET', path, { key: user.key });
      assert.equal(http.statusCode, 200, `${path}: ${http.body}`);
      assert.deepEqual(result.structuredContent, http.data, name);
      assert.ok(result.content[0]!.text!.length > 0, `${name} has a summary`);
      assert.doesNotMatch(result.content[0]!.text!, /undefined|NaN/, `${name}: ${result.content[0]!.text}`);
    }
    const listed = await callTool(client, 'list_webhooks');
    assert.match(listed.content[0]!.text!, /127\.0\.0\.1:9\/hook/);
    assert.ok(!JSON.stringify(listed.structuredContent).includes('whsec_'), 'no secret in the tool result');
  });

  test('list_trends, get_trend and a trend resource give what the HTTP routes give', async () => {
    const user = await createUser(ctx, 'enterprise', ['read']);
    const client = await connect(user.key, 'x-api-key');
    const listed = await callTool(client, 'list_trends', { limit: 5, sort_by: 'velocity', period: '24h' });
    assert.equal(listed.isError, undefined, JSON.stringify(listed));
    const http = await call(ctx.app, 'GET', '/api/trends?limit=5&sort_by=velocity&period=24h', {
      key: user.key,
    });
    assert.equal(http.statusCode, 200);
    assert.deepEqual(listed.structuredContent, http.data);
    assert.ok(http.data.trends.length >= 3);
    assert.match(listed.content[0]!.text!, /trends: #\d+ /);

    // A trend with folded phrases names them in the tool's text too.
    await ctx.app.services.db
      .updateTable('trends')
      .set({ aliases: JSON.stringify(['#negalias']) })
      .where('id', '=', trends.negative)
      .execute();
    const one = await callTool(client, 'get_trend', { trend_id: trends.negative });
    const oneHttp = await call(ctx.app, 'GET', `/api/trends/${trends.negative}`, { key: user.key });
    assert.deepEqual(one.structuredContent, oneHttp.data);
    assert.deepEqual(oneHttp.data.aliases, ['#negalias']);
    assert.match(one.content[0]!.text!, /\(also: #negalias\)/);

    const resource = await client.readResource({ uri: `crestwatch://trends/${trends.negative}` });
    assert.deepEqual(JSON.parse(String((resource.contents[0] as Json).text)), oneHttp.data);
    const templates = await client.listResourceTemplates();
    assert.deepEqual(templates.resourceTemplates.map((t) => t.uriTemplate).sort(), [
      'crestwatch://crisis-events/{id}',
      'crestwatch://trends/{id}',
    ]);
  });

  test('resources/list names the fastest trends and your active crisis events, counted as one request', async () => {
    const owner = await createUser(ctx, 'enterprise', ['read']);
    const stranger = await createUser(ctx, 'enterprise', ['read']);
    const id = await insertCrisisEvent(ctx, {
      userId: owner.userId,
      title: 'Harbor Bridge',
      keywords: ['harbor'],
    });
    const hidden = await insertCrisisEvent(ctx, {
      userId: stranger.userId,
      title: 'Not yours',
      keywords: ['x'],
    });
    const client = await connect(owner.key);
    await ctx.app.services.usage.flush();
    const before = (await call(ctx.app, 'GET', '/api/user/api-usage', { key: owner.key })).data.summary;
    const { resources } = await client.listResources();
    await ctx.app.services.usage.flush();
    const after = (await call(ctx.app, 'GET', '/api/user/api-usage', { key: owner.key })).data.summary;
    // One for the list; the usage reads themselves are exempt.
    assert.equal(after.requests_today - before.requests_today, 1);

    const http = await call(ctx.app, 'GET', '/api/trends?sort_by=velocity&period=24h&limit=20', {
      key: owner.key,
    });
    const trendUris = http.data.trends.map((t: Json) => `crestwatch://trends/${t.id}`);
    assert.ok(trendUris.length >= 3);
    assert.deepEqual(
      resources.map((r) => r.uri),
      [...trendUris, `crestwatch://crisis-events/${id}`],
    );
    assert.ok(!resources.some((r) => r.uri === `crestwatch://crisis-events/${hidden}`));
    const event = resources.at(-1)!;
    assert.equal(event.title, 'Harbor Bridge');
    assert.equal(event.mimeType, 'application/json');
    assert.match(String(event.description), /Active crisis event, \w+ severity/);
    // Every listed resource reads.
    const read = await client.readResource({ uri: resources[0]!.uri });
    assert.equal(JSON.parse(String((read.contents[0] as Json).text)).id, http.data.trends[0].id);
  });

  test('bad arguments are tool errors naming the field, never silently dropped', async () => {
    const user = await createUser(ctx, 'enterprise', ['read']);
    const client = await connect(user.key);
    const unknown = await callTool(client, 'list_trends', { limit: 5, colour: 'red' });
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0]!.text!, /Unknown argument colour/);
    const invalid = await callTool(client, 'list_trends', { limit: 5000 });
    assert.equal(invalid.isError, true);
    assert.equal(invalid.structuredContent?.status, 400);
    assert.match(invalid.content[0]!.text!, /limit/);
    const missing = await callTool(client, 'get_trend', { trend_id: 999_999 });
    assert.equal(missing.isError, true);
    assert.equal(missing.structuredContent?.status, 404);
  });

  test('a missing or null required argument is a tool error naming it, not counted; so is an unknown prompt argument', async () => {
    const user = await createUser(ctx, 'enterprise', ['read']);
    const client = await connect(user.key);
    const counted = async () => {
      await ctx.app.services.usage.flush();
      return (await call(ctx.app, 'GET', '/api/user/api-usage', { key: user.key })).data.summary
        .requests_today;
    };
    const before = await counted();
    const noQuery = await callTool(client, 'autocomplete_trends', {});
    assert.equal(noQuery.structuredContent?.code, 'validation_failed');
    assert.deepEqual(noQuery.structuredContent?.errors, [{ path: 'query', message: 'is required' }]);
    for (const args of [{}, { trend_id: null }]) {
      const res = await callTool(client, 'get_trend', args);
      assert.equal(res.isError, true, JSON.stringify(res));
      assert.equal(res.structuredContent?.status, 400);
      assert.equal(res.structuredContent?.code, 'validation_failed');
      assert.deepEqual(res.structuredContent?.errors, [{ path: 'trend_id', message: 'is required' }]);
    }
    // Values are taken as typed, as in a request body: "5" is no integer, a number is no trend name.
    for (const [name, args, path] of [
      ['list_trends', { limit: '5' }, 'limit'],
      ['get_trend', { trend_id: '1' }, 'trend_id'],
      ['list_trends', { search: 5 }, 'search'],
    ] as const) {
      const res = await callTool(client, name, args);
      assert.equal(res.isError, true, JSON.stringify(res));
      assert.equal(res.structuredContent?.code, 'validation_failed');
      assert.equal(res.structuredContent?.errors[0].path, path, JSON.stringify(res.structuredContent));
    }
    assert.equal(await counted(), before);
    await assert.rejects(
      client.getPrompt({ name: 'brief_me_on', arguments: { topic: 'Acme Cloud', x: '1' } }),
      /Unknown argument x/,
    );
    // An unknown tool is a protocol error (-32602), as the MCP specification lists it.
    const unknownTool = await callTool(client, 'nonexistent_tool').then(
      () => null,
      (error: Error & { code?: number }) => error,
    );
    assert.equal(unknownTool?.code, -32602);
    assert.match(String(unknownTool?.message), /No tool is named nonexistent_tool/);
  });

  test('crisis evidence equals the HTTP route; another user’s event is not found; reviews need write', async () => {
    const owner = await createUser(ctx, 'enterprise', ['read', 'write']);
    const stranger = await createUser(ctx, 'enterprise', ['read', 'write']);
    const readOnly = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: owner.key,
      body: { name: 'read only', permissions: ['read'] },
    });
    const id = await insertCrisisEvent(ctx, {
      userId: owner.userId,
      title: 'Acme Cloud',
      keywords: ['acme cloud'],
    });

    const client = await connect(owner.key);
    const evidence = await callTool(client, 'get_crisis_evidence', { id });
    const http = await call(ctx.app, 'GET', `/api/intelligence/crisis-events/${id}/evidence`, {
      key: owner.key,
    });
    assert.equal(http.statusCode, 200);
    assert.deepEqual(evidence.structuredContent, http.data);
    const listed = await callTool(client, 'list_crisis_events', { status: 'active' });
    assert.deepEqual(
      listed.structuredContent?.events.map((e: Json) => e.id),
      [id],
    );

    const other = await connect(stranger.key);
    const hidden = await callTool(other, 'get_crisis_evidence', { id });
    assert.equal(hidden.isError, true);
    assert.match(hidden.content[0]!.text!, /not found|No crisis event/i);
    const hiddenResource = await other.readResource({ uri: `crestwatch://crisis-events/${id}` }).then(
      () => null,
      (error: Error) => error,
    );
    assert.match(String(hiddenResource?.message), /No crisis event|not found/i);
    // The MCP specification's code for a missing resource.
    assert.equal((hiddenResource as { code?: number } | null)?.code, -32002);

    const reader = await connect(readOnly.data.api_key);
    const refused = await callTool(reader, 'review_crisis_event', {
      id,
      assessment: 'supported',
      rationale: 'Confirmed by the status page.',
      evidence_version: http.data.evidence_version ?? 'x'.repeat(32),
    });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0]!.text!, /write/);

    const stale = await callTool(client, 'review_crisis_event', {
      id,
      assessment: 'supported',
      rationale: 'Confirmed by the status page.',
      evidence_version: 'f'.repeat(32),
    });
    assert.equal(stale.isError, true);
    assert.equal(stale.structuredContent?.status, 409);
  });

  test('crisis_gate holds a trend while a severe active event concerns it, and clears others', async () => {
    const user = await createUser(ctx, 'enterprise', ['read']);
    const eventId = await insertCrisisEvent(ctx, {
      userId: user.userId,
      title: 'Acme Cloud outage',
      severity: 'critical',
      keywords: ['acme cloud'],
    });
    const client = await connect(user.key);
    const held = await callTool(client, 'crisis_gate', { trend_id: trends.negative });
    assert.equal(held.structuredContent?.may_post, false);
    assert.equal(held.structuredContent?.blocking_event.id, eventId);
    assert.match(held.content[0]!.text!, /^Hold: your critical crisis event/);
    const clear = await callTool(client, 'crisis_gate', { topic: 'Zenith Phone' });
    assert.equal(clear.structuredContent?.may_post, true);
    const neither = await callTool(client, 'crisis_gate', {});
    assert.equal(neither.isError, true);
    assert.match(neither.content[0]!.text!, /trend_id or topic/);

    const prompt = await client.getPrompt({ name: 'brief_me_on', arguments: { topic: 'Acme Cloud' } });
    const text = String((prompt.messages[0]!.content as Json).text);
    assert.match(text, /Brief me on "Acme Cloud"/);
    assert.match(text, /"may_post": false/);
  });

  test('generate_ai_insight waits for the task and returns the insight', async () => {
    const user = await createUser(ctx, 'enterprise', ['read', 'write']);
    const client = await connect(user.key);
    const none = await callTool(client, 'get_ai_insight', { trend_id: trends.positive });
    assert.deepEqual(none.structuredContent, { result: null });
    assert.match(none.content[0]!.text!, /No insight yet/);
    ctx.app.services.worker.start();
    try {
      const generated = await callTool(client, 'generate_ai_insight', {
        trend_id: trends.negative,
        wait_seconds: 20,
      });
      assert.equal(generated.isError, undefined, JSON.stringify(generated));
      assert.equal(generated.structuredContent?.status, 'succeeded');
      assert.equal(generated.structuredContent?.insight.sentiment_category, 'negative');
    } finally {
      await ctx.app.services.worker.stop();
    }
    const read = await callTool(client, 'get_ai_insight', { trend_id: trends.negative });
    const http = await call(ctx.app, 'GET', `/api/trends/${trends.negative}/ai-insights`, { key: user.key });
    assert.deepEqual(read.structuredContent, http.data);
  });

  test('a developer key is refused with the quota error after its 100th counted call, MCP calls included', async () => {
    const user = await createUser(ctx, 'developer', ['read']);
    const client = await connect(user.key);
    await client.listTools();
    for (let i = 0; i < 40; i++) {
      const res = await call(ctx.app, 'GET', '/api/trends?limit=1', { key: user.key });
      assert.equal(res.statusCode, 200);
    }
    for (let i = 0; i < 60; i++) {
      const res = await callTool(client, 'list_trends', { limit: 1 });
      assert.equal(res.isError, undefined, `call ${41 + i}: ${JSON.stringify(res.content)}`);
    }
    const refused = await callTool(client, 'list_trends', { limit: 1 });
    assert.equal(refused.isError, true);
    assert.equal(refused.structuredContent?.code, 'quota_exceeded');
    assert.match(refused.content[0]!.text!, /daily quota of 100 requests/);
    const http = await call(ctx.app, 'GET', '/api/trends?limit=1', { key: user.key });
    assert.equal(http.statusCode, 429);
    // The usage route is exempt from the quota, as a tool too.
    const usage = await callTool(client, 'get_usage');
    assert.equal(usage.isError, undefined);
    await ctx.app.services.usage.flush();
    const report = await call(ctx.app, 'GET', '/api/user/api-usage', { key: user.key });
    assert.equal(report.data.summary.requests_today ?? report.data.daily_usage.at(-1).request_count, 100);
  });

  test('the answer’s X-RateLimit-Remaining counts the calls it carried', async () => {
    const user = await createUser(ctx, 'developer', ['read']);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      authorization: `Bearer ${user.key}`,
    };
    const toolCall = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'list_trends', arguments: { limit: 1 } },
    });
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify([toolCall(1), toolCall(2)]),
    });
    assert.equal(res.status, 200);
    await res.text();
    await ctx.app.services.usage.flush();
    const used = (await call(ctx.app, 'GET', '/api/user/api-usage', { key: user.key })).data.summary
      .requests_today;
    assert.equal(used, 2);
    assert.equal(res.headers.get('x-ratelimit-limit'), '100');
    assert.equal(res.headers.get('x-ratelimit-remaining'), String(100 - used));
  });

  test('no key or a bad key is an HTTP 401 before any MCP message; GET is 405', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(url, { method: 'POST', headers, body: JSON.stringify(initialize) });
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal(((await none.json()) as Json).code, 'missing_api_key');
    const bad = await fetch(url, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer cw_not_a_key' },
      body: JSON.stringify(initialize),
    });
    assert.equal(bad.status, 401);
    await assert.rejects(connect('cw_not_a_key'), /401/);

    // With a key, HTTP-level refusals are problem+json too, before the transport sees the message.
    const user = await createUser(ctx, 'enterprise', ['read']);
    const auth = { authorization: `Bearer ${user.key}` };
    const onlyJson = await fetch(url, {
      method: 'POST',
      headers: { ...headers, ...auth, accept: 'application/json' },
      body: JSON.stringify(initialize),
    });
    assert.equal(onlyJson.status, 406);
    assert.equal(onlyJson.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.match(((await onlyJson.json()) as Json).detail, /text\/event-stream/);
    const notRpc = await fetch(url, {
      method: 'POST',
      headers: { ...headers, ...auth },
      body: '{"hello":1}',
    });
    assert.equal(notRpc.status, 400);
    const problem = (await notRpc.json()) as Json;
    assert.equal(problem.code, 'validation_failed');
    assert.match(JSON.stringify(problem.errors), /jsonrpc|hello/);

    const get = await fetch(url, { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
  });
});
