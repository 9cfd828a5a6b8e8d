import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../../src/database.ts';
import { isDatabaseUnavailable, openDatabase } from '../../../src/platform/db/index.ts';
import { createTestDatabase, usingPostgres } from '../../helpers/db.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// PostgreSQL ending a connection that a transaction holds between two statements (a restart, a failover, an
// administrator's pg_terminate_backend) fails that transaction; it must not take the whole process down.
test('a connection lost while a transaction holds it fails that transaction, not the process', {
  skip: usingPostgres ? false : 'needs PostgreSQL (TEST_DATABASE_URL)',
}, async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const handle = openDatabase<Database>(database.config);
  t.after(() => handle.db.destroy());
  const crashes: unknown[] = [];
  // Without a listener of ours, node:test would report the client's 'error' event as this test's failure; with
  // one installed, the event reaching it is the crash the service would have had.
  const onUncaught = (error: unknown) => crashes.push(error);
  process.prependListener('uncaughtException', onUncaught);
  t.after(() => process.removeListener('uncaughtException', onUncaught));

  const outcome = await handle.db
    .transaction()
    .execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      // Ended from another connection while this one sits checked out with no query running.
      await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(handle.db);
      await sleep(200);
      await sql`select 1`.execute(trx);
      return 'committed';
    })
    .catch((error: unknown) => {
      // What the request that ran it answers: 503 with Retry-After, not 500.
      assert.ok(isDatabaseUnavailable(error), `read as a bug, not an outage: ${String(error)}`);
      return `failed: ${String(error)}`;
    });

  assert.deepEqual(crashes.map(String), [], 'the lost connection reached the process as an uncaught error');
  assert.match(outcome, /^failed: /);
  // The broken connection left the pool: the next queries run on fresh ones.
  for (let i = 0; i < 12; i++) {
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
    assert.equal(rows[0]!.one, 1);
  }
});
