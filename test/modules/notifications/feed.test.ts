// The notification feed: each event kind notifies exactly the users it concerns, once however often it is
// delivered; keys about to expire; mark-read and unread_count; limits, errors, permissions and the tenant wall;
// retention.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DAY_MS, ManualClock } from '../../../src/platform/clock.ts';
import type { Services } from '../../../src/services.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';
import { drainJobs } from '../../helpers/jobs.ts';

const RECENT = '/api/user/notifications/recent';
const MARK = '/api/user/notifications/mark-read';
const HOUR = 3_600_000;

const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
let ctx: TestContext;
let services: Services;
type User = { key: string; userId: number; keyId: number };
let alice: User;
let bob: User;
let carol: User;
let dave: User;
let seq = 0;

before(async () => {
  ctx = await buildTestApp({ clock });
  services = ctx.app.services;
  services.worker.start();
  alice = await createUser(ctx, 'enterprise');
  bob = await createUser(ctx, 'enterprise');
  carol = await createUser(ctx, 'enterprise');
  dave = await createUser(ctx, 'enterprise');
  const follow = async (user: User, body: Record<string, unknown>) => {
    const res = await call(ctx.app, 'POST', '/api/user/interests', { key: user.key, body });
    assert.equal(res.statusCode, 201, res.body);
  };
  await follow(alice, { keyword: 'Quantum' });
  await follow(alice, { keyword: '#QuantumWidget' });
  await follow(bob, { keyword: 'widgets' });
  // Not whole words of "Quantum Widget": no match.
  await follow(carol, { keyword: 'quant' });
  // A condition the events below do not meet.
  await follow(dave, {
    keyword: 'widget',
    alert_condition_type: 'volume_above',
    volume_threshold_value: 1000,
  });
});
after(async () => ctx.close());

/** Deletes every notice and dedupe key: each test starts with empty feeds. */
async function clearFeeds(): Promise<void> {
  await services.db.deleteFrom('notifications').execute();
  await services.db.deleteFrom('notification_dedupe').execute();
}

async function record(event: { id: string; type: string; data: Record<string, unknown> }): Promise<void> {
  await services.events.record(services.db, { ...event, occurred_at: clock.now() } as never);
  await drainJobs(ctx);
}

function velocityEvent(trendId: number, from: number, to: number, extra: Record<string, unknown> = {}) {
  return {
    id: `trend.velocity.crossed:${trendId}:${to}:${clock.now()}:${++seq}`,
    type: 'trend.velocity.crossed',
    data: {
      trend_id: trendId,
      trend_name: 'Quantum Widget',
      category: 'Technology/AI',
      velocity: to,
      volume: 120,
      from_velocity: from,
      levels: [50],
      ...extra,
    },
  };
}

function crisisEvent(type: string, userId: number, id: number, step: number, severity = 'high') {
  return {
    id: `${type}:${id}:${step}`,
    type,
    data: {
      crisis_event_id: id,
      user_id: userId,
      title: 'Acme Cloud outage complaints',
      severity,
      status: 'active',
      impacted_entity: 'Acme Cloud',
      detected_at: '2026-11-21T09:00:00.000Z',
      summary: 'Negative mentions of Acme Cloud rose to 5× their usual rate.',
      source_link: `http://localhost:3000/api/intelligence/crisis-events/${id}`,
      trend_id: null,
      source_keywords: ['acme cloud'],
    },
  };
}

function exportEvent(type: string, userId: number, historyId: number, extra: Record<string, unknown> = {}) {
  return {
    id: `${type}:${historyId}`,
    type,
    data: {
      user_id: userId,
      config_id: 7,
      history_id: historyId,
      destination: 'aws',
      row_count: type === 'export.run.finished' ? 42 : null,
      error_message: type === 'export.run.failed' ? 'The bucket answered 403 AccessDenied.' : null,
      ...extra,
    },
  };
}

async function feed(user: User, query = ''): Promise<Json> {
  const res = await call(ctx.app, 'GET', `${RECENT}${query}`, { key: user.key });
  assert.equal(res.statusCode, 200, res.body);
  return res.data;
}

async function noticesOf(user: User): Promise<Json[]> {
  return (await feed(user, '?limit=100')).notifications;
}

