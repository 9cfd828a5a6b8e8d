// The dashboard at `/`: browsers get the page with a strict CSP and the right cache headers; API clients keep
// the problem+json 404; a missing build says so in words and leaves the API alone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { webRoutes } from '../../../src/modules/web/index.ts';
import {
  DASHBOARD_CSP,
  IMMUTABLE_CACHE,
  isAssetName,
  wantsDashboard,
} from '../../../src/modules/web/policy.ts';
import { registerErrorHandling } from '../../../src/platform/error-handler.ts';
import type { App } from '../../../src/platform/http.ts';
import { formatGrowth, groupBySeverity, platformShares, sparklinePoints } from '../../../web/src/format.ts';
import { assertProblem, buildTestApp, call, type Json, type TestContext } from '../../helpers/app.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const INDEX =
  '<!doctype html><title>Test dashboard</title><script type="module" src="/assets/app-Ab12_x.js"></script>';
const SCRIPT = `console.log(${JSON.stringify('a test script '.repeat(40))});`;

/** A dist folder the way Vite lays it out, with text written here (not a real build). */
function fakeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'app-Ab12_x.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets', 'app-Ab12_x.js.br'), zlib.brotliCompressSync(SCRIPT));
  return dir;
}

async function bareApp(distDir: string): Promise<App> {
  const app = Fastify({ logger: false }).withTypeProvider<TypeBoxTypeProvider>();
  registerErrorHandling(app);
  app.get('/api/ping', async () => ({ ok: true }));
  await app.register(webRoutes, { distDir });
  await app.ready();
  return app;
}

async function get(app: App, url: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url, headers });
  let data: Json = {};
  try {
    data = JSON.parse(res.body);
  } catch {
    data = {};
  }
  return Object.assign(res, { data });
}

describe('serving a built dashboard', () => {
  let app: App;
  let dir: string;
  before(async () => {
    dir = fakeDist();
    app = await bareApp(dir);
  });
  after(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a browser asking for / gets index.html with the strict CSP and no-cache', async () => {
    const res = await get(app, '/', { accept: BROWSER });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.body, INDEX);
    assert.equal(res.headers['content-security-policy'], DASHBOARD_CSP);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.match(String(res.headers.vary), /Accept/);
  });

  test('the CSP allows no inline script or style and no other origin', () => {
    assert.doesNotMatch(DASHBOARD_CSP, /unsafe|\*|https?:/);
    assert.match(DASHBOARD_CSP, /script-src 'self'/);
    assert.match(DASHBOARD_CSP, /style-src 'self'/);
    assert.match(DASHBOARD_CSP, /default-src 'none'/);
    assert.match(DASHBOARD_CSP, /frame-ancestors 'none'/);
  });

  test('a hashed asset is cached for a year as immutable, precompressed when the client accepts it', async () => {
    const plain = await get(app, '/assets/app-Ab12_x.js');
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['cache-control'], IMMUTABLE_CACHE);
    assert.match(String(plain.headers['content-type']), /javascript/);
    assert.equal(plain.body, SCRIPT);
    assert.equal(plain.headers['content-encoding'], undefined);

    const br = await app.inject({
      method: 'GET',
      url: '/assets/app-Ab12_x.js',
      headers: { 'accept-encoding': 'br' },
    });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(zlib.brotliDecompressSync(br.rawPayload).toString(), SCRIPT);
  });

  test('unknown assets and path tricks are problem+json 404s', async () => {
    for (const url of [
      '/assets/nope-123.js',
      '/assets/..%2findex.html',
      '/assets/app-Ab12_x.js.br',
      '/assets/.env',
    ]) {
      assertProblem(await get(app, url), 404);
    }
  });

  test('JSON clients asking for / get the problem+json 404, never HTML', async () => {
    for (const accept of ['application/json', '*/*', 'application/json, text/html;q=0.5', undefined]) {
      const res = await get(app, '/', accept ? { accept } : {});
      assertProblem(res, 404);
    }
  });
});

