// Node 20's test runner does not expand globs: find the test files and hand them over.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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

const filters = process.argv.slice(2);
const files = find('test').filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}
const target = process.env.TEST_DATABASE_URL ? 'PostgreSQL + Redis' : 'SQLite (in-process limits)';
console.log(`Running ${files.length} test files on ${target}`);
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=120000', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
