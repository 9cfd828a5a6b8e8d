// "Nothing is lost": a job enqueued before a kill -9 runs after a restart, whether or not it had been
// claimed. Each instance is a real child process on the same database.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { migrateAppToLatest } from '../../src/migrations.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../../src/platform/db/index.ts';
import { JobQueue } from '../../src/platform/jobs/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixturePath = path.join(root, 'test/fixtures/job-process.ts');
const LEASE_MS = 1000;

interface Child {
  proc: ChildProcess;
  lines: string[];
  stderr: string[];
  /** Resolves with the first stdout line matching `pattern` (or rejects after `timeoutMs`). */
  line(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();
let testDb: TestDatabase;
let handle: DatabaseHandle;

before(async () => {
  testDb = await createTestDatabase();
  handle = openDatabase(testDb.config);
  await migrateAppToLatest(handle);
});

after(async () => {
  for (const proc of children) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  await handle?.close();
  await testDb?.drop();
});

function start(mode: string, env: Record<string, string> = {}): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', fixturePath], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: testDb.url,
      JOB_FIXTURE_MODE: mode,
      JOB_LEASE_MS: String(LEASE_MS),
      JOB_FIXTURE_TIMEOUT_MS: '20000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  const lines: string[] = [];
  const stderr: string[] = [];
  const listeners = new Set<() => void>();
  createInterface({ input: proc.stdout! }).on('line', (l) => {
    lines.push(l);
    for (const fn of listeners) fn();
  });
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.on('exit', (code, signal) => {
      resolve({ code, signal });
      for (const fn of listeners) fn();
    });
  });
  const describe = () => `stdout: ${JSON.stringify(lines)} stderr: ${stderr.slice(-20).join('\n')}`;

  return {
    proc,
    lines,
    stderr,
    line(pattern, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          for (const l of lines) {
            const m = l.match(pattern);
            if (m) return finish(() => resolve(m));
          }
          if (proc.exitCode !== null || proc.signalCode !== null) {
            finish(() => reject(new Error(`child exited before printing ${pattern}; ${describe()}`)));
          }
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`timed out waiting for ${pattern}; ${describe()}`))),
          timeoutMs,
        );
        const finish = (fn: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          fn();
        };
        listeners.add(check);
        check();
      });
    },
    async exited(timeoutMs = 15_000) {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          exit,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`child did not exit; ${describe()}`)), timeoutMs);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

async function kill9(child: Child): Promise<void> {
  child.proc.kill('SIGKILL');
  const { signal } = await child.exited(5000);
  assert.equal(signal, 'SIGKILL');
}

test('a job enqueued but never claimed before kill -9 runs after restart', async () => {
  const first = start('enqueue-only');
  const id = Number((await first.line(/^ENQUEUED (\d+)$/))[1]);
  await kill9(first);

  const queue = new JobQueue({ db: handle.db, dialect: handle.dialect, clock: systemClock });
  assert.equal((await queue.get(id))?.status, 'queued', 'the enqueue was durable');

  const second = start('work', { JOB_EXPECT_ID: String(id) });
  await second.line(new RegExp(`^SUCCEEDED ${id}$`));
  assert.equal((await second.exited()).code, 0);
  assert.deepEqual(
    second.lines.filter((l) => l.startsWith('RAN ')),
    [`RAN ${id} 1 before crash`],
  );
  const job = await queue.get(id);
  assert.equal(job?.status, 'succeeded');
  assert.equal(job?.attempts, 1);
});

test('a job leased by a worker killed with -9 is reclaimed after the lease and runs after restart', async () => {
  const first = start('enqueue-and-hang');
  const id = Number((await first.line(/^ENQUEUED (\d+)$/))[1]);
  await first.line(new RegExp(`^CLAIMED ${id} 1$`));
  await kill9(first);

  const queue = new JobQueue({ db: handle.db, dialect: handle.dialect, clock: systemClock });
  const leased = await queue.get(id);
  assert.equal(leased?.status, 'running', 'the crash left the job leased');
  assert.ok(leased?.lockedBy, 'held by the killed instance');

  const second = start('work', { JOB_EXPECT_ID: String(id) });
  await second.line(new RegExp(`^SUCCEEDED ${id}$`));
  assert.equal((await second.exited()).code, 0);
  assert.deepEqual(
    second.lines.filter((l) => l.startsWith('RAN ')),
    [`RAN ${id} 2 before crash`],
    'run exactly once after the restart, as the second attempt',
  );
  const job = await queue.get(id);
  assert.equal(job?.status, 'succeeded');
  assert.equal(job?.attempts, 2);
  assert.notEqual(job?.lockedBy, leased?.lockedBy, 'completed by the new instance');
  assert.ok(job!.finishedAt! > leased!.lockedUntil!, 'reclaimed only once the old lease had expired');
});
