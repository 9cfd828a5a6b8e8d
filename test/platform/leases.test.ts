import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { migrateAppToLatest } from '../../src/migrations.ts';
import { backgroundCheck } from '../../src/modules/content/index.ts';
import { ManualClock, systemClock } from '../../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase, platformTables } from '../../src/platform/db/index.ts';
import { LeaseStore, registerLeaseMetrics, Singletons } from '../../src/platform/leases.ts';
import { buildTestApp, call, createUser } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../helpers/db.ts';

describe('background-loop leases', () => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let store: LeaseStore;

  before(async () => {
    testDb = await createTestDatabase();
    handle = openDatabase(testDb.config);
    await migrateAppToLatest(handle);
    store = new LeaseStore(platformTables(handle.db));
  });
  after(async () => {
    await handle?.close();
    await testDb?.drop();
  });
  beforeEach(async () => {
    await handle.db.deleteFrom('leases').execute();
  });

  test('each loop runs on one instance: the second runs nothing while the first renews', async () => {
    const clock = new ManualClock();
    const first = new Singletons(store, clock, 'first');
    const second = new Singletons(store, clock, 'second');
    for (const s of [first, second]) {
      s.register('trend-recompute');
      s.register('retention');
    }
    await first.renew();
    await second.renew();
    let runs = 0;
    const task = async () => ++runs;
    assert.equal(await first.run('trend-recompute', task), 1);
    assert.equal(await second.run('trend-recompute', task), undefined);
    assert.equal(await second.run('retention', task), undefined);
    clock.advance(10_000);
    await first.renew();
    clock.advance(10_000);
    await second.renew();
    assert.equal(second.holds('trend-recompute'), false, 'renewed leases stay with their holder');
    assert.equal(runs, 1);
    const rows = await store.all();
    assert.deepEqual(
      rows.map((r) => [r.name, r.holder]),
      [
        ['retention', 'first'],
        ['trend-recompute', 'first'],
      ],
    );
  });

  test('an instance that stops renewing (killed) hands its loops over once the lease expires', async () => {
    const clock = new ManualClock();
    const dead = new Singletons(store, clock, 'dead', { ttlMs: 1000 });
    const survivor = new Singletons(store, clock, 'survivor', { ttlMs: 1000 });
    dead.register('crisis-detection');
    survivor.register('crisis-detection');
    await dead.renew();
    const acquiredAt = (await store.all())[0]!.acquired_at;
    clock.advance(900);
    await survivor.renew();
    assert.equal(survivor.holds('crisis-detection'), false, 'not before the lease expires');
    clock.advance(200);
    await survivor.renew();
    assert.equal(survivor.holds('crisis-detection'), true);
    const row = (await store.all())[0]!;
    assert.equal(row.holder, 'survivor');
    assert.equal(row.acquired_at, clock.now(), 'a takeover restarts acquired_at');
    assert.ok(row.acquired_at > acquiredAt);
  });

  test('a stalled holder stops trusting its lease before the database lets another take it', async () => {
    const clock = new ManualClock();
    const stalled = new Singletons(store, clock, 'stalled', { ttlMs: 1000 });
    let runs = 0;
    assert.equal(await stalled.run('status-checks', async () => ++runs), 1);
    assert.equal(stalled.holds('status-checks'), true);
    // 850 ms of its own time later (past 1000 − 1000/5 = 800) it no longer runs without asking again.
    await sleep(850);
    assert.equal(stalled.holds('status-checks'), false);
    const other = new Singletons(store, clock, 'other', { ttlMs: 1000 });
    assert.equal(
      await other.run('status-checks', async () => ++runs),
      undefined,
      'still leased in the database',
    );
  });

  test('shutdown gives every lease up at once, and the released instance runs nothing more', async () => {
    const clock = new ManualClock();
    const leaving = new Singletons(store, clock, 'leaving');
    const staying = new Singletons(store, clock, 'staying');
    for (const name of ['scheduled-exports', 'source:demo']) {
      leaving.register(name);
      staying.register(name);
    }
    await leaving.renew();
    await leaving.release();
    await staying.renew();
    assert.deepEqual(
      staying.local().map((l) => [l.name, l.held]),
      [
        ['scheduled-exports', true],
        ['source:demo', true],
      ],
    );
    assert.equal(await leaving.run('scheduled-exports', async () => 1), undefined);
  });

  test('the heartbeat keeps a lease across several of its lifetimes', async (t) => {
    const holder = new Singletons(store, systemClock, 'holder', { ttlMs: 1500 });
    const waiting = new Singletons(store, systemClock, 'waiting', { ttlMs: 1500 });
    holder.register('key-expiry-notices');
    waiting.register('key-expiry-notices');
    await holder.start();
    t.after(() => holder.release());
    await sleep(3200);
    await waiting.renew();
    assert.equal(holder.holds('key-expiry-notices'), true);
    assert.equal(waiting.holds('key-expiry-notices'), false);
  });

  test('/metrics series say which instance holds which loop', async () => {
    const clock = new ManualClock();
    const holder = new Singletons(store, clock, 'aaa111');
    const other = new Singletons(store, clock, 'bbb222');
    const registries = [new Registry(), new Registry()];
    registerLeaseMetrics(registries[0]!, holder, [{ held: () => ['source:demo'] }], 'host-a');
    registerLeaseMetrics(registries[1]!, other, [{ held: () => [] }], 'host-b');
    for (const s of [holder, other]) s.register('trend-recompute');
    await holder.run('trend-recompute', async () => undefined);
    await other.renew();
    const [a, b] = await Promise.all(registries.map((r) => r.metrics()));
    assert.match(a!, /crestwatch_lease_held\{loop="trend-recompute"\} 1/);
    assert.match(a!, /crestwatch_lease_held\{loop="source:demo"\} 1/);
    assert.match(a!, /crestwatch_lease_runs_total\{loop="trend-recompute"\} 1/);
    assert.match(a!, /crestwatch_instance_info\{instance="aaa111",hostname="host-a"\} 1/);
    assert.match(b!, /crestwatch_lease_held\{loop="trend-recompute"\} 0/);
  });

  test('the background status component names each holder and degrades while a loop has none', async () => {
    const clock = new ManualClock();
    const here = new Singletons(store, clock, 'here01');
    const there = new Singletons(store, clock, 'there2');
    await there.run('retention', async () => undefined);
    await here.run('trend-recompute', async () => undefined);
    here.register('status-checks');
    const fine = await backgroundCheck(here);
    assert.equal(fine.status, 'degraded');
    assert.match(fine.description, /No instance runs status-checks/);
    await here.renew();
    const all = await backgroundCheck(here);
    assert.equal(all.status, 'operational');
    assert.match(all.description, /instance here01 \(this one\) runs status-checks, trend-recompute/);
    assert.match(all.description, /instance there2 runs retention/);
  });
});

