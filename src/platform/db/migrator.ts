// The migration runner. Each owner (the platform and every module) keeps its migrations beside its code and
// hands them over as a `MigrationSet`; the composition root gathers the sets into one `MigrationPlan`
// (src/migrations.ts). Migrations run in the order of their names, compared code point by code point, across
// owners: a four-digit number, then `.k` for the parts of one change split between owners
// (`0001.1_users` < `0001.2_foundation` < `0002_signals`). Numbers are unique across the app.
import { type Kysely, type Migration, type MigrationResultSet, Migrator, sql } from 'kysely';
import type { Dialect } from './migrations/helpers.ts';

/** An owner's migrations by name; each is built for the dialect it runs on. */
export interface MigrationSet {
  owner: string;
  migrations: Readonly<Record<string, (dialect: Dialect) => Migration>>;
}

export interface MigrationPlan {
  sets: readonly MigrationSet[];
  /**
   * Names a database may have recorded that are now spelt otherwise: a migration split between owners is
   * recorded under its parts' names (all of them applied, as the old one did all of their work).
   */
  renamed?: Readonly<Record<string, readonly string[]>>;
}

/** The database migrations run on (any app's: the runner reads only its own bookkeeping). */
export interface MigrationTarget {
  // biome-ignore lint/suspicious/noExplicitAny: the tables are the migrations' business, not the runner's.
  db: Kysely<any>;
  dialect: Dialect;
}
type Handle = MigrationTarget;

/** Code point order (Kysely's default, localeCompare, ignores punctuation in some locales). */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every migration of the plan by name, refusing a name two owners give. */
function planMigrations(plan: MigrationPlan, dialect: Dialect): Record<string, Migration> {
  const all: Record<string, Migration> = {};
  const owners = new Map<string, string>();
  for (const set of plan.sets) {
    for (const [name, build] of Object.entries(set.migrations)) {
      const other = owners.get(name);
      if (other !== undefined)
        throw new Error(`migration ${name} is given by both ${other} and ${set.owner}`);
      owners.set(name, set.owner);
      all[name] = build(dialect);
    }
  }
  for (const [old, parts] of Object.entries(plan.renamed ?? {})) {
    if (owners.has(old)) throw new Error(`migration ${old} is renamed but still given by ${owners.get(old)}`);
    for (const part of parts) {
      if (!owners.has(part)) throw new Error(`migration ${old} is renamed to ${part}, which no owner gives`);
    }
  }
  return all;
}

/** The names in the order they run. */
export function migrationOrder(plan: MigrationPlan, dialect: Dialect): string[] {
  return Object.keys(planMigrations(plan, dialect)).sort(byCodePoint);
}

async function currentSchema(handle: Handle): Promise<string | undefined> {
  if (handle.dialect !== 'postgres') return undefined;
  const row = await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db);
  return row.rows[0]?.schema;
}

async function migratorFor(handle: Handle, plan: MigrationPlan): Promise<Migrator> {
  const migrations = planMigrations(plan, handle.dialect);
  return new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
    // Name the schema explicitly: Kysely's existence checks would otherwise see migration tables of other
    // schemas in the same PostgreSQL database.
    migrationTableSchema: await currentSchema(handle),
    nameComparator: byCodePoint,
  });
}

/** Kysely's own record of the migrations that ran. */
interface Bookkeeping {
  kysely_migration: { name: string; timestamp: string };
}

/** Whether this database (PostgreSQL: the current schema) has run migrations before. */
async function hasMigrationTable(handle: Handle): Promise<boolean> {
  const found =
    handle.dialect === 'postgres'
      ? await sql<{ found: boolean }>`select to_regclass('kysely_migration') is not null as found`.execute(
          handle.db,
        )
      : await sql<{ found: number }>`select count(*) as found from sqlite_master where type = 'table'
          and name = 'kysely_migration'`.execute(handle.db);
  return Boolean(Number(found.rows[0]?.found ?? 0));
}

/**
 * Records renamed migrations under their new names, in one transaction that holds the migration table
 * (several instances may start at once). A database that never ran them, or already renamed them, is left
 * as it is.
 */
async function applyRenames(handle: Handle, plan: MigrationPlan): Promise<string[]> {
  const renamed = new Map(Object.entries(plan.renamed ?? {}));
  if (renamed.size === 0 || !(await hasMigrationTable(handle))) return [];
  const db = handle.db as Kysely<Bookkeeping>;
  const recordedOld = async (executor: Kysely<Bookkeeping>) =>
    (await executor.selectFrom('kysely_migration').select(['name', 'timestamp']).execute()).filter((row) =>
      renamed.has(row.name),
    );
  // Every start after the first finds nothing to rename: no transaction then.
  if ((await recordedOld(db)).length === 0) return [];
  return db.connection().execute(async (connection) => {
    // SQLite: take the write lock at once (a deferred transaction that reads first can deadlock with another
    // start); PostgreSQL: hold the table against other starts' renames.
    await sql.raw(handle.dialect === 'sqlite' ? 'begin immediate' : 'begin').execute(connection);
    try {
      if (handle.dialect === 'postgres')
        await sql`lock table kysely_migration in exclusive mode`.execute(connection);
      const done: string[] = [];
      for (const row of await recordedOld(connection)) {
        await connection.deleteFrom('kysely_migration').where('name', '=', row.name).execute();
        for (const part of renamed.get(row.name)!) {
          await connection
            .insertInto('kysely_migration')
            .values({ name: part, timestamp: row.timestamp })
            .onConflict((oc) => oc.column('name').doNothing())
            .execute();
        }
        done.push(row.name);
      }
      await sql`commit`.execute(connection);
      return done;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

export async function migrateToLatest(handle: Handle, plan: MigrationPlan): Promise<string[]> {
  return migrate(handle, plan, (migrator) => migrator.migrateToLatest());
}

/** Migrates up or down to the named migration (tests that start from an older schema use it). */
export async function migrateTo(
  handle: Handle,
  plan: MigrationPlan,
  migrationName: string,
): Promise<string[]> {
  return migrate(handle, plan, (migrator) => migrator.migrateTo(migrationName));
}

async function migrate(
  handle: Handle,
  plan: MigrationPlan,
  step: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<string[]> {
  await applyRenames(handle, plan);
  const migrator = await migratorFor(handle, plan);
  // Kysely's table check scans every schema's catalog (has_schema_privilege per schema), which fails with
  // 3F000 when another schema is dropped at that moment (other deployments or test runs on the same
  // database), or 42P01/42703 for a table or column dropped mid-scan; nothing was migrated then, so the check
  // is simply asked again.
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await step(migrator);
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    // 3F000 schema, 42P01 table, 42703 column: an object dropped between the catalogue scan's steps.
    const code = (error as { code?: string }).code ?? '';
    const dropped = ['3F000', '42P01', '42703'].includes(code) && (results ?? []).length === 0;
    if (!dropped || attempt >= 5) throw error instanceof Error ? error : new Error(String(error));
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
  }
}
