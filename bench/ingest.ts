// Ingest scenario of `npm run bench`: signals/s through POST /api/signals (batches of 500) until every signal
// is counted and every trend's metric snapshot is current, against two baselines measured in the same run on
// the same rows, each in this process on one thread, before and after the ingest (ratios use the mean):
// - minimal: the least work any pipeline must do (Crestwatch's VADER score per text, an insert into SQLite);
// - NLP: the least NLP any trend extractor needs on top of that (wink-nlp tokenisation of title and text,
//   the token values read out), then the same VADER score and insert.
// Goals on a 2-core machine with SQLite: ≥ 10,000 signals/s, ≥ 0.5 × the NLP baseline, and reads during the
// ingest at p99 ≤ 50 ms. The ratio to the minimal pipeline is printed too (no goal).
//
// Both baselines are warmed up before they are measured (the JIT, wink's model; each NLP measurement with a wink
// instance that has read the warm-up texts only, as the server's has), and so is the server: each round
// first ingests BENCH_INGEST_WARMUP demo signals of an older week through the same route and waits until they are
// current, as a running service would have (its JIT compiled, its tokenizer memo and its trends filled), then
// measures. The warm-up's own rate, from a cold start, is printed but not judged.
//
// Environment: BENCH_INGEST_SIGNALS (default 50,000), BENCH_INGEST_CONCURRENCY (requests in flight, default 4),
// BENCH_INGEST_ROUNDS (default 1: rounds of the ingest, each on a fresh server and database with the baselines
// measured again after it; the goals are judged on the medians, the spread is printed), BENCH_INGEST_WARMUP
// (default 10,000; 0 measures a cold server), BENCH_INGEST_DATA (default `demo`; `crisislex-t26`: the shared real
// posts of ../shared/data/crisislex-t26 instead, about 22,000 with far fewer repeated texts than the demo's,
// their times moved into the last day; the warm-up adds the shared Sanders brand posts, other real posts, to its
// demo signals), BENCH_INGEST_DATABASE (default `sqlite`;
// `both`: then the same posts on PostgreSQL + Redis, BENCH_POSTGRES_URL and BENCH_REDIS_URL, default the local
// test database and Redis, printing the rate against SQLite's (goal ≥ 0.5) and the WAL per post (goal ≤ 1,500
// bytes), by table and index too where the pg_walinspect extension can be created). Each round also prints the trends and SQLite bytes stored per post.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { allCrisisPosts, CRISISLEX_DIR, parseCsv } from '../scripts/eval/crisislex.ts';
import { generateApiKey } from '../src/modules/accounts/index.ts';
import { demoSignals, toIngestItem } from '../src/modules/signals/index.ts';
import { compound } from '../src/modules/text/index.ts';
import { newWink } from '../src/modules/text/wink.ts';
import {
  type BenchSettings,
  crestwatchOnSqlite,
  makeTempDir,
  progress,
  removeDir,
  setting,
  startTarget,
  type Target,
  threadCpuSeconds,
} from './lib.ts';

const BATCH = 500;
const GOAL_PER_SECOND = 10_000;
const GOAL_NLP_RATIO = 0.5;
const GOAL_READ_P99_MS = 50;

type Item = ReturnType<typeof toIngestItem>;

/** One round's figures: signals/s, the ratios to both baselines and the read p99 (ms). */
interface RoundResult {
  rate: number;
  nlpRatio: number;
  minimalRatio: number;
  p99: number;
}

