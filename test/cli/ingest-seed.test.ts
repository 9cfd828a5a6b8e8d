import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Database } from '../../src/database.ts';
import { openDatabase } from '../../src/platform/db/index.ts';
import { TEST_SECRET_KEY } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

function cliFor(database: TestDatabase) {
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    SECRET_KEY: TEST_SECRET_KEY,
    DATABASE_POOL_SIZE: '2',
    SOURCES: 'none',
  };
  return (...args: string[]) =>
    spawnSync(process.execPath, ['bin/crestwatch.mjs', ...args], { env, encoding: 'utf8', timeout: 60_000 });
}

async function trendKeys(database: TestDatabase): Promise<string[]> {
  const handle = openDatabase<Database>(database.config);
  try {
    return (await handle.db.selectFrom('trends').select('key').execute()).map((r) => r.key);
  } finally {
    await handle.close();
  }
}

describe('crestwatch ingest', () => {
  let database: TestDatabase;
  let cli: ReturnType<typeof cliFor>;
  before(async () => {
    database = await createTestDatabase();
    cli = cliFor(database);
  });
  after(async () => database.drop());

  const at = new Date(Date.now() - 30 * 60_000).toISOString();
  const lines = [
    JSON.stringify({
      source: 'x',
      external_id: 'a1',
      text: 'Loving the #AuroraLaunch today',
      observed_at: at,
    }),
    '{"source": "x", "external_id": ',
    JSON.stringify({ source: 'reddit', external_id: 'b1', text: 'The #AuroraLaunch stream was great' }),
    JSON.stringify({ source: 'x', external_id: 'c1' }),
    '',
    JSON.stringify({
      source: 'x',
      external_id: 'a1',
      text: 'Loving the #AuroraLaunch today',
      observed_at: at,
    }),
    JSON.stringify({ source: 'x', external_id: 'd1', text: 'Hello', extra: true }),
    '[1, 2]',
    JSON.stringify({
      source: 'bluesky',
      external_id: 'e1',
      text: 'Terrible #AuroraLaunch delay',
      lang: 'en',
    }),
  ];

  test('streams a JSON Lines file in batches and reports every rejected line by number', async () => {
    const file = path.join(database.dataDir, 'signals.jsonl');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const run = cli('ingest', file, '--batch', '2');
    assert.equal(run.status, 0, run.stderr);
    const out = run.stdout;
    assert.match(out, /^accepted 3, duplicates 1, rejected 4$/m);
    assert.match(out, /^ {2}line 2: not valid JSON/m);
    assert.match(out, /^ {2}line 4: text is required$/m);
    assert.match(out, /^ {2}line 7: extra is not an accepted field$/m);
    assert.match(out, /^ {2}line 8: item must be object$/m);
    const order = [...out.matchAll(/^ {2}line (\d+):/gm)].map((m) => Number(m[1]));
    assert.deepEqual(order, [2, 4, 7, 8]);
    assert.match(run.stderr, /ingest: done, 9 lines/);
    assert.deepEqual(await trendKeys(database), [], 'ingest alone stores signals only');

    const again = cli('ingest', file, '--process');
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^accepted 0, duplicates 4, rejected 4$/m);
    assert.match(again.stdout, /^processed 3 signals, \d+ mentions; \d+ trends stored$/m);
    assert.match(again.stderr, /process: done, 3 signals/);
    assert.ok((await trendKeys(database)).includes('aurora launch'));
  });

  test('a file that cannot be read exits 1; bad arguments exit 2', () => {
    const missing = cli('ingest', path.join(database.dataDir, 'nope.jsonl'));
    assert.equal(
      missing.status,
      1,
      `signal ${missing.signal}, error ${missing.error?.message}, stderr: ${missing.stderr?.slice(-2000)}`,
    );
    assert.match(missing.stderr, /ENOENT/);
    const directory = cli('ingest', database.dataDir);
    assert.equal(directory.status, 1);
    assert.match(directory.stderr, /EISDIR/);
    const noFile = cli('ingest');
    assert.equal(noFile.status, 2);
    assert.match(noFile.stderr, /ingest needs one FILE\.jsonl/);
    const badBatch = cli('ingest', 'x.jsonl', '--batch', '0');
    assert.equal(badBatch.status, 2);
    assert.match(badBatch.stderr, /--batch must be a whole number from 1 to 10000/);
  });
});

describe('crestwatch seed', () => {
  let database: TestDatabase;
  let cli: ReturnType<typeof cliFor>;
  before(async () => {
    database = await createTestDatabase();
    cli = cliFor(database);
  });
  after(async () => database.drop());

  test('seed --demo --hours 2 stores simulated history and turns it into trends; re-running is safe', async () => {
    const run = cli('seed', '--demo', '--hours', '2', '--seed', '42');
    assert.equal(run.status, 0, run.stderr);
    const seeded = /generated (\d+), accepted (\d+), duplicates (\d+), rejected (\d+)/.exec(run.stdout);
    assert.ok(seeded, run.stdout);
    const [generated, accepted, duplicates, rejected] = seeded.slice(1).map(Number);
    assert.ok(generated! > 5000, `${generated} signals for 2 hours`);
    assert.equal(accepted, generated);
    assert.equal(duplicates, 0);
    assert.equal(rejected, 0);
    const processed = /Processed (\d+) signals \(\d+ mentions\); (\d+) trends stored/.exec(run.stdout);
    assert.ok(processed, run.stdout);
    assert.equal(Number(processed[1]), generated);
    const keys = await trendKeys(database);
    assert.equal(Number(processed[2]), keys.length);
    assert.ok(keys.length >= 50, `${keys.length} trends`);
    assert.match(run.stderr, /generate: done/);
    assert.match(run.stderr, /process: done/);

    const again = cli('seed', '--demo', '--hours', '2', '--seed', '42');
    assert.equal(again.status, 0, again.stderr);
    const [generated2, accepted2, duplicates2] = /generated (\d+), accepted (\d+), duplicates (\d+)/
      .exec(again.stdout)!
      .slice(1)
      .map(Number);
    assert.ok(duplicates2! >= generated2! * 0.9, again.stdout);
    assert.equal(accepted2! + duplicates2!, generated2);
  });

  test('arguments are validated', () => {
    const noDemo = cli('seed', '--hours', '2');
    assert.equal(noDemo.status, 2);
    assert.match(noDemo.stderr, /seed needs --demo/);
    const bad = cli('seed', '--demo', '--hours', '721');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--hours must be a whole number from 1 to 720 \(got 721\)/);
  });
});
