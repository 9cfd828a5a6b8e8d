// Redis stopped and started again (empty) under a running app: /status keeps answering, limited routes refuse
// with 503 + Retry-After (fail closed, never a hang), and everything recovers by itself, the quota included.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { describe, test } from 'node:test';
import { buildTestApp, call, createUser, type TestContext } from '../helpers/app.ts';
import { testRedisPrefix } from '../helpers/db.ts';

const installed = !spawnSync('redis-server', ['--version']).error;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A throw-away Redis without persistence: stopping it loses everything, as a crashed cache does. */
function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start within 10 s')), 10_000);
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

async function eventually<T>(
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  withinMs: number,
): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('Redis outage', { skip: !installed && 'redis-server is not installed' }, () => {
  test('degraded, not dark: /status answers, limited routes answer 503 with Retry-After, all recovers', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    let ctx: TestContext | undefined;
    try {
      ctx = await buildTestApp({
        env: {
          REDIS_URL: `redis://127.0.0.1:${port}`,
          REDIS_KEY_PREFIX: testRedisPrefix(),
          PLANS: JSON.stringify({
            developer: { daily_quota: 5, burst_per_second: 1000 },
            enterprise: { burst_per_second: 100_000 },
          }),
        },
      });
      const { app } = ctx;
      const user = await createUser(ctx, 'developer');
      for (let i = 0; i < 3; i++) {
        assert.equal((await call(app, 'GET', '/api/user/profile', { key: user.key })).statusCode, 200);
      }
      await stop(redis);
      const status = await eventually(
        () => call(app, 'GET', '/status'),
        (res) => res.data.components?.find((c: { name: string }) => c.name === 'redis')?.status === 'outage',
        5000,
      );
      assert.equal(status.statusCode, 200);
      assert.equal(status.data.overall_status, 'degraded');
      const component = status.data.components.find((c: { name: string }) => c.name === 'redis');
      assert.equal(component.status, 'outage');
      assert.equal(
        status.data.components.find((c: { name: string }) => c.name === 'database').status,
        'operational',
      );
      assert.equal((await call(app, 'GET', '/metrics')).statusCode, 200, 'metrics stay scrapeable');

      for (const [url, key] of [
        ['/api/user/profile', user.key],
        ['/api/plans', undefined],
        ['/api/user/profile', 'cw_0000000000000000000000000000000000000000'],
      ] as const) {
        const started = Date.now();
        const res = await call(app, 'GET', url, key ? { key } : {});
        assert.equal(res.statusCode, 503, `${url}: ${res.body}`);
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
        assert.ok(Number(res.headers['retry-after']) >= 1, 'Retry-After');
        assert.ok(Date.now() - started < 3000, 'answered at once, not after a hang');
      }

      // Back, empty: nothing to restart by hand.
      redis = await startRedis(port);
      const recovered = await eventually(
        () => call(app, 'GET', '/api/user/profile', { key: user.key }),
        (res) => res.statusCode !== 503,
        10_000,
      );
      assert.equal(recovered.statusCode, 200);
      // The lost quota counter was seeded from the database: 3 + this one + one more, then refused.
      assert.equal((await call(app, 'GET', '/api/user/profile', { key: user.key })).statusCode, 200);
      assert.equal((await call(app, 'GET', '/api/user/profile', { key: user.key })).statusCode, 429);
      assert.equal((await call(app, 'GET', '/api/plans')).statusCode, 200);
      const healthy = await eventually(
        () => call(app, 'GET', '/status'),
        (res) => res.data.overall_status === 'operational',
        5000,
      );
      assert.equal(healthy.data.overall_status, 'operational');
    } finally {
      await ctx?.close();
      await stop(redis);
    }
  });
});
