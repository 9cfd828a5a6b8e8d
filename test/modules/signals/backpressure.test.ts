// Back-pressure on ingestion: while the trend engine is behind by INGEST_MAX_PENDING signals, a batch is refused
// whole with 503 `ingest_backlog` and Retry-After, and accepted again once the backlog is worked off.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignalsStore } from '../../../src/modules/signals/index.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { assertProblem, build, call, createUser } from '../../helpers/app.ts';

const batch = (from: number, n: number) => ({
  signals: Array.from({ length: n }, (_, i) => ({
    source: 'reddit',
    external_id: `bp-${from + i}`,
    text: `Acme ships a new phone (${from + i})`,
  })),
});

test('a batch is refused with 503 while the backlog is at INGEST_MAX_PENDING, and accepted once it drains', async (t) => {
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  const ctx = await build(t, { clock, env: { INGEST_MAX_PENDING: '5' } });
  const key = (await createUser(ctx, 'enterprise', ['ingest'])).key;
  const stored = async () =>
    Number(
      (
        await ctx.app.services.db
          .selectFrom('signals')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  // Under the limit, batches are stored; one that takes the backlog past it is still stored whole.
  assert.equal((await call(ctx.app, 'POST', '/api/signals', { key, body: batch(0, 3) })).statusCode, 202);
  assert.equal((await call(ctx.app, 'POST', '/api/signals', { key, body: batch(3, 4) })).statusCode, 202);
  // 7 pending ≥ 5: refused, whatever it holds, within the same second (counted in process) and after it.
  const refused = await call(ctx.app, 'POST', '/api/signals', { key, body: batch(7, 1) });
  assertProblem(refused, 503);
  assert.equal(refused.data.code, 'ingest_backlog');
  assert.equal(refused.headers['retry-after'], '5');
  assert.match(
    refused.data.detail,
    /at least 5 signals are waiting to be processed \(INGEST_MAX_PENDING\); nothing from this batch was stored/,
  );
  clock.advance(1000);
  const retry = { key, body: batch(7, 1), headers: { 'idempotency-key': 'bp-retry-1' } };
  const again = await call(ctx.app, 'POST', '/api/signals', retry);
  assertProblem(again, 503);
  assert.equal(again.data.code, 'ingest_backlog');
  assert.equal(await stored(), 7, 'nothing of a refused batch is stored');
  // The count reads at most the limit's worth of index entries, however large the backlog.
  const store = new SignalsStore(ctx.app.services.db);
  assert.equal(await store.countPending(), 7);
  assert.equal(await store.countPending(5), 5);
  // Polling sources (and the CLI) store through the service directly and pace themselves: never refused.
  const polled = await ctx.app.services.signals.ingest(batch(100, 1).signals);
  assert.equal(polled.accepted, 1);

  // The engine works the backlog off; a second later the count is read again and batches are accepted.
  await ctx.app.services.engine.tick();
  clock.advance(1000);
  // The same retry, with the same Idempotency-Key: a 503 is never kept as the key's answer.
  const accepted = await call(ctx.app, 'POST', '/api/signals', retry);
  assert.equal(accepted.statusCode, 202);
  assert.deepEqual(accepted.data, { accepted: 1, duplicates: 0, rejected: [] });
  assert.equal(await stored(), 9);
});

test('INGEST_MAX_PENDING=0 sets no limit', async (t) => {
  const ctx = await build(t, { env: { INGEST_MAX_PENDING: '0' } });
  const key = (await createUser(ctx, 'enterprise', ['ingest'])).key;
  for (let i = 0; i < 3; i++) {
    assert.equal(
      (await call(ctx.app, 'POST', '/api/signals', { key, body: batch(i * 2, 2) })).statusCode,
      202,
    );
  }
});
