// The migration runner: every owner's migrations in one order by name, names owned once, and migrations that
// were split between owners recorded under their parts' names.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Kysely, type Migration, sql } from 'kysely';
import { MIGRATIONS } from '../../../src/migrations.ts';
import {
  type MigrationPlan,
  migrateToLatest,
  migrationOrder,
  openDatabase,
} from '../../../src/platform/db/index.ts';
import { createTestDatabase, usingPostgres } from '../../helpers/db.ts';

/** A plan whose migrations append their name to `ran` (and create nothing). */
function recording(ran: string[], sets: Record<string, string[]>, renamed?: MigrationPlan['renamed']) {
  const plan: MigrationPlan = {
    sets: Object.entries(sets).map(([owner, names]) => ({
      owner,
      migrations: Object.fromEntries(
        names.map((name): [string, () => Migration] => [
          name,
          () => ({ up: async () => void ran.push(name) }),
        ]),
      ),
    })),
    renamed,
  };
  return plan;
}

const memory = () => openDatabase({ kind: 'sqlite', path: ':memory:' });

describe('migration runner', () => {
  test('migrations of all owners run in the order of their names, parts of one change by their .k', async () => {
    const ran: string[] = [];
    const plan = recording(ran, {
      platform: ['0001.2_foundation', '0019_keys'],
      accounts: ['0001.1_users', '0022_left'],
      signals: ['0002_signals', '0001.10_late_part'],
    });
    const handle = memory();
    try {
      assert.deepEqual(await migrateToLatest(handle, plan), ran);
      assert.deepEqual(ran, [
        '0001.10_late_part',
        '0001.1_users',
        '0001.2_foundation',
        '0002_signals',
        '0019_keys',
        '0022_left',
      ]);
      assert.deepEqual(migrationOrder(plan, 'sqlite'), ran);
    } finally {
      await handle.close();
    }
  });

  test('a name two owners give, a rename to a name nobody gives, and a renamed name still given are refused', () => {
    assert.throws(
      () => migrationOrder(recording([], { a: ['0001_x'], b: ['0001_x'] }), 'sqlite'),
      /0001_x is given by both a and b/,
    );
    assert.throws(
      () =>
        migrationOrder(
          recording([], { a: ['0001.1_x'] }, { '0001_old': ['0001.1_x', '0001.2_y'] }),
          'sqlite',
        ),
      /0001_old is renamed to 0001.2_y, which no owner gives/,
    );
    assert.throws(
      () =>
        migrationOrder(
          recording([], { a: ['0001_old', '0001.1_x'] }, { '0001_old': ['0001.1_x'] }),
          'sqlite',
        ),
      /0001_old is renamed but still given by a/,
    );
  });

  test('a database that ran a migration since split is recorded as having run its parts, once', async () => {
    const handle = memory();
    try {
      const before: string[] = [];
      await migrateToLatest(handle, recording(before, { platform: ['0001_old', '0002_next'] }));
      const db = handle.db as unknown as Kysely<{ kysely_migration: { name: string; timestamp: string } }>;
      const stamp = (
        await db
          .selectFrom('kysely_migration')
          .select('timestamp')
          .where('name', '=', '0001_old')
          .executeTakeFirstOrThrow()
      ).timestamp;

      const ran: string[] = [];
      const split = recording(
        ran,
        { platform: ['0001.2_part', '0002_next', '0003_new'], accounts: ['0001.1_part'] },
        { '0001_old': ['0001.1_part', '0001.2_part'] },
      );
      assert.deepEqual(await migrateToLatest(handle, split), ['0003_new']);
      assert.deepEqual(ran, ['0003_new'], 'the parts did not run: the old migration did their work');
      const rows = await db.selectFrom('kysely_migration').selectAll().orderBy('name').execute();
      assert.deepEqual(
        rows.map((r) => r.name),
        ['0001.1_part', '0001.2_part', '0002_next', '0003_new'],
      );
      assert.equal(rows[0]!.timestamp, stamp, 'the parts keep the time the old migration ran');
      assert.deepEqual(
        await migrateToLatest(handle, split),
        [],
        'a second start finds nothing to rename or run',
      );
    } finally {
      await handle.close();
    }
  });

  test("the app's plan: each split migration's parts exist and the order keeps 0.10.0's order of changes", () => {
    const order = migrationOrder(MIGRATIONS, 'sqlite');
    const legacyOf = new Map<string, string>();
    for (const [old, parts] of Object.entries(MIGRATIONS.renamed ?? {}))
      for (const part of parts) legacyOf.set(part, old);
    // Read as 0.10.0's names, the order is 0.10.0's: 0001 … 0026, each once, parts of one together; then the
    // changes since (0027_velocity_window, 0028_trend_aliases, 0029_signal_queue, 0030_trend_dirty).
    const asLegacy = order
      .map((name) => legacyOf.get(name) ?? name)
      .filter((n, i, all) => all.indexOf(n) === i);
    assert.deepEqual(asLegacy, [...asLegacy].sort());
    assert.equal(asLegacy.length, 30);
    assert.ok(
      order.every((name) => /^\d{4}(\.\d+)?_[a-z0-9_]+$/.test(name)),
      order.join(', '),
    );
  });

  test('two instances starting at once rename once and run nothing twice (PostgreSQL)', {
    skip: usingPostgres ? false : 'SQLite serves one instance; two in one process would wait on each other',
  }, async () => {
    const database = await createTestDatabase();
    const a = openDatabase(database.config);
    const b = openDatabase(database.config);
    try {
      await migrateToLatest(a, recording([], { platform: ['0001_old'] }));
      const ran: string[] = [];
      const split = recording(
        ran,
        { platform: ['0001.1_p', '0001.2_q', '0002_new'] },
        { '0001_old': ['0001.1_p', '0001.2_q'] },
      );
      await Promise.all([migrateToLatest(a, split), migrateToLatest(b, split)]);
      assert.deepEqual(ran, ['0002_new']);
      const names = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        a.db,
      );
      assert.deepEqual(
        names.rows.map((r) => r.name),
        ['0001.1_p', '0001.2_q', '0002_new'],
      );
    } finally {
      await a.close();
      await b.close();
      await database.drop();
    }
  });
});
