// `npm run bench`: five scenarios, each measured against a baseline in the same run, and a load test.
// - pipeline: the overhead of Crestwatch's request pipeline (auth, burst limit, quota, usage counting, hooks,
//   response schema) on GET /api/user/profile, against a bare Fastify app serving the same JSON (goal ≥ 0.6);
// - trends: GET /api/trends?limit=20 over a few hundred demo trends, against the same bare app (goal ≥ 0.6);
// - ingest: signals/s through POST /api/signals until metrics are current (bench/ingest.ts);
// - webhooks, stream: signed deliveries/s and latency to 1,000 subscriptions, stream fan-out to 1,000
//   clients (bench/webhooks.ts);
// - load: 60 s of mixed traffic against two instances on PostgreSQL + Redis (bench/load.ts); only when named,
//   since it needs both services.
// Scenario names as arguments (`npm run bench -- load`) or in BENCH_SCENARIOS (comma list) pick some; the
// arguments win. Default: all but load.
//
// Each server runs in its own process; autocannon runs here. Targets are warmed up, then measured alternately
// (baseline, measured) so both see the same machine conditions. Exit code 0 whether or not the goal is met;
// 1 only when the benchmark itself could not run or its checks failed.
//
// Environment: BENCH_DURATION (s, default 5), BENCH_CONNECTIONS (default 50), BENCH_WARMUP (s, default 2),
// BENCH_PIPELINING (default 1), BENCH_ROUNDS (default 3), BENCH_PROFILE_DIR (write V8 CPU profiles of both
// servers under it; profiling slows them, so the ratio of such a run means little), BENCH_NODE_ARGS (Node/V8
// flags for the Crestwatch process of the ingest scenario, to try runtime settings, e.g. --single-threaded-gc).
import os from 'node:os';
import path from 'node:path';
import { generateApiKey } from '../src/modules/accounts/index.ts';
import { demoSignals, toIngestItem } from '../src/modules/signals/index.ts';
import { runIngestScenario } from './ingest.ts';
import {
  type BenchSettings,
  benchSettings,
  combine,
  cpuPerRequest,
  crestwatchOnSqlite,
  type LoadSummary,
  makeTempDir,
  progress,
  removeDir,
  report,
  runAutocannon,
  startTarget,
  type Target,
  verdict,
} from './lib.ts';
import { runLoadScenario } from './load.ts';
import { runStreamScenario, runWebhooksScenario } from './webhooks.ts';

const GOAL_RATIO = 0.6;
const USAGE_ROUTE = '/api/user/api-usage';
const SCENARIOS = ['pipeline', 'trends', 'ingest', 'webhooks', 'stream', 'load'] as const;
type Scenario = (typeof SCENARIOS)[number];
/** What runs when nothing is named: load needs PostgreSQL and Redis, so it runs only when asked for. */
const DEFAULT_SCENARIOS: Scenario[] = ['pipeline', 'trends', 'ingest', 'webhooks', 'stream'];

interface RouteScenario {
  route: string;
  /** Loads data into the fresh server first; returns how many authenticated requests it made. */
  prepare?: (url: string, headers: Record<string, string>) => Promise<number>;
}

const ROUTE_SCENARIOS: Record<Exclude<Scenario, 'ingest' | 'webhooks' | 'stream' | 'load'>, RouteScenario> = {
  pipeline: { route: '/api/user/profile' },
  trends: { route: '/api/trends?limit=20', prepare: seedTrends },
};

/** Posts 2 hours of demo signals (batches of 500) and waits until they show as trends. */
async function seedTrends(url: string, headers: Record<string, string>): Promise<number> {
  const now = Date.now();
  const signals = demoSignals({ seed: 7, from: now - 2 * 3_600_000, to: now }).map(toIngestItem);
  let requests = 0;
  for (let i = 0; i < signals.length; i += 500) {
    const res = await fetch(`${url}/api/signals`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ signals: signals.slice(i, i + 500) }),
    });
    requests++;
    check(res.status === 202, `POST /api/signals answered ${res.status}`);
    await res.arrayBuffer();
  }
  progress(`posted ${signals.length} demo signals; waiting for trends…`);
  for (let waited = 0; waited < 120; waited++) {
    const res = await fetch(`${url}/api/trends?limit=1`, { headers });
    requests++;
    const body = (await res.json()) as { total?: number };
    if ((body.total ?? 0) >= 100) {
      // One more second so the recompute loop has settled.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      progress(`${body.total} trends`);
      return requests;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new CheckFailed('fewer than 100 trends two minutes after seeding');
}
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

class CheckFailed extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

async function main(): Promise<number> {
  let settings: BenchSettings;
  let scenarios: Scenario[];
  try {
    settings = benchSettings();
    scenarios = pickScenarios();
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 2;
  }
  let code = 0;
  for (const scenario of scenarios) {
    const result =
      scenario === 'ingest'
        ? await runIngestScenario(settings)
        : scenario === 'webhooks'
          ? await runWebhooksScenario(settings)
          : scenario === 'stream'
            ? await runStreamScenario(settings)
            : scenario === 'load'
              ? await runLoadScenario(settings)
              : await routeScenario(settings, ROUTE_SCENARIOS[scenario]);
    code = Math.max(code, result);
  }
  return code;
}

function pickScenarios(): Scenario[] {
  // `npm run bench -- load ingest` passes the names as arguments (commas accepted there too).
  const args = process.argv.slice(2).join(',').trim();
  const raw = args || process.env.BENCH_SCENARIOS?.trim();
  if (!raw) return [...DEFAULT_SCENARIOS];
  const from = args ? 'the arguments name' : 'BENCH_SCENARIOS lists';
  const picked = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of picked) {
    if (!SCENARIOS.includes(name as Scenario)) {
      throw new Error(`${from} ${name}; known: ${SCENARIOS.join(', ')}`);
    }
  }
  return picked as Scenario[];
}