const median = (sorted: number[]): number => {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A baseline's work on one row before it is inserted; returns the row's sentiment. */
type RowWork = (item: Item) => number;

const textOf = (item: Item): string => String(item.text);
const titleOf = (item: Item): string | null => (typeof item.title === 'string' ? item.title : null);

/** VADER over title and text, as Crestwatch scores a signal: the minimal pipeline's work. */
const sentimentOf: RowWork = (item) => {
  const title = titleOf(item);
  return compound(title ? `${title}. ${textOf(item)}` : textOf(item));
};

/**
 * The NLP baseline's work: wink-nlp tokens of title and text (values read out), then the same VADER. Each
 * measurement takes a new wink instance that has read only `warmWith` (the texts the server is warmed up with):
 * wink remembers every word it has not met before and reads it faster the next time, so an instance that had
 * read the measured texts already would be measured on work the server, meeting them first, cannot skip.
 */
function tokensThenSentiment(warmWith: readonly Item[]): RowWork {
  // An empty pipeline: tokenisation only (no sentence boundaries, part of speech or entities).
  const nlp = newWink([]);
  const work: RowWork = (item) => {
    const title = titleOf(item);
    if (title) nlp.readDoc(title).tokens().out();
    nlp.readDoc(textOf(item)).tokens().out();
    return sentimentOf(item);
  };
  for (const item of warmWith) work(item);
  return work;
}

/** The rows through `work`, each inserted by one prepared statement in 500-row transactions; rows/s. */
function baseline(items: Item[], file: string, work: RowWork): number {
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
      insert.run(row.source, row.external_id, textOf(row), Date.parse(String(row.observed_at)), work(row));
    }
  });
  const started = performance.now();
  for (let i = 0; i < items.length; i += BATCH) batch(items.slice(i, i + BATCH));
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return items.length / seconds;
}

/**
 * The last `count` of the shared real crisis posts (all 22 events, in time order) as ingest items, their times
 * moved into the day before `now` in the same order (the service keeps 60 days; the posts are from 2012–2013).
 */
function realPosts(count: number, now: number): Item[] {
  const posts = allCrisisPosts().slice(-count);
  const spacing = (24 * 3_600_000) / Math.max(1, posts.length);
  return posts.map((post, i) => ({
    source: 'x',
    external_id: post.id,
    text: post.text,
    observed_at: new Date(now - 60_000 - (posts.length - i) * spacing).toISOString(),
  }));
}

/**
 * The shared Sanders brand posts (../shared/data/sanders-twitter-sentiment, 2011: other people, other topics than
 * the crisis posts) as ingest items, an hour before `end`: real posts for the warm-up of a real-post round.
 */
function brandPosts(end: number): Item[] {
  const file = path.resolve(CRISISLEX_DIR, '../sanders-twitter-sentiment/full-corpus.csv');
  const rows = parseCsv(fs.readFileSync(file, 'utf8')).slice(1);
  const posts = rows.filter((row) => /^\d+$/.test(row[2] ?? '') && (row[4] ?? '').trim() !== '');
  return posts.map((row, i) => ({
    source: 'x',
    external_id: `sanders-${row[2]}`,
    text: row[4]!,
    observed_at: new Date(end - 3_600_000 + Math.floor((i * 3_600_000) / posts.length)).toISOString(),
  }));
}

/** Items as POST /api/signals bodies of BATCH signals (UTF-8, ready to send). */
function batchBodies(items: Item[]): Buffer[] {
  const bodies: Buffer[] = [];
  for (let i = 0; i < items.length; i += BATCH)
    bodies.push(Buffer.from(JSON.stringify({ signals: items.slice(i, i + BATCH) })));
  return bodies;
}

/**
 * One request over a kept-alive connection with node:http; answers the status and the body. The bench shares
 * the server's two cores: with fetch its own CPU was about 15 µs per signal posted (the read probe included),
 * with node:http about 5 (docs/benchmarks.md, 2026-12-02).
 */
