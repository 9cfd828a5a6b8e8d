// PostgreSQL restarted under load: while the database is away authenticated requests answer 503 with
// Retry-After at once (no other 5xx, no hang), and when it is back everything answers 200 again by itself.
// One client ingests meanwhile, so the trend engine's transactions are under way when connections are cut:
// every acknowledged batch is stored whole and counted once the database is back.
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

interface Outcome {
  at: number;
  status: number | 'error';
  retryAfter: string | null;
  ms: number;
  error?: string;
}

const INGEST_BATCH = 50;

const ROUTES = [
  '/api/user/profile',
  '/api/trends?limit=5',
  '/api/user/api-keys',
  '/api/integrations/webhooks',
];

test('PostgreSQL restarted under load: 503 with Retry-After while it is down, 200 again by itself once it is back', {
  skip: backendsMissing,
}, async (t) => {
  const { cluster, redis, operatorKey } = await backends();
  const instance = await Instance.start({ databaseUrl: cluster.url, redisUrl: redis.url, operatorKey });
  const users = await Promise.all(
    [0, 1, 2, 3].map(() => createUser(instance.url, operatorKey, 'enterprise')),
  );

  const outcomes: Outcome[] = [];
  const stop = { now: false };
  // Four clients, each its own user (so key caches expire at different moments) and its own routes.
  const loops = users.map(async (user, c) => {
    for (let i = 0; !stop.now; i++) {
      const at = Date.now();
      try {
        const res = await api(instance.url, 'GET', ROUTES[(c + i) % ROUTES.length]!, {
          key: user.key,
          timeoutMs: 15_000,
        });
        outcomes.push({ at, status: res.status, retryAfter: res.headers.get('retry-after'), ms: res.ms });
      } catch (error) {
        outcomes.push({ at, status: 'error', retryAfter: null, ms: Date.now() - at, error: String(error) });
      }
      await sleep(20);
    }
  });

  // The ingesting client: a batch every 50 ms; 202 is its success, 503 with Retry-After its outage answer.
  const acknowledged: string[] = [];
  const ingest = (async () => {
    for (let i = 0; !stop.now; i++) {
      const at = Date.now();
      const marker = `b${i}`;
      try {
        const res = await api(instance.url, 'POST', '/api/signals', {
          key: operatorKey,
          timeoutMs: 15_000,
          body: {
            signals: Array.from({ length: INGEST_BATCH }, (_, n) => ({
              source: 'news',
              external_id: `pgr-${marker}-${n}`,
              text: `Harbour ferries delayed by fog in ${marker}, report ${n}`,
            })),
          },
        });
        if (res.status === 202) acknowledged.push(marker);
        outcomes.push({
          at,
          status: res.status === 202 ? 200 : res.status,
          retryAfter: res.headers.get('retry-after'),
          ms: res.ms,
        });
      } catch (error) {
        outcomes.push({ at, status: 'error', retryAfter: null, ms: Date.now() - at, error: String(error) });
      }
      await sleep(50);
    }
  })();

  await sleep(3000);
  const down = Date.now();
  await cluster.stop('fast');
  // Past the key cache's 5 s: authentication itself needs the database now.
  await sleep(8000);
  await cluster.start();
  const up = Date.now();
  // Recovered: the last 3 s of answers are all 200.
  let recoveredAt = 0;
  while (Date.now() - up < 30_000) {
    await sleep(500);
    const recent = outcomes.filter((o) => o.at > Date.now() - 3000);
    if (recent.length > 10 && recent.every((o) => o.status === 200)) {
      recoveredAt = Math.min(...recent.map((o) => o.at));
      break;
    }
  }
  stop.now = true;
  await Promise.all([...loops, ingest]);

  const during = outcomes.filter((o) => o.at >= down && o.at < up);
  const count = (list: Outcome[], status: Outcome['status']) =>
    list.filter((o) => o.status === status).length;
  t.diagnostic(
    `${outcomes.length} requests; during the ${up - down} ms outage ${during.length}: ${count(during, 200)} × 200 ` +
      `(key cache and pooled reads before the stop), ${count(during, 503)} × 503; slowest answer during ` +
      `it ${Math.round(Math.max(0, ...during.map((o) => o.ms)))} ms; all 200 again ` +
      `${recoveredAt ? recoveredAt - up : 'never'} ms after the start`,
  );
  const wrong = outcomes.filter(
    (o) => o.status !== 200 && (o.status !== 503 || !(Number(o.retryAfter) >= 1)),
  );
  assert.deepEqual(
    wrong.slice(0, 10).map((o) => `${o.at - down} ms: ${o.status} ${o.error ?? ''}`),
    [],
    `answers other than 200 or 503 with Retry-After; the errors logged:\n${instance.unhandled()}` +
      (instance.running ? '' : `\nthe instance exited:\n${instance.log()}`),
  );
  assert.ok(count(during, 503) > 0, 'the outage was seen: requests answered 503');
  const slow = during.filter((o) => o.ms > 6000);
  assert.deepEqual(
    slow.map((o) => `${o.at - down} ms: ${o.status} after ${Math.round(o.ms)} ms`),
    [],
    'requests left hanging during the outage',
  );
  assert.ok(recoveredAt > 0, 'everything answers 200 again by itself');
  assert.ok(recoveredAt - up < 15_000, `recovered ${recoveredAt - up} ms after PostgreSQL was back`);
  assert.ok(instance.running, `the instance is still running:\n${instance.log()}`);

  // Nothing acknowledged is lost, nothing is stored in part, and the engine counts everything once it is back.
  const stored = new Map(
    (
      await cluster.query<{ marker: string; n: string }>(
        `select split_part(external_id, '-', 2) as marker, count(*) as n
           from signals where external_id like 'pgr-%' group by 1`,
      )
    ).map((r) => [r.marker, Number(r.n)]),
  );
  assert.deepEqual(
    [...stored].filter(([, n]) => n !== INGEST_BATCH),
    [],
    'batches stored in part',
  );
  assert.deepEqual(
    acknowledged.filter((marker) => stored.get(marker) !== INGEST_BATCH),
    [],
    'acknowledged batches not stored whole',
  );
  assert.ok(acknowledged.length > 0, 'batches were acknowledged');
  const pending = await eventually(
    'every stored signal counted by the trend engine',
    async () =>
      Number(
        (
          await cluster.query<{ n: string }>(
            `select count(*) as n from signals s join signal_queue q on q.id = s.id where s.external_id like 'pgr-%'`,
          )
        )[0]!.n,
      ),
    (n) => n === 0,
    30_000,
    250,
  );
  t.diagnostic(
    `${acknowledged.length} ingest batches acknowledged, ${stored.size} stored, all whole; ${pending} pending at the end`,
  );
  await instance.kill('SIGTERM');
});
