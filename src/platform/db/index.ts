// Kysely over better-sqlite3 (embedded) or pg (scale-out); the migration runner shared by both is migrator.ts.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../../config.ts';
import { type CheckpointerOptions, WalCheckpointer } from './checkpointer.ts';
import type { Dialect } from './migrations/helpers.ts';
import type { PlatformTables } from './schema.ts';

export { type Dialect, foldAccentsOfKey, nonAsciiKey, withId } from './migrations/helpers.ts';
export { platformMigrations } from './migrations/index.ts';
export {
  type MigrationPlan,
  type MigrationSet,
  type MigrationTarget,
  migrateTo,
  migrateToLatest,
  migrationOrder,
} from './migrator.ts';
export type { PlatformTables } from './schema.ts';
/** The platform's view of the database: its own tables only. */
export type PlatformDb = Kysely<PlatformTables>;

/**
 * The platform's tables within any database (or transaction) that holds them — the app's holds every module's
 * too. Sound because only the platform's own tables are queried through the narrowed type.
 */
export function platformTables<T extends PlatformTables>(db: Kysely<T> | Transaction<T>): PlatformDb {
  return db as unknown as PlatformDb;
}

// pg returns int8 and numeric as strings; every id and timestamp here fits a double exactly.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface DatabaseHandle<T extends PlatformTables = PlatformTables> {
  db: Kysely<T>;
  /**
   * For reads that serve requests. On SQLite a second connection (with `reader: true`): WAL lets it read the
   * last committed state while the writer connection is inside a long transaction (ingestion), which would
   * otherwise queue every read behind it. Elsewhere the same as `db`.
   */
  reader: Kysely<T>;
  dialect: Dialect;
  /**
   * A SQLite file's WAL checkpoints move to a thread of their own (checkpointer.ts) until `close`; for
   * PostgreSQL and an in-memory database it does nothing.
   */
  checkpointInBackground(options?: CheckpointerOptions): void;
  close(): Promise<void>;
}

/**
 * The database holds every user's data: folders created for it are 0700 and a new file 0600 (SQLite gives its
 * -wal and -shm files the database file's mode). Existing files and folders keep the mode the operator chose.
 */
function createPrivateFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

function openSqlite(file: string): SQLite.Database {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('temp_store = MEMORY');
  return sqlite;
}

const sqliteKysely = <T>(sqlite: SQLite.Database) =>
  new Kysely<T>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });

/** Opens the database typed with the caller's tables (the composition root passes the app's). */
export function openDatabase<T extends PlatformTables = PlatformTables>(
  config: DatabaseConfig,
  options: { reader?: boolean } = {},
): DatabaseHandle<T> {
  if (config.kind === 'sqlite') {
    const memory = config.path === ':memory:';
    if (!memory) createPrivateFile(config.path);
    const connections = [openSqlite(config.path)];
    const db = sqliteKysely<T>(connections[0]!);
    // An in-memory database is private to its connection: nothing to share with a reader.
    if (options.reader && !memory) connections.push(openSqlite(config.path));
    const reader = connections[1] ? sqliteKysely<T>(connections[1]) : db;
    let checkpointer: WalCheckpointer | undefined;
    return {
      db,
      reader,
      dialect: 'sqlite',
      checkpointInBackground: (checkpointOptions) => {
        if (!memory) checkpointer ??= new WalCheckpointer(config.path, connections, checkpointOptions);
      },
      close: async () => {
        await checkpointer?.close();
        if (reader !== db) await reader.destroy();
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // A client losing its connection must not crash the process, idle in the pool (the pool's 'error') or checked
  // out by a transaction between two statements (the client's own 'error', which nothing else listens to then):
  // the query in flight or the next one fails, and the pool drops the broken client when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<T>({ dialect: new PostgresDialect({ pool }) });
  return { db, reader: db, dialect: 'postgres', checkpointInBackground: () => {}, close: () => db.destroy() };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing costs more than running a small query, so reuse statements by
 * SQL text. Safe because Kysely runs one query at a time per connection and never streams here. The least
 * recently used statement goes first when the cache is full, so the hot ones stay however many one-off
 * texts (multi-row statements of a rare row count) pass through.
 */
function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let statement = cache.get(text);
      if (statement === undefined) {
        statement = sqlite.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      } else {
        cache.delete(text);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

export async function pingDatabase<T>(db: Kysely<T>): Promise<void> {
  await sql`select 1`.execute(db);
}

/** True for errors that mean the database is unreachable or busy (→ 503), not a bug (→ 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e || typeof e !== 'object') return false;
  const code = e.code ?? '';
  return (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ECONNABORTED',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'EAI_AGAIN',
      'ETIMEDOUT',
      'ENOTFOUND',
      'EPIPE',
      'SQLITE_BUSY',
      'SQLITE_LOCKED',
    ].includes(code) ||
    code.startsWith('08') || // connection exception class
    ['57P01', '57P02', '57P03', '53300'].includes(code) ||
    // pg's wording for a connection cut between two statements of a transaction ("…is not queryable") or
    // during one; the server's own shutdown notices carry the codes above.
    /Connection terminated|is not queryable|Query read timeout|timeout exceeded when trying to connect|driver has already been destroyed/i.test(
      e.message ?? '',
    )
  );
}
