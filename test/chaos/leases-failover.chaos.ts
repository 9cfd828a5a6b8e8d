// Two instances on one PostgreSQL and one Redis: each singleton background loop runs on exactly one of them
// (as their /metrics say), and when the instance holding the trend recompute is killed with -9 the other
// holds every loop within 30 s.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { backends, backendsMissing, cleanUp, eventually, Instance, leasesHeld } from './harness.ts';

after(cleanUp);

const LOOPS = [
  'trend-recompute',
  'retention',
  'crisis-detection',
  'status-checks',
  'scheduled-exports',
  'idempotency-purge',
  'key-expiry-notices',
  'source:demo',
];

/** Per loop, how many of the instances hold it. */
async function holders(instances: Instance[]): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  for (const instance of instances) {
    for (const [loop, held] of await leasesHeld(instance.url)) sums.set(loop, (sums.get(loop) ?? 0) + held);
  }
  return sums;
}

const everyLoopOnce = (sums: Map<string, number>) =>
  LOOPS.every((loop) => sums.has(loop)) && [...sums.values()].every((n) => n === 1);

test('two instances: every singleton loop runs on exactly one, and on the survivor within 30 s of a kill -9', {
  skip: backendsMissing,
}, async (t) => {
  const { cluster, redis, operatorKey } = await backends();
  const options = {
    databaseUrl: cluster.url,
    redisUrl: redis.url,
    operatorKey,
    env: { SOURCES: 'demo' },
  };
  const a = await Instance.start(options);
  const b = await Instance.start(options);
  const both = [a, b];

  // Each instance registers the engine's loops on its first pass: wait until both report every loop.
  const sums = await eventually(
    'every loop reported by both instances, held by one',
    () => holders(both),
    (s) => everyLoopOnce(s),
    60_000,
    500,
  );
  t.diagnostic(`held: ${[...sums].map(([loop, n]) => `${loop}=${n}`).join(' ')}`);
  // Held by exactly one, and stays so: sampled for a few heartbeats.
  for (let i = 0; i < 10; i++) {
    const now = await holders(both);
    assert.deepEqual(
      [...now].filter(([, n]) => n !== 1),
      [],
      'loops held by no instance or by both',
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }

  const heldByA = (await leasesHeld(a.url)).get('trend-recompute') === 1;
  const [victim, survivor] = heldByA ? [a, b] : [b, a];
  await victim!.kill('SIGKILL');
  const killed = Date.now();
  // When each loop first shows as held on the survivor, ms after the kill.
  const takenAt = new Map<string, number>();
  await eventually(
    'the survivor holds every loop',
    async () => {
      const held = await leasesHeld(survivor!.url);
      for (const [loop, n] of held) if (n === 1 && !takenAt.has(loop)) takenAt.set(loop, Date.now() - killed);
      return held;
    },
    (held) => LOOPS.every((loop) => held.get(loop) === 1),
    60_000,
    250,
  );
  const tookMs = Date.now() - killed;
  t.diagnostic(
    `the survivor held every loop ${tookMs} ms after the kill -9 (per loop: ` +
      `${[...takenAt].map(([loop, ms]) => `${loop} ${ms}`).join(', ')})`,
  );
  assert.ok(tookMs <= 30_000, `taken over within 30 s (${tookMs} ms)`);
  assert.ok(survivor!.running);
  await survivor!.kill('SIGTERM');
});
