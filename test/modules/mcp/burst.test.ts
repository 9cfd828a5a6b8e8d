// A batch of MCP messages in one POST is limited as that many requests: the POST takes one from the key's
// per-second burst limit, and every tool call beyond the first takes its own, so a batch cannot multiply the
// key's rate. The daily quota is charged only for calls that got through. (The burst windows are real seconds.)
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildTestApp, call, createUser, type Json, type TestContext } from '../../helpers/app.ts';

const BURST = 3;
const BATCH = 12;

describe('MCP batches and the burst limit', () => {
  let ctx: TestContext;
  let url: string;

  before(async () => {
    ctx = await buildTestApp({
      env: { PLANS: JSON.stringify({ developer: { burst_per_second: BURST } }) },
    });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/mcp`;
  });
  after(() => ctx.close());

  const toolCall = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'list_trends', arguments: { limit: 1 } },
  });

  async function post(key: string, body: unknown): Promise<{ status: number; messages: Json[] }> {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify(body),
    });
    const data = (await res.json()) as Json | Json[];
    return { status: res.status, messages: Array.isArray(data) ? data : [data] };
  }

  test('the calls of one batch beyond the key burst limit are refused with rate_limited and not charged', async () => {
    const user = await createUser(ctx, 'developer', ['read']);
    const ids = Array.from({ length: BATCH }, (_, i) => i + 1);
    const { status, messages } = await post(user.key, ids.map(toolCall));
    assert.equal(status, 200);
    const byId = new Map(messages.map((m) => [m.id, m.result]));
    // The POST took one of the 3; the first call rides on it, the second and third take the other two.
    for (const id of [1, 2, 3]) assert.equal(byId.get(id)?.isError, undefined, `call ${id}`);
    const refused = ids.filter((id) => byId.get(id)?.isError === true);
    // A new second may begin during the batch (a loaded machine): then up to 3 more get through, no more.
    assert.ok(refused.length >= BATCH - 2 * BURST, `refused ${refused.length} of ${BATCH}`);
    for (const id of refused) {
      const { structuredContent, content } = byId.get(id);
      assert.equal(structuredContent.code, 'rate_limited');
      assert.equal(structuredContent.status, 429);
      assert.ok(structuredContent.retry_after >= 1);
      assert.match(content[0].text, /limited to 3 requests per second/);
    }
    // Only the calls that got through count against the daily quota.
    await sleep(1100);
    await ctx.app.services.usage.flush();
    const report = await call(ctx.app, 'GET', '/api/user/api-usage', { key: user.key });
    assert.equal(report.statusCode, 200);
    assert.equal(
      report.data.summary.requests_today ?? report.data.daily_usage.at(-1).request_count,
      BATCH - refused.length,
    );
  });

  test('once the second is over the key has its burst again, for routes and for calls alike', async () => {
    const user = await createUser(ctx, 'developer', ['read']);
    await post(
      user.key,
      Array.from({ length: BATCH }, (_, i) => toolCall(i + 1)),
    );
    await sleep(1100);
    const { messages } = await post(user.key, [toolCall(1), toolCall(2)]);
    for (const message of messages) assert.equal(message.result?.isError, undefined, JSON.stringify(message));
    assert.equal((await call(ctx.app, 'GET', '/api/trends?limit=1', { key: user.key })).statusCode, 200);
  });
});
