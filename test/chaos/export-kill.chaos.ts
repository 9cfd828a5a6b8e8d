// kill -9 of an instance in the middle of an export run: after a restart the run is retried to completion
// (never left `running`), and the run leaves one file at its destination, not one per attempt. The run is
// started with run-now, which queues the same job a schedule's minute does (test/modules/exports covers when
// schedules queue runs), and the instances lease jobs for 20 s instead of 60 (`JOB_LEASE_MS`): the retry
// follows the kill within half a minute.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { api, backends, backendsMissing, cleanUp, eventually, Instance, ObjectStore } from './harness.ts';

after(cleanUp);

interface Run {
  id: number;
  config_id: number | null;
  status: string;
  attempts: number;
  file_url: string | null;
  completed_at: string | null;
}

/** Long enough for an upload to the stand-in store, short enough that the test need not wait a minute. */
const LEASE = { JOB_LEASE_MS: '20000' };

/** An hour ago, as `HH:MM`: the daily schedule does not come round during the test. */
function anHourAgo(): string {
  return new Date(Date.now() - 3_600_000).toISOString().slice(11, 16);
}

test('kill -9 during an export run: the run is retried to completion and leaves exactly one file', {
  skip: backendsMissing,
  timeout: 300_000,
}, async (t) => {
  const { cluster, redis, operatorKey } = await backends();
  const store = await ObjectStore.start();
  const first = await Instance.start({
    databaseUrl: cluster.url,
    redisUrl: redis.url,
    operatorKey,
    env: LEASE,
  });

  const saved = await api(first.url, 'POST', '/api/user/export/settings', {
    key: operatorKey,
    body: {
      destination: 'aws',
      schedule: 'daily',
      schedule_time: anHourAgo(),
      config: {
        bucket: 'chaos-exports',
        region: 'us-east-1',
        access_key_id: 'AKIACHAOSTEST',
        secret_access_key: 'chaos-secret',
        endpoint: store.url,
        prefix: 'runs',
        format: 'jsonl',
      },
    },
  });
  assert.equal(saved.status, 201, JSON.stringify(saved.data));
  const configId = saved.data.id as number;

  // The store keeps the upload and holds its answer: the instance dies before it hears of success.
  store.delayMs = 600_000;
  const queued = await api(first.url, 'POST', `/api/user/export/configurations/${configId}/run-now`, {
    key: operatorKey,
  });
  assert.equal(queued.status, 202, JSON.stringify(queued.data));
  await eventually(
    'the run uploading',
    () => store.puts.length,
    (n) => n >= 1,
    60_000,
    250,
  );
  const history = async () =>
    (
      await api<{ history: Run[] }>(first.url, 'GET', `/api/user/export/history?config_id=${configId}`, {
        key: operatorKey,
      })
    ).data.history;
  const [running] = await history();
  assert.equal(running?.status, 'running', JSON.stringify(running));
  await first.kill('SIGKILL');
  store.delayMs = 0;
  const restarted = Date.now();
  const second = await first.restart();

  const runs = await eventually(
    'the run completed after the restart',
    async () =>
      (
        await api<{ history: Run[] }>(second.url, 'GET', `/api/user/export/history?config_id=${configId}`, {
          key: operatorKey,
        })
      ).data.history,
    (list) => list.length > 0 && list.every((run) => run.completed_at !== null),
    240_000,
    1000,
  );
  t.diagnostic(
    `run ${runs[0]!.id} ${runs[0]!.status} after ${runs[0]!.attempts} attempts, ` +
      `${Date.now() - restarted} ms after the restart; files: ${[...store.objects.keys()].join(', ')}`,
  );
  assert.equal(runs.length, 1, 'one run');
  const [run] = runs;
  assert.equal(run!.status, 'succeeded', JSON.stringify(run));
  const files = [...store.objects.keys()].filter((key) => key.endsWith(`-${run!.id}.jsonl`));
  assert.deepEqual(files, [new URL(run!.file_url!).pathname.slice(1)], 'exactly one file, the one recorded');
  await second.kill('SIGTERM');
});