function send(
  agent: http.Agent,
  url: string,
  key: string,
  body?: Buffer,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${key}` };
    if (body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = body.length;
    }
    const req = http.request(url, { method: body ? 'POST' : 'GET', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function postAll(target: Target, key: string, bodies: Buffer[], concurrency: number): Promise<number> {
  let next = 0;
  let accepted = 0;
  let done = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const res = await send(agent, `${target.url}/api/signals`, key, body);
      if (res.status !== 202) throw new Error(`POST /api/signals answered ${res.status}: ${res.text}`);
      accepted += (JSON.parse(res.text) as { accepted?: number }).accepted ?? 0;
      if (++done % 20 === 0) progress(`  posted ${done}/${bodies.length} batches`);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return accepted;
}

/**
 * The server's CPU time per signal since `before`, by thread: the event loop (the main thread), the busiest
 * other thread (with one NLP worker thread, that one) and the rest (other workers, GC helpers, I/O).
 */
function cpuPerSignal(pid: number, before: Map<number, number>, count: number): string {
  const after = threadCpuSeconds(pid);
  if (after.size === 0) return 'not measured (no /proc)';
  const used = [...after].map(([tid, seconds]) => ({
    tid,
    micros: ((seconds - (before.get(tid) ?? 0)) * 1e6) / count,
  }));
  const total = used.reduce((sum, t) => sum + t.micros, 0);
  const main = used.find((t) => t.tid === pid)?.micros ?? 0;
  const busiest = Math.max(0, ...used.filter((t) => t.tid !== pid).map((t) => t.micros));
  const micros = (value: number) => `${value.toFixed(0)} µs`;
  return (
    `${micros(total)}: event loop ${micros(main)}, busiest other thread ${micros(busiest)}, ` +
    `the rest ${micros(total - main - busiest)} (1/100 s ticks)`
  );
}

/** Reads one after another while the ingest runs: how long a user's request waits behind it. */
function probeReads(target: Target, key: string) {
  const times: number[] = [];
  let running = true;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await send(agent, `${target.url}/api/trends?limit=20`, key);
      if (res.status !== 200) throw new Error(`GET /api/trends answered ${res.status}`);
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop.finally(() => agent.destroy());
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
      return { count: times.length, p50: at(0.5), p99: at(0.99), max: times.at(-1) ?? 0 };
    },
  };
}

/**
 * Waits until no signal is pending and no trend's snapshot is out of date; returns when every signal was
 * first seen counted and when everything was current.
 */
async function waitUntilCurrent(
  file: string,
  timeoutMs: number,
): Promise<{ counted: number; current: number }> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  // Whether any is left, not how many: counting 45,000 pending entries took about 2 ms a poll, CPU this process
  // took from the server's two cores while it drained (an EXISTS reads one index entry).
  const pending = db.prepare('select exists (select 1 from signal_queue) as n');
  const dirty = db.prepare('select exists (select 1 from trend_dirty) as n');
  const started = performance.now();
  let counted: number | undefined;
  try {
    for (;;) {
      const p = (pending.get() as { n: number }).n;
      const d = (dirty.get() as { n: number }).n;
      if (p === 0) counted ??= performance.now();
      if (p === 0 && d === 0) return { counted: counted!, current: performance.now() };
      if (performance.now() - started > timeoutMs) throw new Error(`not current after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    db.close();
  }
}

/** What the PostgreSQL round measured. */
interface PostgresRound {
  rate: number;
  walPerPost: number;
  trends: number;
  /** WAL bytes per post by table or index, when pg_walinspect could be used; null otherwise. */
  walByRelation: { relation: string; perPost: number }[] | null;
}

/**
 * The WAL between two LSNs by the relation each record touched (pg_walinspect, PostgreSQL 15+; the extension is
 * created if the bench's role may), bytes per post, largest first; null when it cannot be read.
 */
async function walByRelation(
  admin: pg.Client,
  schema: string,
  from: string,
  to: string,
  count: number,
): Promise<{ relation: string; perPost: number }[] | null> {
  try {
    await admin.query('create extension if not exists pg_walinspect');
    const { rows } = await admin.query(
      `select coalesce(c.relname, r.resource_manager) as relation, sum(r.record_length) as bytes
         from pg_get_wal_records_info($1, $2) r
         left join pg_class c on c.relfilenode = substring(r.block_ref from 'rel [0-9]+/[0-9]+/([0-9]+)')::oid
           and c.relnamespace = $3::regnamespace
        group by 1 order by 2 desc limit 12`,
      [from, to, `"${schema}"`],
    );
    return rows.map((row) => ({ relation: String(row.relation), perPost: Number(row.bytes) / count }));
  } catch {
    return null;
  }
}