describe('notices from events', () => {
  beforeEach(clearFeeds);

  test('a velocity crossing notifies each user with a matching interest once, and nobody else', async () => {
    await record(velocityEvent(501, 30, 62));
    const [a] = await noticesOf(alice);
    assert.equal((await noticesOf(alice)).length, 1, 'two matching interests of one user: one notice');
    assert.equal(a.type, 'trend.alert.created');
    assert.equal(a.title, 'Quantum Widget is rising fast');
    assert.equal(a.is_read, false);
    assert.equal(a.status, 'unread');
    assert.equal(a.read_at, null);
    assert.match(a.message, /crossed velocity 50 \(score 62, from 30\) with 120 mentions/);
    assert.deepEqual(a.data, {
      trend_id: 501,
      trend_name: 'Quantum Widget',
      category: 'Technology/AI',
      velocity: 62,
      from_velocity: 30,
      level: 50,
      volume: 120,
      severity: 'medium',
      interests: ['Quantum', '#QuantumWidget'],
      source_link: 'http://localhost:3000/api/trends/501',
      event_id: a.data.event_id,
    });
    assert.equal((await noticesOf(bob)).length, 1, 'plural "widgets" matches the trend key "quantum widget"');
    assert.deepEqual(await noticesOf(carol), [], '"quant" is not a whole word of the trend');
    assert.deepEqual(await noticesOf(dave), [], 'volume_above 1000 is not met by 120 mentions');
  });

  test('a replayed event, or another crossing of the same level the same UTC day, does not notify again', async () => {
    const event = velocityEvent(502, 30, 55);
    await record(event);
    await record(event);
    await record(velocityEvent(502, 40, 58));
    assert.equal((await noticesOf(alice)).length, 1);
    // A higher level the same day is news.
    await record(velocityEvent(502, 58, 80));
    const notices = await noticesOf(alice);
    assert.deepEqual(
      notices.map((n: Json) => n.data.level),
      [75, 50],
    );
    // The next UTC day, the same level notifies again.
    clock.advance(DAY_MS);
    await record(velocityEvent(502, 30, 55));
    assert.equal((await noticesOf(alice)).length, 3);
  });

  test('a crossing of no notice level (25, or within a band) notifies nobody', async () => {
    await record(velocityEvent(503, 10, 30));
    await record(velocityEvent(503, 60, 70));
    assert.deepEqual(await noticesOf(alice), []);
    assert.deepEqual(await noticesOf(bob), []);
  });

  test('volume_above and growth_above interests notify only when their threshold holds', async () => {
    await record(velocityEvent(504, 40, 91, { volume: 1500 }));
    const [d] = await noticesOf(dave);
    assert.equal((await noticesOf(dave)).length, 1);
    assert.equal(d.data.level, 90);
    assert.equal(d.data.severity, 'critical');
    // growth_above needs the trend's growth: an unknown trend has none, so no notice.
    const erin = await createUser(ctx, 'enterprise');
    const res = await call(ctx.app, 'POST', '/api/user/interests', {
      key: erin.key,
      body: { keyword: 'quantum widget', alert_condition_type: 'growth_above', percentage_growth_value: 10 },
    });
    assert.equal(res.statusCode, 201, res.body);
    await record(velocityEvent(999_999, 40, 60));
    assert.deepEqual(await noticesOf(erin), []);
    assert.equal((await noticesOf(alice)).length, 2);
  });

  test('crisis steps notify their owner only, once each', async () => {
    const opened = crisisEvent('crisis.event.opened', alice.userId, 11, 1, 'medium');
    await record(opened);
    await record(opened);
    await record(crisisEvent('crisis.event.escalated', alice.userId, 11, 2, 'high'));
    await record(crisisEvent('crisis.event.resolved', alice.userId, 11, 3, 'high'));
    const notices = await noticesOf(alice);
    assert.deepEqual(
      notices.map((n: Json) => [n.type, n.title]),
      [
        ['crisis.event.resolved', 'Crisis event subsided: Acme Cloud outage complaints'],
        ['crisis.event.escalated', 'Crisis event escalated to high: Acme Cloud outage complaints'],
        ['crisis.event.opened', 'Crisis event opened: Acme Cloud outage complaints'],
      ],
    );
    assert.equal(notices[2].data.crisis_event_id, 11);
    assert.equal(notices[2].data.severity, 'medium');
    assert.equal(notices[2].data.source_link, 'http://localhost:3000/api/intelligence/crisis-events/11');
    assert.equal(
      notices[2].message,
      'Severity medium. Negative mentions of Acme Cloud rose to 5× their usual rate.',
    );
    for (const user of [bob, carol, dave]) assert.deepEqual(await noticesOf(user), []);
  });

  test('export runs notify their owner once per run and outcome', async () => {
    const finished = exportEvent('export.run.finished', bob.userId, 31);
    await record(finished);
    await record(finished);
    await record(exportEvent('export.run.failed', bob.userId, 32));
    const notices = await noticesOf(bob);
    assert.deepEqual(
      notices.map((n: Json) => [n.type, n.title, n.message]),
      [
        [
          'export.run.failed',
          'Export to aws failed',
          'Export configuration 7 could not deliver to aws: The bucket answered 403 AccessDenied.. ' +
            'GET /api/user/export/history shows the run.',
        ],
        ['export.run.finished', 'Export to aws finished', 'Export configuration 7 delivered 42 rows to aws.'],
      ],
    );
    assert.deepEqual(notices[1].data, {
      config_id: 7,
      history_id: 31,
      destination: 'aws',
      row_count: 42,
      error_message: null,
      event_id: 'export.run.finished:31',
    });
    for (const user of [alice, carol, dave]) assert.deepEqual(await noticesOf(user), []);
  });
});

