// Redis stopped and started again empty under two running instances: the day's quota carries on from where it
// was (the lost counter is not reset, and counts one instance had not flushed yet are not lost), and a key
// revoked before the outage is still refused after it, on either instance.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  api,
  backends,
  backendsMissing,
  cleanUp,
  createUser,
  eventually,
  Instance,
  sleep,
} from './harness.ts';

after(cleanUp);

const DEVELOPER_QUOTA = 100;

test('Redis restarted empty: the daily quota is not reset and a revoked key stays refused', {
  skip: backendsMissing,
}, async (t) => {
  const { cluster, redis, operatorKey } = await backends();
  // Usage reaches the database only when asked: the counts of each instance live in its memory and in Redis.
  const options = {
    databaseUrl: cluster.url,
    redisUrl: redis.url,
    operatorKey,
    env: { USAGE_FLUSH_INTERVAL_MS: '600000' },
  };
  const a = await Instance.start(options);
  const b = await Instance.start(options);
  const user = await createUser(a.url, operatorKey, 'developer');
  const spare = await api(a.url, 'POST', `/api/admin/users/${user.userId}/api-keys`, {
    key: operatorKey,
    body: { name: 'to revoke' },
  });
  assert.equal(spare.status, 201);
  const revokedKey = spare.data.api_key as string;
  const refusedEverywhere = async () => {
    for (const instance of [a, b]) {
      const res = await api(instance.url, 'GET', '/api/user/profile', { key: revokedKey, timeoutMs: 10_000 });
      assert.equal(res.status, 401, `the revoked key on port ${instance.port}: ${JSON.stringify(res.data)}`);
    }
  };

  let counted = 0;
  // Used on B first, so B has it cached when A revokes it.
  assert.equal((await api(b.url, 'GET', '/api/user/profile', { key: revokedKey })).status, 200);
  counted++;
  const revoke = await api(a.url, 'DELETE', `/api/user/api-keys/${spare.data.id}`, { key: user.key });
  assert.ok(revoke.status >= 200 && revoke.status < 300, `revoking: ${revoke.status}`);
  counted++;
  for (let i = 0; i < 40; i++) {
    const res = await api(i % 2 === 0 ? a.url : b.url, 'GET', '/api/user/profile', { key: user.key });
    assert.equal(res.status, 200, JSON.stringify(res.data));
    counted++;
  }
  await refusedEverywhere();
  const usage = () => api(a.url, 'GET', '/api/user/api-usage', { key: user.key, timeoutMs: 10_000 });
  assert.equal((await usage()).data.summary.requests_today, counted);

  await redis.stop();
  const outage = await eventually(
    'limited routes refused while Redis is down',
    () => api(a.url, 'GET', '/api/user/profile', { key: user.key, timeoutMs: 10_000 }),
    (res) => res.status !== 200,
    15_000,
  );
  assert.equal(outage.status, 503, JSON.stringify(outage.data));
  assert.ok(Number(outage.headers.get('retry-after')) >= 1, 'Retry-After');
  await sleep(2000);
  await redis.start();
  const back = Date.now();

  // Clients carry on through both instances: the first requests after the outage meet a counter Redis no
  // longer has, and half of what it held was counted by the other instance.
  let turn = 0;
  const profile = () =>
    api(turn++ % 2 === 0 ? a.url : b.url, 'GET', '/api/user/profile', { key: user.key, timeoutMs: 10_000 });
  const first = await eventually('served again', profile, (res) => res.status !== 503, 30_000, 200);
  t.diagnostic(`served again ${Date.now() - back} ms after Redis was back`);
  let served = 0;
  let refused = first.status === 200 ? undefined : first;
  if (!refused) served++;
  while (!refused && served <= DEVELOPER_QUOTA) {
    const res = await profile();
    if (res.status === 200) served++;
    else refused = res;
  }
  t.diagnostic(`${counted} requests before the outage, ${served} after it, then ${refused?.status}`);
  assert.equal(served, DEVELOPER_QUOTA - counted, 'only what was left of the quota is served');
  assert.equal(refused?.status, 429, JSON.stringify(refused?.data));
  assert.equal(refused?.data.code, 'quota_exceeded');
  assert.equal((await usage()).data.summary.requests_today, DEVELOPER_QUOTA);
  await refusedEverywhere();
  await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
});
