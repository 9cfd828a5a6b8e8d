import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, call, type TestContext } from '../helpers/app.ts';

describe('OpenAPI document', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await buildTestApp({ env: { STAGING_BASE_URL: 'https://staging.example.com' } });
  });
  after(async () => ctx.close());

  test('is OpenAPI 3.1, version 0.10.0, with both servers and both security schemes', async () => {
    const res = await call(ctx.app, 'GET', '/api/openapi.json');
    assert.equal(res.statusCode, 200);
    assert.match(res.data.openapi, /^3\.1\./);
    assert.equal(res.data.info.version, '0.10.0');
    assert.deepEqual(
      res.data.servers.map((s: { url: string }) => s.url),
      ['http://localhost:3000', 'https://staging.example.com'],
    );
    assert.deepEqual(Object.keys(res.data.components.securitySchemes).sort(), ['apiKeyHeader', 'bearerAuth']);
    assert.ok(res.data.components.schemas.Problem);
  });

  test('/llms.txt indexes the document for language models: links, then every operation by tag', async () => {
    const res = await call(ctx.app, 'GET', '/llms.txt');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/markdown; charset=utf-8');
    const text = res.body;
    assert.match(text, /^# Crestwatch API\n\n> Trend intelligence/);
    assert.ok(text.includes('(http://localhost:3000/api/openapi.json)'));
    assert.ok(text.includes('(http://localhost:3000/docs)'));
    assert.ok(text.includes('(http://localhost:3000/mcp)'));
    const doc = (await call(ctx.app, 'GET', '/api/openapi.json')).data;
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(item)) {
        assert.ok(text.includes(`\`${method.toUpperCase()} ${path}\``), `${method} ${path} is listed`);
      }
    }
    assert.match(text, /## Trends\n\nTrends with explainable metrics/);
    assert.match(text, /`GET \/api\/openapi\.json` \(no key\)/);
  });

  test('every operation has a success schema and problem+json errors; private ones declare security and 401', async () => {
    const res = await call(ctx.app, 'GET', '/api/openapi.json');
    for (const [path, item] of Object.entries<
      Record<
        string,
        { responses: Record<string, unknown>; security?: unknown[]; 'x-capability-unavailable'?: boolean }
      >
    >(res.data.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const statuses = Object.keys(op.responses);
        // Upstream capabilities a self-hosted service lacks document their one answer, the 503.
        assert.ok(
          op['x-capability-unavailable'] ? statuses.includes('503') : statuses.some((s) => s.startsWith('2')),
          `${method} ${path} success response`,
        );
        assert.ok(statuses.includes('500'), `${method} ${path} 500`);
        if (path.startsWith('/api/user') || path.startsWith('/api/admin')) {
          assert.ok((op.security ?? []).length === 2, `${method} ${path} security`);
          assert.ok(
            statuses.includes('401') && statuses.includes('403') && statuses.includes('429'),
            `${method} ${path} auth errors`,
          );
        }
      }
    }
    assert.ok(res.data.paths['/api/user/api-keys'].post.requestBody, 'request bodies are documented');
  });

  test('/docs renders the document', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /text\/html/);
  });
});
