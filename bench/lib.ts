// Shared benchmark helpers: settings from the environment, target servers in their own processes, autocannon
// runs summarised, and a plain-text report. Reused by every bench/*.ts script.
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// The tsx loader by absolute URL, so targets start whatever the working directory.
const TSX = import.meta.resolve('tsx');

// ---------- settings

export interface BenchSettings {
  /** Seconds per measured run (BENCH_DURATION, default 5). */
  duration: number;
  /** Seconds of warm-up per target (BENCH_WARMUP, default 2; 0 skips it). */
  warmup: number;
  /** Concurrent connections (BENCH_CONNECTIONS, default 50). */
  connections: number;
  /** Requests in flight per connection (BENCH_PIPELINING, default 1). */
  pipelining: number;
  /** Alternating baseline/measured rounds (BENCH_ROUNDS, default 3: one noisy run cannot swing the ratio). */
  rounds: number;
  /** Directory for V8 CPU profiles of the servers (BENCH_PROFILE_DIR), or undefined. */
  profileDir?: string;
}

function positive(name: string, fallback: number, { integer = true, allowZero = false } = {}): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  const ok =
    Number.isFinite(value) && (allowZero ? value >= 0 : value > 0) && (!integer || Number.isInteger(value));
  if (!ok) {
    throw new Error(
      `${name} must be a ${integer ? 'whole number' : 'number'} ${allowZero ? '≥ 0' : '> 0'} (got ${raw})`,
    );
  }
  return value;
}

export function benchSettings(): BenchSettings {
  const profileDir = process.env.BENCH_PROFILE_DIR?.trim();
  return {
    duration: positive('BENCH_DURATION', 5, { integer: false }),
    warmup: positive('BENCH_WARMUP', 2, { integer: false, allowZero: true }),
    connections: positive('BENCH_CONNECTIONS', 50),
    pipelining: positive('BENCH_PIPELINING', 1),
    rounds: positive('BENCH_ROUNDS', 3),
    profileDir: profileDir ? path.resolve(profileDir) : undefined,
  };
}

// ---------- progress output

const started = performance.now();

/** A timestamped progress line on stderr (the report itself goes to stdout). */
/** A whole-number setting from the environment (> 0), or the default. */
export function setting(name: string, fallback: number, min = 1): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be a whole number ≥ ${min} (got ${raw})`);
  return value;
}

export function progress(message: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(5);
  process.stderr.write(`[${seconds}s] ${message}\n`);
}

// ---------- temp dirs

export function makeTempDir(prefix = 'crestwatch-bench-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

// ---------- target servers

/** Messages between a benchmark script and bench/server.ts (one server per child process). */
export type TargetSpec =
  | { kind: 'static-json'; path: string; payload: unknown }
  | { kind: 'crestwatch'; env: Record<string, string> };

/**
 * The environment of a Crestwatch target on its own SQLite file in `dataDir`: silent, no sources, `key` as the
 * operator key, an enterprise plan without a burst limit; `extra` adds to it.
 */
export function crestwatchOnSqlite(
  file: string,
  dataDir: string,
  key: string,
  extra: Record<string, string> = {},
): TargetSpec {
  return {
    kind: 'crestwatch',
    env: {
      DATABASE_URL: `sqlite:${file}`,
      DATA_DIR: dataDir,
      SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789',
      BOOTSTRAP_API_KEY: key,
      LOG_LEVEL: 'silent',
      SOURCES: 'none',
      PLANS: JSON.stringify({ enterprise: { burst_per_second: 1_000_000 } }),
      ...extra,
    },
  };
}

export type ToTarget = { type: 'start'; spec: TargetSpec } | { type: 'close' };
export type FromTarget = { type: 'ready'; url: string } | { type: 'error'; message: string };

export interface Target {
  name: string;
  url: string;
  pid: number;
  /** Closes the server (the app's onClose hooks run) and waits for the process to exit. */
  close(): Promise<void>;
}

/**
 * Starts a target server in its own Node process (through tsx), so the load generator and the server never
 * share an event loop. `nodeArgs` go to that process (e.g. `--cpu-prof`); `script` replaces bench/server.ts
 * with another entry speaking the same IPC messages.
 */
export function startTarget(
  name: string,
  spec: TargetSpec,
  options: { nodeArgs?: string[]; timeoutMs?: number; script?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Target> {
  const child: ChildProcess = fork(options.script ?? path.join(HERE, 'server.ts'), [name], {
    env: options.env ?? process.env,
    execArgv: ['--import', TSX, ...(options.nodeArgs ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const send = (message: ToTarget) => {
    if (child.connected) child.send(message);
  };
  // A send racing the child's exit reports an error event; the exit itself is what matters.
  child.on('error', () => {});

  return new Promise<Target>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timer = setTimeout(
      () => fail(new Error(`${name}: the server did not start within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.once('error', fail);
    void exited.then((code) => fail(new Error(`${name}: the server process exited early (code ${code})`)));
    child.on('message', (message: FromTarget) => {
      if (message.type === 'error') fail(new Error(`${name}: ${message.message}`));
      if (message.type !== 'ready' || settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        name,
        url: message.url,
        pid: child.pid!,
        async close() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          send({ type: 'close' });
          const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
    send({ type: 'start', spec });
  });
}

// ---------- load generation

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: string;
  /** Seconds. */
  duration: number;
  connections?: number;
  pipelining?: number;
  title?: string;
  /** The server's process id, to report its CPU use during the run (Linux). */
  serverPid?: number;
}

