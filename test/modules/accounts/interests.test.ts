// /api/user/interests in upstream's shapes: GET a bare array of TopicInterest, POST one TopicInterest.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';

describe('topic interests', () => {
  let ctx: TestContext;
  let alice: { key: string; userId: number };
  let bob: { key: string; userId: number };
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  before(async () => {
    ctx = await buildTestApp({ clock });
    alice = await createUser(ctx);
    bob = await createUser(ctx);
  });
  after(async () => ctx.close());

  test('GET answers a bare array of TopicInterest, oldest first; POST answers the one created', async () => {
    const empty = await call(ctx.app, 'GET', '/api/user/interests', { key: alice.key });
    assert.equal(empty.statusCode, 200);
    assert.deepEqual(empty.data, []);

    const created: Json[] = [];
    // Each body, and the TopicInterest it should give (no condition means a crisis watch).
    for (const [body, expected] of [
      [
        { keyword: 'solar' },
        { alert_condition_type: 'crisis', volume_threshold_value: null, percentage_growth_value: null },
      ],
      [
        { keyword: 'Wind farms', alert_condition_type: 'volume_above', volume_threshold_value: 50 },
        { alert_condition_type: 'volume_above', volume_threshold_value: 50, percentage_growth_value: null },
      ],
      [
        { keyword: '#Tidal', alert_condition_type: 'growth_above', percentage_growth_value: 12.5 },
        { alert_condition_type: 'growth_above', volume_threshold_value: null, percentage_growth_value: 12.5 },
      ],
    ] as const) {
      clock.advance(60_000);
      const res = await call(ctx.app, 'POST', '/api/user/interests', { key: alice.key, body });
      assert.equal(res.statusCode, 201, res.body);
      assert.ok(!Array.isArray(res.data), 'one TopicInterest, not the list');
      const { id, ...rest } = res.data;
      assert.ok(
        created.every((c) => c.id < id),
        'a new id, above the earlier ones',
      );
      assert.deepEqual(rest, {
        user_id: alice.userId,
        keyword: body.keyword,
        ...expected,
        created_at: new Date(clock.now()).toISOString(),
        status: 'active',
      });
      created.push(res.data);
    }
    const list = await call(ctx.app, 'GET', '/api/user/interests', { key: alice.key });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.data, created, 'the same three, oldest first');
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
