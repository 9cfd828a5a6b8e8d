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
import { flood, quake } from './hazards.ts';

const HOUR = 3_600_000;

describe('custom reports over crisis events', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  let alice: { userId: number; key: string };
  let bob: { userId: number; key: string };

  const report = (key: string, body: Json) =>
    call(ctx.app, 'POST', '/api/reports/custom', { key, body: { dataset: 'crisis_events', ...body } });

  before(async () => {
    ctx = await buildTestApp({ clock });
    alice = await createUser(ctx, 'enterprise');
    bob = await createUser(ctx, 'enterprise');
    for (const [user, location_query] of [
      [alice, 'Tadcaster'],
      [bob, 'Penzance'],
    ] as const) {
      const res = await call(ctx.app, 'PUT', '/api/intelligence/resilience-settings', {
        key: user.key,
        body: { location_query },
      });
      assert.equal(res.statusCode, 200, res.body);
    }
    // One event detected yesterday (its evidence now stale), two today.
    clock.advance(-30 * HOUR);
    await ctx.app.services.crisis.detector.recordHazards([
      flood('122WAF953', 'Tadcaster town centre', clock.now() - HOUR, 'medium'),
    ]);
    await ctx.app.services.engine.tick();
    clock.advance(30 * HOUR);
    const now = clock.now();
    await ctx.app.services.crisis.detector.recordHazards([
      flood('122WAF952', 'River Wharfe at Tadcaster', now - 2 * HOUR, 'high'),
      quake('us7000abcd', '5 km N of Tadcaster, England', now - HOUR),
    ]);
    await ctx.app.services.engine.tick();
  });
  after(async () => ctx.close());

  test('counts your own events by severity, as your crisis-event list shows them', async () => {
    const list = await call(ctx.app, 'GET', '/api/intelligence/crisis-events?period=30d&limit=100', {
      key: alice.key,
    });
    assert.equal(list.data.events.length, 3, list.body);
    const res = await report(alice.key, {
      dimensions: ['severity'],
      metrics: ['event_count', 'avg_evidence_completeness'],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.data.columns, ['severity', 'event_count', 'avg_evidence_completeness']);
    assert.equal(res.data.meta.time_period, '30d', 'crisis reports look back 30 days by default');
    assert.equal(res.data.meta.dataset, 'crisis_events');
    const expected = new Map<string, Json[]>();
    for (const e of list.data.events) expected.set(e.severity, [...(expected.get(e.severity) ?? []), e]);
    assert.equal(res.data.rows.length, expected.size);
    for (const row of res.data.rows) {
      const events = expected.get(row.severity)!;
      assert.equal(row.event_count, events.length);
      const mean = events.reduce((s, e) => s + e.evidence_completeness.score, 0) / events.length;
      assert.equal(row.avg_evidence_completeness, Math.round(mean * 10) / 10);
    }
    // By day and freshness, filtered like the list.
    const byDay = await report(alice.key, {
      dimensions: ['day', 'freshness'],
      metrics: ['event_count'],
      filters: { source: 'environment_agency' },
    });
    assert.deepEqual(byDay.data.rows, [
      { day: '2026-11-20', freshness: 'stale', event_count: 1 },
      { day: '2026-11-21', freshness: 'fresh', event_count: 1 },
    ]);
    const high = await report(alice.key, { metrics: ['event_count'], filters: { severity: 'high' } });
    assert.deepEqual(high.data.rows, [{ event_count: 1 }]);
    const lastDay = await report(alice.key, { metrics: ['event_count'], time_period: '24h' });
    assert.deepEqual(lastDay.data.rows, [{ event_count: 2 }]);
    const dates = await report(alice.key, {
      metrics: ['event_count'],
      start_date: '2026-11-20',
      end_date: '2026-11-20',
    });
    assert.deepEqual(dates.data.rows, [{ event_count: 1 }]);
  });

  test('another user’s events never count: their report is empty', async () => {
    const total = await report(bob.key, { metrics: ['event_count'] });
    assert.deepEqual(total.data.rows, [{ event_count: 0 }]);
    const grouped = await report(bob.key, { dimensions: ['severity'] });
    assert.deepEqual(grouped.data.rows, []);
  });

  test('trend dimensions, metrics and filters are refused for crisis events (and the reverse)', async () => {
    for (const [body, path] of [
      [{ dimensions: ['trend_name'] }, 'body.dimensions[0]'],
      [{ metrics: ['volume'] }, 'body.metrics[0]'],
      [{ filters: { category: 'Technology' } }, 'body.filters.category'],
      [{ filters: { severity: 'urgent' } }, 'body.filters.severity'],
      [{ sort_by: 'volume' }, 'body.sort_by'],
    ] as const) {
      const res = await report(alice.key, body);
      assertProblem(res, 400);
      assert.ok(
        res.data.errors.some((e: Json) => e.path === path),
        `${JSON.stringify(body)}: ${JSON.stringify(res.data.errors)}`,
      );
    }
    const trends = await call(ctx.app, 'POST', '/api/reports/custom', {
      key: alice.key,
      body: { dimensions: ['severity'] },
    });
    assertProblem(trends, 400);
    assert.match(trends.data.detail, /"severity" is not a dimension of trends reports/);
  });
});
