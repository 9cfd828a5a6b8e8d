import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Database } from '../../../src/database.ts';
import { type CheckpointReport, WalCheckpointer } from '../../../src/platform/db/checkpointer.ts';
import { openDatabase } from '../../../src/platform/db/index.ts';

// SQLite's WAL checkpoints in a thread of their own: a commit on the API's event loop never copies and syncs
// the log (10–30 ms each on the ingest bench); if the thread fails, commits checkpoint again.

function tempFile(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-wal-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'db.sqlite');
}

function walConnection(file: string): SQLite.Database {
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  return connection;
}

const autocheckpoint = (connection: SQLite.Database) =>
  connection.pragma('wal_autocheckpoint', { simple: true });

test('with the checkpointer, commits leave the log to its thread, which copies it and keeps it from growing', async (t) => {
  const file = tempFile(t);
  const writer = walConnection(file);
  t.after(() => writer.close());
  writer.exec('create table blobs (id integer primary key, body text not null)');
  const reports: CheckpointReport[] = [];
  const checkpointer = new WalCheckpointer(file, [writer], {
    intervalMs: 5,
    onCheckpoint: (report) => reports.push(report),
  });
  assert.equal(autocheckpoint(writer), 0, 'the connection no longer checkpoints on commit');
  // The thread is up once it has reported its first checkpoint (slow to start on a loaded machine).
  for (let i = 0; i < 500 && reports.length === 0; i++) await sleep(10);

  // 40 transactions of 100 rows of 4,000 bytes: about 16 MB written through the log.
  const insert = writer.prepare('insert into blobs (body) values (?)');
  const body = 'x'.repeat(4000);
  const write = writer.transaction(() => {
    for (let i = 0; i < 100; i++) insert.run(body);
  });
  let largest = 0;
  for (let round = 0; round < 40; round++) {
    write();
    largest = Math.max(largest, fs.statSync(`${file}-wal`).size);
    await sleep(15);
  }
  assert.ok(
    reports.some((r) => r.frames > 0 && r.copied === r.frames),
    'a checkpoint copied the whole log into the database',
  );
  // Without checkpoints the log would hold every page written (its peak = the database's size); restarted
  // after each copy it stays a few rounds long (a loaded machine may delay the thread by a few more).
  const written = fs.statSync(file).size;
  assert.ok(written > 12 * 1024 * 1024, `${written} bytes written`);
  assert.ok(largest < written / 2, `the log peaked at ${largest} bytes of ${written}`);

  await checkpointer.close();
  assert.equal(autocheckpoint(writer), 1000, 'closed, the connection checkpoints on commit again');
  assert.equal(writer.prepare('select count(*) from blobs').pluck().get(), 4000);
});

test('if the thread fails, the connections checkpoint on commit again and the failure is reported', async (t) => {
  const file = tempFile(t);
  const writer = walConnection(file);
  t.after(() => writer.close());
  const errors: unknown[] = [];
  // The thread opens a file that must exist: this one does not.
  const checkpointer = new WalCheckpointer(`${file}.missing`, [writer], { onError: (e) => errors.push(e) });
  assert.equal(autocheckpoint(writer), 0);
  for (let i = 0; i < 200 && errors.length === 0; i++) await sleep(10);
  assert.equal(errors.length, 1);
  assert.match(String(errors[0]), /unable to open|exited/);
  assert.equal(autocheckpoint(writer), 1000);
  await checkpointer.close();
});

test('the app database hands its checkpoints to the thread on a file and ignores the call in memory', async (t) => {
  const file = tempFile(t);
  const handle = openDatabase<Database>({ kind: 'sqlite', path: file }, { reader: true });
  handle.checkpointInBackground();
  const pragma = async (db: typeof handle.db) =>
    Object.values((await sql.raw('pragma wal_autocheckpoint').execute(db)).rows[0] as object)[0];
  assert.equal(await pragma(handle.db), 0, 'writer');
  assert.equal(await pragma(handle.reader), 0, 'reader');
  await handle.close();

  const memory = openDatabase<Database>({ kind: 'sqlite', path: ':memory:' }, { reader: true });
  memory.checkpointInBackground();
  assert.equal(await pragma(memory.db), 1000);
  await memory.close();
});
