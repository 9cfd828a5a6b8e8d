// Automatic pushes for the selection's default_event (trend_lifecycle, trend_velocity, crisis_event) through
// the job worker with dedupe and retries, and the crisis gate on pushes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import type { EventOf } from '../../../src/platform/events.ts';
import type { AppEvents } from '../../../src/services.ts';
import { assertProblem, call, createUser, type Json } from '../../helpers/app.ts';
import {
  buildLoggedApp,
  insertCrisisEvent,
  insertTrend,
  type LoggedContext,
  N8N_KEY,
  type N8nStandIn,
  n8nStandIn,
  runJobs,
} from './workflow-stand-in.ts';

const HOUR = 3600_000;

describe('workflow automatic pushes and the crisis gate', () => {
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  let ctx: LoggedContext;
  let tool: N8nStandIn;

  async function connectAndSelect(key: string, defaultEvent: string, url = tool.url) {
    const connected = await call(ctx.app, 'POST', '/api/integrations/workflow/connect', {
      key,
      body: { api_key: N8N_KEY, api_base_url: url, include_metadata: false },
    });
    assert.equal(connected.statusCode, 200, connected.body);
    const selected = await call(ctx.app, 'PUT', '/api/integrations/workflow/selection', {
      key,
      body: { workflow_id: 'wf1', workflow_name: 'Social', default_event: defaultEvent, api_base_url: url },
    });
    assert.equal(selected.statusCode, 200, selected.body);
  }

  function lifecycleEvent(trendId: number, at: number): EventOf<AppEvents, 'trend.lifecycle.changed'> {
    return {
      id: `trend.lifecycle.changed:${trendId}:rising:${at}`,
      type: 'trend.lifecycle.changed' as const,
      occurred_at: at,
      data: {
        trend_id: trendId,
        trend_name: 'Solar roofs',
        category: 'Technology',
        velocity: 71,
        volume: 420,
        from_stage: 'emerging',
        to_stage: 'rising',
      },
    };
  }

  before(async () => {
    ctx = await buildLoggedApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8' }, clock });
    tool = await n8nStandIn();
  });

  after(async () => {
    await tool.close();
    await ctx.close();
  });

  test('a trend lifecycle change is pushed once to each selection with default_event trend_lifecycle', async () => {
    const lifecycleTool = await n8nStandIn();
    const velocityTool = await n8nStandIn();
    try {
      const lifecycle = await createUser(ctx);
      const velocity = await createUser(ctx);
      await connectAndSelect(lifecycle.key, 'trend_lifecycle', lifecycleTool.url);
      await connectAndSelect(velocity.key, 'trend_velocity', velocityTool.url);
      const unselected = await createUser(ctx);
      const connected = await call(ctx.app, 'POST', '/api/integrations/workflow/connect', {
        key: unselected.key,
        body: { api_key: N8N_KEY, api_base_url: tool.url, include_metadata: false },
      });
      assert.equal(connected.statusCode, 200);

      // Recorded as the trend engine records it, then handled by the job worker.
      const event = lifecycleEvent(42, clock.now());
      await ctx.app.services.events.record(ctx.app.services.db, event);
      await runJobs(ctx);
      // At-least-once: the same event again changes nothing.
      await ctx.app.services.events.dispatch(event);
      await runJobs(ctx);

      assert.equal(lifecycleTool.pushes().length, 1);
      assert.equal(velocityTool.pushes().length, 0);
      const push = lifecycleTool.pushes()[0]!;
      const body = JSON.parse(push.body);
      assert.equal(body.event, 'trend_lifecycle');
      assert.equal(body.data.event_type, 'trend.lifecycle.changed');
      assert.equal(body.data.event_id, event.id);
      assert.equal(body.data.trend_id, 42);
      assert.equal(body.data.to_stage, 'rising');
      assert.equal(body.data.timestamp, '2026-11-21T10:00:00.000Z');
      assert.ok(push.headers['webhook-signature']);
      const deliveries = await call(ctx.app, 'GET', '/api/integrations/workflow/deliveries', {
        key: lifecycle.key,
      });
      assert.equal(deliveries.data.deliveries.length, 1);
      assert.equal(deliveries.data.deliveries[0].origin, 'automatic');
      assert.equal(deliveries.data.deliveries[0].status, 'delivered');
      assert.equal(push.headers['webhook-id'], String(deliveries.data.deliveries[0].id));

      await ctx.app.services.events.dispatch({
        id: 'trend.velocity.crossed:42:50:1',
        type: 'trend.velocity.crossed',
        occurred_at: clock.now(),
        data: { trend_id: 42, trend_name: 'Solar roofs', category: 'Technology', velocity: 55, volume: 10 },
      });
      await runJobs(ctx);
      assert.equal(velocityTool.pushes().length, 1);
      assert.equal(JSON.parse(velocityTool.pushes()[0]!.body).event, 'trend_velocity');
      assert.equal(lifecycleTool.pushes().length, 1);
    } finally {
      await lifecycleTool.close();
      await velocityTool.close();
    }
  });

  test("crisis_event selections receive only their owner's crisis events", async () => {
    const ownerTool = await n8nStandIn();
    const otherTool = await n8nStandIn();
    try {
      const owner = await createUser(ctx);
      const other = await createUser(ctx);
      await connectAndSelect(owner.key, 'crisis_event', ownerTool.url);
      await connectAndSelect(other.key, 'crisis_event', otherTool.url);
      await ctx.app.services.events.dispatch({
        id: 'crisis.event.opened:9:1',
        type: 'crisis.event.opened',
        occurred_at: clock.now(),
        data: { crisis_event_id: 9, user_id: owner.userId, title: 'Acme outage', severity: 'high' },
      });
      await runJobs(ctx);
      assert.equal(ownerTool.pushes().length, 1);
      assert.equal(otherTool.pushes().length, 0);
      const body = JSON.parse(ownerTool.pushes()[0]!.body);
      assert.equal(body.event, 'crisis_event');
      assert.equal(body.data.event_type, 'crisis.event.opened');
    } finally {
      await ownerTool.close();
      await otherTool.close();
    }
  });

  test('a disabled account (e.g. a removed organisation member) gets nothing pushed; re-enabled, it does', async () => {
    const enabledTool = await n8nStandIn();
    const disabledTool = await n8nStandIn();
    const admin = (userId: number, active: boolean) =>
      call(ctx.app, 'PATCH', `/api/admin/users/${userId}`, {
        key: ctx.operatorKey,
        body: { is_active: active },
      });
    try {
      const enabled = await createUser(ctx);
      const disabled = await createUser(ctx);
      await connectAndSelect(enabled.key, 'trend_lifecycle', enabledTool.url);
      await connectAndSelect(disabled.key, 'trend_lifecycle', disabledTool.url);
      assert.equal((await admin(disabled.userId, false)).statusCode, 200);
      await ctx.app.services.events.dispatch(lifecycleEvent(43, clock.now()));
      await runJobs(ctx);
      assert.equal(enabledTool.pushes().length, 1);
      assert.equal(disabledTool.pushes().length, 0, 'nothing pushed for a disabled account');
      assert.equal((await admin(disabled.userId, true)).statusCode, 200);
      await ctx.app.services.events.dispatch(lifecycleEvent(44, clock.now()));
      await runJobs(ctx);
      assert.equal(disabledTool.pushes().length, 1);
      assert.equal(JSON.parse(disabledTool.pushes()[0]!.body).data.trend_id, 44);
    } finally {
      await enabledTool.close();
      await disabledTool.close();
    }
  });

  test('an automatic push the tool answers 503 is retried later with the same webhook-id', async () => {
    const flaky = await n8nStandIn();
    try {
      const user = await createUser(ctx);
      await connectAndSelect(user.key, 'trend_lifecycle', flaky.url);
      flaky.webhookAnswers.push(503);
      await ctx.app.services.events.dispatch(lifecycleEvent(77, clock.now()));
      await runJobs(ctx);
      assert.equal(flaky.pushes().length, 1);
      let deliveries = await call(ctx.app, 'GET', '/api/integrations/workflow/deliveries', { key: user.key });
      assert.equal(deliveries.data.deliveries[0].status, 'queued');
      assert.equal(deliveries.data.deliveries[0].response_status, 503);
      clock.advance(2 * HOUR);
      await runJobs(ctx);
      assert.equal(flaky.pushes().length, 2);
      assert.equal(flaky.pushes()[0]!.headers['webhook-id'], flaky.pushes()[1]!.headers['webhook-id']);
      deliveries = await call(ctx.app, 'GET', '/api/integrations/workflow/deliveries', { key: user.key });
      assert.equal(deliveries.data.deliveries[0].status, 'delivered');
      assert.equal(deliveries.data.deliveries[0].attempts, 2);
    } finally {
      await flaky.close();
    }
  });

  test('a push queued before a disconnect is dropped, not sent', async () => {
    const gone = await n8nStandIn();
    try {
      const user = await createUser(ctx);
      await connectAndSelect(user.key, 'trend_lifecycle', gone.url);
      await ctx.app.services.events.dispatch(lifecycleEvent(78, clock.now() + 1));
      const res = await call(ctx.app, 'DELETE', '/api/integrations/workflow/connection', { key: user.key });
      assert.equal(res.statusCode, 204);
      await runJobs(ctx);
      assert.equal(gone.pushes().length, 0);
    } finally {
      await gone.close();
    }
  });

  describe('gate', () => {
    let user: { userId: number; key: string };
    let trendId: number;

    const push = (trend: number) =>
      call(ctx.app, 'POST', '/api/integrations/workflow/push', {
        key: user.key,
        body: { event: 'trend_lifecycle', data: { trend_id: trend }, gate: { trend_id: trend } },
      });

    before(async () => {
      user = await createUser(ctx);
      await connectAndSelect(user.key, 'trend_lifecycle');
      trendId = await insertTrend(ctx, 'Acme battery recall');
    });

    test('an unknown trend → 404', async () => {
      assertProblem(await push(9_999_999), 404);
    });

    test('passes while no blocking crisis exists (medium, acknowledged, or another user’s do not block)', async () => {
      const stranger = await createUser(ctx);
      await insertCrisisEvent(ctx, { userId: stranger.userId, title: 'Acme', trendId, severity: 'critical' });
      await insertCrisisEvent(ctx, { userId: user.userId, title: 'Acme', trendId, severity: 'medium' });
      await insertCrisisEvent(ctx, {
        userId: user.userId,
        title: 'Acme',
        trendId,
        severity: 'high',
        status: 'acknowledged',
      });
      const before = tool.pushes().length;
      const res = await push(trendId);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.data.delivered, true);
      assert.equal(tool.pushes().length, before + 1);
    });

    test('409 blocked_by_crisis while an active high event names the trend or matches its title', async () => {
      const other = await insertTrend(ctx, 'Acme recall refunds');
      const byKeyword = await insertCrisisEvent(ctx, {
        userId: user.userId,
        title: 'Acme backlash',
        keywords: ['Acme'],
        severity: 'high',
      });
      const before = tool.pushes().length;
      const res = await push(other);
      assertProblem(res, 409);
      assert.equal(res.data.code, 'blocked_by_crisis');
      assert.match(res.data.detail, new RegExp(`crisis event ${byKeyword}`));
      assert.equal(tool.pushes().length, before, 'nothing was sent');

      const archived = await call(ctx.app, 'POST', `/api/intelligence/crisis-events/${byKeyword}/action`, {
        key: user.key,
        body: { action: 'acknowledge' },
      });
      assert.equal(archived.statusCode, 200, archived.body);
      assert.equal((await push(other)).statusCode, 200);

      const byTrend = await insertCrisisEvent(ctx, {
        userId: user.userId,
        title: 'Unrelated words',
        trendId: other,
        severity: 'critical',
      });
      const blocked = await push(other);
      assertProblem(blocked, 409);
      assert.match(blocked.data.detail, new RegExp(`crisis event ${byTrend}`));
    });

    test('without gate a push is not checked', async () => {
      const res = await call(ctx.app, 'POST', '/api/integrations/workflow/push', {
        key: user.key,
        body: { event: 'trend_lifecycle', data: {} },
      });
      assert.equal(res.statusCode, 200, res.body);
      const json: Json = res.data;
      assert.equal(json.delivered, true);
    });
  });
});
