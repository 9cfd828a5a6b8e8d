// Ingest scenario of `npm run bench`: signals/s through POST /api/signals (batches of 500) until every signal
// is counted and every trend's metric snapshot is current, against the least work any pipeline must do for
// the same rows (VADER-score each text and insert it into a SQLite table) measured in the same run.
// Goals on a 2-core machine with SQLite: ≥ 10,000 signals/s, and ≥ 0.5 × the minimal pipeline.
//
// Environment: BENCH_INGEST_SIGNALS (default 50,000), BENCH_INGEST_CONCURRENCY (requests in flight, default 4).
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateApiKey } from '../src/modules/accounts/index.ts';
import { demoSignals, toIngestItem } from '../src/modules/signals/index.ts';
import { compound } from '../src/modules/trends/index.ts';
import {
  type BenchSettings,
  makeTempDir,
  progress,
  removeDir,
  setting,
  startTarget,
  type Target,
} from './lib.ts';

const BATCH = 500;
const GOAL_PER_SECOND = 10_000;
const GOAL_RATIO = 0.5;

type Item = ReturnType<typeof toIngestItem>;

/** The same rows through the least work: VADER per text, then one insert per row in 500-row transactions. */
function minimalPipeline(items: Item[], file: string): number {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'create table signals (id integer primary key, source text not null, external_id text not null, ' +
      'text text not null, observed_at integer not null, sentiment real not null, unique (source, external_id))',
  );
  const insert = db.prepare(
    'insert into signals (source, external_id, text, observed_at, sentiment) values (?, ?, ?, ?, ?) ' +
      'on conflict do nothing',
  );
  const batch = db.transaction((rows: Item[]) => {
    for (const row of rows) {
      const text = String(row.text);
      insert.run(row.source, row.external_id, text, Date.parse(String(row.observed_at)), compound(text));
    }
  });
  const started = performance.now();
  for (let i = 0; i < items.length; i += BATCH) batch(items.slice(i, i + BATCH));
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return items.length / seconds;
}

async function postAll(target: Target, key: string, bodies: string[], concurrency: number): Promise<number> {
  let next = 0;
  let accepted = 0;
  let done = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const res = await fetch(`${target.url}/api/signals`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      });
      const answer = (await res.json()) as { accepted?: number };
      if (res.status !== 202)
        throw new Error(`POST /api/signals answered ${res.status}: ${JSON.stringify(answer)}`);
      accepted += answer.accepted ?? 0;
      if (++done % 20 === 0) progress(`  posted ${done}/${bodies.length} batches`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return accepted;
}

/** Reads one after another while the ingest runs: how long a user's request waits behind it. */
function probeReads(target: Target, key: string) {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${target.url}/api/trends?limit=20`, {
        headers: { authorization: `Bearer ${key}` },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET /api/trends answered ${res.status}`);
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
      return { count: times.length, p50: at(0.5), p99: at(0.99), max: times.at(-1) ?? 0 };
    },
  };
}