/**
 * The same ingest on PostgreSQL + Redis (BENCH_INGEST_DATABASE=both): a fresh schema in the database at
 * BENCH_POSTGRES_URL (default the local test database) and a fresh Redis key prefix, warmed up the same way; the
 * rate until every signal is counted and every snapshot current, and the WAL the ingest wrote per post.
 */
async function postgresRound(
  tmp: string,
  key: string,
  warmupBodies: Buffer[],
  bodies: Buffer[],
  count: number,
  concurrency: number,
): Promise<PostgresRound> {
  const base = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_ingest_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  let target: Target | undefined;
  try {
    await admin.query(`create schema "${schema}"`);
    const url = new URL(base);
    url.searchParams.set('options', `-c search_path=${schema}`);
    target = await startTarget(
      'crestwatch',
      crestwatchOnSqlite('unused', tmp, key, {
        DATABASE_URL: url.toString(),
        REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_KEY_PREFIX: `${schema}:`,
      }),
    );
    const current = async () => {
      for (const started = performance.now(); performance.now() - started < 600_000; ) {
        const { rows } = await admin.query(
          `select exists (select 1 from "${schema}".signal_queue) as p, ` +
            `exists (select 1 from "${schema}".trend_dirty) as d`,
        );
        if (!rows[0].p && !rows[0].d) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('PostgreSQL: not current after 600 s');
    };
    if (warmupBodies.length > 0) {
      progress('PostgreSQL + Redis: warm-up…');
      await postAll(target, key, warmupBodies, concurrency);
      await current();
    }
    progress('PostgreSQL + Redis: posting…');
    const lsn = async () => (await admin.query('select pg_current_wal_lsn() as l')).rows[0].l as string;
    const before = await lsn();
    const started = performance.now();
    await postAll(target, key, bodies, concurrency);
    await current();
    const seconds = (performance.now() - started) / 1000;
    const after = await lsn();
    const wal = Number((await admin.query('select pg_wal_lsn_diff($1, $2) as b', [after, before])).rows[0].b);
    const trends = Number((await admin.query(`select count(*) as n from "${schema}".trends`)).rows[0].n);
    const byRelation = await walByRelation(admin, schema, before, after, count);
    return { rate: count / seconds, walPerPost: wal / count, trends, walByRelation: byRelation };
  } finally {
    await target?.close();
    await admin.query(`drop schema if exists "${schema}" cascade`).catch(() => undefined);
    await admin.end();
  }
}

/** Trends and metric rows stored, and the database's size after a checkpoint (the server stopped). */
function storedPerPost(file: string): { trends: number; metricRows: number; bytes: number } {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const pages = one('select page_count * page_size as n from pragma_page_count(), pragma_page_size()');
    return {
      trends: one('select count(*) as n from trends'),
      metricRows: one('select count(*) as n from trend_metrics'),
      bytes: pages,
    };
  } finally {
    db.close();
  }
}

