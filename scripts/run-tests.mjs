// Runs the test files (Node 20's test runner does not expand globs) and prints the slowest files at the end.
//
//   node scripts/run-tests.mjs [--only=backend|independent] [--concurrency=N] [filter …]
//
// A file *depends on the backend* when something it imports within test/ reads TEST_DATABASE_URL or
// TEST_REDIS_URL (test/helpers/db.ts does): its outcome can differ between SQLite and PostgreSQL + Redis. The
// other files give the same answer whatever the backend, so CI runs them once (--only=backend on PostgreSQL).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

function find(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'fixtures' || entry.name === 'helpers' ? [] : find(full);
      return entry.name.endsWith('.test.ts') ? [full] : [];
    })
    .sort();
}

const BACKEND_ENV = /\bTEST_(DATABASE|REDIS)_URL\b/;
const IMPORT = /(?:from\s*|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g;
const testDir = path.join(ROOT, 'test');
const memo = new Map();

/** Whether `file`, or a file it imports within test/, reads the backend's environment variables. */
export function dependsOnBackend(file, seen = new Set()) {
  if (memo.has(file)) return memo.get(file);
  if (seen.has(file) || !fs.existsSync(file)) return false;
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  let depends = BACKEND_ENV.test(text);
  for (const match of text.matchAll(IMPORT)) {
    if (depends) break;
    const target = path.resolve(path.dirname(file), match[1]);
    if (target.startsWith(testDir + path.sep)) depends = dependsOnBackend(target, seen);
  }
  memo.set(file, depends);
  return depends;
}

function main() {
  const args = process.argv.slice(2);
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const concurrency = Number(args.find((a) => a.startsWith('--concurrency='))?.slice(14) ?? 2);
  const filters = args.filter((a) => !a.startsWith('--'));
  if (only && only !== 'backend' && only !== 'independent') {
    console.error(`--only must be backend or independent, not ${only}`);
    process.exit(2);
  }
  const files = find('test')
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .filter((f) => !only || dependsOnBackend(path.resolve(f)) === (only === 'backend'));
  if (files.length === 0) {
    console.error('No test files matched.');
    process.exit(1);
  }
  const target = process.env.TEST_DATABASE_URL ? 'PostgreSQL + Redis' : 'SQLite (in-process limits)';
  const which =
    only === 'backend' ? ' that depend on the backend' : only ? ' that do not depend on the backend' : '';
  console.log(`Running ${files.length} test files${which} on ${target}`);
  const timings = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-timings-')), 'timings.jsonl');
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      // Node 20 applies it to each file as a whole too: a safety net for a hung file, not a speed goal.
      '--test-timeout=600000',
      '--test-reporter=tap',
      '--test-reporter-destination=stdout',
      `--test-reporter=${path.join(ROOT, 'scripts', 'test-timings.mjs')}`,
      `--test-reporter-destination=${timings}`,
      ...files,
    ],
    { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
  );
  child.on('exit', (code, signal) => {
    printSlowest(timings, (Date.now() - started) / 1000);
    process.exit(code ?? (signal ? 1 : 0));
  });
}

/** The ten files that took longest (the sum of their top-level tests), for whoever speeds the suite up next. */
function printSlowest(timings, wallSeconds) {
  if (!fs.existsSync(timings)) return;
  const perFile = new Map();
  for (const line of fs.readFileSync(timings, 'utf8').split('\n')) {
    if (!line) continue;
    const { file, ms } = JSON.parse(line);
    perFile.set(file, (perFile.get(file) ?? 0) + ms);
  }
  const rows = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 10);
  console.log(`\nWall time ${wallSeconds.toFixed(0)} s. Slowest files:`);
  for (const [file, ms] of rows)
    console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${path.relative(ROOT, file)}`);
  fs.rmSync(path.dirname(timings), { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) main();
