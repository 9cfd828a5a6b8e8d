// kill -9 of an instance while webhook deliveries are in flight: after a restart every event arrives at least
// once, and an event that arrives again carries the same `webhook-id` (receivers dedupe on it).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { api, backends, backendsMissing, cleanUp, eventually, Instance, WebhookReceiver } from './harness.ts';

after(cleanUp);

const TRENDS = 40;
const MENTIONS = 20;

/** Letters only (digits would not survive into a trend name) and no trailing `s` (plurals are folded). */
function trendName(i: number): string {
  const letters = 'abcdefghijklmnopqrtuvwxyz';
  return `Quorvex${letters[Math.floor(i / letters.length)]}${letters[i % letters.length]}a`;
}

interface Body {
  id: string;
  event: string;
  trend_id: number;
  trend_name: string;
  timestamp: string;
}

test('kill -9 during webhook deliveries: every event is delivered after the restart, never under two webhook-ids', {
  skip: backendsMissing,
}, async (t) => {
  const { cluster, redis, operatorKey } = await backends();
  const receiver = await WebhookReceiver.start();
  // Deliveries cut off by the kill are sent again once their job leases expire: 20 s here instead of 60.
  const first = await Instance.start({
    databaseUrl: cluster.url,
    redisUrl: redis.url,
    operatorKey,
    env: { JOB_LEASE_MS: '20000' },
  });

  const sub = await api(first.url, 'POST', '/api/integrations/webhooks', {
    key: operatorKey,
    body: {
      url: receiver.url,
      trigger_type: 'trend_velocity',
      delivery_mode: 'instant_stream',
      threshold_value: 50,
      cooldown_seconds: 0,
    },
  });
  assert.equal(sub.status, 201, JSON.stringify(sub.data));

  // 40 new phrases, 20 posts each within the last ten minutes: each crosses velocity 50 once, one event each.
  receiver.delayMs = 1500;
  const now = Date.now();
  const names = Array.from({ length: TRENDS }, (_, i) => trendName(i));
  const signals = names.flatMap((name) =>
    Array.from({ length: MENTIONS }, (_, k) => ({
      source: ['x', 'reddit', 'news'][k % 3],
      external_id: `${name}-${k}`,
      text: name,
      keywords: [name],
      observed_at: new Date(now - 10 * 60_000 + k * 25_000).toISOString(),
    })),
  );
  const ingested = await api(first.url, 'POST', '/api/signals', { key: operatorKey, body: { signals } });
  assert.equal(ingested.status, 202, JSON.stringify(ingested.data));
  assert.equal(ingested.data.accepted, signals.length);

  // Killed with some deliveries received but not yet answered: those are sent again after the restart.
  await eventually(
    'deliveries under way',
    () => [receiver.deliveries.length, receiver.deliveries.length - receiver.answered],
    ([received, unanswered]) => received! >= 10 && unanswered! >= 1,
    120_000,
    20,
  );
  await first.kill('SIGKILL');
  const beforeKill = receiver.deliveries.length;
  const inFlight = beforeKill - receiver.answered;
  receiver.delayMs = 0;
  const restarted = Date.now();
  const second = await first.restart();

  const delivered = () => {
    const seen = new Set<string>();
    for (const d of receiver.deliveries) seen.add((JSON.parse(d.body) as Body).trend_name.toLowerCase());
    return seen;
  };
  const missing = () => names.filter((name) => !delivered().has(name.toLowerCase()));
  await eventually('every event delivered after the restart', missing, (m) => m.length === 0, 240_000, 500);
  const allDeliveredMs = Date.now() - restarted;
  // The service's own record settles too: the deliveries cut off by the kill are sent again once their job
  // leases expire (at-least-once), and none stays pending.
  const executions = await eventually(
    'no delivery left pending',
    async () =>
      (
        await api<{ executions: { event_id: string; status: string }[] }>(
          second.url,
          'GET',
          `/api/integrations/webhooks/${sub.data.id}/executions?limit=100`,
          { key: operatorKey },
        )
      ).data.executions,
    (list) => list.length > 0 && list.every((e) => e.status === 'succeeded'),
    240_000,
    1000,
  );
  const settledMs = Date.now() - restarted;

  // One event = one subscription's alert about one crossing: its trend and the moment it was recorded.
  const idsByEvent = new Map<string, Set<string>>();
  for (const d of receiver.deliveries) {
    const body = JSON.parse(d.body) as Body;
    const event = `${body.event} ${body.trend_id} ${body.timestamp}`;
    idsByEvent.set(event, (idsByEvent.get(event) ?? new Set()).add(d.webhookId));
  }
  const twice = [...idsByEvent]
    .filter(([, ids]) => ids.size > 1)
    .map(([event, ids]) => `${event}: ${[...ids]}`);
  assert.deepEqual(twice, [], 'events delivered under more than one webhook-id');
  const received = new Set(receiver.deliveries.map((d) => d.webhookId));
  assert.deepEqual(
    executions.filter((e) => !received.has(e.event_id)).map((e) => e.event_id),
    [],
    'events the service recorded that never arrived',
  );
  for (const d of receiver.deliveries) {
    assert.equal(d.webhookId, (JSON.parse(d.body) as Body).id, 'the webhook-id header is the body id');
  }
  const repeats = receiver.deliveries.length - idsByEvent.size;
  t.diagnostic(
    `${receiver.deliveries.length} deliveries (${beforeKill} before the kill, ${inFlight} of them unanswered) ` +
      `of ${idsByEvent.size} events about ${TRENDS} trends; ${repeats} repeated with the same webhook-id; ` +
      `every event delivered ${allDeliveredMs} ms after the restart, every execution settled after ${settledMs} ms`,
  );
  await second.kill('SIGTERM');
});
