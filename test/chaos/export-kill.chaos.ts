// kill -9 of an instance in the middle of a scheduled export: after a restart the run is retried to completion
// (never left `running`), and the run leaves one file at its destination, not one per attempt.
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

/** The next whole UTC minute at least 15 s away, as `HH:MM`. */
function nextMinute(): string {
  const at = new Date(Math.ceil((Date.now() + 15_000) / 60_000) * 60_000);
  return at.toISOString().slice(11, 16);
}

test('kill -9 during a scheduled export: the run is retried to completion and leaves exactly one file', {
  skip: backendsMissing,
  // Up to two minutes until the schedule's minute comes round, one job lease (60 s) until the retry.
  timeout: 480_000,
}, async (t) => {
  const { cluster, redis, operatorKey } = await backends();
  const store = await ObjectStore.start();
  const first = await Instance.start({ databaseUrl: cluster.url, redisUrl: redis.url, operatorKey });

  const saved = await api(first.url, 'POST', '/api/user/export/settings', {
    key: operatorKey,
    body: {
      destination: 'aws',
      schedule: 'daily',
      schedule_time: nextMinute(),
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
  await eventually(
    'the scheduled run uploading',
    () => store.puts.length,
    (n) => n >= 1,
    200_000,
    500,
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
  assert.equal(runs.length, 1, 'one scheduled run');
  const [run] = runs;
  assert.equal(run!.status, 'succeeded', JSON.stringify(run));
  const files = [...store.objects.keys()].filter((key) => key.endsWith(`-${run!.id}.jsonl`));
  assert.deepEqual(files, [new URL(run!.file_url!).pathname.slice(1)], 'exactly one file, the one recorded');
  await second.kill('SIGTERM');
});
