// Load scenario of `npm run bench` (`npm run bench -- load`; not in the default set): two Crestwatch processes
// (the production entry, src/main.ts) on one PostgreSQL schema and one Redis key prefix, both made for the run
// and removed afterwards, driven for BENCH_LOAD_SECONDS with mixed traffic, every request round-robin over the
// two instances:
// - reads: GET /api/trends with filters, GET /api/trends/{id}, GET /api/intelligence/crisis-events,
//   GET /api/user/profile, GET /status;
// - ingestion: POST /api/signals batches of demo posts re-stamped as happening now (fresh ids), at a set rate,
//   so trends keep moving, velocity thresholds are crossed and alerts flow; the engine's backlog is sampled;
// - webhooks: trend subscriptions of every user on a local receiver (deliveries from threshold crossings and
//   lifecycle changes) plus synchronous test deliveries (POST /api/integrations/webhooks/{id}/test);
// - the live stream: BENCH_LOAD_WS_CLIENTS WebSocket clients on /ws/trends-live, half on each instance;
// - MCP: JSON-RPC tools/call of reading tools on /mcp;
// - one developer-plan user at 20 requests/s, whose 429s (burst, then daily quota) are deliberate: exactly 100
//   of its requests may be answered 200 across both instances.
// It reports per route count, p50, p99 and statuses; stream messages and webhook deliveries received; each
// instance's RSS sampled every second. It fails (exit 1) on any 5xx other than a deliberate 503 (with
// Retry-After), any other unexpected status or network error, a developer quota that is not exactly 100, stream
// clients dropped by a server, no webhook delivery at all, or an RSS that is not bounded: the end of the run above 1.5 × the RSS after the warm-up (the first 10 s), or any
// sample above the ceiling. The instances log at `warn` into files under the run's temporary folder, kept (and
// printed) when the run fails.
//
// Environment: BENCH_LOAD_SECONDS (default 60), BENCH_LOAD_WS_CLIENTS (500), BENCH_LOAD_READERS (concurrent
// read loops, 8), BENCH_LOAD_INGEST_PER_SECOND (signals, 500), BENCH_LOAD_RSS_CEILING_MB (per instance, 1024),
// BENCH_LOAD_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test), BENCH_LOAD_REDIS_URL
// (redis://127.0.0.1:6379).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { generateApiKey } from '../src/modules/accounts/index.ts';
import { demoSignals, toIngestItem } from '../src/modules/signals/index.ts';
import { type BenchSettings, makeTempDir, processCpuSeconds, progress, removeDir, setting } from './lib.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSX = import.meta.resolve('tsx');
const SECRET_KEY = 'bench-secret-key-0123456789abcdef0123456789';
const USERS = 10;
const INGEST_BATCH = 100;
/** Requests in flight at most per paced stream (ingestion, test deliveries, the developer user). */
const PACED_IN_FLIGHT = 4;
const MCP_WORKERS = 2;
const WEBHOOK_TESTS_PER_SECOND = 5;
const DEVELOPER_PER_SECOND = 20;
const DEVELOPER_QUOTA = 100;
const WARMUP_SECONDS = 10;
/** End-of-run RSS may be at most this multiple of the RSS after the warm-up. */
const RSS_GROWTH_LIMIT = 1.5;
const PROGRESS_EVERY_MS = 5000;
/** Recomputes run every second while signals arrive: this long without a trend.update is worth a note. */
const STALE_STREAM_SECONDS = 15;

class CheckFailed extends Error {}

// ---------- per-route statistics

interface Problem {
  route: string;
  instance: string;
  status: number | 'network';
  code?: string;
  detail?: string;
  requestId?: string;
}

class RouteStats {
  latencies: number[] = [];
  statuses = new Map<string, number>();
  add(status: string, ms: number): void {
    this.latencies.push(ms);
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }
}

class Recorder {
  readonly routes = new Map<string, RouteStats>();
  /** 5xx that are not a deliberate 503, other unexpected statuses, network errors. */
  readonly problems: Problem[] = [];
  deliberate503 = 0;
  total = 0;