export async function runIngestScenario(_settings: BenchSettings): Promise<number> {
  let count: number;
  let concurrency: number;
  let rounds: number;
  let warmup: number;
  let data: string;
  let database: string;
  try {
    count = setting('BENCH_INGEST_SIGNALS', 50_000);
    concurrency = setting('BENCH_INGEST_CONCURRENCY', 4);
    rounds = setting('BENCH_INGEST_ROUNDS', 1);
    warmup = setting('BENCH_INGEST_WARMUP', 10_000, 0);
    data = process.env.BENCH_INGEST_DATA?.trim() || 'demo';
    database = process.env.BENCH_INGEST_DATABASE?.trim() || 'sqlite';
    if (database !== 'sqlite' && database !== 'both')
      throw new Error(`BENCH_INGEST_DATABASE must be sqlite or both, not ${JSON.stringify(database)}`);
    if (data !== 'demo' && data !== 'crisislex-t26')
      throw new Error(`BENCH_INGEST_DATA must be demo or crisislex-t26, not ${JSON.stringify(data)}`);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 2;
  }
  const tmp = makeTempDir();
  const key = generateApiKey().key;
  let target: Target | undefined;
  try {
    process.stdout.write(
      `\nCrestwatch benchmark: ingest ${data === 'demo' ? '' : 'at most '}${count.toLocaleString('en-US')} ` +
        `${data === 'demo' ? 'demo signals' : 'real posts (CrisisLexT26)'} through POST /api/signals ` +
        `(batches of ${BATCH}, ${concurrency} in flight) until metrics are current; goals ≥ ` +
        `${GOAL_PER_SECOND.toLocaleString('en-US')}/s, ≥ ${GOAL_NLP_RATIO} × the NLP baseline, read p99 ≤ ` +
        `${GOAL_READ_P99_MS} ms\n`,
    );
    const now = Date.now();
    let items: Item[];
    if (data === 'crisislex-t26') {
      progress('reading the shared real posts (../shared/data/crisislex-t26)…');
      items = realPosts(count, now);
    } else {
      progress('generating demo signals…');
      items = [];
      for (let hours = 24; items.length < count; hours *= 2) {
        items = demoSignals({ seed: 11, from: now - hours * 3_600_000, to: now - 60_000 }).map(toIngestItem);
      }
      items = items.slice(-count);
    }
    const distinct = new Set(items.map((item) => `${titleOf(item) ?? ''}\n${textOf(item)}`)).size;
    progress(`  ${items.length} signals, ${distinct} distinct texts`);
    count = items.length;
    const bodies = batchBodies(items);
    // The warm-up: the same sources a week earlier (other ids, other hours).
    const weekAgo = now - 7 * 24 * 3_600_000;
    let earlier: Item[] = [];
    for (let hours = 24; warmup > 0 && earlier.length < warmup; hours *= 2) {
      earlier = demoSignals({ seed: 11, from: weekAgo - hours * 3_600_000, to: weekAgo }).map(toIngestItem);
    }
    earlier = earlier.slice(-warmup);
    // Real posts are warmed up on other real posts too: their characters, lengths and phrases take code paths the
    // demo's never do, and V8 compiled them during the measurement (about 4 s of compile threads a round).
    if (data === 'crisislex-t26' && warmup > 0) earlier = [...earlier, ...brandPosts(weekAgo)];
    const warmupBodies = batchBodies(earlier);

    progress('baselines: minimal (VADER + insert), NLP (wink-nlp tokens + VADER + insert)…');
    // Both warmed up first (the JIT, wink's model) on the texts the server is warmed up with, not the measured
    // ones, so neither pays for a start the server skips, nor skips work the server does.
    const warm = earlier.length > 0 ? earlier : items.slice(0, 2_000);
    baseline(warm, path.join(tmp, 'warm-minimal.db'), sentimentOf);
    baseline(warm, path.join(tmp, 'warm-nlp.db'), tokensThenSentiment(warm));
    let minimalBefore = baseline(items, path.join(tmp, 'minimal.db'), sentimentOf);
    let nlpBefore = baseline(items, path.join(tmp, 'nlp.db'), tokensThenSentiment(warm));
    progress(`  minimal ${Math.round(minimalBefore)} signals/s, NLP ${Math.round(nlpBefore)} signals/s`);

    // Each round: a fresh server and database, then the baselines again; a round's ratios use the baselines
    // measured just before and just after it (the mean), as this machine's speed drifts.
    const results: RoundResult[] = [];
    for (let round = 1; round <= rounds; round++) {
      if (rounds > 1) progress(`round ${round} of ${rounds}`);
      progress('starting Crestwatch on a fresh SQLite database…');
      const file = path.join(tmp, `bench-${round}.db`);
      target = await startTarget(
        'crestwatch',
        crestwatchOnSqlite(
          file,
          tmp,
          key,
          process.env.NLP_WORKER_THREADS ? { NLP_WORKER_THREADS: process.env.NLP_WORKER_THREADS } : {},
        ),
        {
          nodeArgs: [
            ...(process.env.BENCH_PROFILE_DIR
              ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
              : []),
            ...(process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
          ],
        },
      );
      let warmed = '';
      if (warmupBodies.length > 0) {
        progress(
          `warm-up: ${earlier.length.toLocaleString('en-US')} signals of a week earlier (not measured)…`,
        );
        const warmStarted = performance.now();
        await postAll(target, key, warmupBodies, concurrency);
        const warmSeconds = ((await waitUntilCurrent(file, 600_000)).current - warmStarted) / 1000;
        warmed =
          `warm-up (a cold server, not judged): ${earlier.length} signals current after ${warmSeconds.toFixed(1)} s → ` +
          `${Math.round(earlier.length / warmSeconds)} signals/s\n`;
      }
      progress('posting…');
      const cpuBefore = threadCpuSeconds(target.pid);
      const clientBefore = process.cpuUsage();
      const probe = probeReads(target, key);
      const started = performance.now();
      const accepted = await postAll(target, key, bodies, concurrency);
      const posted = performance.now();
      progress('waiting until every signal is counted and every snapshot current…');
      const { counted, current } = await waitUntilCurrent(file, 600_000);
      const cpu = cpuPerSignal(target.pid, cpuBefore, count);
      const client = process.cpuUsage(clientBefore);
      const reads = await probe.stop();
      await target.close();
      target = undefined;
      const stored = storedPerPost(file);
      const posts = count + (warmupBodies.length > 0 ? earlier.length : 0);
      progress('baselines again, after the ingest…');
      const minimalAfter = baseline(items, path.join(tmp, `minimal-${round}.db`), sentimentOf);
      const nlpAfter = baseline(items, path.join(tmp, `nlp-${round}.db`), tokensThenSentiment(warm));
      const minimal = (minimalBefore + minimalAfter) / 2;
      const nlpBaseline = (nlpBefore + nlpAfter) / 2;
      const change = (nlpAfter / nlpBefore - 1) * 100;
      const drift = `${change >= 0 ? '+' : ''}${change.toFixed(0)} %`;
      const seconds = (current - started) / 1000;
      const rate = count / seconds;
      const result: RoundResult = {
        rate,
        nlpRatio: rate / nlpBaseline,
        minimalRatio: rate / minimal,
        p99: reads.p99,
      };
      results.push(result);
      process.stdout.write(
        `${warmed}${rounds > 1 ? `round ${round}: ` : ''}accepted ${accepted} of ${count}; posted in ` +
          `${((posted - started) / 1000).toFixed(1)} s, all counted ` +
          `after ${((counted - started) / 1000).toFixed(1)} s, current after ${seconds.toFixed(1)} s → ` +
          `${Math.round(rate)} signals/s\n` +
          `server CPU per signal (read probe included): ${cpu}\n` +
          `the bench's own CPU per signal (posting, the read probe, waiting; on the same cores): ` +
          `${((client.user + client.system) / count).toFixed(1)} µs\n` +
          `baselines (same rows, this process, one thread; before / after the ingest, mean): minimal (VADER + ` +
          `insert) ${Math.round(minimalBefore)} / ${Math.round(minimalAfter)}, ${Math.round(minimal)} signals/s; ` +
          `NLP (wink-nlp tokenisation + VADER + insert) ${Math.round(nlpBefore)} / ${Math.round(nlpAfter)}, ` +
          `${Math.round(nlpBaseline)} signals/s (the NLP baseline moved ${drift} meanwhile)\n` +
          `ratios: ${result.nlpRatio.toFixed(3)} × the NLP baseline, ${result.minimalRatio.toFixed(3)} × the ` +
          'minimal pipeline\n' +
          `stored (warm-up included, ${posts} posts): ${stored.trends} trends ` +
          `(${(stored.trends / posts).toFixed(3)} per post), ${stored.metricRows} metric rows, ` +
          `${Math.round(stored.bytes / posts)} bytes of SQLite per post (after a checkpoint)\n` +
          `reads during the ingest (GET /api/trends?limit=20, one at a time): ${reads.count}, ` +
          `p50 ${reads.p50.toFixed(1)} ms, p99 ${reads.p99.toFixed(1)} ms, max ${reads.max.toFixed(1)} ms\n`,
      );
      if (accepted !== count) throw new Error(`only ${accepted} of ${count} signals were accepted`);
      minimalBefore = minimalAfter;
      nlpBefore = nlpAfter;
    }
    if (database === 'both') {
      const sqliteRate = median(results.map((r) => r.rate).sort((a, b) => a - b));
      const postgres = await postgresRound(tmp, key, warmupBodies, bodies, count, concurrency);
      const ratio = postgres.rate / sqliteRate;
      process.stdout.write(
        `PostgreSQL + Redis (same posts, after the same warm-up): ${Math.round(postgres.rate)} signals/s, ` +
          `${ratio.toFixed(3)} × the SQLite rate (goal ≥ 0.5: ${ratio >= 0.5 ? 'met' : 'not met'}), ` +
          `${Math.round(postgres.walPerPost)} bytes of WAL per post (goal ≤ 1,500: ` +
          `${postgres.walPerPost <= 1500 ? 'met' : 'not met'}), ${postgres.trends} trends\n`,
      );
      if (postgres.walByRelation) {
        const parts = postgres.walByRelation.map((r) => `${r.relation} ${Math.round(r.perPost)}`);
        process.stdout.write(`  WAL bytes per post by relation (pg_walinspect): ${parts.join(', ')}\n`);
      }
    }
    // Several rounds: the goals are judged on the medians, and the spread is printed.
    const summary = (pick: (r: RoundResult) => number) => {
      const values = results.map(pick).sort((a, b) => a - b);
      return { median: median(values), min: values[0]!, max: values.at(-1)! };
    };
    const rate = summary((r) => r.rate);
    const nlpRatio = summary((r) => r.nlpRatio);
    const minimalRatio = summary((r) => r.minimalRatio);
    const p99 = summary((r) => r.p99);
    if (rounds > 1) {
      process.stdout.write(
        `\n${rounds} rounds, median (range): ${Math.round(rate.median)} signals/s ` +
          `(${Math.round(rate.min)}–${Math.round(rate.max)}), ${nlpRatio.median.toFixed(3)} × the NLP baseline ` +
          `(${nlpRatio.min.toFixed(3)}–${nlpRatio.max.toFixed(3)}), read p99 ${p99.median.toFixed(1)} ms ` +
          `(${p99.min.toFixed(1)}–${p99.max.toFixed(1)})\n`,
      );
    }
    const met = {
      rate: rate.median >= GOAL_PER_SECOND,
      ratio: nlpRatio.median >= GOAL_NLP_RATIO,
      reads: p99.median <= GOAL_READ_P99_MS,
    };
    const pass = met.rate && met.ratio && met.reads;
    const mark = (ok: boolean) => (ok ? 'met' : 'not met');
    const of = rounds > 1 ? 'median ' : '';
    process.stdout.write(
      `\nRESULT: ${pass ? 'PASS' : 'FAIL'}: ${of}${Math.round(rate.median)} signals/s (goal ≥ ${GOAL_PER_SECOND}: ` +
        `${mark(met.rate)}), ${of}${nlpRatio.median.toFixed(3)} × the NLP baseline (goal ≥ ${GOAL_NLP_RATIO}: ` +
        `${mark(met.ratio)}), ${of}${minimalRatio.median.toFixed(3)} × the minimal pipeline (no goal), ${of}read ` +
        `p99 ${p99.median.toFixed(1)} ms (goal ≤ ${GOAL_READ_P99_MS}: ${mark(met.reads)})` +
        `${pass ? '' : '; a report, exit code 0'}\n`,
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
