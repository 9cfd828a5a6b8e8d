import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { MIGRATIONS } from '../src/migrations.ts';
import { generateApiKey } from '../src/modules/accounts/index.ts';
import { migrationOrder, openDatabase } from '../src/platform/db/index.ts';
import { TEST_SECRET_KEY } from './helpers/app.ts';
import { createTestDatabase, testRedisPrefix, testRedisUrl, usingPostgres } from './helpers/db.ts';
import { rawRequest } from './platform/raw-upgrade.ts';

const children: ChildProcess[] = [];
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start within 30 s')), 30_000);
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

describe('process lifecycle', () => {
  test('SIGTERM stops the server within 10 s, exit code 0, with usage flushed to the database', async () => {
    const database = await createTestDatabase();
    const key = generateApiKey().key;
    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: TEST_SECRET_KEY,
      BOOTSTRAP_API_KEY: key,
      USAGE_FLUSH_INTERVAL_MS: '600000',
      DATABASE_POOL_SIZE: '3',
      ...(testRedisUrl ? { REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: testRedisPrefix() } : {}),
    };
    const { child, url } = await startServer(env);
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${url}/api/user/profile`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const code = await exited;
    assert.equal(code, 0);
    assert.ok(Date.now() - started < 10_000, 'stopped within 10 s');
    const handle = openDatabase(database.config);
    try {
      const rows = await handle.db.selectFrom('usage_daily').select('request_count').execute();
      assert.equal(
        rows.reduce((sum, r) => sum + r.request_count, 0),
        5,
        'usage was flushed on shutdown',
      );
    } finally {
      await handle.close();
      await database.drop();
    }
  });

  test('an upgrade request to a path without a WebSocket route does not hold up SIGTERM: exit 0 within 10 s', async () => {
    const database = await createTestDatabase();
    try {
      const { child, url } = await startServer({
        DATABASE_URL: database.url,
        DATA_DIR: database.dataDir,
        SECRET_KEY: TEST_SECRET_KEY,
        SOURCES: 'none',
        DATABASE_POOL_SIZE: '3',
        ...(testRedisUrl ? { REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: testRedisPrefix() } : {}),
      });
      // The client keeps its end open: only the server can release the connection.
      const answer = await rawRequest(Number(new URL(url).port), '/ws/nope', { closeWithinMs: 0 });
      assert.equal(answer.status, 404);
      const started = Date.now();
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      const code = await exited;
      answer.socket.destroy();
      assert.equal(code, 0, 'exit code 1 means the 10 s shutdown deadline was hit');
      assert.ok(Date.now() - started < 10_000, 'stopped within 10 s');
    } finally {
      await database.drop();
    }
  });
});

describe('first start', () => {
  test('a fresh data folder shows at least 10 trends within 60 s, from the demo source alone', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crestwatch-fresh-'));
    const { url } = await startServer({
      DATABASE_URL: `sqlite:${path.join(dataDir, 'crestwatch.db')}`,
      DATA_DIR: dataDir,
      SOURCES: 'demo',
      SECRET_KEY: '',
      BOOTSTRAP_API_KEY: '',
      REDIS_URL: '',
    });
    const key = readFileSync(path.join(dataDir, 'bootstrap-key.txt'), 'utf8').trim();
    const started = Date.now();
    let count = 0;
    while (Date.now() - started < 60_000) {
      const res = await fetch(`${url}/api/trends?limit=100`, { headers: { 'x-api-key': key } });
      const body = (await res.json()) as { total: number };
      assert.equal(res.status, 200, JSON.stringify(body));
      count = body.total;
      if (count >= 10) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    assert.ok(count >= 10, `${count} trends after ${Date.now() - started} ms`);
    const sources = await fetch(`${url}/api/intelligence/sources`, { headers: { 'x-api-key': key } });
    const { sources: list } = (await sources.json()) as { sources: { id: string; status: string }[] };
    assert.deepEqual(
      list.map((s) => [s.id, s.status]),
      [['demo', 'healthy']],
    );
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('CLI', () => {
  test('migrate, users create, keys create, list and revoke', async () => {
    const database = await createTestDatabase();
    const env = {
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: TEST_SECRET_KEY,
      DATABASE_POOL_SIZE: '2',
    };
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['bin/crestwatch.mjs', ...args], {
        env,
        encoding: 'utf8',
        timeout: 30_000,
      });
    try {
      // A fresh database: every migration applied, in the order the plan gives.
      const order = migrationOrder(MIGRATIONS, usingPostgres ? 'postgres' : 'sqlite');
      assert.equal(cli('migrate').stdout.trim(), `Applied: ${order.join(', ')}`);
      const user = cli('users', 'create', '--email', 'Cli@Example.com', '--plan', 'scale');
      assert.equal(user.status, 0, user.stderr);
      assert.match(user.stdout, /Created user \d+ <cli@example.com> on the scale plan/);
      const key = cli(
        'keys',
        'create',
        '--email',
        'cli@example.com',
        '--name',
        'deploy',
        '--permissions',
        'read',
      );
      assert.equal(key.status, 0, key.stderr);
      const secret = key.stdout.trim().split('\n').at(-1)!;
      assert.match(secret, /^cw_[0-9A-Za-z]{40}$/);
      const id = /Created key (\d+)/.exec(key.stdout)![1]!;
      const list = cli('keys', 'list', '--email', 'cli@example.com');
      assert.match(list.stdout, new RegExp(`^${id}\\t${secret.slice(0, 11)}\\tdeploy\\tread\\tactive`, 'm'));
      assert.ok(!list.stdout.includes(secret));
      const revoke = cli('keys', 'revoke', '--id', id);
      assert.equal(revoke.status, 0, revoke.stderr);
      const after = cli('keys', 'list', '--email', 'cli@example.com');
      assert.match(after.stdout, /\tinactive\t/, after.stderr);
      const bad = cli('users', 'create', '--email', 'x@example.com', '--plan', 'gold');
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /--plan must be one of/);
    } finally {
      await database.drop();
    }
  });
});