  stats(route: string): RouteStats {
    let s = this.routes.get(route);
    if (!s) {
      s = new RouteStats();
      this.routes.set(route, s);
    }
    return s;
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;

// ---------- instances

interface Instance {
  name: string;
  url: string;
  pid: number;
  logFile: string;
  agent: Agent;
  rssKb: number[];
  /** SIGTERM, then SIGKILL after 15 s; resolves with the exit code (null when killed). */
  stop(): Promise<number | null>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function rssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

function tail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Starts src/main.ts in its own process (stdout and stderr into `logFile`) and waits until /status answers. */
async function startInstance(name: string, env: Record<string, string>, logFile: string): Promise<Instance> {
  const port = await freePort();
  const fd = fs.openSync(logFile, 'a');
  // A clean environment: only what the instance is meant to see, whatever the shell running the bench has set.
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX, path.join(ROOT, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exitCode !== undefined) {
      throw new CheckFailed(`${name} exited during start (code ${exitCode}); its log:\n${tail(logFile)}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new CheckFailed(`${name} did not answer /status within 90 s; its log:\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(`${url}/status`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  return {
    name,
    url,
    pid: child.pid!,
    logFile,
    agent: new Agent({ connections: 64, keepAliveTimeout: 30_000 }),
    rssKb: [],
    async stop() {
      if (exitCode !== undefined) return exitCode;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(killer);
      return code;
    },
  };
}

// ---------- PostgreSQL schema and Redis prefix for the run

interface RunDatabase {
  url: string;
  /** Stored signals the trend engine has not processed yet (read straight from the run's schema). */
  backlog(): Promise<number>;
  drop(): Promise<void>;
}

async function preparePostgres(base: string): Promise<RunDatabase> {
  const schema = `cwbench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const connect = async () => {
    const client = new pg.Client({ connectionString: base, connectionTimeoutMillis: 5000 });
    await client.connect();
    return client;
  };
  let admin: pg.Client;
  try {
    admin = await connect();
  } catch (error) {
    throw new CheckFailed(
      `PostgreSQL is not reachable at ${base} (${(error as Error).message}). The load scenario runs two ` +
        'instances on PostgreSQL + Redis: start PostgreSQL or point BENCH_LOAD_DATABASE_URL at one.',
    );
  }
  await admin.query(`create schema "${schema}"`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  let reader: pg.Client | undefined;
  return {
    url: url.toString(),
    async backlog() {
      if (!reader) {
        reader = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
        await reader.connect();
      }
      const { rows } = await reader.query<{ n: string }>('select count(*) as n from signal_queue');
      return Number(rows[0]?.n ?? 0);
    },
    async drop() {
      await reader?.end();
      const client = await connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    },
  };
}

async function prepareRedis(url: string): Promise<{ prefix: string; clear(): Promise<number> }> {
  const prefix = `cwbench:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
    retryStrategy: () => null,
  });
  // The socket's own error (ECONNREFUSED…) says more than the rejected connect ("Connection is closed").
  let socketError: Error | undefined;
  client.on('error', (error: Error) => {
    socketError ??= error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new CheckFailed(
      `Redis is not reachable at ${url} (${(socketError ?? (error as Error)).message}). The load scenario runs two instances ` +
        'on PostgreSQL + Redis: start Redis or point BENCH_LOAD_REDIS_URL at one.',
    );
  }
  return {
    prefix,
    async clear() {
      let removed = 0;
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) removed += await client.unlink(...keys);
      } while (cursor !== '0');
      client.disconnect();
      return removed;
    },
  };
}

// ---------- webhook receiver

interface Receiver {
  server: http.Server;
  url: string;
  byEvent: Map<string, number>;
  ids: Set<string>;
  duplicates: number;
  total: number;
}

async function startReceiver(): Promise<Receiver> {
  const state = { byEvent: new Map<string, number>(), ids: new Set<string>(), duplicates: 0, total: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let event = 'unparsable';
      try {
        event = String((JSON.parse(Buffer.concat(chunks).toString()) as { event?: unknown }).event);
      } catch {
        // counted as unparsable
      }
      state.total++;
      state.byEvent.set(event, (state.byEvent.get(event) ?? 0) + 1);
      // Test deliveries reuse one id per subscription by design; any other id seen twice is a duplicate.
      const id = req.headers['webhook-id'];
      if (typeof id === 'string' && event !== 'webhook.test') {
        if (state.ids.has(id)) state.duplicates++;
        state.ids.add(id);
      }
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, { server, url: `http://127.0.0.1:${port}/hook` }) as Receiver;
}

// ---------- HTTP with recording

interface Answer {
  status: number;
  body: unknown;
}

/** Deliberate answers per route: 503 with Retry-After everywhere, 429 for the developer user. */
type Expect = { allow429?: boolean };

async function timed(
  rec: Recorder,
  route: string,
  instance: Instance,
  method: 'GET' | 'POST',
  url: string,
  key: string | null,
  body?: unknown,
  expect: Expect = {},
  extraHeaders: Record<string, string> = {},
): Promise<Answer | undefined> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const stats = rec.stats(route);
  const started = performance.now();
  rec.total++;
  try {
    const res = await request(instance.url + url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: instance.agent,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await res.body.text();
    const ms = performance.now() - started;
    const status = res.statusCode;
    stats.add(String(status), ms);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON; kept as text
    }
    const ok = status < 300;
    const retryAfter = res.headers['retry-after'] !== undefined;
    if (status === 503 && retryAfter) rec.deliberate503++;
    else if (!ok && !(status === 429 && expect.allow429)) {
      const problem = (parsed ?? {}) as { code?: string; detail?: string; request_id?: string };
      rec.problems.push({
        route,
        instance: instance.name,
        status,
        code: problem.code,
        detail: problem.detail ?? (typeof parsed === 'string' ? parsed.slice(0, 200) : undefined),
        requestId: problem.request_id ?? (res.headers['x-request-id'] as string | undefined),
      });
    }
    return { status, body: parsed };
  } catch (error) {
    stats.add('network error', performance.now() - started);
    rec.problems.push({
      route,
      instance: instance.name,
      status: 'network',
      detail: (error as Error).message,
    });
    return undefined;
  }
}

// ---------- WebSocket clients

interface Stream {
  sockets: WebSocket[];
  byType: Map<string, number>;
  byInstance: Map<string, number>;
  unexpectedCloses: number;
  closing: boolean;
  /** performance.now() of the last `trend.update` received (0: none yet). */
  lastUpdateAt: number;
}

async function openStream(
  instances: Instance[],
  keys: string[],
  count: number,
  filters: string[],
): Promise<Stream> {
  const stream: Stream = {
    sockets: [],
    byType: new Map(),
    byInstance: new Map(),
    unexpectedCloses: 0,
    closing: false,
    lastUpdateAt: 0,
  };
  const batch = 50;
  for (let i = 0; i < count; i += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, count - i) }, (_, j) => {
        const n = i + j;
        const instance = instances[n % instances.length]!;
        // One client in ten follows every trend; the others name a few, as dashboards do.
        const query =
          Math.floor(n / 2) % 10 === 0 || filters.length === 0
            ? ''
            : `?trends=${encodeURIComponent(filters.join(','))}`;
        return new Promise<void>((resolve, reject) => {
          const ws = new WebSocket(`${instance.url.replace(/^http/, 'ws')}/ws/trends-live${query}`, {
            headers: { authorization: `Bearer ${keys[n % keys.length]}` },
          });
          ws.on('message', (raw) => {
            let type = 'unparsable';
            try {
              type = String((JSON.parse(String(raw)) as { type?: unknown }).type);
            } catch {
              // counted as unparsable
            }
            stream.byType.set(type, (stream.byType.get(type) ?? 0) + 1);
            if (type === 'trend.update') stream.lastUpdateAt = performance.now();
            stream.byInstance.set(instance.name, (stream.byInstance.get(instance.name) ?? 0) + 1);
          });
          ws.once('open', () => {
            ws.once('close', () => {
              if (!stream.closing) stream.unexpectedCloses++;
            });
            resolve();
          });
          ws.once('unexpected-response', (_req, res) =>
            reject(new CheckFailed(`WebSocket client ${n} on ${instance.name}: HTTP ${res.statusCode}`)),
          );
          ws.once('error', (error) =>
            reject(new CheckFailed(`WebSocket client ${n} on ${instance.name}: ${error.message}`)),
          );
          stream.sockets.push(ws);
        });
      }),
    );
  }
  return stream;
}

