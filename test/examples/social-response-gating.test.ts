// The gating recipe a user would copy (examples/social-response-gating.ts), run over real HTTP against the
// service on 127.0.0.1 and a stand-in workflow tool: it forwards when calm and holds back while a blocking
// crisis event exists, including one that opens between reading crises and pushing (the server-side gate).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { runSocialResponseGating } from '../../examples/social-response-gating.ts';
import { buildTestApp, call, createUser, type TestContext } from '../helpers/app.ts';
import {
  insertCrisisEvent,
  N8N_KEY,
  type N8nStandIn,
  n8nStandIn,
} from '../modules/integrations/workflow-stand-in.ts';

describe('social response gating recipe', () => {
  let ctx: TestContext;
  let tool: N8nStandIn;
  let baseUrl: string;
  let user: { userId: number; key: string };

  before(async () => {
    ctx = await buildTestApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8' } });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    tool = await n8nStandIn();
    user = await createUser(ctx, 'enterprise');

    // A trend to talk about.
    const signals = Array.from({ length: 12 }, (_, i) => ({
      source: ['reddit', 'x', 'bluesky'][i % 3],
      external_id: `zephyr-${i}`,
      text: `Zephyrcell battery launch is the talk of the week, take ${i}`,
      keywords: ['Zephyrcell'],
    }));
    const ingest = await call(ctx.app, 'POST', '/api/signals', { key: ctx.operatorKey, body: { signals } });
    assert.equal(ingest.statusCode, 202, ingest.body);
    await ctx.app.services.engine.tick();
    await ctx.app.services.engine.tick();

    // Flow 4 → 6: connect the tool and select the workflow.
    const connected = await call(ctx.app, 'POST', '/api/integrations/workflow/connect', {
      key: user.key,
      body: { api_key: N8N_KEY, api_base_url: tool.url, include_metadata: true },
    });
    assert.equal(connected.statusCode, 200, connected.body);
    const selected = await call(ctx.app, 'PUT', '/api/integrations/workflow/selection', {
      key: user.key,
      body: {
        workflow_id: 'wf1',
        workflow_name: 'Social',
        default_event: 'trend_lifecycle',
        api_base_url: tool.url,
      },
    });
    assert.equal(selected.statusCode, 200, selected.body);
  });

  after(async () => {
    await tool.close();
    await ctx.close();
  });

  test('forwards every trend to the workflow while no blocking crisis exists', async () => {
    const decisions = await runSocialResponseGating({ baseUrl, apiKey: user.key, search: 'zephyrcell' });
    assert.ok(decisions.length >= 1, 'the recipe found the trend');
    for (const decision of decisions) {
      assert.equal(decision.forwarded, true, decision.reason);
      assert.equal(decision.push?.delivered, true);
      assert.deepEqual(decision.blocking, []);
    }
    assert.equal(tool.pushes().length, decisions.length);
    const body = JSON.parse(tool.pushes()[0]!.body);
    assert.equal(body.event, 'trend_lifecycle');
    assert.equal(body.data.trend_id, decisions[0]!.trend.id);
    assert.equal(body.metadata.source, 'crestwatch');
  });

  test('holds back while an active high-severity crisis matches the trend', async () => {
    const before = tool.pushes().length;
    const crisis = await insertCrisisEvent(ctx, {
      userId: user.userId,
      title: 'Zephyrcell battery fires',
      keywords: ['Zephyrcell'],
      severity: 'critical',
    });
    const decisions = await runSocialResponseGating({ baseUrl, apiKey: user.key, search: 'zephyrcell' });
    assert.ok(decisions.length >= 1);
    for (const decision of decisions) {
      assert.equal(decision.forwarded, false);
      assert.equal(decision.blocking[0]?.id, crisis);
    }
    assert.equal(tool.pushes().length, before, 'nothing reached the workflow');

    const done = await call(ctx.app, 'POST', `/api/intelligence/crisis-events/${crisis}/action`, {
      key: user.key,
      body: { action: 'archive' },
    });
    assert.equal(done.statusCode, 200, done.body);
    const calm = await runSocialResponseGating({ baseUrl, apiKey: user.key, search: 'zephyrcell' });
    assert.ok(calm.every((d) => d.forwarded));
  });

  test('a crisis opening between reading crises and pushing is caught by the push gate', async () => {
    const before = tool.pushes().length;
    let opened = false;
    const racingFetch: typeof fetch = async (input, init) => {
      if (!opened && String(input).includes('/api/integrations/workflow/push')) {
        opened = true;
        await insertCrisisEvent(ctx, {
          userId: user.userId,
          title: 'Sudden Zephyrcell recall',
          keywords: ['Zephyrcell'],
          severity: 'high',
        });
      }
      return fetch(input, init);
    };
    const decisions = await runSocialResponseGating({
      baseUrl,
      apiKey: user.key,
      search: 'zephyrcell',
      fetch: racingFetch,
    });
    assert.ok(decisions.length >= 1);
    assert.ok(decisions.every((d) => !d.forwarded));
    assert.match(decisions[0]!.reason, /held back/);
    assert.equal(tool.pushes().length, before);
  });
});