describe('without a build', () => {
  let app: App;
  before(async () => {
    app = await bareApp(path.join(os.tmpdir(), 'crestwatch-no-such-dist'));
  });
  after(async () => app.close());

  test('a browser asking for / is told in words that the dashboard is not built, and how to build it', async () => {
    const res = await get(app, '/', { accept: BROWSER });
    assert.equal(res.statusCode, 503);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /has not been built/);
    assert.match(res.body, /npm run build:web/);
    assert.equal(res.headers['content-security-policy'], DASHBOARD_CSP);
  });

  test('the API keeps working and JSON clients still get the 404', async () => {
    assert.deepEqual((await get(app, '/api/ping')).data, { ok: true });
    assertProblem(await get(app, '/', { accept: 'application/json' }), 404);
    assertProblem(await get(app, '/assets/app-Ab12_x.js'), 404);
  });
});

describe('the dashboard inside the real app', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await buildTestApp();
  });
  after(async () => ctx.close());

  test('GET / for an API client is still the problem+json 404 it always was', async () => {
    assertProblem(await call(ctx.app, 'GET', '/', { headers: { accept: 'application/json' } }), 404);
    assertProblem(await call(ctx.app, 'GET', '/'), 404);
  });

  test('the dashboard routes stay out of the OpenAPI document', async () => {
    const doc = await call(ctx.app, 'GET', '/api/openapi.json');
    assert.equal(doc.statusCode, 200);
    assert.equal(doc.data.paths['/'], undefined);
    assert.equal(doc.data.paths['/assets/{file}'], undefined);
  });
});

describe('rules behind the page', () => {
  test('only a client naming text/html, and not preferring JSON, gets the dashboard', () => {
    assert.equal(wantsDashboard(BROWSER), true);
    assert.equal(wantsDashboard('text/html'), true);
    assert.equal(wantsDashboard(undefined), false);
    assert.equal(wantsDashboard('*/*'), false);
    assert.equal(wantsDashboard('application/json'), false);
    assert.equal(wantsDashboard('application/json, text/html;q=0.9'), false);
    assert.equal(wantsDashboard('text/html;q=0'), false);
  });

  test('asset names are single hashed file names of known types', () => {
    assert.equal(isAssetName('index-CHlDUtvL.css'), true);
    assert.equal(isAssetName('index-Pn3tGYaZ.js'), true);
    assert.equal(isAssetName('../index.html'), false);
    assert.equal(isAssetName('.env'), false);
    assert.equal(isAssetName('x.js.br'), false);
  });

  test('sparkline points span the box and scale to the largest value', () => {
    assert.equal(sparklinePoints([0, 5, 10], 100, 24), '0.0,23.0 50.0,12.0 100.0,1.0');
    assert.equal(sparklinePoints([], 100, 24), '');
    assert.equal(sparklinePoints([0, 0], 100, 24), '0.0,23.0 100.0,23.0');
  });

  test('platform shares sum to one, largest first', () => {
    const shares = platformShares({ x: 1, reddit: 3 });
    assert.deepEqual(shares, [
      { name: 'reddit', share: 0.75 },
      { name: 'x', share: 0.25 },
    ]);
    assert.deepEqual(platformShares({}), []);
  });

  test('growth reads with its sign, and null as new', () => {
    assert.equal(formatGrowth(12.34), '+12.3 %');
    assert.equal(formatGrowth(-5), '-5 %');
    assert.equal(formatGrowth(null), 'new');
  });

  test('crisis events group by severity, most severe first, keeping the order within a group', () => {
    const groups = groupBySeverity([
      { id: 1, severity: 'low' },
      { id: 2, severity: 'critical' },
      { id: 3, severity: 'low' },
    ]);
    assert.deepEqual(
      groups.map(([s, list]) => [s, list.map((e) => e.id)]),
      [
        ['critical', [2]],
        ['low', [1, 3]],
      ],
    );
  });
});