// ---------- set-up through the API

async function api(instance: Instance, key: string, method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await request(instance.url + url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    dispatcher: instance.agent,
  });
  const data = (await res.body.json()) as Record<string, unknown>;
  if (res.statusCode >= 300) {
    throw new CheckFailed(`${method} ${url} answered ${res.statusCode}: ${JSON.stringify(data)}`);
  }
  return data;
}

async function createUser(instance: Instance, operator: string, email: string, plan: string) {
  const user = await api(instance, operator, 'POST', '/api/admin/users', { email, plan });
  const key = await api(instance, operator, 'POST', `/api/admin/users/${user.id}/api-keys`, {
    name: 'bench',
  });
  return key.api_key as string;
}

// ---------- the scenario

interface Options {
  seconds: number;
  clients: number;
  readers: number;
  ingestPerSecond: number;
  rssCeilingMb: number;
  databaseUrl: string;
  redisUrl: string;
}

function options(): Options {
  return {
    seconds: setting('BENCH_LOAD_SECONDS', 60),
    clients: setting('BENCH_LOAD_WS_CLIENTS', 500),
    readers: setting('BENCH_LOAD_READERS', 8),
    ingestPerSecond: setting('BENCH_LOAD_INGEST_PER_SECOND', 500),
    rssCeilingMb: setting('BENCH_LOAD_RSS_CEILING_MB', 1024),
    databaseUrl: process.env.BENCH_LOAD_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: process.env.BENCH_LOAD_REDIS_URL?.trim() || 'redis://127.0.0.1:6379',
  };
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

export async function runLoadScenario(_settings: BenchSettings): Promise<number> {
  let opts: Options;
  try {
    opts = options();
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 2;
  }
  const tmp = makeTempDir('crestwatch-load-');
  const operator = generateApiKey().key;
  const instances: Instance[] = [];
  const exitCodes = new Map<string, string>();
  let database: RunDatabase | undefined;
  let redis: Awaited<ReturnType<typeof prepareRedis>> | undefined;
  let receiver: Receiver | undefined;
  let stream: Stream | undefined;
  let failed = true;

  const cleanup = async () => {
    if (stream) {
      stream.closing = true;
      for (const ws of stream.sockets) ws.terminate();
    }
    for (const instance of instances.splice(0)) {
      progress(`stopping ${instance.name} (SIGTERM)…`);
      await instance.agent.close();
      const stopStarted = performance.now();
      const code = await instance.stop();
      exitCodes.set(
        instance.name,
        `${code} after ${((performance.now() - stopStarted) / 1000).toFixed(1)} s`,
      );
    }
    if (receiver) {
      receiver.server.closeAllConnections();
      receiver.server.close();
    }
    if (database) {
      await database.drop().catch((e: Error) => progress(`dropping the schema failed: ${e.message}`));
      progress('PostgreSQL schema dropped');
    }
    if (redis) {
      const removed = await redis.clear().catch((e: Error) => {
        progress(`deleting the Redis keys failed: ${e.message}`);
        return 0;
      });
      progress(`Redis keys under the run's prefix deleted (${removed})`);
    }
    // Keep the instances' logs of a failed run; a run that failed before starting any has nothing to keep.
    const logs = fs.readdirSync(tmp).some((f) => f.endsWith('.log'));
    if (failed && logs) process.stdout.write(`instance logs kept in ${tmp}\n`);
    else removeDir(tmp);
  };
  const interrupted = () => {
    progress('interrupted; cleaning up…');
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  const loadStart = os.loadavg();
  process.stdout.write(
    `\nCrestwatch benchmark: load — ${opts.seconds} s of mixed traffic against two instances on PostgreSQL + ` +
      `Redis; ${opts.clients} WebSocket clients, ${opts.readers} read loops, ingestion at ` +
      `${opts.ingestPerSecond} signals/s (batches of ${INGEST_BATCH}), ${MCP_WORKERS} MCP loops, ${WEBHOOK_TESTS_PER_SECOND} test deliveries/s, ` +
      `one developer-plan user at ${DEVELOPER_PER_SECOND}/s\n` +
      `node ${process.version}, ${os.cpus().length} CPU(s), load average (1/5/15 min) at start ${loadavg()}\n`,
  );

  try {
    database = await preparePostgres(opts.databaseUrl);
    redis = await prepareRedis(opts.redisUrl);
    progress(`fresh PostgreSQL schema and Redis prefix ${redis.prefix}`);
    receiver = await startReceiver();
    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      REDIS_URL: opts.redisUrl,
      REDIS_KEY_PREFIX: redis.prefix,
      SECRET_KEY,
      BOOTSTRAP_API_KEY: operator,
      LOG_LEVEL: 'warn',
      SOURCES: 'none',
      HOST: '127.0.0.1',
      OUTBOUND_ALLOWLIST: '127.0.0.0/8',
      // Every request comes from 127.0.0.1: the per-IP limit of public routes (/status) would refuse nearly all.
      PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
      // Burst limits lifted so the deliberate limits do not dominate; the developer plan keeps its own.
      PLANS: JSON.stringify({
        enterprise: { burst_per_second: 1_000_000 },
        scale: { burst_per_second: 1_000_000 },
      }),
    };
    // One after the other: the first runs the migrations and creates the operator.
    for (const name of ['instance-a', 'instance-b']) {
      progress(`starting ${name} (src/main.ts)…`);
      const dataDir = path.join(tmp, name);
      fs.mkdirSync(dataDir, { mode: 0o700 });
      const instance = await startInstance(
        name,
        { ...env, DATA_DIR: dataDir },
        path.join(tmp, `${name}.log`),
      );
      instances.push(instance);
      progress(
        `${name} listening at ${instance.url} (pid ${instance.pid}, RSS ${mb(rssKb(instance.pid) ?? 0)})`,
      );
    }
    const [a, b] = instances as [Instance, Instance];

    // ---------- users, subscriptions
    progress(`creating ${USERS} enterprise users, their webhook subscriptions and a developer user…`);
    const keys: string[] = [];
    const subscriptions: { key: string; id: number }[] = [];
    for (let u = 0; u < USERS; u++) {
      const at = instances[u % 2]!;
      const key = await createUser(at, operator, `load-${u}@example.com`, 'enterprise');
      keys.push(key);
      const velocity = await api(at, key, 'POST', '/api/integrations/webhooks', {
        url: receiver.url,
        trigger_type: 'trend_velocity',
        delivery_mode: 'instant_stream',
        // Half the users at the engine's own first level, half at one it watches only for them.
        threshold_value: u % 2 === 0 ? 25 : 40,
        cooldown_seconds: 0,
      });
      const lifecycle = await api(at, key, 'POST', '/api/integrations/webhooks', {
        url: receiver.url,
        trigger_type: 'trend_lifecycle',
        delivery_mode: 'instant_stream',
        threshold_value: 0,
        cooldown_seconds: 0,
      });
      subscriptions.push({ key, id: Number(velocity.id) }, { key, id: Number(lifecycle.id) });
    }
    const developer = await createUser(b, operator, 'load-developer@example.com', 'developer');

    // ---------- history: 3 hours of demo posts, so the reads have trends to answer with
    const t0 = Date.now();
    const history = demoSignals({ seed: 11, from: t0 - 3 * 3_600_000, to: t0 }).map(toIngestItem);
    progress(`posting ${history.length} demo signals (3 hours of history)…`);
    for (let i = 0; i < history.length; i += 500) {
      await api(instances[(i / 500) % 2]!, operator, 'POST', '/api/signals', {
        signals: history.slice(i, i + 500),
      });
    }
    let trendIds: number[] = [];
    let names: string[] = [];
    let categories: string[] = [];
    for (let waited = 0; ; waited++) {
      const list = (await api(a, keys[0]!, 'GET', '/api/trends?limit=100&sort_by=volume')) as {
        total?: number;
        trends?: { id: number; title: string; category: string }[];
      };
      if ((list.total ?? 0) >= 50 || waited >= 120) {
        const trends = list.trends ?? [];
        trendIds = trends.map((t) => Number(t.id));
        names = trends.slice(0, 5).map((t) => t.title);
        categories = [...new Set(trends.map((t) => t.category))];
        progress(`${list.total ?? 0} trends`);
        break;
      }
      await sleep(1000);
    }
    if (trendIds.length === 0) throw new CheckFailed('no trends two minutes after posting the history');

    // ---------- live stream clients
    progress(`connecting ${opts.clients} WebSocket clients (half on each instance)…`);
    const connectStarted = performance.now();
    stream = await openStream(instances, keys, opts.clients, names);
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    progress(`${stream.sockets.length} clients connected in ${connectSeconds.toFixed(1)} s`);

    // ---------- the mixed load
    const rec = new Recorder();
    let rr = 0;
    const next = () => instances[rr++ % instances.length]!;
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    const words = names.map((n) => n.split(/\s+/)[0]!).filter((w) => w.length > 1);
    const reads: (() => [string, string])[] = [
      () => ['GET /api/trends', '/api/trends?limit=20&sort_by=velocity'],
      () => [
        'GET /api/trends',
        `/api/trends?category=${encodeURIComponent(pick(categories))}&period=24h&limit=10`,
      ],
      () => ['GET /api/trends', `/api/trends?search=${encodeURIComponent(pick(words))}&limit=10`],
      () => ['GET /api/trends', '/api/trends?interests=ai,climate&exclude_sentiment=negative&limit=20'],
      () => ['GET /api/trends/{id}', `/api/trends/${pick(trendIds)}`],
      () => ['GET /api/trends/{id}', `/api/trends/${pick(trendIds)}?period=7d`],
      () => ['GET /api/intelligence/crisis-events', '/api/intelligence/crisis-events'],
      () => ['GET /api/user/profile', '/api/user/profile'],
      () => ['GET /api/user/profile', '/api/user/profile'],
      () => ['GET /status', '/status'],
    ];
    const mcpCalls: (() => [string, Record<string, unknown>])[] = [
      () => ['list_trends', { limit: 10, sort_by: 'velocity' }],
      () => ['get_trend', { trend_id: pick(trendIds) }],
      () => ['list_crisis_events', {}],
    ];
    let running = true;
    let rpcId = 0;
    let liveRound = 0;
    let ingested = 0;
    let developerOk = 0;
    const developerRefusals = new Map<string, number>();
    let mcpToolErrors = 0;

    const readLoop = async (n: number) => {
      let i = n;
      while (running) {
        const [route, url] = reads[i++ % reads.length]!();
        await timed(rec, route, next(), 'GET', url, route === 'GET /status' ? null : keys[i % keys.length]!);
      }
    };
    const ingestBatch = async () => {
      // Demo posts re-stamped as happening in the last minute, with ids never posted before.
      const round = liveRound++;
      const start = (round * INGEST_BATCH) % history.length;
      const now = Date.now();
      const signals = history.slice(start, start + INGEST_BATCH).map((item) => ({
        ...item,
        external_id: `${String(item.external_id)}-live${round}`,
        observed_at: new Date(now - Math.floor(Math.random() * 60_000)).toISOString(),
      }));
      const answer = await timed(rec, 'POST /api/signals', next(), 'POST', '/api/signals', operator, {
        signals,
      });
      if (answer?.status === 202) ingested += (answer.body as { accepted?: number }).accepted ?? 0;
    };
    const mcpLoop = async (n: number) => {
      let i = n;
      while (running) {
        const [tool, args] = mcpCalls[i++ % mcpCalls.length]!();
        const route = `POST /mcp tools/call ${tool}`;
        const instance = next();
        const answer = await timed(
          rec,
          route,
          instance,
          'POST',
          '/mcp',
          keys[i % keys.length]!,
          { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: tool, arguments: args } },
          {},
          { accept: 'application/json, text/event-stream' },
        );
        const result = (answer?.body as { result?: { isError?: boolean; structuredContent?: unknown } })
          ?.result;
        if (answer?.status === 200 && result?.isError) {
          // A tool error carries the wrapped route's problem: judged like that route's status.
          mcpToolErrors++;
          const problem = (result.structuredContent ?? {}) as {
            status?: number;
            code?: string;
            detail?: string;
          };
          rec.problems.push({
            route: `${route} (tool error)`,
            instance: instance.name,
            status: problem.status ?? 0,
            code: problem.code,
            detail: problem.detail,
          });
        }
      }
    };
    // Open loop: requests start on schedule whatever the answers' latency, at most PACED_IN_FLIGHT at once (a
    // stream that falls behind catches up no faster than that).
    const paced = async (perSecond: number, fn: () => Promise<void>) => {
      const inFlight = new Set<Promise<void>>();
      const started = performance.now();
      for (let n = 0; running; n++) {
        const wait = started + (n * 1000) / perSecond - performance.now();
        if (wait > 0) await sleep(wait);
        while (running && inFlight.size >= PACED_IN_FLIGHT) await Promise.race(inFlight);
        if (!running) break;
        const call: Promise<void> = fn().finally(() => inFlight.delete(call));
        inFlight.add(call);
      }
      await Promise.all(inFlight);
    };
    const webhookTestLoop = () =>
      paced(WEBHOOK_TESTS_PER_SECOND, async () => {
        const sub = pick(subscriptions);
        await timed(
          rec,
          'POST /api/integrations/webhooks/{id}/test',
          next(),
          'POST',
          `/api/integrations/webhooks/${sub.id}/test`,
          sub.key,
        );
      });
    const developerLoop = () =>
      paced(DEVELOPER_PER_SECOND, async () => {
        const answer = await timed(
          rec,
          'GET /api/user/profile [developer]',
          next(),
          'GET',
          '/api/user/profile',
          developer,
          undefined,
          { allow429: true },
        );
        if (answer?.status === 200) developerOk++;
        else if (answer?.status === 429) {
          const code = String((answer.body as { code?: string }).code);
          developerRefusals.set(code, (developerRefusals.get(code) ?? 0) + 1);
        }
      });

    // RSS every second; the instances' CPU over the run.
    const cpuBefore = instances.map((i) => processCpuSeconds(i.pid));
    const selfBefore = process.cpuUsage();
    const rssStart = instances.map((i) => rssKb(i.pid) ?? 0);
    const sampler = setInterval(() => {
      for (const instance of instances) {
        const kb = rssKb(instance.pid);
        if (kb !== undefined) instance.rssKb.push(kb);
      }
    }, 1000);
    const loadStarted = performance.now();
    let lastTotal = 0;
    const backlogs: number[] = [await database.backlog()];
    const ticker = setInterval(() => {
      void database!
        .backlog()
        .then((n) => backlogs.push(n))
        .catch(() => undefined);
      const elapsed = (performance.now() - loadStarted) / 1000;
      const fivexx = rec.problems.filter((p) => typeof p.status === 'number' && p.status >= 500).length;
      progress(
        `${elapsed.toFixed(0)}/${opts.seconds} s: ${rec.total} requests ` +
          `(${Math.round((rec.total - lastTotal) / (PROGRESS_EVERY_MS / 1000))}/s), ${ingested} signals ` +
          `(${backlogs.at(-1)} unprocessed), ` +
          `${fivexx} unexpected 5xx, ${rec.problems.length} problems, ${rec.deliberate503} deliberate 503, ` +
          `stream ${[...stream!.byType.values()].reduce((s, v) => s + v, 0)} messages, ` +
          `webhooks ${receiver!.total} received; RSS ${instances.map((i) => mb(i.rssKb.at(-1) ?? 0)).join(' / ')}; ` +
          `load ${loadavg()}`,
      );
      lastTotal = rec.total;
    }, PROGRESS_EVERY_MS);

    progress(`mixed load for ${opts.seconds} s…`);
    const loops = [
      ...Array.from({ length: opts.readers }, (_, n) => readLoop(n)),
      paced(opts.ingestPerSecond / INGEST_BATCH, ingestBatch),
      ...Array.from({ length: MCP_WORKERS }, (_, n) => mcpLoop(n)),
      webhookTestLoop(),
      developerLoop(),
    ];
    await sleep(opts.seconds * 1000);
    running = false;
    await Promise.all(loops);
    const wall = (performance.now() - loadStarted) / 1000;
    clearInterval(ticker);
    clearInterval(sampler);
    const cpuAfter = instances.map((i) => processCpuSeconds(i.pid));
    const self = process.cpuUsage(selfBefore);
    const loadEnd = os.loadavg();
    backlogs.push(await database.backlog());
    const wsMessages = [...stream.byType.values()].reduce((s, v) => s + v, 0);
    const wsOpen = stream.sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
    // Deliveries still in flight when the load stopped arrive within a moment.
    await sleep(2000);

    // ---------- report
    const out: string[] = [''];
    out.push(
      `Mixed load, ${wall.toFixed(1)} s, two instances (${a.url}, ${b.url}): ${rec.total} requests ` +
        `(${Math.round(rec.total / wall)}/s), ${ingested} signals ingested (${Math.round(ingested / wall)}/s; ` +
        `target ${opts.ingestPerSecond}/s); signals not yet processed into trends: ${backlogs[0]} at the start, ` +
        `max ${Math.max(...backlogs)}, ${backlogs.at(-1)} at the end`,
    );
    const header = ['route', 'count', 'req/s', 'p50 ms', 'p99 ms', 'statuses'];
    const rows = [...rec.routes]
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([route, s]) => {
        const sorted = [...s.latencies].sort((x, y) => x - y);
        return [
          route,
          String(sorted.length),
          (sorted.length / wall).toFixed(1),
          percentile(sorted, 50).toFixed(1),
          percentile(sorted, 99).toFixed(1),
          [...s.statuses]
            .sort()
            .map(([k, v]) => `${k}: ${v}`)
            .join(', '),
        ];
      });
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    out.push(line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line));
    out.push(
      `instance CPU over the run: ${instances
        .map((inst, i) =>
          cpuBefore[i] === undefined || cpuAfter[i] === undefined
            ? `${inst.name} -`
            : `${inst.name} ${Math.round(((cpuAfter[i]! - cpuBefore[i]!) / wall) * 100)}%`,
        )
        .join(
          ', ',
        )} of one core; this load generator ${Math.round(((self.user + self.system) / 1e6 / wall) * 100)}%`,
    );

    out.push('', `deliberate 503 (with Retry-After): ${rec.deliberate503}`);
    const refusals = [...developerRefusals].map(([k, v]) => `${v} ${k}`).join(', ') || 'none';
    // Exactly the quota once it was reached (a run too short to reach it may stay below).
    const quotaReached = developerRefusals.has('quota_exceeded');
    const developerQuotaOk = quotaReached ? developerOk === DEVELOPER_QUOTA : developerOk <= DEVELOPER_QUOTA;
    out.push(
      `developer-plan user: ${developerOk} answered 200 (daily quota ${DEVELOPER_QUOTA}` +
        `${quotaReached ? (developerOk === DEVELOPER_QUOTA ? ', exactly' : ', NOT EXACT') : ', not reached'}` +
        `), 429s (deliberate): ${refusals}`,
    );
    out.push(
      `live stream: ${stream.sockets.length} clients connected in ${connectSeconds.toFixed(1)} s, ${wsOpen} still ` +
        `open at the end, ${stream.unexpectedCloses} closed by the server during the run; ${wsMessages} messages ` +
        `(${[...stream.byType].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; ` +
        `${[...stream.byInstance].map(([k, v]) => `${k} ${v}`).join(', ')})`,
    );
    out.push(
      `webhooks: ${receiver.total} deliveries received from ${subscriptions.length} subscriptions ` +
        `(${[...receiver.byEvent].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}), ` +
        `${receiver.duplicates} alert ids received twice`,
    );
    if (mcpToolErrors > 0) out.push(`MCP tool errors: ${mcpToolErrors}`);
    // Signals kept arriving: trend updates should too. A long silence means the recompute stopped running.
    const silence = (loadStarted + wall * 1000 - Math.max(stream.lastUpdateAt, loadStarted)) / 1000;
    if (ingested > 0 && silence > STALE_STREAM_SECONDS) {
      out.push(
        `note: no trend.update reached the stream in the last ${silence.toFixed(0)} s of the load although ` +
          'signals kept being ingested: the metric recompute stopped running (compare the processing backlog)',
      );
    }

    // RSS: bounded when the end is within RSS_GROWTH_LIMIT × the post-warm-up RSS and no sample passes the
    // ceiling. A run shorter than 3 × the warm-up takes its warm-up sample at a third of the run.
    const warmIndex = Math.max(0, Math.min(WARMUP_SECONDS, Math.floor(opts.seconds / 3)) - 1);
    out.push(
      '',
      `RSS per instance (sampled every second from /proc/<pid>/status; ceiling ${opts.rssCeilingMb} MB, end ≤ ` +
        `${RSS_GROWTH_LIMIT} × after warm-up at ${warmIndex + 1} s):`,
    );
    const rssProblems: string[] = [];
    instances.forEach((inst, i) => {
      const samples = inst.rssKb;
      const warm = samples[warmIndex] ?? samples[0] ?? 0;
      const max = Math.max(...samples);
      const end = samples.at(-1) ?? 0;
      const ok = end <= RSS_GROWTH_LIMIT * warm && max <= opts.rssCeilingMb * 1024;
      if (!ok) {
        rssProblems.push(
          `${inst.name}: end ${mb(end)} vs warm ${mb(warm)} (limit ${mb(RSS_GROWTH_LIMIT * warm)}), max ${mb(max)}`,
        );
      }
      out.push(
        `  ${inst.name} (pid ${inst.pid}): start ${mb(rssStart[i]!)}, after warm-up ${mb(warm)}, max ${mb(max)}, ` +
          `end ${mb(end)} (${samples.length} samples) → ${ok ? 'bounded' : 'NOT BOUNDED'}`,
      );
    });

    out.push(
      '',
      `load average (1/5/15 min): start ${loadStart.map((l) => l.toFixed(2)).join(' / ')}, end ` +
        `${loadEnd.map((l) => l.toFixed(2)).join(' / ')} (${os.cpus().length} CPUs, shared)`,
    );

    // Unexpected answers, grouped, with the instance log's error for their request ids.
    const fivexx = rec.problems.filter((p) => typeof p.status === 'number' && p.status >= 500);
    if (rec.problems.length > 0) {
      out.push('', `UNEXPECTED ANSWERS (${rec.problems.length}; ${fivexx.length} of them 5xx):`);
      const groups = new Map<string, Problem[]>();
      for (const p of rec.problems) {
        const k = `${p.route} → ${p.status}${p.code ? ` ${p.code}` : ''}`;
        groups.set(k, [...(groups.get(k) ?? []), p]);
      }
      for (const [k, list] of groups) {
        out.push(`  ${k}: ${list.length} (e.g. on ${list[0]!.instance}: ${list[0]!.detail ?? '-'})`);
        for (const p of list.slice(0, 3)) {
          if (!p.requestId) continue;
          const logged = logLinesFor(instances.find((i) => i.name === p.instance)?.logFile, p.requestId);
          out.push(`    request ${p.requestId}: ${logged ?? 'not in the instance log'}`);
        }
      }
    }
    out.push('', 'instance logs (LOG_LEVEL=warn):');
    for (const inst of instances) out.push(`  ${inst.name}: ${summariseLog(inst.logFile)}`);

    const reasons: string[] = [];
    if (fivexx.length > 0) reasons.push(`${fivexx.length} 5xx other than deliberate 503s`);
    if (rec.problems.length > fivexx.length) {
      reasons.push(`${rec.problems.length - fivexx.length} other unexpected answers or network errors`);
    }
    if (!developerQuotaOk)
      reasons.push(`the developer user got ${developerOk} × 200, not ${DEVELOPER_QUOTA}`);
    if (rssProblems.length > 0) reasons.push(`RSS not bounded (${rssProblems.join('; ')})`);
    if (stream.unexpectedCloses > 0) reasons.push(`${stream.unexpectedCloses} stream clients dropped`);
    if (receiver.total === 0) reasons.push('no webhook delivery arrived');
    out.push(
      '',
      reasons.length === 0
        ? `RESULT: PASS — no 5xx other than deliberate 503s, RSS bounded on both instances`
        : `RESULT: FAIL — ${reasons.join('; ')}`,
      '',
    );
    process.stdout.write(out.join('\n'));
    failed = reasons.length > 0;
    return failed ? 1 : 0;
  } catch (error) {
    if (error instanceof CheckFailed) process.stdout.write(`\nCHECK FAILED: ${error.message}\n`);
    else process.stderr.write(`\nbenchmark failed: ${(error as Error).stack ?? error}\n`);
    return 1;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanup();
    const codes = [...exitCodes].map(([name, code]) => `${name} ${code}`).join(', ');
    if (codes) process.stdout.write(`instances' exit codes after SIGTERM (no load left): ${codes}\n`);
  }
}

