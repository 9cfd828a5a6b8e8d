// A database made by 0.10.0 (every migration in src/platform/db/migrations, rows in every table: the fixture in
// test/fixtures/legacy-db) upgrades in place to the per-module migrations: nothing of 0.10.0 runs again (the
// migrations written since do), every row is still there, the schema is the one a new database gets, and the
// service answers from it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { MIGRATIONS, migrateAppToLatest } from '../src/migrations.ts';
import { migrationOrder, openDatabase } from '../src/platform/db/index.ts';
import { buildTestApp, call } from './helpers/app.ts';
import { createTestDatabase, type TestDatabase, usingPostgres } from './helpers/db.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'legacy-db');
/** The operator key of the fixture's first user (test/fixtures/legacy-db/README.md). */
const LEGACY_OPERATOR_KEY = `cw_${'legacyfixture'.padEnd(40, '0')}`;
const BOOKKEEPING = new Set(['kysely_migration', 'kysely_migration_lock']);
/** The migrations written after 0.10.0: the ones an upgrade runs. */
const SINCE_0_10_0 = ['0027_velocity_window', '0028_trend_aliases', '0029_signal_queue', '0030_trend_dirty'];

/**
 * The rows as they are after those migrations: 0027 gives every snapshot `velocity_window` '1h', 0028 every
 * trend an empty `aliases` list and the (empty) table trend_aliases, 0029 drops the signals' processed_at (the
 * fixture's signals were all processed, so its signal_queue is empty), 0030 moves trends' `dirty` into
 * trend_dirty.
 */
function afterLaterMigrations(rows: Record<string, string[]>): Record<string, string[]> {
  const snapshots = (rows.trend_metrics ?? []).map((row) =>
    JSON.stringify({ ...JSON.parse(row), velocity_window: '1h' }),
  );
  // 0030 moves `dirty` into trend_dirty (the fixture's trends were all up to date, so it stays empty).
  const trends = (rows.trends ?? []).map((row) => {
    const { dirty: _moved, ...kept } = JSON.parse(row) as Record<string, unknown>;
    return JSON.stringify({ ...kept, aliases: '[]' });
  });
  const signals = (rows.signals ?? []).map((row) => {
    const { processed_at: _dropped, ...kept } = JSON.parse(row) as Record<string, unknown>;
    return JSON.stringify(kept);
  });
  return {
    ...rows,
    trend_metrics: snapshots.sort(),
    trends: trends.sort(),
    trend_aliases: [],
    signals: signals.sort(),
    signal_queue: [],
    trend_dirty: [],
  };
}

/** The schema a PostgreSQL test database's URL puts first on the search path. */
function schemaOf(database: TestDatabase): string {
  const options = new URL(database.url).searchParams.get('options') ?? '';
  return /search_path=([\w]+)/.exec(options)![1]!;
}

/** A new test database holding the 0.10.0 fixture. */
async function legacyDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  if (database.config.kind === 'sqlite') {
    const sqlite = new SQLite(database.config.path);
    sqlite.exec(fs.readFileSync(path.join(FIXTURES, 'v0.10.0.sqlite.sql'), 'utf8'));
    sqlite.close();
  } else {
    const dump = fs.readFileSync(path.join(FIXTURES, 'v0.10.0.postgres.sql'), 'utf8');
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(dump.replaceAll('__SCHEMA__', schemaOf(database)));
    } finally {
      await client.end();
    }
  }
  return database;
}

// biome-ignore lint/suspicious/noExplicitAny: the test reads every table whatever its type.
type AnyDb = Kysely<any>;

