// The structure rules `npm run lint` enforces (.dependency-cruiser.cjs, scripts/lint-structure.ts) hold, and
// they catch a violation when one is planted (then removed).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { coveredFiles, violations } from '../scripts/lint-structure.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);

function depcruise(files: string[] = ['src']) {
  return spawnSync(
    bin('depcruise'),
    [...files, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
}

/** The structure rules in this process (`files`: only those; default: every file a rule covers). */
function structure(files?: string[]) {
  try {
    const found = violations(files ?? coveredFiles());
    const text = found.join('\n');
    return { status: found.length > 0 ? 1 : 0, stdout: text, stderr: text };
  } catch (error) {
    // A rule that cannot be applied (two owners of one table) stops the script too.
    return { status: 1, stdout: '', stderr: String(error) };
  }
}

/** The structure rules as `npm run lint` runs them: the script, in a process of its own. */
function structureScript(files: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/lint-structure.ts', '--files', ...files], {
    cwd: ROOT,
    encoding: 'utf8',
  });
}

/** Writes `files` (relative path → text), runs `check`, and removes them (and folders it made) whatever happens. */
function planted<T>(files: Record<string, string>, check: () => T): T {
  const written: string[] = [];
  const made: string[] = [];
  try {
    for (const [rel, text] of Object.entries(files)) {
      const full = path.join(ROOT, rel);
      const first = fs.mkdirSync(path.dirname(full), { recursive: true });
      if (first) made.push(first);
      fs.writeFileSync(full, text);
      written.push(full);
    }
    return check();
  } finally {
    for (const full of written) fs.rmSync(full, { force: true });
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('structure rules', () => {
  test('the code holds them: no import cycle, platform imports no module, modules meet only at index.ts', () => {
    const result = depcruise();
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });

  test('SQL only in stores, the injected clock, one wiring style and tables through their owner hold', () => {
    const result = structure();
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });

  test('a planted cycle, a platform → module import and a reach past index.ts are each caught', () => {
    const result = planted(
      {
        'src/platform/__planted_a.ts': "import { b } from './__planted_b.ts';\nexport const a = () => b;\n",
        'src/platform/__planted_b.ts':
          "import { a } from './__planted_a.ts';\nimport { trendRoutes } from '../modules/trends/routes.ts';\n" +
          'export const b = () => [a, trendRoutes];\n',
        'src/modules/stream/__planted_c.ts':
          "import { TrendsStore } from '../trends/store.ts';\nexport const c = TrendsStore;\n",
      },
      () => depcruise(['src/platform/__planted_a.ts', 'src/modules/stream/__planted_c.ts']),
    );
    assert.notEqual(result.status, 0, 'depcruise passed with planted violations');
    for (const rule of ['no-circular', 'platform-imports-no-module', 'module-through-its-index']) {
      assert.match(result.stdout, new RegExp(rule), `${rule} not reported:\n${result.stdout}`);
    }
  });

  test('a planted query outside a store and a planted Date.now() are each caught, and the script exits 1', () => {
    const file = 'src/modules/stream/__planted_sql.ts';
    const result = planted(
      {
        [file]:
          'export const count = (db: { selectFrom(t: string): unknown }) => db.selectFrom("jobs");\n' +
          'export const now = () => Date.now();\n',
      },
      () => structureScript([path.join(ROOT, file)]),
    );
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /Structure rules broken/);
    assert.match(result.stderr, /sql-only-in-stores/);
    assert.match(result.stderr, /injected-clock/);
  });
  test('a planted import of another module by text, and a re-export of a text function by trends, are caught', () => {
    const leaf = planted(
      {
        'src/modules/text/__planted_leaf.ts':
          "import { TrendsStore } from '../trends/index.ts';\nexport const leaf = TrendsStore;\n",
      },
      () => depcruise(['src/modules/text/__planted_leaf.ts']),
    );
    assert.notEqual(leaf.status, 0, 'depcruise passed with text importing trends');
    assert.match(leaf.stdout, /text-is-a-leaf/);

    const reexport = 'src/modules/trends/__planted_reexport.ts';
    const block = 'src/modules/trends/__planted_block.ts';
    const result = planted(
      {
        [reexport]: "export { normaliseKey } from '../text/index.ts';\n",
        [block]:
          "import { compound, normaliseTokens } from '../text/index.ts';\n" +
          'export const score = (t: string) => compound(t);\nexport { normaliseTokens };\n',
      },
      () => structure([path.join(ROOT, reexport), path.join(ROOT, block)]),
    );
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /__planted_reexport\.ts:1 text-from-text/);
    assert.match(result.stderr, /__planted_block\.ts:3 text-from-text: export \{ normaliseTokens \}/);
  });

  test('one-wiring-style: a feature module without its factory, a library module with routes, and a class or register… call of a module in the composition root are each caught', () => {
    const bare = 'src/modules/plantedmod/index.ts';
    const wired = 'src/modules/plantedok/index.ts';
    const library = 'src/modules/alerts/__planted/routes.ts';
    const root = 'src/__planted_root.ts';
    const result = planted(
      {
        [bare]: "export { PlantedService } from './service.ts';\n",
        [wired]: "export { createPlantedokModule, type PlantedokModule } from './module.ts';\n",
        [library]: 'export async function plantedRoutes(): Promise<void> {}\n',
        [root]:
          "import { createTrendsModule, TrendsStore } from './modules/trends/index.ts';\n" +
          "import { registerWebhookHandlers } from './modules/webhooks/index.ts';\n" +
          'export const wire = (db: never) => {\n' +
          '  const trends = createTrendsModule(db);\n' +
          '  const store = new TrendsStore(db);\n' +
          '  registerWebhookHandlers(db);\n' +
          '  return [trends, store];\n' +
          '};\n',
      },
      () => structure([bare, wired, 'src/modules/alerts/index.ts', root].map((rel) => path.join(ROOT, rel))),
    );
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(
      result.stderr,
      /plantedmod\/index\.ts:0 one-wiring-style: index\.ts exports no createPlantedmodModule/,
    );
    assert.doesNotMatch(result.stderr, /plantedok/);
    assert.match(result.stderr, /alerts\/index\.ts:0 one-wiring-style: library module alerts has routes/);
    assert.match(result.stderr, /__planted_root\.ts:5 one-wiring-style: const store = new TrendsStore/);
    assert.match(result.stderr, /__planted_root\.ts:6 one-wiring-style: registerWebhookHandlers/);
    assert.doesNotMatch(result.stderr, /__planted_root\.ts:4 /, 'calling a factory is the one style');
    assert.ok(!fs.existsSync(path.join(ROOT, 'src/modules/plantedmod')), 'the planted folder is removed');
  });
  test('a planted file of 801 lines and one of 301 lines of word lists are each caught; 800 and 300 pass', () => {
    const long = 'src/modules/stream/__planted_long.ts';
    const fits = 'src/modules/stream/__planted_fits.ts';
    const lexicon = 'src/modules/stream/__planted_lexicon.ts';
    const table = 'src/modules/stream/__planted_table.ts';
    const code = (n: number) =>
      Array.from({ length: n }, (_, i) => `export const v${i} = ${i} + 1;`).join('\n');
    const words = (n: number) =>
      `export const WORDS = [\n${Array.from({ length: n - 1 }, (_, i) => `  'w${i}',`).join('\n')}\n  ['x', 1],\n];\n`;
    const result = planted(
      { [long]: `${code(801)}\n`, [fits]: `${code(800)}\n`, [lexicon]: words(301), [table]: words(300) },
      () => structure([long, fits, lexicon, table].map((f) => path.join(ROOT, f))),
    );
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /__planted_long\.ts:0 file-size: 801 lines/);
    assert.match(result.stderr, /__planted_lexicon\.ts:0 literal-data: 301 lines of literal data/);
    assert.doesNotMatch(result.stderr, /__planted_fits|__planted_table/);
  });
  test("a planted query of another owner's table is caught: builder, join, sql template, raw statement", () => {
    // A store of the webhooks module (so that sql-only-in-stores has nothing to say).
    const store = 'src/modules/webhooks/__planted_tables/store.ts';
    const migration = 'src/modules/webhooks/migrations/__planted_tables.ts';
    const platform = 'src/platform/__planted_tables.ts';
    const result = planted(
      {
        [store]:
          "import { sql } from 'kysely';\n" +
          '// biome-ignore lint/suspicious/noExplicitAny: planted\n' +
          'export const planted = (db: any, columns: any) => [\n' +
          "  db.selectFrom('signals').selectAll(),\n" +
          "  db.selectFrom('webhook_subscriptions as s').innerJoin('users as u', 'u.id', 's.user_id'),\n" +
          // After a substitution: the table is in the template's tail.
          '  sql`select $' +
          "{columns} from jobs where status = 'failed'`,\n" +
          "  'update trends set dirty = 1 where id = ?',\n" +
          "  db.selectFrom('webhook_deliveries').leftJoin('webhook_executions as e', 'e.delivery_id', 'id'),\n" +
          '];\n',
        // Migrations may read another owner's tables (as they were at their place in the order).
        [migration]: "export const reads = (db: any) => db.selectFrom('signals').selectAll();\n",
        [platform]: "export const keys = (db: any) => db.updateTable('api_keys').set({ last_used_at: 1 });\n",
      },
      () => structure([store, migration, platform].map((f) => path.join(ROOT, f))),
    );
    assert.equal(result.status, 1, result.stdout + result.stderr);
    const found = result.stderr.split('\n').filter((line) => line.includes('tables-through-their-owner'));
    const at = (file: string, line: number, what: string) =>
      assert.ok(
        found.some((f) => f.includes(`${file}:${line} tables-through-their-owner: ${what}`)),
        `${file}:${line} ${what} not reported:\n${result.stderr}`,
      );
    at(store, 4, 'selectFrom: signals (owned by signals)');
    at(store, 5, 'innerJoin: users (owned by accounts)');
    at(store, 6, 'sql template: jobs (owned by the platform)');
    at(store, 7, 'raw SQL: trends (owned by trends)');
    at(platform, 1, 'updateTable: api_keys (owned by accounts)');
    assert.equal(found.length, 5, `only those five:\n${found.join('\n')}`);
    assert.doesNotMatch(result.stderr, /migrations\/__planted_tables/);
  });

  test('owners are read from the tables files: a new module owning a table is its one owner', () => {
    const tables = 'src/modules/__planted_owner/tables.ts';
    const store = 'src/modules/stream/__planted_owner/store.ts';
    const result = planted(
      {
        [tables]: 'export interface PlantedTables {\n  planted_things: { id: number };\n}\n',
        [store]: "export const read = (db: any) => db.deleteFrom('planted_things');\n",
      },
      () => structure([path.join(ROOT, store), path.join(ROOT, tables)]),
    );
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(
      result.stderr,
      /__planted_owner\/store\.ts:1 tables-through-their-owner: deleteFrom: planted_things \(owned by __planted_owner\)/,
    );
    const twice = planted(
      {
        [tables]: 'export interface PlantedTables {\n  signals: { id: number };\n}\n',
      },
      () => structure([path.join(ROOT, tables)]),
    );
    assert.notEqual(twice.status, 0, 'a table declared by two owners passed');
    assert.match(twice.stderr, /table signals is declared by both/);
  });
});
