// `crestwatch backup <file>`: a consistent copy of the embedded SQLite database taken while the service has it
// open, readable by its owner only, checked, with progress; an existing file is never overwritten; PostgreSQL
// deployments are told to use pg_dump.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { build, call, createUser, TEST_SECRET_KEY } from '../helpers/app.ts';
import { usingPostgres } from '../helpers/db.ts';

/** Runs the CLI without blocking this process (the app under test keeps serving meanwhile). */
function cli(env: Record<string, string>, ...args: string[]) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['bin/crestwatch.mjs', ...args], {
      env: { ...process.env, SOURCES: 'none', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('backs up the live SQLite database to a private, checked copy', {
  skip: usingPostgres && 'SQLite only',
}, async (t) => {
  const ctx = await build(t);
  const feeder = await createUser(ctx, 'enterprise', ['ingest']);
  const signals = Array.from({ length: 300 }, (_, i) => ({
    source: 'reddit',
    external_id: `b-${i}`,
    text: `Acme ships a new phone, part ${i} ${'of a long story '.repeat(20)}`,
  }));
  assert.equal(
    (await call(ctx.app, 'POST', '/api/signals', { key: feeder.key, body: { signals } })).statusCode,
    202,
  );

  const env = { DATABASE_URL: ctx.database.url, DATA_DIR: ctx.database.dataDir, SECRET_KEY: TEST_SECRET_KEY };
  const target = path.join(ctx.database.dataDir, 'copy.db');
  // The service keeps writing while the copy is taken.
  const writing = call(ctx.app, 'POST', '/api/signals', {
    key: feeder.key,
    body: { signals: [{ source: 'reddit', external_id: 'during', text: 'written during the backup' }] },
  });
  const run = await cli(env, 'backup', target);
  assert.equal((await writing).statusCode, 202);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /Backed up .* to .*copy\.db \(\d+\.\d MiB, \d+ pages, integrity ok\)/);
  assert.match(run.stderr, /backup/, 'progress is shown on stderr');
  assert.equal(fs.statSync(target).mode & 0o777, 0o600);

  const copy = new SQLite(target, { readonly: true });
  t.after(() => copy.close());
  const rows = copy.prepare("select count(*) as n from signals where external_id like 'b-%'").get() as {
    n: number;
  };
  assert.equal(rows.n, 300);
  const users = copy.prepare('select count(*) as n from users').get() as { n: number };
  assert.ok(users.n >= 2);

  // Never overwrites: the copy stays as it was.
  const before = fs.readFileSync(target);
  const again = await cli(env, 'backup', target);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /already exists/);
  assert.ok(fs.readFileSync(target).equals(before));

  const usage = await cli(env, 'backup');
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /backup needs one argument/);
});

test('on PostgreSQL it points to pg_dump and writes nothing', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-backup-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const target = path.join(dir, 'copy.db');
  const run = await cli(
    {
      DATABASE_URL: 'postgres://crestwatch@127.0.0.1:1/crestwatch',
      SECRET_KEY: TEST_SECRET_KEY,
      DATA_DIR: dir,
    },
    'backup',
    target,
  );
  assert.equal(run.status, 1);
  assert.match(run.stderr, /on PostgreSQL use pg_dump/);
  assert.equal(fs.existsSync(target), false);
});