// Several instances share PostgreSQL (embedded SQLite is one process's database).
describe('two instances on one database', {
  skip: !usingPostgres && 'several instances need PostgreSQL',
}, () => {
  test('each singleton loop runs on exactly one (visible in /metrics and /status); the other takes over on shutdown', async (t) => {
    const database = await createTestDatabase();
    const first = await buildTestApp({ background: true, database, env: { SOURCES: 'demo' } });
    const second = await buildTestApp({ background: true, database, env: { SOURCES: 'demo' } });
    t.after(async () => {
      await Promise.allSettled([first.close(), second.close()]);
      await database.drop();
    });
    const metrics = async (ctx: typeof first) => {
      const res = await call(ctx.app, 'GET', '/metrics');
      const held = new Map<string, number>();
      for (const [, loop, value] of res.body.matchAll(/^crestwatch_lease_held\{loop="([^"]+)"\} (\d)$/gm))
        held.set(loop!, Number(value));
      return held;
    };
    // The engine's own loops are taken on its first pass (each second).
    const expected = [
      'crisis-detection',
      'idempotency-purge',
      'key-expiry-notices',
      'retention',
      'scheduled-exports',
      'source:demo',
      'status-checks',
      'trend-recompute',
    ];
    let a = new Map<string, number>();
    let b = new Map<string, number>();
    for (let i = 0; i < 50; i++) {
      [a, b] = [await metrics(first), await metrics(second)];
      if (expected.every((loop) => (a.get(loop) ?? 0) + (b.get(loop) ?? 0) === 1)) break;
      await sleep(100);
    }
    for (const loop of expected) {
      assert.equal((a.get(loop) ?? 0) + (b.get(loop) ?? 0), 1, `${loop} runs on exactly one instance`);
    }
    const status = await call(second.app, 'GET', '/status');
    const background = status.data.components.find((c: { name: string }) => c.name === 'background');
    assert.equal(background.status, 'operational', background.description);
    assert.match(background.description, /instance [0-9a-f]{12}/);

    // The one running trend-recompute shuts down: its leases are released and the other takes them at its
    // next heartbeat (a third of the lease's life).
    const [leaving, staying] = a.get('trend-recompute') === 1 ? [first, second] : [second, first];
    await leaving.app.close();
    let taken = new Map<string, number>();
    for (let i = 0; i < 100; i++) {
      taken = await metrics(staying);
      if (expected.every((loop) => taken.get(loop) === 1)) break;
      await sleep(100);
    }
    for (const loop of expected) assert.equal(taken.get(loop), 1, `${loop} taken over`);
    const user = await createUser(staying, 'developer', ['read']);
    const sources = await call(staying.app, 'GET', '/api/intelligence/sources', { key: user.key });
    assert.equal(sources.statusCode, 200);
  });
});
