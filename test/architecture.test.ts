// The structure rules `npm run lint` enforces (.dependency-cruiser.cjs, scripts/lint-structure.ts) hold, and
// they catch a violation when one is planted (then removed).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

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

function structure(files?: string[]) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/lint-structure.ts', ...(files ? ['--files', ...files] : [])],
    { cwd: ROOT, encoding: 'utf8' },
  );
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

  test('SQL only in stores, the injected clock and one wiring style hold', () => {
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

  test('a planted query outside a store and a planted Date.now() are each caught', () => {
    const file = 'src/modules/stream/__planted_sql.ts';
    const result = planted(
      {
        [file]:
          'export const count = (db: { selectFrom(t: string): unknown }) => db.selectFrom("jobs");\n' +
          'export const now = () => Date.now();\n',
      },
      () => structure([path.join(ROOT, file)]),
    );
    assert.equal(result.status, 1, result.stdout + result.stderr);
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
});