/** Waits until no signal is pending and no trend's snapshot is out of date; returns when that happened. */
async function waitUntilCurrent(file: string, timeoutMs: number): Promise<number> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const pending = db.prepare('select count(*) as n from signals where processed_at is null');
  const dirty = db.prepare('select count(*) as n from trends where dirty > 0');
  const started = performance.now();
  try {
    for (;;) {
      const p = (pending.get() as { n: number }).n;
      const d = (dirty.get() as { n: number }).n;
      if (p === 0 && d === 0) return performance.now();
      if (performance.now() - started > timeoutMs) throw new Error(`not current after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    db.close();
  }
}

export async function runIngestScenario(_settings: BenchSettings): Promise<number> {
  let count: number;
  let concurrency: number;
  try {
    count = setting('BENCH_INGEST_SIGNALS', 50_000);
    concurrency = setting('BENCH_INGEST_CONCURRENCY', 4);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 2;
  }
  const tmp = makeTempDir();
  const key = generateApiKey().key;
  let target: Target | undefined;
  try {
    process.stdout.write(
      `\nCrestwatch benchmark: ingest ${count.toLocaleString('en-US')} demo signals through POST /api/signals ` +
        `(batches of ${BATCH}, ${concurrency} in flight) until metrics are current; goals ≥ ` +
        `${GOAL_PER_SECOND.toLocaleString('en-US')}/s and ≥ ${GOAL_RATIO} × the minimal pipeline\n`,
    );
    progress('generating demo signals…');
    const now = Date.now();
    let items: Item[] = [];
    for (let hours = 24; items.length < count; hours *= 2) {
      items = demoSignals({ seed: 11, from: now - hours * 3_600_000, to: now - 60_000 }).map(toIngestItem);
    }
    items = items.slice(-count);
    const bodies: string[] = [];
    for (let i = 0; i < items.length; i += BATCH)
      bodies.push(JSON.stringify({ signals: items.slice(i, i + BATCH) }));

    progress('minimal pipeline (VADER + insert)…');
    const minimal = minimalPipeline(items, path.join(tmp, 'minimal.db'));
    progress(`  ${Math.round(minimal)} signals/s`);

    progress('starting Crestwatch on a fresh SQLite database…');
    const file = path.join(tmp, 'bench.db');
    target = await startTarget(
      'crestwatch',
      {
        kind: 'crestwatch',
        env: {
          DATABASE_URL: `sqlite:${file}`,
          DATA_DIR: tmp,
          SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789',
          BOOTSTRAP_API_KEY: key,
          LOG_LEVEL: 'silent',
          SOURCES: 'none',
          ...(process.env.NLP_WORKER_THREADS ? { NLP_WORKER_THREADS: process.env.NLP_WORKER_THREADS } : {}),
          PLANS: JSON.stringify({ enterprise: { burst_per_second: 1_000_000 } }),
        },
      },
      process.env.BENCH_PROFILE_DIR
        ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] }
        : {},
    );
    progress('posting…');
    const probe = probeReads(target, key);
    const started = performance.now();
    const accepted = await postAll(target, key, bodies, concurrency);
    const posted = performance.now();
    progress('waiting until every signal is counted and every snapshot current…');
    const current = await waitUntilCurrent(file, 600_000);
    const reads = await probe.stop();
    const seconds = (current - started) / 1000;
    const rate = count / seconds;
    const ratio = rate / minimal;
    process.stdout.write(
      `accepted ${accepted} of ${count}; posted in ${((posted - started) / 1000).toFixed(1)} s, current after ` +
        `${seconds.toFixed(1)} s → ${Math.round(rate)} signals/s\n` +
        `minimal pipeline (VADER + insert, same rows, this process): ${Math.round(minimal)} signals/s\n` +
        `reads during the ingest (GET /api/trends?limit=20, one at a time): ${reads.count}, ` +
        `p50 ${reads.p50.toFixed(1)} ms, p99 ${reads.p99.toFixed(1)} ms, max ${reads.max.toFixed(1)} ms\n`,
    );
    if (accepted !== count) throw new Error(`only ${accepted} of ${count} signals were accepted`);
    const pass = rate >= GOAL_PER_SECOND && ratio >= GOAL_RATIO;
    process.stdout.write(
      `\nRESULT: ${pass ? 'PASS' : 'FAIL'}: ${Math.round(rate)} signals/s (goal ≥ ${GOAL_PER_SECOND}), ` +
        `${ratio.toFixed(3)} × the minimal pipeline (goal ≥ ${GOAL_RATIO})` +
        `${pass ? '' : ' (not met; this is a report, exit code 0)'}\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`\nbenchmark failed: ${(error as Error).stack ?? error}\n`);
    return 1;
  } finally {
    await target?.close();
    removeDir(tmp);
  }
}
