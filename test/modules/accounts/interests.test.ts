// /api/user/interests in upstream's shapes: GET a bare array of TopicInterest, POST one TopicInterest.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';

/** models.py TopicInterest: these required, keyword/status/thresholds nullable. */
function assertTopicInterest(item: Json): void {
  assert.equal(typeof item.id, 'number');
  assert.equal(typeof item.user_id, 'number');
  assert.equal(typeof item.alert_condition_type, 'string');
  assert.ok(Number.isFinite(Date.parse(item.created_at)), 'created_at is a date-time');
  assert.ok(item.keyword === null || typeof item.keyword === 'string');
  assert.ok(item.status === null || typeof item.status === 'string');
  assert.ok(item.volume_threshold_value === null || Number.isInteger(item.volume_threshold_value));
  assert.ok(item.percentage_growth_value === null || typeof item.percentage_growth_value === 'number');
}

describe('topic interests', () => {
  let ctx: TestContext;
  let alice: { key: string; userId: number };
  let bob: { key: string; userId: number };
  before(async () => {
    ctx = await buildTestApp();
    alice = await createUser(ctx);
    bob = await createUser(ctx);
  });
  after(async () => ctx.close());

  test('GET answers a bare array of TopicInterest, oldest first; POST answers the one created', async () => {
    const empty = await call(ctx.app, 'GET', '/api/user/interests', { key: alice.key });
    assert.equal(empty.statusCode, 200);
    assert.deepEqual(empty.data, []);

    const created: Json[] = [];
    for (const body of [
      { keyword: 'solar' },
      { keyword: 'Wind farms', alert_condition_type: 'volume_above', volume_threshold_value: 50 },
      { keyword: '#Tidal', alert_condition_type: 'growth_above', percentage_growth_value: 12.5 },
    ]) {
      const res = await call(ctx.app, 'POST', '/api/user/interests', { key: alice.key, body });
      assert.equal(res.statusCode, 201, res.body);
      assert.ok(!Array.isArray(res.data), 'one TopicInterest, not the list');
      assertTopicInterest(res.data);
      assert.equal(res.data.user_id, alice.userId);
      created.push(res.data);
    }
    const list = await call(ctx.app, 'GET', '/api/user/interests', { key: alice.key });
    assert.equal(list.statusCode, 200);
    assert.ok(Array.isArray(list.data));
    assert.deepEqual(list.data, created);
    for (const item of list.data) assertTopicInterest(item);
    assert.deepEqual((await call(ctx.app, 'GET', '/api/user/interests', { key: bob.key })).data, []);
  });

  test('the OpenAPI document declares the list as an array', async () => {
    const doc = await call(ctx.app, 'GET', '/api/openapi.json');
    const schema =
      doc.data.paths['/api/user/interests'].get.responses['200'].content['application/json'].schema;
    assert.equal(schema.type, 'array');
    assert.deepEqual([...schema.items.required].sort(), [
      'alert_condition_type',
      'created_at',
      'id',
      'keyword',
      'percentage_growth_value',
      'status',
      'user_id',
      'volume_threshold_value',
    ]);
  });

  test('the list still needs a key and the read permission', async () => {
    assertProblem(await call(ctx.app, 'GET', '/api/user/interests'), 401);
    const writeOnly = await createUser(ctx, 'developer', ['write']);
    assertProblem(await call(ctx.app, 'GET', '/api/user/interests', { key: writeOnly.key }), 403);
  });
});
