// Runs the test files and prints the slowest ones at the end.
//
//   node scripts/run-tests.mjs [--only=backend|independent] [--concurrency=N] [--isolate] [filter …]
//
// Files run in `--concurrency` worker processes (default 2, the machine's cores), each taking the next file from
// a shared queue as it finishes one (scripts/test-worker.mjs): a file is a suite named by its path, and the
// modules files share are loaded once per worker. `--isolate` runs each file in a process of its own instead
// (Node's own runner), for a file suspected of leaking state into the next.
//
// A file *depends on the backend* when something it imports within test/ reads TEST_DATABASE_URL or
// TEST_REDIS_URL (test/helpers/db.ts does): its outcome can differ between SQLite and PostgreSQL + Redis. The
// other files give the same answer whatever the backend, so CI runs them once (--only=backend on PostgreSQL).
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

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

/** Files that start processes of their own go first: they are the long ones, and a long file last stretches the run. */
function longestFirst(files) {
  const spawns = (file) =>
    /\b(spawn|spawnSync|execFile|execFileSync|fork)\(/.test(fs.readFileSync(file, 'utf8'));
  const first = files.filter(spawns);
  return [...first, ...files.filter((file) => !first.includes(file))];
}

function main() {
  const args = process.argv.slice(2);
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const concurrency = Number(args.find((a) => a.startsWith('--concurrency='))?.slice(14) ?? 2);
  const isolate = args.includes('--isolate');
  const filters = args.filter((a) => !a.startsWith('--'));
  if (only && only !== 'backend' && only !== 'independent') {
    console.error(`--only must be backend or independent, not ${only}`);
    process.exit(2);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    console.error('--concurrency must be a whole number of at least 1');
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
  const results = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-tests-')), 'results.jsonl');
  const started = Date.now();
  const finish = (failed) => {
    const ok = summarise(results, files, (Date.now() - started) / 1000, isolate);
    fs.rmSync(path.dirname(results), { recursive: true, force: true });
    process.exit(failed || !ok ? 1 : 0);
  };
  if (isolate) runIsolated(files, concurrency, results, finish);
  else runInWorkers(longestFirst(files), concurrency, results, finish);
}

const env = (results) => ({ ...process.env, NODE_ENV: 'test', TEST_RESULTS: results });
const REPORTER = path.join(ROOT, 'scripts', 'test-report.mjs');

/** Each worker's output, forwarded whole lines at a time so two workers' lines never mix. */
function forward(stream, out) {
  readline.createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
    out.write(`${line}\n`);
  });
}

/** A worker that outlives its last file by this long holds a server, socket or timer a test left open. */
const EXIT_GRACE_MS = 30_000;

function runInWorkers(files, concurrency, results, finish) {
  const queue = [...files];
  let running = 0;
  let failed = false;
  const start = () => {
    running++;
    const worker = fork(path.join(ROOT, 'scripts', 'test-worker.mjs'), [], {
      cwd: ROOT,
      env: env(results),
      execArgv: ['--import', 'tsx', `--test-reporter=${REPORTER}`, '--test-reporter-destination=stdout'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    forward(worker.stdout, process.stdout);
    forward(worker.stderr, process.stderr);
    let current = null;
    let lingering;
    worker.on('message', () => {
      current = queue.shift() ?? null;
      worker.send({ file: current });
      if (current === null)
        lingering = setTimeout(() => {
          console.error(`A worker was still running ${EXIT_GRACE_MS / 1000} s after its last file: stopped.`);
          failed = true;
          worker.kill('SIGKILL');
        }, EXIT_GRACE_MS);
    });
    worker.on('exit', (code, signal) => {
      clearTimeout(lingering);
      running--;
      if (current !== null) {
        console.error(
          `not ok ${current}: its worker ended (${signal ?? `exit code ${code}`}) before the file did`,
        );
        failed = true;
        // The files still queued get a fresh worker.
        if (queue.length > 0) start();
      } else if (code !== 0) failed = true;
      if (running === 0) finish(failed);
    });
  };
  for (let i = 0; i < Math.min(concurrency, files.length); i++) start();
}

/** Node's own runner: a process per file. */
function runIsolated(files, concurrency, results, finish) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-timeout=600000',
      '--test-reporter=tap',
      '--test-reporter-destination=stdout',
      ...files,
    ],
    { stdio: 'inherit', env: env(results) },
  );
  child.on('exit', (code, signal) => finish(code !== 0 || signal !== null));
}

/** Totals and the ten slowest files (for whoever speeds the suite up next); false when a file never reported. */
function summarise(results, files, wallSeconds, isolate) {
  if (isolate) {
    console.log(`\nWall time ${wallSeconds.toFixed(0)} s.`);
    return true;
  }
  const rows = fs.existsSync(results)
    ? fs
        .readFileSync(results, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  const total = { pass: 0, fail: 0, skip: 0, todo: 0 };
  for (const row of rows) for (const key of Object.keys(total)) total[key] += row[key];
  const reported = new Set(rows.map((row) => row.file));
  const missing = files.filter((file) => !reported.has(file));
  const failedFiles = rows.filter((row) => row.failed).map((row) => row.file);
  console.log(
    `\n${rows.length} files: ${total.pass} tests passed, ${total.fail} failed, ${total.skip} skipped, ` +
      `${total.todo} todo. Wall time ${wallSeconds.toFixed(0)} s. Slowest files:`,
  );
  for (const row of [...rows].sort((a, b) => b.ms - a.ms).slice(0, 10))
    console.log(`  ${(row.ms / 1000).toFixed(1).padStart(7)} s  ${row.file}`);
  // TEST_TIMINGS=<file> keeps every file's time, to compare runs.
  if (process.env.TEST_TIMINGS)
    fs.writeFileSync(
      process.env.TEST_TIMINGS,
      rows.map((row) => `${(row.ms / 1000).toFixed(1)}\t${row.file}\n`).join(''),
    );
  if (failedFiles.length) console.log(`\nFailed: ${failedFiles.join(', ')}`);
  if (missing.length) console.log(`\nNever finished: ${missing.join(', ')}`);
  return failedFiles.length === 0 && missing.length === 0;
}

if (import.meta.url === `file://${process.argv[1]}`) main();