export interface LoadSummary {
  title: string;
  /** Mean of the per-second request samples (completed responses). */
  reqPerSec: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  /** Responses with a status outside 2xx. */
  non2xx: number;
  /** Connection errors (including timeouts). */
  errors: number;
  timeouts: number;
  /** Requests written to the wire. */
  sent: number;
  /** Responses received. */
  completed: number;
  durationSeconds: number;
  /** CPU used during the run, in cores (1 = one core busy all the time): the server's, and autocannon's. */
  serverCpu?: number;
  clientCpu?: number;
  raw: autocannon.Result;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU seconds in a /proc stat file (Linux); undefined when it cannot be read. */
function statCpuSeconds(file: string): number | undefined {
  try {
    const stat = fs.readFileSync(file, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds of a process so far, from /proc (Linux); undefined elsewhere. */
export function processCpuSeconds(pid: number): number | undefined {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/**
 * User + system CPU seconds of each thread of a process so far, by thread id (Linux; empty elsewhere). The
 * main thread's id is the process id.
 */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[] = [];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const seconds = statCpuSeconds(`/proc/${pid}/task/${tid}/stat`);
    if (seconds !== undefined) out.set(Number(tid), seconds);
  }
  return out;
}

export function summarise(title: string, result: autocannon.Result): LoadSummary {
  return {
    title,
    reqPerSec: result.requests.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    sent: result.requests.sent,
    completed: result.requests.total,
    durationSeconds: result.duration,
    raw: result,
  };
}

/** One autocannon run, resolved with its summary. */
export async function runAutocannon(options: LoadOptions): Promise<LoadSummary> {
  const serverBefore = options.serverPid === undefined ? undefined : processCpuSeconds(options.serverPid);
  const clientBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    duration: options.duration,
    connections: options.connections ?? 50,
    pipelining: options.pipelining ?? 1,
    title: options.title,
  });
  const wall = (performance.now() - wallBefore) / 1000;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = options.serverPid === undefined ? undefined : processCpuSeconds(options.serverPid);
  const summary = summarise(options.title ?? options.url, result);
  summary.clientCpu = (client.user + client.system) / 1e6 / wall;
  if (serverBefore !== undefined && serverAfter !== undefined) {
    summary.serverCpu = (serverAfter - serverBefore) / wall;
  }
  return summary;
}

/** Adds up several runs of one target (rounds): rates and percentiles averaged, counts summed. */
export function combine(title: string, runs: LoadSummary[]): LoadSummary {
  if (runs.length === 0) throw new Error('combine: no runs');
  if (runs.length === 1) return { ...runs[0]!, title };
  const mean = (pick: (r: LoadSummary) => number) => runs.reduce((s, r) => s + pick(r), 0) / runs.length;
  const sum = (pick: (r: LoadSummary) => number) => runs.reduce((s, r) => s + pick(r), 0);
  return {
    title,
    reqPerSec: mean((r) => r.reqPerSec),
    p50: mean((r) => r.p50),
    p99: mean((r) => r.p99),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    sent: sum((r) => r.sent),
    completed: sum((r) => r.completed),
    durationSeconds: sum((r) => r.durationSeconds),
    serverCpu: runs.every((r) => r.serverCpu !== undefined) ? mean((r) => r.serverCpu!) : undefined,
    clientCpu: runs.every((r) => r.clientCpu !== undefined) ? mean((r) => r.clientCpu!) : undefined,
    raw: runs[runs.length - 1]!.raw,
  };
}

// ---------- report

function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Prints a table of summaries on stdout. */
export function report(heading: string, rows: LoadSummary[]): void {
  const header = [
    'target',
    'req/s (mean)',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'errors',
    'requests',
    'server CPU',
    'CPU µs/req',
    'client CPU',
  ];
  const cores = (value: number | undefined) => (value === undefined ? '-' : `${(value * 100).toFixed(0)}%`);
  const lines = rows.map((r) => [
    r.title,
    fmt(r.reqPerSec, 0),
    fmt(r.p50, 2),
    fmt(r.p99, 2),
    fmt(r.non2xx),
    fmt(r.errors + r.timeouts),
    fmt(r.completed),
    cores(r.serverCpu),
    r.serverCpu === undefined || r.reqPerSec === 0 ? '-' : fmt(cpuPerRequest(r)!, 0),
    cores(r.clientCpu),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const out = [
    '',
    heading,
    row(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...lines.map(row),
    '(server / client CPU: share of one core used during the runs by the server process / by autocannon here;',
    ' CPU µs/req: server CPU time per answered request, steadier than req/s when the machine is busy)',
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

/** Server CPU microseconds per answered request, when the server's CPU use is known. */
export function cpuPerRequest(r: LoadSummary): number | undefined {
  return r.serverCpu === undefined || r.reqPerSec === 0 ? undefined : (r.serverCpu * 1e6) / r.reqPerSec;
}

export interface Verdict {
  ratio: number;
  goal: number;
  pass: boolean;
}

/** measured/baseline req/s against a goal ratio, printed on stdout. */
export function verdict(measured: LoadSummary, baseline: LoadSummary, goal: number): Verdict {
  const ratio = baseline.reqPerSec > 0 ? measured.reqPerSec / baseline.reqPerSec : 0;
  const pass = ratio >= goal;
  process.stdout.write(
    `ratio ${measured.title} / ${baseline.title} (req/s): ${ratio.toFixed(3)}  goal ≥ ${goal}  →  ${pass ? 'PASS' : 'FAIL'}\n`,
  );
  return { ratio, goal, pass };
}