describe('keys about to expire', () => {
  beforeEach(clearFeeds);

  async function createKey(user: User, name: string, expiresInMs: number): Promise<Json> {
    const res = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: user.key,
      body: { name, expires_at: new Date(clock.now() + expiresInMs).toISOString() },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.data;
  }

  test('one notice per key expiring within 7 days; revoked and rotated-away keys get none', async () => {
    const soon = await createKey(carol, 'soon', 3 * DAY_MS);
    const later = await createKey(carol, 'later', 10 * DAY_MS);
    const revoked = await createKey(carol, 'revoked', 2 * DAY_MS);
    assert.equal(
      (await call(ctx.app, 'DELETE', `/api/user/api-keys/${revoked.id}`, { key: carol.key })).statusCode,
      204,
    );
    const rotated = await createKey(carol, 'rotated', 5 * DAY_MS);
    const rotation = await call(ctx.app, 'POST', `/api/user/api-keys/${rotated.id}/rotate`, {
      key: carol.key,
      body: {},
    });
    assert.equal(rotation.statusCode, 201, rotation.body);

    await services.notifications.checkExpiringKeys();
    await services.notifications.checkExpiringKeys();
    let notices = await noticesOf(carol);
    // "soon" and the key "rotated" was rotated to (it keeps the expiry); not the old one, not the revoked one.
    assert.deepEqual(
      notices.map((n: Json) => n.data.key_id).sort((a: number, b: number) => a - b),
      [soon.id, rotation.data.id],
    );
    const first = notices.find((n: Json) => n.data.key_id === soon.id)!;
    assert.equal(first.type, 'api_key.expiring');
    assert.equal(first.title, 'API key "soon" expires soon');
    assert.match(
      first.message,
      new RegExp(
        `^Key "soon" \\(${soon.prefix}…\\) expires at ${soon.expires_at.slice(0, 19)}.*in about 3 days\\.`,
      ),
    );
    assert.deepEqual(first.data, {
      key_id: soon.id,
      name: 'soon',
      prefix: soon.prefix,
      expires_at: soon.expires_at,
    });
    for (const user of [alice, bob, dave]) assert.deepEqual(await noticesOf(user), []);

    // Four days on, "later" is within 7 days; "soon" has expired and is not notified again.
    clock.advance(4 * DAY_MS);
    await services.notifications.checkExpiringKeys();
    notices = await noticesOf(carol);
    assert.equal(notices.length, 3);
    assert.equal(notices[0].data.key_id, later.id);
    clock.advance(-4 * DAY_MS);
    // The keys made here must not reach the other tests' checks.
    for (const id of [soon.id, later.id, rotation.data.id]) {
      await call(ctx.app, 'DELETE', `/api/user/api-keys/${id}`, { key: carol.key });
    }
  });
});

