// SIGTERM while two keep-alive clients each have a request in flight (and a third sits idle), on PostgreSQL +
// Redis: the requests are finished, the process exits 0 within 10 s, and after a restart (Redis's counters
// gone too) the day's usage counts every request that was answered 2xx.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { cleanUp as closeSockets, KeepAliveClient } from '../platform/process.ts';
import { api, backends, backendsMissing, cleanUp, createUser, Instance, sleep } from './harness.ts';

after(() => {
  closeSockets();
  cleanUp();
});

test('SIGTERM with keep-alive clients mid-request: exit 0 within 10 s and every counted request in the usage', {
  skip: backendsMissing,
}, async (t) => {
  const { cluster, redis, operatorKey } = await backends();
  // Nothing is flushed on a timer: what the usage shows after the restart was saved by the shutdown.
  const first = await Instance.start({
    databaseUrl: cluster.url,
    redisUrl: redis.url,
    operatorKey,
    env: { USAGE_FLUSH_INTERVAL_MS: '600000' },
  });
  const user = await createUser(first.url, operatorKey, 'advantage');

  let counted = 0;
  const clients = await Promise.all([
    KeepAliveClient.connect(first.port),
    KeepAliveClient.connect(first.port),
  ]);
  const idle = await KeepAliveClient.connect(first.port);
  assert.equal((await idle.request('GET /status HTTP/1.1\r\nHost: x\r\n\r\n')).status, 200);
  for (const client of clients) {
    for (let i = 0; i < 12; i++) {
      const answer = await client.request(
        `GET /api/user/profile HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.key}\r\n\r\n`,
      );
      assert.equal(answer.status, 200, answer.body);
      counted++;
    }
  }
  // Each client's next request is under way: headers sent (authenticated and counted), body still coming.
  const bodies = clients.map((_, i) => JSON.stringify({ name: `sent during shutdown ${i}` }));
  const inFlight = clients.map((client, i) =>
    client.request(
      `POST /api/user/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${bodies[i]!.length}\r\n\r\n${bodies[i]!.slice(0, 4)}`,
    ),
  );
  await sleep(300);

  const started = Date.now();
  first.child.kill('SIGTERM');
  await sleep(300);
  clients.forEach((client, i) => {
    client.write(bodies[i]!.slice(4));
  });
  const answers = await Promise.all(inFlight);
  for (const answer of answers) {
    assert.equal(answer.status, 201, `the request in flight is finished: ${answer.body}`);
    counted++;
  }
  const { code } = await first.exited;
  const tookMs = Date.now() - started;
  assert.equal(code, 0, `exit code ${code} (1 = the 10 s deadline was hit):\n${first.log()}`);
  assert.ok(tookMs < 10_000, `stopped within 10 s (${tookMs} ms)`);
  for (const answer of answers) assert.equal(answer.headers.connection, 'close', 'told not to reuse it');
  assert.ok(idle.closed && clients.every((c) => c.closed), 'every connection closed by the server');

  // Redis restarted empty as well: the figure read below can then only come from what the shutdown saved.
  await redis.stop();
  await redis.start();
  const second = await first.restart();
  const usage = await api(second.url, 'GET', '/api/user/api-usage', { key: user.key });
  assert.equal(usage.status, 200);
  assert.equal(usage.data.summary.requests_today, counted, 'every 2xx counted request survived the restart');
  t.diagnostic(`exit ${code} ${tookMs} ms after SIGTERM; ${counted} counted requests, all in the usage`);
  await second.kill('SIGTERM');
});
