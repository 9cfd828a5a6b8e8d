// "Nothing pending is lost": a delivery waiting for its retry when the process is killed with -9, and an
// event recorded while no process runs, are both delivered after a restart.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';
import { startReceiver, waitFor } from './receiver.ts';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/app-process.ts');
const children = new Set<ChildProcess>();
let database: TestDatabase | undefined;
let setup: TestContext | undefined;

after(async () => {
  for (const proc of children) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  await setup?.close();
  await database?.drop();
});

function start(db: TestDatabase): { proc: ChildProcess; ready: Promise<void> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, DATABASE_URL: db.url, DATA_DIR: db.dataDir, FIXTURE_TIMEOUT_MS: '40000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      if (l === 'READY') resolve();
    });
    proc.on('exit', () => reject(new Error(`child exited early: ${stderr.slice(-20).join('\n')}`)));
  });
  return { proc, ready };
}

async function kill9(proc: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

test('a delivery pending when the process is killed with -9 is delivered after restart', async () => {
  database = await createTestDatabase();
  // The test's own instance never runs jobs (background off): it only sets up and inspects.
  setup = await buildTestApp({ database, env: { OUTBOUND_ALLOWLIST: '127.0.0.0/8' } });
  const services = setup.app.services;
  const user = await createUser(setup, 'enterprise');
  const receiver = await startReceiver();
  try {
    const sub = await call(setup.app, 'POST', '/api/integrations/webhooks', {
      key: user.key,
      body: {
        url: receiver.url,
        trigger_type: 'trend_velocity',
        delivery_mode: 'instant_stream',
        threshold_value: 50,
        cooldown_seconds: 0,
      },
    });
    assert.equal(sub.statusCode, 201, sub.body);
    const record = (trendId: number) =>
      services.events.record(services.db, {
        id: `trend.velocity.crossed:${trendId}:50:${Date.now()}`,
        type: 'trend.velocity.crossed',
        occurred_at: Date.now(),
        data: {
          trend_id: trendId,
          trend_name: `Trend ${trendId}`,
          category: 'Other',
          velocity: 60,
          volume: 40,
          from_velocity: 10,
        },
      });

    const first = start(database);
    await first.ready;
    receiver.script.push(503);
    await record(1);
    await waitFor('the first attempt', () => receiver.received[0], 10_000);
    const retry = await waitFor(
      'the retry scheduled',
      async () =>
        services.db
          .selectFrom('webhook_executions')
          .selectAll()
          .where('status', '=', 'pending')
          .where('attempt', '=', 2)
          .executeTakeFirst(),
      10_000,
    );
    await kill9(first.proc);

    // Recorded while no instance runs.
    await record(2);
    const second = start(database);
    await second.ready;
    await waitFor(
      'both deliveries after the restart',
      () => receiver.received.length >= 3 || undefined,
      20_000,
    );
    const byTrend = new Map<number, string[]>();
    for (const r of receiver.received) {
      const body = new Webhook(sub.data.secret).verify(r.body, r.headers as Record<string, string>) as {
        trend_id: number;
      };
      byTrend.set(body.trend_id, [...(byTrend.get(body.trend_id) ?? []), r.headers['webhook-id'] as string]);
    }
    assert.equal(byTrend.get(1)?.length, 2, 'the retry of trend 1 was sent by the new instance');
    assert.equal(new Set(byTrend.get(1)).size, 1, 'with the same webhook-id');
    assert.equal(byTrend.get(2)?.length, 1, 'the event recorded while down was delivered');
    const done = await waitFor('the retry recorded', async () => {
      const row = await services.db
        .selectFrom('webhook_executions')
        .selectAll()
        .where('id', '=', retry.id)
        .executeTakeFirstOrThrow();
      return row.status === 'succeeded' ? row : undefined;
    });
    assert.equal(done.response_status, 200);
    await kill9(second.proc);
  } finally {
    await receiver.close();
  }
});