describe('reading and marking', () => {
  let ids: number[];
  before(async () => {
    await clearFeeds();
    for (let i = 1; i <= 12; i++) {
      clock.advance(1000);
      await record(exportEvent('export.run.finished', alice.userId, 100 + i));
    }
    await record(exportEvent('export.run.finished', bob.userId, 200));
    ids = (await noticesOf(alice)).map((n: Json) => n.id);
  });

  test('recent is newest first, 10 by default, `limit` up to 100, with the unread count of the whole feed', async () => {
    const page = await feed(alice);
    assert.equal(page.notifications.length, 10);
    assert.equal(page.unread_count, 12);
    assert.deepEqual(
      page.notifications.map((n: Json) => n.data.history_id),
      [112, 111, 110, 109, 108, 107, 106, 105, 104, 103],
    );
    assert.equal((await feed(alice, '?limit=3')).notifications.length, 3);
    assert.equal((await feed(alice, '?limit=100')).notifications.length, 12);
    for (const query of ['?limit=0', '?limit=101', '?limit=ten', '?page=2']) {
      const res = await call(ctx.app, 'GET', `${RECENT}${query}`, { key: alice.key });
      assertProblem(res, 400);
      assert.match(res.data.detail, /query\.(limit|page)/);
    }
  });

  test('mark-read sets is_read and read_at, counts only changes, and reports the unread count', async () => {
    clock.advance(HOUR);
    const res = await call(ctx.app, 'POST', MARK, {
      key: alice.key,
      body: { ids: [ids[0], ids[1], ids[1]] },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.data, { success: true, updated: 2, unread_count: 10 });
    const again = await call(ctx.app, 'POST', MARK, { key: alice.key, body: { ids: [ids[0], ids[2]] } });
    assert.deepEqual(again.data, { success: true, updated: 1, unread_count: 9 });
    const notices = await noticesOf(alice);
    assert.equal(notices[0].is_read, true);
    assert.equal(notices[0].status, 'read');
    assert.equal(notices[0].read_at, new Date(clock.now()).toISOString());
    assert.equal(notices[3].is_read, false);
    assert.equal((await feed(alice)).unread_count, 9);
  });

  test('another user’s id → 404 naming it, and nothing is marked', async () => {
    const bobsId = (await noticesOf(bob))[0].id;
    const res = await call(ctx.app, 'POST', MARK, { key: alice.key, body: { ids: [ids[5], bobsId] } });
    assertProblem(res, 404);
    assert.equal(res.data.code, 'notification_not_found');
    assert.match(res.data.detail, new RegExp(`id ${bobsId}; nothing was marked read`));
    assert.equal((await noticesOf(alice)).find((n: Json) => n.id === ids[5])!.is_read, false);
    assert.equal((await noticesOf(bob))[0].is_read, false);
    assertProblem(await call(ctx.app, 'POST', MARK, { key: alice.key, body: { ids: [987654321] } }), 404);
  });

  test('bad bodies → 400 naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /body\.ids/],
      [{ ids: ['5'] }, /body\.ids/],
      [{ ids: [1.5] }, /body\.ids/],
      [{ ids: [0] }, /body\.ids/],
      [{ ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, /body\.ids/],
      [{ ids: [1], all: true }, /body\.all/],
    ];
    for (const [body, field] of cases) {
      const res = await call(ctx.app, 'POST', MARK, { key: alice.key, body });
      assertProblem(res, 400);
      assert.match(res.data.detail, field, JSON.stringify(body));
    }
    const ok = await call(ctx.app, 'POST', MARK, {
      key: alice.key,
      body: { ids: Array.from({ length: 1000 }, () => ids[0]) },
    });
    assert.equal(ok.statusCode, 200, '1000 ids are accepted');
  });

  test('no key → 401; a read-only key reads but cannot mark → 403; a key without read → 403', async () => {
    assertProblem(await call(ctx.app, 'GET', RECENT), 401);
    assertProblem(await call(ctx.app, 'POST', MARK, { body: { ids: [1] } }), 401);
    const reader = await createUser(ctx, 'enterprise', ['read']);
    assert.equal((await call(ctx.app, 'GET', RECENT, { key: reader.key })).statusCode, 200);
    assertProblem(await call(ctx.app, 'POST', MARK, { key: reader.key, body: { ids: [ids[0]] } }), 403);
    const ingest = await createUser(ctx, 'enterprise', ['ingest']);
    assertProblem(await call(ctx.app, 'GET', RECENT, { key: ingest.key }), 403);
  });
});

describe('retention', () => {
  beforeEach(clearFeeds);

  test('a feed keeps its newest 1,000 notices; nothing older than 90 days; dropped notices are not recreated', async () => {
    const n = services.notifications;
    const run = (historyId: number) =>
      n.onExportRun({
        ...exportEvent('export.run.finished', dave.userId, historyId),
        occurred_at: clock.now(),
      } as never);
    for (let i = 1; i <= 1003; i++) await run(i);
    const rows = await services.db
      .selectFrom('notifications')
      .select(['id'])
      .where('user_id', '=', dave.userId)
      .orderBy('id')
      .execute();
    assert.equal(rows.length, 1000);
    const newest = await noticesOf(dave);
    assert.equal(newest[0].data.history_id, 1003);
    assert.equal(newest[99].data.history_id, 904);
    // The oldest three were dropped; a replay of their events does not bring them back.
    await run(1);
    assert.equal((await feed(dave, '?limit=1')).notifications[0].data.history_id, 1003);

    // 91 days later the hourly run drops them all (the unread count with them).
    await run(5000);
    clock.advance(91 * DAY_MS);
    await n.checkExpiringKeys();
    assert.deepEqual(await feed(dave), { notifications: [], unread_count: 0 });
    clock.advance(-91 * DAY_MS);
  });
});
