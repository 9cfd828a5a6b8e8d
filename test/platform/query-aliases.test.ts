import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../helpers/app.ts';

/** Ours → upstream's, as README "Compatibility" lists them. */
const ALIASES = {
  order: 'sort_dir',
  query: 'q',
  start_date: 'startDate',
  end_date: 'endDate',
  period: 'timeRange',
};

describe('upstream query names are one table, taken by every route', () => {
  let ctx: TestContext;
  let key: string;
  before(async () => {
    ctx = await buildTestApp();
    key = (await createUser(ctx, 'enterprise', ['read'])).key;
  });
  after(async () => ctx.close());

  test('every operation taking one of our names documents upstream’s beside it, and page beside offset', async () => {
    const doc = (await call(ctx.app, 'GET', '/api/openapi.json')).data;
    let checked = 0;
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        const names = new Set(
          ((operation.parameters ?? []) as Json[]).filter((p) => p.in === 'query').map((p) => p.name),
        );
        for (const [ours, theirs] of Object.entries(ALIASES)) {
          if (!names.has(ours)) continue;
          checked++;
          assert.ok(names.has(theirs), `${method.toUpperCase()} ${path} takes ${ours} but not ${theirs}`);
        }
        if (names.has('offset') && names.has('limit')) {
          checked++;
          assert.ok(names.has('page'), `${method.toUpperCase()} ${path} takes offset but not page`);
        }
      }
    }
    assert.ok(checked >= 10, `only ${checked} operations checked`);
  });

  test('crisis events and blog posts page and sort by upstream names as by ours', async () => {
    const get = (url: string) => call(ctx.app, 'GET', url, { key });
    const crisis = await get('/api/intelligence/crisis-events?page=3&limit=5&sort_dir=asc');
    assert.equal(crisis.statusCode, 200, crisis.body);
    assert.equal(crisis.data.meta.offset, 10);
    assert.equal(crisis.data.meta.order, 'asc');
    assert.deepEqual(
      crisis.data,
      (await get('/api/intelligence/crisis-events?offset=10&limit=5&order=asc')).data,
    );
    // A route's own `q` is no alias (insights search has no `query`), and stays as sent.
    const search = await get('/api/insights/search?q=zenith&page=1');
    assert.equal(search.statusCode, 200, search.body);
    assert.equal(search.data.meta.q, 'zenith');
    const blog = await get('/api/blog/posts?page=2&limit=1&sort_dir=asc');
    assert.equal(blog.statusCode, 200, blog.body);
    assert.deepEqual(blog.data, (await get('/api/blog/posts?offset=1&limit=1&order=asc')).data);
  });

  test('both names with different values, or a bad page, are a 400 naming the parameter', async () => {
    for (const [url, path] of [
      ['/api/intelligence/crisis-events?order=desc&sort_dir=asc', 'query.sort_dir'],
      ['/api/intelligence/crisis-events?page=2&offset=0', 'query.page'],
      ['/api/intelligence/crisis-events?page=0', 'query.page'],
      ['/api/intelligence/crisis-events?timeRange=24h&period=7d', 'query.timeRange'],
      ['/api/blog/posts?page=x', 'query.page'],
      ['/api/trends?startDate=2026-13-01', 'query.startDate'],
    ] as const) {
      const res = await call(ctx.app, 'GET', url, { key });
      assertProblem(res, 400);
      assert.ok(
        (res.data.errors ?? []).some((e: Json) => e.path === path),
        `${url}: ${JSON.stringify(res.data)}`,
      );
    }
    // The same value under both names is fine; a default is no disagreement.
    const same = await call(ctx.app, 'GET', '/api/intelligence/crisis-events?order=asc&sort_dir=asc', {
      key,
    });
    assert.equal(same.statusCode, 200);
    const overDefault = await call(ctx.app, 'GET', '/api/intelligence/crisis-events?timeRange=7d', { key });
    assert.equal(overDefault.statusCode, 200, overDefault.body);
  });

  test('page follows a route’s page-size cap; a page past the last is a 400 naming it, never a 500', async () => {
    const get = (url: string) => call(ctx.app, 'GET', url, { key });
    // Recommendations cap a larger limit at 100 items a page: page 2 starts at item 100.
    const second = await get('/api/intelligence/recommendations?page=2&limit=1000');
    assert.equal(second.statusCode, 200, second.body);
    assert.equal(second.data.meta.offset, 100);
    // The case that was a 500: an uncapped limit times the page overflowed SQLite's integer.
    const huge = await get(`/api/intelligence/recommendations?page=1100&limit=${Number.MAX_SAFE_INTEGER}`);
    assert.equal(huge.statusCode, 200, huge.body);
    assert.equal(huge.data.meta.offset, 109_900);
    const tooFar = await get('/api/intelligence/recommendations?page=10000001');
    assertProblem(tooFar, 400);
    assert.equal(tooFar.data.errors[0].path, 'query.page');
  });
});
