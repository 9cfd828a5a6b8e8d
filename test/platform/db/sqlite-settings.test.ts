import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../../src/database.ts';
import { openDatabase } from '../../../src/platform/db/index.ts';
import { createTestDatabase } from '../../helpers/db.ts';

// The embedded database's connection settings (SQLite only): WAL with NORMAL sync, and temporary storage in
// memory. A multi-row upsert inside a transaction keeps a statement journal of the pages it changes; past 64 KiB
// SQLite spills it to a temporary file, which on the ingest path wrote about 1 KiB per signal through a write
// call each (the ingest bench's event loop: about 5–8 µs more per signal).
test('SQLite connections write through WAL and keep temporary files in memory', async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const handle = openDatabase<Database>(database.config, { reader: true });
  t.after(() => handle.close());
  if (handle.dialect !== 'sqlite') return t.skip('SQLite settings');
  for (const [connection, db] of [
    ['writer', handle.db],
    ['reader', handle.reader],
  ] as const) {
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as object)[0];
    assert.equal(await pragma('journal_mode'), 'wal', connection);
    assert.equal(await pragma('synchronous'), 1, `${connection}: NORMAL`);
    assert.equal(await pragma('temp_store'), 2, `${connection}: MEMORY`);
  }
});