interface LogLine {
  level?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  err?: { type?: string; message?: string; stack?: string };
}

function readLog(file: string | undefined): LogLine[] {
  if (!file) return [];
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      try {
        return JSON.parse(l) as LogLine;
      } catch {
        return { level: 50, msg: l };
      }
    });
}

const describeLine = (l: LogLine) =>
  `${l.msg ?? ''}${l.req ? ` ${l.req.method} ${l.req.url}` : ''}${l.err ? ` — ${l.err.type ?? 'Error'}: ${l.err.message}` : ''}`;

/** The error an instance logged for a request id, if any. */
function logLinesFor(file: string | undefined, requestId: string): string | undefined {
  const line = readLog(file).find((l) => l.reqId === requestId && (l.level ?? 0) >= 40);
  return line && describeLine(line);
}

/** Warn and error line counts of an instance log, with its distinct messages (at most 5). */
function summariseLog(file: string): string {
  const lines = readLog(file);
  const warn = lines.filter((l) => l.level === 40).length;
  const errors = lines.filter((l) => (l.level ?? 0) >= 50).length;
  const distinct = [...new Set(lines.map(describeLine))].slice(0, 5);
  return `${warn} warn, ${errors} error lines${distinct.length ? `: ${distinct.map((d) => `“${d}”`).join('; ')}` : ''}`;
}