async function tableNames(db: AnyDb, kind: 'sqlite' | 'postgres'): Promise<string[]> {
  const rows =
    kind === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'
          and name not like 'sqlite_%' order by name`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(
          db,
        );
  return rows.rows.map((r) => r.name).filter((name) => !BOOKKEEPING.has(name));
}

/** Every row of every table, in a stable order, as JSON text per table. */
async function contents(db: AnyDb, kind: 'sqlite' | 'postgres'): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await tableNames(db, kind)) {
    const rows = await db.selectFrom(table).selectAll().execute();
    out[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

/** Tables, columns, indexes and constraints as the database describes them (names of the schema left out). */
async function schemaOfDb(db: AnyDb, kind: 'sqlite' | 'postgres'): Promise<string[]> {
  if (kind === 'sqlite') {
    const rows = await sql<{ type: string; name: string; sql: string | null }>`select type, name, sql
      from sqlite_master where name not like 'kysely_%' and name not like 'sqlite_%'`.execute(db);
    return rows.rows.map((r) => `${r.type} ${r.name}: ${r.sql}`).sort();
  }
  const columns = await sql<Record<string, unknown>>`select table_name, column_name, data_type,
      character_maximum_length, is_nullable, column_default from information_schema.columns
    where table_schema = current_schema() and table_name not like 'kysely_%'`.execute(db);
  const indexes = await sql<{
    indexname: string;
    indexdef: string;
  }>`select indexname, indexdef from pg_indexes
    where schemaname = current_schema() and tablename not like 'kysely_%'`.execute(db);
  const constraints = await sql<{ conname: string; def: string }>`select c.conname,
      pg_get_constraintdef(c.oid) as def from pg_constraint c join pg_namespace n on n.oid = c.connamespace
    where n.nspname = current_schema() and c.conname not like 'kysely_%'`.execute(db);
  const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s;
  const bare = (text: string) => text.replaceAll(`${schema}.`, '');
  return [
    ...columns.rows.map((r) => `column ${bare(JSON.stringify(r))}`),
    ...indexes.rows.map((r) => `index ${r.indexname}: ${bare(r.indexdef)}`),
    ...constraints.rows.map((r) => `constraint ${r.conname}: ${bare(r.def)}`),
  ].sort();
}

describe(`a 0.10.0 database upgrades in place (${usingPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  test('nothing runs again, every row stays, the schema is a new database’s, and the service answers', async () => {
    const legacy = await legacyDatabase();
    const fresh = await createTestDatabase();
    const handle = openDatabase(legacy.config);
    const freshHandle = openDatabase(fresh.config);
    try {
      const db = handle.db as AnyDb;
      const before = await contents(db, handle.dialect);
      const tables = Object.keys(before);
      assert.ok(tables.length >= 45, `the fixture has ${tables.length} tables`);
      for (const table of tables) assert.ok(before[table]!.length > 0, `the fixture's ${table} has rows`);

      assert.deepEqual(await migrateAppToLatest(handle), SINCE_0_10_0, 'no migration of 0.10.0 ran again');
      const recorded = await db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
      assert.deepEqual(
        recorded.map((r) => r.name),
        migrationOrder(MIGRATIONS, handle.dialect),
        'the database records the per-module names, and only those',
      );
      assert.deepEqual(
        await contents(db, handle.dialect),
        afterLaterMigrations(before),
        'every row is still there, changed only by the later migrations',
      );

      await migrateAppToLatest(freshHandle);
      assert.deepEqual(
        await schemaOfDb(db, handle.dialect),
        await schemaOfDb(freshHandle.db as AnyDb, handle.dialect),
        'the upgraded schema is the one a new database gets',
      );
      // A second start (or a second instance) finds nothing to do.
      assert.deepEqual(await migrateAppToLatest(handle), []);
    } finally {
      await handle.close();
      await freshHandle.close();
      await fresh.drop();
    }

    const ctx = await buildTestApp({ database: legacy, operatorKey: LEGACY_OPERATOR_KEY });
    try {
      const trends = await call(ctx.app, 'GET', '/api/trends?limit=100', { key: LEGACY_OPERATOR_KEY });
      assert.equal(trends.statusCode, 200, trends.body);
      assert.ok(trends.data.total > 0, 'the trends 0.10.0 made are listed');
      const signal = await call(ctx.app, 'POST', '/api/signals', {
        key: LEGACY_OPERATOR_KEY,
        body: { signals: [{ source: 'x', external_id: 'after-upgrade', text: 'Riverton flood update' }] },
      });
      assert.equal(signal.statusCode, 202, signal.body);
    } finally {
      await ctx.close();
      await legacy.drop();
    }
  });
});
