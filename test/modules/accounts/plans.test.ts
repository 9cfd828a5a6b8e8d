// GET /api/plans in upstream's SubscriptionPlan shape, with our terms kept at the top level.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describePlan, planViews } from '../../../src/modules/accounts/plans.ts';
import { DEFAULT_PLANS } from '../../../src/platform/plans.ts';
import { buildTestApp, call, type Json } from '../../helpers/app.ts';

const TERMS = [
  'daily_quota',
  'burst_per_second',
  'insight_generations_per_month',
  'live_stream',
  'price_per_1k_requests',
];

async function plansWith(plansEnv: string): Promise<{ plans: Json[]; doc: Json }> {
  const ctx = await buildTestApp({ env: { PLANS: plansEnv } });
  try {
    const res = await call(ctx.app, 'GET', '/api/plans');
    assert.equal(res.statusCode, 200, res.body);
    const doc = await call(ctx.app, 'GET', '/api/openapi.json');
    return { plans: res.data as Json[], doc: doc.data };
  } finally {
    await ctx.close();
  }
}

describe('plans', () => {
  test('a bare array of SubscriptionPlan with stable ids, null prices and the terms in features', async () => {
    const { plans, doc } = await plansWith('{}');
    assert.ok(Array.isArray(plans));
    assert.deepEqual(
      plans.map((p) => [p.id, p.name]),
      [
        [1, 'developer'],
        [2, 'advantage'],
        [3, 'scale'],
        [4, 'enterprise'],
      ],
    );
    for (const plan of plans) {
      assert.deepEqual(
        Object.keys(plan).sort(),
        [
          'id',
          'name',
          'description',
          'price_monthly',
          'price_yearly',
          'is_custom',
          'features',
          ...TERMS,
        ].sort(),
      );
      assert.equal(plan.price_monthly, null);
      assert.equal(plan.price_yearly, null);
      assert.equal(plan.is_custom, false, `${plan.name} has the built-in terms`);
      const defaults = DEFAULT_PLANS[plan.name as keyof typeof DEFAULT_PLANS];
      for (const term of TERMS) assert.deepEqual(plan[term], plan.features[term], `${plan.name}.${term}`);
      assert.deepEqual(plan.features, defaults);
      assert.match(plan.description, /^[A-Z].+\.$/);
    }
    assert.equal(
      plans[0]!.description,
      'Developer: 100 requests a day, bursts of up to 10 requests per second per key, 10 AI insight ' +
        'generations a month, no live stream; free.',
    );
    assert.equal(
      plans[3]!.description,
      'Enterprise: unlimited requests a day, bursts of up to 100 requests per second per key, unlimited AI ' +
        'insight generations, live stream included; USD 0.30 per 1,000 requests.',
    );

    const schema = doc.paths['/api/plans'].get.responses['200'].content['application/json'].schema;
    assert.equal(schema.type, 'array');
    assert.match(schema.items.properties.price_monthly.description, /per request/);
    assert.match(schema.items.properties.is_custom.description, /PLANS/);
    assert.ok(
      !('security' in doc.paths['/api/plans'].get) || doc.paths['/api/plans'].get.security.length === 0,
    );
  });

  test('is_custom is true exactly for the plans whose terms PLANS changed', async () => {
    const { plans } = await plansWith(
      JSON.stringify({
        // Same value as the built-in table: not a change.
        developer: { daily_quota: 100 },
        scale: { live_stream: false, price_per_1k_requests: 0.125 },
        enterprise: { daily_quota: 1_000_000 },
      }),
    );
    const byName = Object.fromEntries(plans.map((p) => [p.name, p]));
    assert.deepEqual(
      plans.map((p) => [p.name, p.is_custom]),
      [
        ['developer', false],
        ['advantage', false],
        ['scale', true],
        ['enterprise', true],
      ],
    );
    assert.equal(byName.scale.live_stream, false);
    assert.equal(byName.scale.features.price_per_1k_requests, 0.125);
    assert.match(byName.scale.description, /no live stream; USD 0\.125 per 1,000 requests\.$/);
    assert.equal(byName.enterprise.features.daily_quota, 1_000_000);
    assert.match(byName.enterprise.description, /^Enterprise: 1,000,000 requests a day/);
    assert.equal(byName.scale.id, 3, 'ids do not depend on the terms');
  });

  test('descriptions and ids come from the table alone', () => {
    const views = planViews(DEFAULT_PLANS);
    assert.deepEqual(
      views.map((v) => v.id),
      [1, 2, 3, 4],
    );
    assert.equal(
      describePlan('advantage', DEFAULT_PLANS.advantage),
      'Advantage: 10,000 requests a day, bursts of up to 25 requests per second per key, 500 AI insight ' +
        'generations a month, no live stream; USD 0.50 per 1,000 requests.',
    );
    // An operator's table may set a 1: it reads in the singular.
    assert.equal(
      describePlan('developer', {
        ...DEFAULT_PLANS.developer,
        daily_quota: 1,
        burst_per_second: 1,
        insight_generations_per_month: 1,
      }),
      'Developer: 1 request a day, bursts of up to 1 request per second per key, 1 AI insight generation a ' +
        'month, no live stream; free.',
    );
  });
});
