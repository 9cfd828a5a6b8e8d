import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../../src/database.ts';
import { migrateAppTo, migrateAppToLatest } from '../../../src/migrations.ts';
import { SignalsStore } from '../../../src/modules/signals/store.ts';
import { openDatabase } from '../../../src/platform/db/index.ts';
import { createTestDatabase } from '../../helpers/db.ts';

const row = (id: string) => ({
  source: 'x',
  external_id: id,
  text: `signal ${id}`,
  observed_at: 1_700_000_000_000,
  received_at: 1_700_000_000_000,
});

async function openMigrated(t: { after: (f: () => unknown) => void }, upTo?: string) {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const handle = openDatabase<Database>(database.config);
  t.after(() => handle.db.destroy());
  if (upTo === undefined) await migrateAppToLatest(handle);
  else await migrateAppTo(handle, upTo);
  return handle;
}

test('stored signals are queued; a claim takes them off the queue once, and the signal rows are not rewritten', async (t) => {
  const handle = await openMigrated(t);
  const store = new SignalsStore(handle.db);
  assert.equal(await store.insertNew([row('a'), row('b'), row('c')]), 3);
  // A copy already stored is neither inserted nor queued again.
  assert.equal(await store.insertNew([row('b'), row('d')]), 1);
  const pending = await store.unprocessed(10);
  assert.deepEqual(
    pending.map((s) => s.text),
    ['signal a', 'signal b', 'signal c', 'signal d'],
  );
  assert.equal(await store.countPending(), 4);
  const [a, b] = pending;
  const claimed = await handle.db.transaction().execute((trx) => store.claimProcessed([a!.id, b!.id], trx));
  assert.deepEqual([...claimed].sort(), [a!.id, b!.id].sort());
  // A second claimer of the same ids (another instance, later) gets none of them.
  const again = await handle.db.transaction().execute((trx) => store.claimProcessed([a!.id, b!.id], trx));
  assert.equal(again.size, 0);
  assert.deepEqual(
    (await store.unprocessed(10)).map((s) => s.text),
    ['signal c', 'signal d'],
  );
  assert.deepEqual(
    (await store.unprocessed(10, pending[2]!.id)).map((s) => s.text),
    ['signal d'],
    'after an id',
  );
  assert.equal(await store.countPending(), 2);
  await assert.rejects(
    sql`select processed_at from signals`.execute(handle.db),
    'no processed_at column to update',
  );
});

test('retention deletes old signals already counted and keeps the queued ones', async (t) => {
  const handle = await openMigrated(t);
  const store = new SignalsStore(handle.db);
  await store.insertNew([row('old-counted'), row('old-pending')]);
  const [counted] = await store.unprocessed(1);
  await handle.db.transaction().execute((trx) => store.claimProcessed([counted!.id], trx));
  assert.equal(await store.pruneProcessedBefore(1_700_000_000_001), 1);
  const left = await handle.db.selectFrom('signals').select('external_id').execute();
  assert.deepEqual(
    left.map((r) => r.external_id),
    ['old-pending'],
  );
  assert.equal(await store.countPending(), 1);
});

test('the upgrade queues the signals a database had pending and drops processed_at and its index', async (t) => {
  const handle = await openMigrated(t, '0028_trend_aliases');
  const legacy = (id: string, processed: number | null) => ({ ...row(id), processed_at: processed });
  await sql`insert into signals (source, external_id, text, observed_at, received_at, processed_at)
    values ${sql.join(
      [legacy('p1', null), legacy('done', 5), legacy('p2', null)].map(
        (r) =>
          sql`(${r.source}, ${r.external_id}, ${r.text}, ${r.observed_at}, ${r.received_at}, ${r.processed_at})`,
      ),
    )}`.execute(handle.db);
  await migrateAppToLatest(handle);
  const store = new SignalsStore(handle.db);
  assert.deepEqual(
    (await store.unprocessed(10)).map((s) => s.text),
    ['signal p1', 'signal p2'],
  );
  const indexes =
    handle.dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = 'signals'`.execute(handle.db)
      : await sql<{ name: string }>`select indexname as name from pg_indexes
          where schemaname = current_schema() and tablename = 'signals'`.execute(handle.db);
  assert.ok(!indexes.rows.some((r) => r.name === 'signals_pending_idx'));
});
