// The SSRF guard on every user-given URL field: webhook `url` (create, PATCH) and the workflow tool's
// `api_base_url` (connect, selection). Private, loopback and metadata addresses in every spelling the URL
// parser accepts (hex, decimal, short IPv4, IPv4-mapped IPv6), names resolving to private addresses, other
// schemes and credentials → 400 naming the field, with nothing stored and nothing sent.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { OutboundError } from '../../src/platform/outbound.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../helpers/app.ts';
import { N8N_KEY, n8nStandIn } from '../modules/integrations/workflow-stand-in.ts';

/** A listener on 127.0.0.1 that must never be reached. */
async function trap(): Promise<{ port: number; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Loopback in every spelling (all reach the trap when not refused). */
const loopbacks = (port: number) => [
  `http://127.0.0.1:${port}/`,
  `http://[::1]:${port}/`,
  `http://0x7f000001:${port}/`,
  `http://2130706433:${port}/`,
  `http://017700000001:${port}/`,
  `http://127.1:${port}/`,
  `http://[::ffff:127.0.0.1]:${port}/`,
  `http://[0:0:0:0:0:ffff:7f00:1]:${port}/`,
  `http://localhost:${port}/`,
  `http://0.0.0.0:${port}/`,
  `http://[::ffff:0.0.0.0]:${port}/`,
  `http://[::ffff:0:7f00:1]:${port}/`,
  `http://[::127.0.0.1]:${port}/`,
];
/** Refused even when OUTBOUND_ALLOWLIST covers loopback. */
const ALWAYS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://0xa9fea9fe/',
  'http://2852039166/',
  'http://169.254.43518/',
  'http://[fd00:ec2::254]/',
  'http://[fd00:0ec2:0:0:0:0:0:254]/',
];
const PRIVATE = [
  'http://10.0.0.1/',
  'http://10.1/',
  'http://[::ffff:10.0.0.1]/',
  'http://[2002:a00:1::1]/',
  'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/',
  'http://192.168.1.1/',
  'http://[fd12::1]/',
  // Deprecated site-local (RFC 3879), still routed inside some networks.
  'http://[fec0::1]/',
  'http://[feff:ffff::1]/',
];
const SYNTAX = [
  'ftp://example.com/',
  'file:///etc/passwd',
  'gopher://example.com/',
  'javascript:alert(1)',
  'http://user:pass@203.0.113.10/',
  'http://:pass@203.0.113.10/',
  'not a url',
];

const HOOK = {
  trigger_type: 'trend_velocity',
  delivery_mode: 'instant_stream',
  threshold_value: 60,
  cooldown_seconds: 60,
};

function assertRefused(res: Awaited<ReturnType<typeof call>>, field: string, url: string) {
  try {
    assertProblem(res, 400);
  } catch (error) {
    throw new Error(`${url} was not refused: ${(error as Error).message}`);
  }
  const paths = (res.data.errors ?? []).map((e: { path: string }) => e.path);
  assert.ok(
    paths.some((p: string) => p === field || p === `body.${field}` || p === `/${field}`),
    `${url}: problem does not name ${field}: ${res.body}`,
  );
}

