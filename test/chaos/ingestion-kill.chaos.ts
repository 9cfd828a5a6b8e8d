// kill -9 of an instance while many clients ingest: a batch of signals is stored whole or not at all, and a
// batch whose 202 reached its client is stored whole.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { api, backends, backendsMissing, cleanUp, Instance, sleep } from './harness.ts';

after(cleanUp);

const CLIENTS = 12;
const BATCH = 1000;
const ROUNDS = 3;

interface Batch {
  marker: string;
  /** The client read a 2xx answer. */
  acknowledged: boolean;
}

function batchBody(marker: string) {
  return {
    signals: Array.from({ length: BATCH }, (_, i) => ({
      source: 'news',
      external_id: `chaos-${marker}-${i}`,
      text: `Ingestion under fault, batch ${marker}, item ${i}`,
    })),
  };
}

/** One client: batches one after the other until `stop` or its connection fails (the instance died). */
async function client(base: string, key: string, name: string, batches: Batch[], stop: { now: boolean }) {
  for (let seq = 0; !stop.now; seq++) {
    const batch: Batch = { marker: `${name}s${seq}`, acknowledged: false };
    batches.push(batch);
    try {
      const res = await api(base, 'POST', '/api/signals', {
        key,
        body: batchBody(batch.marker),
        timeoutMs: 60_000,
      });
      batch.acknowledged = res.status >= 200 && res.status < 300;
      if (!batch.acknowledged) await sleep(100);
    } catch {
      return;
    }
  }
}

test('kill -9 during ingestion: every batch is stored whole or not at all, and every acknowledged batch whole', {
  skip: backendsMissing,
}, async (t) => {
  const { cluster, redis, operatorKey } = await backends();
  let instance = await Instance.start({ databaseUrl: cluster.url, redisUrl: redis.url, operatorKey });
  const batches: Batch[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const stop = { now: false };
    const before = batches.filter((b) => b.acknowledged).length;
    const clients = Array.from({ length: CLIENTS }, (_, c) =>
      client(instance.url, operatorKey, `r${round}c${c}`, batches, stop),
    );
    // Kill once a few batches of this round went through: the others are mid-way at that moment.
    const until = Date.now() + 60_000;
    while (batches.filter((b) => b.acknowledged).length < before + CLIENTS && Date.now() < until) {
      await sleep(50);
    }
    await sleep(Math.random() * 300);
    await instance.kill('SIGKILL');
    stop.now = true;
    await Promise.all(clients);
    instance = await instance.restart();
  }

  const rows = await cluster.query<{ marker: string; n: string }>(
    `select split_part(external_id, '-', 2) as marker, count(*) as n
         from signals where external_id like 'chaos-%' group by 1`,
  );
  const stored = new Map(rows.map((r) => [r.marker, Number(r.n)]));
  const partial = batches.filter((b) => ![0, BATCH].includes(stored.get(b.marker) ?? 0));
  const lost = batches.filter((b) => b.acknowledged && stored.get(b.marker) !== BATCH);
  const whole = batches.filter((b) => stored.get(b.marker) === BATCH).length;
  const unacknowledgedWhole = batches.filter((b) => !b.acknowledged && stored.get(b.marker) === BATCH).length;
  t.diagnostic(
    `${batches.length} batches sent over ${ROUNDS} kills: ${batches.filter((b) => b.acknowledged).length} ` +
      `acknowledged, ${whole} stored whole (${unacknowledgedWhole} of them unacknowledged), ` +
      `${partial.length} partial`,
  );
  assert.deepEqual(
    partial.map((b) => `${b.marker}: ${stored.get(b.marker)} of ${BATCH}`),
    [],
    'batches stored in part',
  );
  assert.deepEqual(
    lost.map((b) => `${b.marker}: ${stored.get(b.marker) ?? 0} of ${BATCH}`),
    [],
    'acknowledged batches not stored whole',
  );
  // The restarted instance serves the stored signals' owner as before.
  assert.equal((await api(instance.url, 'GET', '/api/user/profile', { key: operatorKey })).status, 200);
  await instance.kill('SIGTERM');
});
