// CI runs a test file on PostgreSQL + Redis only when its outcome can depend on the backend: the classification
// must follow imports within test/, so a file reaching test/helpers/db.ts through a helper still runs there.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: a plain .mjs script without type declarations
import { dependsOnBackend } from '../../scripts/run-tests.mjs';

const TEST_DIR = path.resolve(import.meta.dirname, '..');

test('a file depends on the backend through any chain of imports within test/ that reaches its variables', (t) => {
  const dir = fs.mkdtempSync(path.join(TEST_DIR, '__planted_classify_'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  write('helper.ts', "import { usingPostgres } from '../helpers/db.ts';\nexport const pg = usingPostgres;\n");
  write('pure.ts', "import assert from 'node:assert';\nexport const same = assert;\n");
  const direct = write('direct.test.ts', "import { createTestDatabase } from '../helpers/db.ts';\n");
  const chained = write('chained.test.ts', "import { pg } from './helper.ts';\n");
  const dynamic = write('dynamic.test.ts', "const m = await import('./helper.ts');\n");
  const env = write('env.test.ts', 'const url = process.env.TEST_REDIS_URL;\n');
  const independent = write(
    'independent.test.ts',
    "import { same } from './pure.ts';\nimport '../../src/app.ts';\n",
  );
  assert.equal(dependsOnBackend(direct), true);
  assert.equal(dependsOnBackend(chained), true);
  assert.equal(dependsOnBackend(dynamic), true);
  assert.equal(dependsOnBackend(env), true);
  assert.equal(dependsOnBackend(independent), false, 'imports outside test/ are not followed');
});

test('the app helper and the real suite: files that build an app run on both backends', () => {
  assert.equal(dependsOnBackend(path.join(TEST_DIR, 'modules/trends/velocity.test.ts')), true);
  assert.equal(dependsOnBackend(path.join(TEST_DIR, 'platform/dates.test.ts')), false);
});

test('workers run every file, report each failure with its error, and replace a worker a file ended', (t) => {
  const dir = fs.mkdtempSync(path.join(TEST_DIR, '__planted_runner_'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const plant = (name: string, body: string) =>
    fs.writeFileSync(
      path.join(dir, name),
      `import assert from 'node:assert/strict';\nimport { after, test } from 'node:test';\n${body}`,
    );
  plant(
    'a-pass.test.ts',
    "const order: string[] = [];\ntest('one', () => { order.push('test'); });\nafter(() => assert.deepEqual(order, ['test']));\n",
  );
  plant(
    'b-fail.test.ts',
    "test('adds up', () => { assert.equal(1 + 1, 3); });\ntest('still runs', () => {});\n",
  );
  plant('c-import.test.ts', "throw new Error('broken at import');\n");
  plant('d-exit.test.ts', "test('ends the process', () => { process.exit(3); });\n");
  plant('e-pass.test.ts', "test('after a replaced worker', () => {});\n");
  const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', '--concurrency=1', path.basename(dir)], {
    cwd: path.resolve(TEST_DIR, '..'),
    encoding: 'utf8',
    env: { ...process.env, TEST_DATABASE_URL: '', TEST_REDIS_URL: '' },
  });
  const out = run.stdout + run.stderr;
  const rel = (name: string) => `test/${path.basename(dir)}/${name}`;
  assert.equal(run.status, 1, out);
  assert.match(out, new RegExp(`ok +[\\d.]+ s  ${rel('a-pass.test.ts')}  \\(1 passed\\)`));
  assert.match(out, new RegExp(`not ok ${rel('b-fail.test.ts')} › adds up\\n[^]*3`));
  assert.match(out, new RegExp(`FAIL +[\\d.]+ s  ${rel('b-fail.test.ts')}  \\(1 passed, 1 failed\\)`));
  assert.match(out, new RegExp(`not ok ${rel('c-import.test.ts')}\\n[^]*broken at import`));
  assert.match(out, new RegExp(`not ok ${rel('d-exit.test.ts')}: its worker ended \\(exit code 3\\)`));
  assert.match(out, new RegExp(`ok +[\\d.]+ s  ${rel('e-pass.test.ts')}  \\(1 passed\\)`));
  assert.match(out, /4 files: 3 tests passed, 1 failed/);
  assert.match(out, new RegExp(`Never finished: ${rel('d-exit.test.ts')}`));
});
