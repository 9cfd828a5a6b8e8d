// SIGTERM and kill -9 of the real process (src/main.ts) with keep-alive clients: no count is lost.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { generateApiKey } from '../../src/modules/accounts/index.ts';
import { openDatabase } from '../../src/platform/db/index.ts';
import { TEST_SECRET_KEY } from '../helpers/app.ts';
import { createTestDatabase, testRedisPrefix, testRedisUrl } from '../helpers/db.ts';
import { cleanUp, KeepAliveClient, startServer } from './process.ts';

after(cleanUp);

describe('shutdown keeps every count', () => {
  test('SIGTERM with a keep-alive client mid-request: exit 0 within 10 s, idle connections closed, usage intact', async () => {
    const database = await createTestDatabase();
    const key = generateApiKey().key;
    const { child, url } = await startServer({
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: TEST_SECRET_KEY,
      BOOTSTRAP_API_KEY: key,
      SOURCES: 'none',
      USAGE_FLUSH_INTERVAL_MS: '600000',
      DATABASE_POOL_SIZE: '3',
      ...(testRedisUrl ? { REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: testRedisPrefix() } : {}),
    });
    const port = Number(new URL(url).port);
    try {
      // A: 25 counted requests on one keep-alive connection, then a POST whose body has not arrived yet.
      const busy = await KeepAliveClient.connect(port);
      for (let i = 0; i < 25; i++) {
        const answer = await busy.request(
          `GET /api/user/profile HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`,
        );
        assert.equal(answer.status, 200);
      }
      const body = JSON.stringify({ name: 'during shutdown' });
      const inFlight = busy.request(
        `POST /api/user/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
      );
      // B: idle keep-alive connection that never sends anything more.
      const idle = await KeepAliveClient.connect(port);
      assert.equal((await idle.request('GET /status HTTP/1.1\r\nHost: x\r\n\r\n')).status, 200);
      // C: a keep-alive connection whose next request is half sent when the signal arrives.
      const late = await KeepAliveClient.connect(port);
      assert.equal((await late.request('GET /status HTTP/1.1\r\nHost: x\r\n\r\n')).status, 200);
      const lateAnswer = late.request(`GET /api/user/profile HTTP/1.1\r\nHost: x\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 200));

      const started = Date.now();
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      late.write(`Authorization: Bearer ${key}\r\n\r\n`);
      busy.write(body.slice(5));
      const finished = await inFlight;
      assert.equal(finished.status, 201, 'the request in flight is finished');
      assert.equal(finished.headers.connection, 'close');
      const refused = await lateAnswer;
      assert.equal(refused.status, 503, 'a new request on an open connection is refused');
      assert.equal(refused.headers.connection, 'close');
      assert.ok(Number(refused.headers['retry-after']) > 0);
      const code = await exited;
      assert.equal(code, 0, 'exit code 1 means the 10 s shutdown deadline was hit');
      assert.ok(Date.now() - started < 10_000, 'stopped within 10 s');
      assert.ok(idle.closed && busy.closed && late.closed, 'the server closed every connection');
      const handle = openDatabase(database.config);
      try {
        const rows = await handle.db.selectFrom('usage_daily').select('request_count').execute();
        const counted = rows.reduce((sum, r) => sum + r.request_count, 0);
        assert.equal(counted, 26, 'the 25 requests and the one in flight were flushed on shutdown');
      } finally {
        await handle.close();
      }
    } finally {
      await database.drop();
    }
  });

  test('a request that never finishes: past the deadline the process still flushes usage, then exits 1 within 10 s', async () => {
    const database = await createTestDatabase();
    const key = generateApiKey().key;
    const { child, url } = await startServer({
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: TEST_SECRET_KEY,
      BOOTSTRAP_API_KEY: key,
      SOURCES: 'none',
      USAGE_FLUSH_INTERVAL_MS: '600000',
      DATABASE_POOL_SIZE: '3',
      ...(testRedisUrl ? { REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: testRedisPrefix() } : {}),
    });
    try {
      const client = await KeepAliveClient.connect(Number(new URL(url).port));
      for (let i = 0; i < 5; i++) {
        const answer = await client.request(
          `GET /api/user/profile HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`,
        );
        assert.equal(answer.status, 200);
      }
      // Counted when authenticated; its body never comes.
      client.write(
        `POST /api/user/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      const code = await exited;
      assert.equal(code, 1, 'the deadline was hit');
      assert.ok(Date.now() - started < 10_000, `stopped within 10 s (${Date.now() - started} ms)`);
      const handle = openDatabase(database.config);
      try {
        const rows = await handle.db.selectFrom('usage_daily').select('request_count').execute();
        assert.equal(
          rows.reduce((sum, r) => sum + r.request_count, 0),
          6,
        );
      } finally {
        await handle.close();
      }
    } finally {
      await database.drop();
    }
  });

  test('embedded mode: kill -9 loses at most one USAGE_FLUSH_INTERVAL_MS of usage', async () => {
    const database = await createTestDatabase();
    const key = generateApiKey().key;
    const { child, url } = await startServer({
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: TEST_SECRET_KEY,
      BOOTSTRAP_API_KEY: key,
      SOURCES: 'none',
      USAGE_FLUSH_INTERVAL_MS: '200',
      DATABASE_POOL_SIZE: '3',
      ...(testRedisUrl ? { REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: testRedisPrefix() } : {}),
    });
    try {
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`${url}/api/user/profile`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(res.status, 200);
        await res.arrayBuffer();
      }
      // Past one flush interval (with room for a busy machine), nothing is left only in memory.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const handle = openDatabase(database.config);
      try {
        const rows = await handle.db.selectFrom('usage_daily').select('request_count').execute();
        assert.equal(
          rows.reduce((sum, r) => sum + r.request_count, 0),
          10,
        );
      } finally {
        await handle.close();
      }
    } finally {
      await database.drop();
    }
  });
});