describe('SSRF guard without an allowlist', () => {
  let ctx: TestContext;
  let sink: Awaited<ReturnType<typeof trap>>;
  let user: Awaited<ReturnType<typeof createUser>>;
  let hookId: number;
  before(async () => {
    ctx = await buildTestApp();
    sink = await trap();
    user = await createUser(ctx, 'enterprise');
    // A public literal address: allowed, never actually contacted by these tests.
    const hook = await call(ctx.app, 'POST', '/api/integrations/webhooks', {
      key: user.key,
      body: { ...HOOK, url: 'http://203.0.113.10/hook' },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    hookId = hook.data.id;
  });
  after(async () => {
    await ctx.close();
    await sink.close();
  });

  const refused = () => [...loopbacks(sink.port), ...ALWAYS, ...PRIVATE, ...SYNTAX];

  test('webhook url on create → 400 naming body.url, nothing stored, nothing sent', async () => {
    for (const url of refused()) {
      const res = await call(ctx.app, 'POST', '/api/integrations/webhooks', {
        key: user.key,
        body: { ...HOOK, url },
      });
      assertRefused(res, 'url', url);
    }
    const list = await call(ctx.app, 'GET', '/api/integrations/webhooks', { key: user.key });
    assert.deepEqual(
      list.data.webhooks.map((w: { id: number }) => w.id),
      [hookId],
    );
    assert.deepEqual(sink.hits, []);
  });

  test('webhook url on PATCH → 400 naming body.url, the stored url unchanged, nothing sent', async () => {
    for (const url of refused()) {
      const res = await call(ctx.app, 'PATCH', `/api/integrations/webhooks/${hookId}`, {
        key: user.key,
        body: { url },
      });
      assertRefused(res, 'url', url);
    }
    const list = await call(ctx.app, 'GET', '/api/integrations/webhooks', { key: user.key });
    assert.equal(list.data.webhooks[0].url, 'http://203.0.113.10/hook');
    assert.deepEqual(sink.hits, []);
  });

  test('workflow api_base_url on connect → 400 naming it, not connected, the key sent nowhere', async () => {
    for (const url of refused()) {
      const res = await call(ctx.app, 'POST', '/api/integrations/workflow/connect', {
        key: user.key,
        body: { api_key: N8N_KEY, api_base_url: url, include_metadata: false },
      });
      assertRefused(res, 'api_base_url', url);
    }
    const status = await call(ctx.app, 'GET', '/api/integrations/workflow/status', { key: user.key });
    assert.equal(status.data.connected, false, status.body);
    assert.deepEqual(sink.hits, []);
  });

  test('the client refuses at send time too: literal spellings and names resolving to loopback', async () => {
    for (const url of [...loopbacks(sink.port), ...ALWAYS.slice(0, 3)]) {
      await assert.rejects(
        ctx.app.services.outbound.request(url, { method: 'POST', body: '{}', timeoutMs: 2000 }),
        (error: unknown) => error instanceof OutboundError && error.kind === 'refused',
        url,
      );
    }
    assert.deepEqual(sink.hits, []);
  });
});

describe('SSRF guard with OUTBOUND_ALLOWLIST=127.0.0.0/8', () => {
  let ctx: TestContext;
  let tool: Awaited<ReturnType<typeof n8nStandIn>>;
  let user: Awaited<ReturnType<typeof createUser>>;
  before(async () => {
    ctx = await buildTestApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8' } });
    tool = await n8nStandIn();
    user = await createUser(ctx, 'enterprise');
  });
  after(async () => {
    await ctx.close();
    await tool.close();
  });

  test('metadata addresses stay refused in every spelling; other private ranges too', async () => {
    for (const url of [...ALWAYS, ...PRIVATE]) {
      assertRefused(
        await call(ctx.app, 'POST', '/api/integrations/webhooks', { key: user.key, body: { ...HOOK, url } }),
        'url',
        url,
      );
      assertRefused(
        await call(ctx.app, 'POST', '/api/integrations/workflow/connect', {
          key: user.key,
          body: { api_key: N8N_KEY, api_base_url: url, include_metadata: false },
        }),
        'api_base_url',
        url,
      );
    }
    // Loopback is allowed here: the allowlist is honoured, in the mapped spelling too.
    const mapped = `http://[::ffff:127.0.0.1]:${new URL(tool.url).port}/`;
    const hook = await call(ctx.app, 'POST', '/api/integrations/webhooks', {
      key: user.key,
      body: { ...HOOK, url: mapped },
    });
    assert.equal(hook.statusCode, 201, hook.body);
  });

  test('workflow api_base_url on selection: anything but the connected URL → 400 naming it, the key sent nowhere else', async () => {
    const connected = await call(ctx.app, 'POST', '/api/integrations/workflow/connect', {
      key: user.key,
      body: { api_key: N8N_KEY, api_base_url: tool.url, include_metadata: false },
    });
    assert.equal(connected.statusCode, 200, connected.body);
    const before = tool.requests.length;
    for (const url of [...ALWAYS, ...PRIVATE, ...SYNTAX, `http://localhost:${new URL(tool.url).port}/`]) {
      const res = await call(ctx.app, 'PUT', '/api/integrations/workflow/selection', {
        key: user.key,
        body: { workflow_id: 'wf1', workflow_name: 'x', default_event: 'trend_lifecycle', api_base_url: url },
      });
      assertRefused(res, 'api_base_url', url);
    }
    assert.equal(tool.requests.length, before, 'nothing was sent while refusing');
    const status = await call(ctx.app, 'GET', '/api/integrations/workflow/status', { key: user.key });
    assert.ok(!status.body.includes('169.254'), status.body);
  });
});