async function routeScenario(
  settings: BenchSettings,
  { route: ROUTE, prepare }: RouteScenario,
): Promise<number> {
  const tmp = makeTempDir();
  const operatorKey = generateApiKey().key;
  const headers = { authorization: `Bearer ${operatorKey}` };
  const targets: Target[] = [];

  const cleanup = async () => {
    for (const target of targets.splice(0).reverse()) {
      progress(`closing ${target.name}…`);
      await target
        .close()
        .catch((error: Error) => progress(`closing ${target.name} failed: ${error.message}`));
    }
    removeDir(tmp);
  };
  const interrupted = () => {
    progress('interrupted; cleaning up…');
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const detach = () => {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  };

  process.stdout.write(
    `\nCrestwatch benchmark: GET ${ROUTE}\n` +
      `node ${process.version}, ${os.cpus().length} CPU(s); ${settings.connections} connections, ` +
      `pipelining ${settings.pipelining}, ${settings.warmup} s warm-up + ${settings.rounds} × ${settings.duration} s ` +
      `per target; goal: measured/baseline req/s ≥ ${GOAL_RATIO}\n`,
  );

  try {
    // ---------- measured target: the real app on a fresh SQLite database
    progress('starting Crestwatch (measured) on a fresh SQLite database…');
    const profileArgs = (name: string) =>
      settings.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(settings.profileDir, name)}`] : [];
    const measured = await startTarget(
      'crestwatch',
      crestwatchOnSqlite(path.join(tmp, 'bench.db'), tmp, operatorKey),
      { nodeArgs: profileArgs('crestwatch') },
    );
    targets.push(measured);
    progress(`crestwatch listening at ${measured.url} (pid ${measured.pid})`);

    const prepared = prepare ? await prepare(measured.url, headers) : 0;
    // One request first: it must succeed and carry the rate-limit headers; its body is the baseline's payload.
    const probe = await fetch(measured.url + ROUTE, { headers });
    const body = await probe.text();
    check(probe.status === 200, `GET ${ROUTE} answered ${probe.status}, not 200: ${body.slice(0, 300)}`);
    const missing = RATE_LIMIT_HEADERS.filter((h) => !probe.headers.has(h));
    check(missing.length === 0, `GET ${ROUTE} lacks ${missing.join(', ')}`);
    const probes = 1 + prepared;
    process.stdout.write(
      `probe: 200, ${RATE_LIMIT_HEADERS.map((h) => `${h}: ${probe.headers.get(h)}`).join(', ')}; ` +
        `payload ${Buffer.byteLength(body)} bytes\n`,
    );

    // ---------- baseline: bare Fastify, same payload from memory
    progress('starting bare Fastify (baseline)…');
    const baseline = await startTarget(
      'baseline',
      {
        kind: 'static-json',
        path: new URL(ROUTE, 'http://localhost').pathname,
        payload: JSON.parse(body) as unknown,
      },
      { nodeArgs: profileArgs('baseline') },
    );
    targets.push(baseline);
    progress(`baseline listening at ${baseline.url} (pid ${baseline.pid})`);
    const same = await (await fetch(baseline.url + ROUTE)).text();
    check(same === body, `the baseline's payload differs from the measured one:\n${same}\n${body}`);

    const load = (target: Target, duration: number, title: string) =>
      runAutocannon({
        url: target.url + ROUTE,
        headers,
        duration,
        connections: settings.connections,
        pipelining: settings.pipelining,
        title,
        serverPid: target.pid,
      });
    const runs = { baseline: [] as LoadSummary[], measured: [] as LoadSummary[] };
    let measuredWarmup: LoadSummary | undefined;

    // ---------- warm-up, then alternate
    if (settings.warmup > 0) {
      progress(`warming up baseline… (${settings.warmup} s)`);
      await load(baseline, settings.warmup, 'baseline warm-up');
      progress(`warming up measured… (${settings.warmup} s)`);
      measuredWarmup = await load(measured, settings.warmup, 'measured warm-up');
    }
    for (let round = 1; round <= settings.rounds; round++) {
      const of = settings.rounds > 1 ? ` (round ${round}/${settings.rounds})` : '';
      for (const [key, target] of [
        ['baseline', baseline],
        ['measured', measured],
      ] as const) {
        progress(`measuring ${key}${of}… (${settings.duration} s)`);
        const result = await load(target, settings.duration, key);
        runs[key].push(result);
        progress(
          `  ${key}: ${Math.round(result.reqPerSec)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ` +
            `non-2xx ${result.non2xx}, server CPU ${Math.round((result.serverCpu ?? 0) * 100)}%, ` +
            `autocannon CPU ${Math.round((result.clientCpu ?? 0) * 100)}%`,
        );
      }
    }

    const base = combine('baseline (bare Fastify)', runs.baseline);
    const meas = combine('measured (Crestwatch)', runs.measured);
    report(`GET ${ROUTE}, ${settings.connections} connections, ${settings.duration} s per run`, [base, meas]);
    const result = verdict(meas, base, GOAL_RATIO);
    const cpuBase = cpuPerRequest(base);
    const cpuMeas = cpuPerRequest(meas);
    process.stdout.write(
      `p50 latency ×${(meas.p50 / Math.max(base.p50, 0.001)).toFixed(2)}, ` +
        `p99 latency ×${(meas.p99 / Math.max(base.p99, 0.001)).toFixed(2)} (measured / baseline)\n`,
    );
    if (cpuBase !== undefined && cpuMeas !== undefined) {
      process.stdout.write(
        `server CPU per request: measured ${Math.round(cpuMeas)} µs vs baseline ${Math.round(cpuBase)} µs ` +
          `→ ratio if both were CPU-bound ≈ ${(cpuBase / cpuMeas).toFixed(3)}\n`,
      );
    }

    // ---------- every measured request was counted
    const usage = await fetch(measured.url + USAGE_ROUTE, { headers });
    const usageBody = (await usage.json()) as { summary?: { requests_today?: number } };
    check(usage.status === 200, `GET ${USAGE_ROUTE} answered ${usage.status}`);
    const counted = usageBody.summary?.requests_today;
    check(typeof counted === 'number', `GET ${USAGE_ROUTE} has no summary.requests_today`);
    const all = measuredWarmup ? [measuredWarmup, ...runs.measured] : runs.measured;
    const sent = all.reduce((s, r) => s + r.sent, 0);
    const answered2xx = all.reduce((s, r) => s + r.completed - r.non2xx, 0);
    // A request written just before autocannon stopped may or may not have reached the server.
    const low = probes + answered2xx;
    const high = probes + sent;
    const countedOk = counted >= low && counted <= high;
    process.stdout.write(
      `usage: requests_today = ${counted}; autocannon sent ${sent} to the measured route ` +
        `(${answered2xx} answered 2xx) + ${probes} probe → expected ${low}…${high}: ` +
        `${countedOk ? 'OK, every request was counted' : 'MISMATCH'}\n`,
    );
    check(countedOk, `requests_today (${counted}) is outside ${low}…${high}`);
    if (meas.non2xx > 0 || meas.errors > 0) {
      process.stdout.write(
        `warning: the measured route had ${meas.non2xx} non-2xx responses and ${meas.errors} errors\n`,
      );
    }

    process.stdout.write(
      `\nRESULT: ${result.pass ? 'PASS' : 'FAIL'}: measured/baseline = ${result.ratio.toFixed(3)} ` +
        `(${Math.round(meas.reqPerSec)} / ${Math.round(base.reqPerSec)} req/s), goal ≥ ${GOAL_RATIO}` +
        `${result.pass ? '' : ' (not met; this is a report, exit code 0)'}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof CheckFailed) process.stdout.write(`\nCHECK FAILED: ${error.message}\n`);
    else process.stderr.write(`\nbenchmark failed: ${(error as Error).stack ?? error}\n`);
    return 1;
  } finally {
    detach();
    await cleanup();
    if (settings.profileDir) {
      // One file per thread (tsx's loader runs in a worker): the largest is the server's main thread.
      progress(`CPU profiles (one per thread) in ${settings.profileDir}/crestwatch and …/baseline`);
    }
  }
}

process.exitCode = await main();
