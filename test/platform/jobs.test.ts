import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { migrateAppToLatest } from '../../src/migrations.ts';
import { type Clock, ManualClock, systemClock } from '../../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../../src/platform/db/index.ts';
import {
  DeferJobError,
  type Job,
  JobQueue,
  JobWorker,
  jobBackoffMs,
  RetryLaterError,
} from '../../src/platform/jobs/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let testDb: TestDatabase;
let handle: DatabaseHandle;

before(async () => {
  testDb = await createTestDatabase();
  handle = openDatabase(testDb.config);
  await migrateAppToLatest(handle);
});

after(async () => {
  await handle?.close();
  await testDb?.drop();
});

// Each test gets its own job types and clears the table so counts are independent.
async function freshQueue(clock: Clock = new ManualClock(), random = () => 0.5): Promise<JobQueue> {
  await handle.db.deleteFrom('jobs').execute();
  return new JobQueue({ db: handle.db, dialect: handle.dialect, clock, random });
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Rejects with `message` unless `promise` settles within `ms`; clears its timer either way. */
async function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('enqueue inside a transaction that rolls back leaves no job', async () => {
  const queue = await freshQueue();
  await assert.rejects(
    handle.db.transaction().execute(async (trx) => {
      await queue.enqueue(trx, { type: 'test.tx', payload: { a: 1 } });
      throw new Error('rollback');
    }),
    /rollback/,
  );
  assert.equal((await queue.stats()).counts.queued, 0);

  const id = await handle.db
    .transaction()
    .execute((trx) => queue.enqueue(trx, { type: 'test.tx', payload: { a: 2 } }));
  const job = await queue.get(id);
  assert.equal(job?.status, 'queued');
  assert.deepEqual(job?.payload, { a: 2 });
  assert.equal(job?.maxAttempts, 10);
  assert.equal(job?.attempts, 0);
});

test('claim leases due jobs in run_at order and parses the payload', async () => {
  const clock = new ManualClock();
  const queue = await freshQueue(clock);
  const later = await queue.enqueue(handle.db, {
    type: 'test.order',
    payload: 'later',
    runAt: clock.now() + 5000,
  });
  const second = await queue.enqueue(handle.db, {
    type: 'test.order',
    payload: [2],
    runAt: clock.now() - 10,
  });
  const first = await queue.enqueue(handle.db, {
    type: 'test.order',
    payload: { n: 1 },
    runAt: clock.now() - 20,
  });

  const claimed = await queue.claim('w1', 10, 30_000);
  assert.deepEqual(
    claimed.map((j) => j.id),
    [first, second],
  );
  const [job] = claimed;
  assert.deepEqual(job.payload, { n: 1 });
  assert.equal(job.status, 'running');
  assert.equal(job.attempts, 1);
  assert.equal(job.lockedBy, 'w1');
  assert.equal(job.lockedUntil, clock.now() + 30_000);
  assert.deepEqual(await queue.claim('w2', 10, 30_000), [], 'leased and future jobs are not claimable');

  clock.advance(5000);
  assert.deepEqual(
    (await queue.claim('w2', 10, 30_000)).map((j) => j.id),
    [later],
  );
});

test('a claimed job is not claimed twice by concurrent claimers', async () => {
  const queue = await freshQueue();
  const ids = new Set<number>();
  for (let i = 0; i < 20; i++) ids.add(await queue.enqueue(handle.db, { type: 'test.race', payload: { i } }));

  const results = await Promise.all([
    queue.claim('worker-a', 7, 60_000),
    queue.claim('worker-b', 7, 60_000),
    queue.claim('worker-c', 7, 60_000),
  ]);
  const claimed = results.flat().map((j) => j.id);
  assert.equal(new Set(claimed).size, claimed.length, 'no job handed to two claimers');
  assert.equal(claimed.length, 20);
  for (const id of claimed) assert.ok(ids.has(id));
  for (const [i, worker] of ['worker-a', 'worker-b', 'worker-c'].entries()) {
    for (const job of results[i]) assert.equal((await queue.get(job.id))?.lockedBy, worker);
  }
  assert.deepEqual(await queue.claim('worker-d', 10, 60_000), []);
});

test('failure schedules a retry with backoff; the last attempt makes the job dead', async () => {
  const clock = new ManualClock();
  const queue = await freshQueue(clock, () => 0.5);
  const id = await queue.enqueue(handle.db, { type: 'test.fail', payload: {}, maxAttempts: 3 });

  const expectedDelays = [jobBackoffMs(1, () => 0.5), jobBackoffMs(2, () => 0.5)];
  assert.deepEqual(expectedDelays, [750, 1500]);
  for (const delay of expectedDelays) {
    const [job] = await queue.claim('w1', 1, 60_000);
    assert.equal(job.id, id);
    assert.equal(await queue.fail(id, 'w1', `boom ${job.attempts}`), 'retry');
    const queued = await queue.get(id);
    assert.equal(queued?.status, 'queued');
    assert.equal(queued?.runAt, clock.now() + delay);
    assert.equal(queued?.lastError, `boom ${job.attempts}`);
    assert.equal(queued?.lockedBy, null);

    clock.advance(delay - 1);
    assert.deepEqual(await queue.claim('w1', 1, 60_000), [], 'not due before the backoff elapses');
    clock.advance(1);
  }

  const [last] = await queue.claim('w1', 1, 60_000);
  assert.equal(last.attempts, 3);
  assert.equal(await queue.fail(id, 'w1', 'final boom'), 'dead');
  const dead = await queue.get(id);
  assert.equal(dead?.status, 'dead');
  assert.equal(dead?.lastError, 'final boom');
  assert.equal(dead?.finishedAt, clock.now());
  clock.advance(86_400_000);
  assert.deepEqual(await queue.claim('w1', 1, 60_000), [], 'dead jobs are never claimed');
  const stats = await queue.stats();
  assert.equal(stats.counts.dead, 1);
  assert.equal(stats.counts.queued, 0);
});

test('fail with retryAt (RetryLaterError semantics) sets run_at', async () => {
  const clock = new ManualClock();
  const queue = await freshQueue(clock);
  const id = await queue.enqueue(handle.db, { type: 'test.retry-at', payload: {} });
  await queue.claim('w1', 1, 60_000);
  const retryAt = clock.now() + 120_000;
  assert.equal(await queue.fail(id, 'w1', 'rate limited', { retryAt }), 'retry');
  assert.equal((await queue.get(id))?.runAt, retryAt);
});

test('an expired lease is reclaimed and the old worker can no longer complete or fail it', async () => {
  const clock = new ManualClock();
  const queue = await freshQueue(clock);
  const id = await queue.enqueue(handle.db, { type: 'test.lease', payload: { x: true } });
  const [first] = await queue.claim('crashed', 1, 1000);
  assert.equal(first.id, id);

  clock.advance(1000);
  assert.deepEqual(await queue.claim('rescuer', 1, 1000), [], 'the lease is still valid at its last ms');
  clock.advance(1);
  const [again] = await queue.claim('rescuer', 1, 1000);
  assert.equal(again.id, id);
  assert.equal(again.attempts, 2);
  assert.deepEqual(again.payload, { x: true });

  assert.equal(await queue.complete(id, 'crashed'), false);
  assert.equal(await queue.fail(id, 'crashed', 'late failure'), null);
  const stillRunning = await queue.get(id);
  assert.equal(stillRunning?.status, 'running');
  assert.equal(stillRunning?.lockedBy, 'rescuer');
  assert.equal(stillRunning?.lastError, null);

  assert.equal(await queue.complete(id, 'rescuer'), true);
  const done = await queue.get(id);
  assert.equal(done?.status, 'succeeded');
  assert.equal(done?.finishedAt, clock.now());
  assert.equal(await queue.complete(id, 'rescuer'), false, 'completing twice is a no-op');
});

test('stats counts jobs per status and the age of the oldest due queued job', async () => {
  const clock = new ManualClock();
  const queue = await freshQueue(clock);
  assert.deepEqual(await queue.stats(), {
    counts: { queued: 0, running: 0, succeeded: 0, dead: 0 },
    oldestDueAgeMs: null,
  });
  await queue.enqueue(handle.db, { type: 'test.stats', payload: 1, runAt: clock.now() - 4000 });
  await queue.enqueue(handle.db, { type: 'test.stats', payload: 2, runAt: clock.now() - 1000 });
  await queue.enqueue(handle.db, { type: 'test.stats', payload: 3, runAt: clock.now() + 9000 });
  const [running] = await queue.claim('w', 1, 60_000);
  assert.equal(running.payload, 1);
  assert.deepEqual(await queue.stats(), {
    counts: { queued: 2, running: 1, succeeded: 0, dead: 0 },
    oldestDueAgeMs: 1000,
  });
  assert.equal(await queue.get(987_654), undefined);
});

test('enqueue validates its options', async () => {
  const queue = await freshQueue();
  await assert.rejects(queue.enqueue(handle.db, { type: '', payload: {} }), TypeError);
  await assert.rejects(queue.enqueue(handle.db, { type: 'x'.repeat(65), payload: {} }), TypeError);
  await assert.rejects(queue.enqueue(handle.db, { type: 't', payload: {}, maxAttempts: 0 }), RangeError);
  await assert.rejects(queue.enqueue(handle.db, { type: 't', payload: {}, runAt: Number.NaN }), RangeError);
  const id = await queue.enqueue(handle.db, { type: 't', payload: undefined });
  assert.equal((await queue.get(id))?.payload, null);
});

test('backoff is exponential, capped at one hour and jittered between 50% and 100%', () => {
  const top = () => 0.999_999_999;
  const bottom = () => 0;
  assert.deepEqual(
    [1, 2, 3, 4, 5].map((n) => jobBackoffMs(n, top)),
    [1000, 2000, 4000, 8000, 16000],
  );
  assert.deepEqual(
    [1, 2, 3].map((n) => jobBackoffMs(n, bottom)),
    [500, 1000, 2000],
  );
  assert.equal(jobBackoffMs(12, top), 2_048_000);
  assert.equal(jobBackoffMs(13, top), 3_600_000);
  assert.equal(jobBackoffMs(50, top), 3_600_000);
  assert.equal(jobBackoffMs(10_000, bottom), 1_800_000);
  assert.equal(jobBackoffMs(0, top), 1000, 'attempt numbers below 1 count as the first');
  for (let attempt = 1; attempt <= 20; attempt++) {
    const cap = Math.min(1000 * 2 ** (attempt - 1), 3_600_000);
    for (let i = 0; i < 50; i++) {
      const value = jobBackoffMs(attempt);
      assert.ok(
        value >= cap / 2 && value <= cap,
        `attempt ${attempt}: ${value} outside [${cap / 2}, ${cap}]`,
      );
    }
  }
});

test('worker runs a poked job end to end and stop() waits for the running handler', async () => {
  const queue = await freshQueue(systemClock);
  // A long interval: only poke() (or the enqueue notification) can make this run promptly.
  const worker = new JobWorker({ queue, pollIntervalMs: 60_000, leaseMs: 30_000 });
  const started = deferred();
  const release = deferred();
  const seen: Array<{ id: number; payload: unknown; attempts: number; maxAttempts: number }> = [];
  worker.register<{ hello: string }>('test.e2e', async (job) => {
    seen.push({ id: job.id, payload: job.payload, attempts: job.attempts, maxAttempts: job.maxAttempts });
    started.resolve();
    await release.promise;
  });
  worker.start();
  try {
    await new Promise((r) => setTimeout(r, 50));
    const id = await handle.db
      .transaction()
      .execute((trx) =>
        queue.enqueue(trx, { type: 'test.e2e', payload: { hello: 'world' }, maxAttempts: 3 }),
      );
    const t0 = Date.now();
    worker.poke();
    await within(started.promise, 3000, 'handler did not start');
    assert.ok(Date.now() - t0 < 2000, 'poke runs the job without waiting for the poll interval');
    assert.deepEqual(seen, [{ id, payload: { hello: 'world' }, attempts: 1, maxAttempts: 3 }]);
    assert.equal((await queue.get(id))?.status, 'running');

    let stopped = false;
    const stopping = worker.stop(5000).then((drained) => {
      stopped = true;
      return drained;
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(stopped, false, 'stop() waits while the handler runs');
    release.resolve();
    assert.equal(await stopping, true);
    const done = await queue.get(id);
    assert.equal(done?.status, 'succeeded');
    assert.equal(done?.lockedBy, worker.workerId);
  } finally {
    release.resolve();
    await worker.stop(1000);
  }
});

test('a non-transactional enqueue wakes a running worker without poke()', async () => {
  const queue = await freshQueue(systemClock);
  const worker = new JobWorker({ queue, pollIntervalMs: 60_000 });
  const ran = deferred();
  worker.register('test.notify', async () => ran.resolve());
  worker.start();
  try {
    await new Promise((r) => setTimeout(r, 50));
    const id = await queue.enqueue(handle.db, { type: 'test.notify', payload: {} });
    await within(ran.promise, 3000, 'job did not run');
    await waitFor('success', async () => ((await queue.get(id))?.status === 'succeeded' ? true : undefined));
  } finally {
    await worker.stop(1000);
  }
});

test('worker records handler errors, RetryLaterError times and unknown job types', async () => {
  const clock = new ManualClock(Date.now());
  const queue = await freshQueue(clock, () => 0.5);
  const logged: Array<{ obj: object; msg: string }> = [];
  const log = { error: (obj: object, msg: string) => logged.push({ obj, msg }) };
  const worker = new JobWorker({ queue, pollIntervalMs: 20, log });
  const retryAt = clock.now() + 90_000;
  worker.register('test.throws', async () => {
    throw new TypeError('bad thing');
  });
  worker.register('test.retry-later', async () => {
    throw new RetryLaterError('provider said 429', retryAt);
  });
  worker.register('test.sync-throw', () => {
    throw new Error('thrown synchronously');
  });
  const throws = await queue.enqueue(handle.db, { type: 'test.throws', payload: {} });
  const later = await queue.enqueue(handle.db, { type: 'test.retry-later', payload: {} });
  const sync = await queue.enqueue(handle.db, { type: 'test.sync-throw', payload: {} });
  const unknown = await queue.enqueue(handle.db, { type: 'test.nobody', payload: {}, maxAttempts: 1 });
  worker.start();
  let jobs: Job[];
  try {
    jobs = await waitFor('all four attempts recorded', async () => {
      const all = await Promise.all([throws, later, sync, unknown].map((id) => queue.get(id)));
      return all.every((j) => j && j.status !== 'running' && j.attempts === 1) ? (all as Job[]) : undefined;
    });
  } finally {
    assert.equal(await worker.stop(1000), true);
  }
  const [a, b, c, d] = jobs;
  assert.equal(a.status, 'queued');
  assert.equal(a.lastError, 'TypeError: bad thing');
  assert.equal(a.runAt, clock.now() + 750);
  assert.equal(b.status, 'queued');
  assert.equal(b.runAt, retryAt);
  assert.equal(b.lastError, 'RetryLaterError: provider said 429');
  assert.equal(c.status, 'queued');
  assert.equal(c.lastError, 'thrown synchronously');
  assert.equal(d.status, 'dead');
  assert.equal(d.lastError, 'no handler is registered for job type "test.nobody"');
  assert.ok(logged.some((l) => l.msg === 'job failed for the last time'));
});

test('worker survives database errors, logs them and backs off instead of spinning', async () => {
  let claims = 0;
  const failingQueue = {
    onEnqueue: () => () => {},
    claim: async () => {
      claims += 1;
      throw new Error('database is down');
    },
  } as unknown as JobQueue;
  const errors: string[] = [];
  const worker = new JobWorker({
    queue: failingQueue,
    pollIntervalMs: 10,
    log: { error: (_obj, msg) => errors.push(msg) },
  });
  worker.start();
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(await worker.stop(1000), true);
  // Without backoff a 10 ms interval would poll ~40 times; doubling delays allow about 5.
  assert.ok(claims >= 2 && claims <= 8, `claims: ${claims}`);
  assert.equal(errors.length, claims);
  assert.ok(errors.every((m) => m === 'job claim failed'));
  const afterStop = claims;
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(claims, afterStop, 'no polling after stop()');
});

test('stop() gives up on a hanging handler after its timeout', async () => {
  const queue = await freshQueue(systemClock);
  const worker = new JobWorker({ queue, pollIntervalMs: 20 });
  const started = deferred();
  worker.register('test.hang', () => {
    started.resolve();
    return new Promise<void>(() => {});
  });
  const id = await queue.enqueue(handle.db, { type: 'test.hang', payload: {} });
  worker.start();
  await within(started.promise, 3000, 'handler did not start');
  const t0 = Date.now();
  assert.equal(await worker.stop(200), false);
  const waited = Date.now() - t0;
  assert.ok(waited >= 150 && waited < 1500, `waited ${waited} ms`);
  assert.equal((await queue.get(id))?.status, 'running', 'left leased for another worker to reclaim');
});

test('worker respects its concurrency limit', async () => {
  const queue = await freshQueue(systemClock);
  const worker = new JobWorker({ queue, pollIntervalMs: 20, concurrency: 2 });
  let active = 0;
  let peak = 0;
  let done = 0;
  worker.register('test.conc', async () => {
    active += 1;
    peak = Math.max(peak, active);
    await new Promise((r) => setTimeout(r, 30));
    active -= 1;
    done += 1;
  });
  for (let i = 0; i < 7; i++) await queue.enqueue(handle.db, { type: 'test.conc', payload: { i } });
  worker.start();
  try {
    await waitFor('all jobs to finish', async () =>
      (await queue.stats()).counts.succeeded === 7 ? true : undefined,
    );
  } finally {
    await worker.stop(1000);
  }
  assert.equal(done, 7);
  assert.equal(peak, 2);
});

test('enqueueMany adds the jobs in order with one id each; a rolled-back transaction leaves none', async () => {
  const clock = new ManualClock(1_000_000);
  const queue = await freshQueue(clock);
  const list = Array.from({ length: 1200 }, (_, i) => ({
    type: 'test.many',
    payload: { i },
    maxAttempts: 2,
  }));
  await assert.rejects(
    handle.db.transaction().execute(async (trx) => {
      await queue.enqueueMany(trx, list);
      throw new Error('rollback');
    }),
    /rollback/,
  );
  assert.equal((await queue.stats()).counts.queued, 0);
  const ids = await handle.db.transaction().execute((trx) => queue.enqueueMany(trx, list));
  assert.equal(new Set(ids).size, 1200);
  const jobs = await queue.claim('w1', 2000, 60_000);
  assert.deepEqual(
    jobs.map((j) => j.id),
    ids,
    'claimed in the order given',
  );
  assert.deepEqual(
    jobs.map((j) => (j.payload as { i: number }).i),
    list.map((_, i) => i),
    'each id belongs to its own payload',
  );
  assert.ok(jobs.every((j) => j.maxAttempts === 2 && j.attempts === 1));
  await assert.rejects(
    queue.enqueueMany(handle.db, [
      { type: 'ok', payload: 1 },
      { type: '', payload: 2 },
    ]),
  );
  assert.equal((await queue.stats()).counts.queued, 0, 'an invalid job adds none of the list');
});

test('a claim takes due jobs oldest first, expired leases included, however long the backlog', async () => {
  const clock = new ManualClock(1_000_000);
  const queue = await freshQueue(clock);
  const later = await queue.enqueueMany(
    handle.db,
    Array.from({ length: 50 }, () => ({ type: 'test.backlog', payload: {}, runAt: 1_000_500 })),
  );
  const first = await queue.enqueue(handle.db, { type: 'test.backlog', payload: {}, runAt: 999_000 });
  const [leased] = await queue.claim('w1', 1, 1000);
  assert.equal(leased?.id, first);
  clock.advance(2000); // the lease of w1 expired; the backlog is due
  const claimed = await queue.claim('w2', 3, 60_000);
  assert.deepEqual(
    claimed.map((j) => j.id),
    [first, later[0], later[1]],
    'the expired lease (oldest run_at) first, then the backlog in order',
  );
  assert.equal(claimed[0]?.attempts, 2);
});

test('a handler throwing DeferJobError gives its job back for later without counting the attempt', async () => {
  const clock = new ManualClock(Date.now());
  const queue = await freshQueue(clock);
  const worker = new JobWorker({ queue, pollIntervalMs: 20 });
  const runAt = clock.now() + 5000;
  let runs = 0;
  worker.register('test.defer', async () => {
    runs++;
    throw new DeferJobError('destination busy', runAt);
  });
  const id = await queue.enqueue(handle.db, { type: 'test.defer', payload: {}, maxAttempts: 1 });
  worker.start();
  let job: Job;
  try {
    job = await waitFor('the deferral', async () => {
      const current = await queue.get(id);
      return runs > 0 && current?.status === 'queued' ? current : undefined;
    });
  } finally {
    await worker.stop(1000);
  }
  assert.equal(runs, 1);
  assert.equal(job.attempts, 0, 'the attempt is not counted: maxAttempts 1 still allows one');
  assert.equal(job.runAt, runAt);
  assert.equal(job.lastError, null);
  assert.equal(job.lockedBy, null);
});

test('finished jobs are marked succeeded in one write after beforeMarkingDone; a failed flush leaves them leased', async () => {
  const queue = await freshQueue(systemClock);
  const worker = new JobWorker({ queue, pollIntervalMs: 20, concurrency: 8, leaseMs: 60_000 });
  const order: string[] = [];
  let failFlush = false;
  const buffered: number[] = [];
  worker.beforeMarkingDone(async () => {
    if (failFlush) throw new Error('database is down');
    order.push(`flush ${buffered.splice(0).length}`);
  });
  const completeMany = queue.completeMany.bind(queue);
  queue.completeMany = async (ids, workerId) => {
    order.push(`mark ${ids.length}`);
    return completeMany(ids, workerId);
  };
  worker.register<{ i: number }>('test.batch', async (job) => {
    buffered.push(job.payload.i);
  });
  const ids = await queue.enqueueMany(
    handle.db,
    Array.from({ length: 6 }, (_, i) => ({ type: 'test.batch', payload: { i } })),
  );
  worker.start();
  try {
    await waitFor('all marked', async () =>
      (await queue.stats()).counts.succeeded === 6 ? true : undefined,
    );
    assert.equal(order[0], 'flush 6', 'the buffered results are written before any job is marked');
    assert.deepEqual(order.slice(1), ['mark 6'], 'one statement for the six');

    failFlush = true;
    const failing = await queue.enqueue(handle.db, { type: 'test.batch', payload: { i: 7 } });
    await waitFor('the run', async () => (buffered.length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 100));
    const leftLeased = await queue.get(failing);
    assert.equal(leftLeased?.status, 'running', 'not marked done: it runs again once its lease expires');
  } finally {
    await worker.stop(1000);
  }
  assert.equal(ids.length, 6);
});

test('claims run ahead of free slots; stop() gives back the claimed jobs that never started', async () => {
  const queue = await freshQueue(systemClock);
  const worker = new JobWorker({ queue, pollIntervalMs: 20, concurrency: 1, prefetch: 4 });
  const started = deferred();
  const release = deferred();
  const ran: number[] = [];
  worker.register<{ i: number }>('test.ahead', async (job) => {
    ran.push(job.payload.i);
    started.resolve();
    await release.promise;
  });
  const ids = await queue.enqueueMany(
    handle.db,
    Array.from({ length: 10 }, (_, i) => ({ type: 'test.ahead', payload: { i } })),
  );
  worker.start();
  await within(started.promise, 3000, 'handler did not start');
  const leased = await handle.db.selectFrom('jobs').select('id').where('status', '=', 'running').execute();
  assert.equal(leased.length, 5, 'one running and four waiting for the slot, from one claim');
  const stopping = worker.stop(3000);
  release.resolve();
  assert.equal(await stopping, true);
  assert.deepEqual(ran, [0], 'nothing else started once stopping');
  const after = await Promise.all(ids.map((id) => queue.get(id)));
  assert.equal(after[0]?.status, 'succeeded');
  for (const job of after.slice(1)) {
    assert.equal(job?.status, 'queued');
    assert.equal(job?.attempts, 0, 'a job given back was not attempted');
  }
});

test('prepare sees each claimed batch of its type before any of those jobs starts', async () => {
  const queue = await freshQueue(systemClock);
  const worker = new JobWorker({ queue, pollIntervalMs: 20, concurrency: 2 });
  const log: string[] = [];
  worker.register<{ i: number }>(
    'test.prepared',
    async (job) => {
      log.push(`run ${job.payload.i}`);
    },
    {
      prepare: async (jobs) => {
        log.push(`prepare ${jobs.map((j) => j.payload.i).join(',')}`);
      },
    },
  );
  worker.register('test.other', async () => {
    log.push('other');
  });
  await queue.enqueueMany(handle.db, [
    ...Array.from({ length: 5 }, (_, i) => ({ type: 'test.prepared', payload: { i } })),
    { type: 'test.other', payload: {} },
  ]);
  worker.start();
  try {
    await waitFor('all done', async () => ((await queue.stats()).counts.succeeded === 6 ? true : undefined));
  } finally {
    await worker.stop(1000);
  }
  assert.equal(log[0], 'prepare 0,1,2,3,4', 'one call with the batch, other types left out');
  assert.deepEqual(log.slice(1).sort(), ['other', 'run 0', 'run 1', 'run 2', 'run 3', 'run 4']);
});

test('a claimed job that cannot get a slot for long goes back to the queue for other workers', async () => {
  const queue = await freshQueue(systemClock);
  const worker = new JobWorker({ queue, pollIntervalMs: 50, concurrency: 1, prefetch: 2 });
  const release = deferred();
  worker.register('test.hog', () => release.promise);
  worker.register('test.waits', async () => {});
  const hog = await queue.enqueue(handle.db, { type: 'test.hog', payload: {} });
  await new Promise((r) => setTimeout(r, 5));
  const waiting = await queue.enqueue(handle.db, { type: 'test.waits', payload: {} });
  worker.start();
  try {
    await waitFor('both leased', async () =>
      (await queue.get(waiting))?.status === 'running' ? true : undefined,
    );
    assert.equal((await queue.get(hog))?.status, 'running');
    const back = await waitFor(
      'the waiting job given back',
      async () => {
        const job = await queue.get(waiting);
        return job?.status === 'queued' ? job : undefined;
      },
      6000,
    );
    assert.equal(back.attempts, 0);
    assert.equal(back.lockedBy, null, 'free for any worker to claim');
  } finally {
    release.resolve();
    await worker.stop(1000);
  }
});

test('a handler waiting in job.idle() holds no slot: other jobs run meanwhile', async () => {
  const queue = await freshQueue(systemClock);
  const worker = new JobWorker({ queue, pollIntervalMs: 20, concurrency: 1 });
  const answer = deferred();
  const order: string[] = [];
  worker.register('test.remote', async (job) => {
    order.push('remote asks');
    await job.idle!(answer.promise);
    order.push('remote answered');
  });
  worker.register('test.local', async () => {
    order.push('local ran');
  });
  await queue.enqueue(handle.db, { type: 'test.remote', payload: {} });
  await new Promise((r) => setTimeout(r, 5));
  await queue.enqueue(handle.db, { type: 'test.local', payload: {} });
  worker.start();
  try {
    await waitFor('the local job', async () => (order.includes('local ran') ? true : undefined));
    assert.deepEqual(order, ['remote asks', 'local ran'], 'ran in the slot the waiting job gave up');
    answer.resolve();
    await waitFor('both done', async () => ((await queue.stats()).counts.succeeded === 2 ? true : undefined));
    assert.equal(order.at(-1), 'remote answered');
  } finally {
    answer.resolve();
    await worker.stop(1000);
  }
});
