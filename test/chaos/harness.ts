// The fault tests' harness: the real service (src/main.ts) as child processes, a PostgreSQL cluster and a
// Redis of the test's own (so restarting them never disturbs the machine's shared servers), a webhook receiver
// and an S3-compatible store on 127.0.0.1. Everything started here is stopped by `cleanUp()` (call it from
// `after`), and, should the test process end without it, by an exit handler.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const PG_BIN = '/usr/lib/postgresql/15/bin';
export const SECRET_KEY = 'chaos-tests-secret-key-0123456789abcdef';

type Disposer = () => void;
/** Synchronous disposers, newest first: they also run from the exit handler, where nothing can be awaited. */
const disposers = new Map<symbol, Disposer>();

function track(dispose: Disposer): () => void {
  const id = Symbol();
  disposers.set(id, dispose);
  return () => disposers.delete(id);
}

/** Stops every process and removes every folder this harness started or made (idempotent). */
export function cleanUp(): void {
  for (const dispose of [...disposers.values()].reverse()) {
    try {
      dispose();
    } catch {
      // Best effort: the rest must still be cleaned up.
    }
  }
  disposers.clear();
}
process.once('exit', cleanUp);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until `ok` holds; throws naming `what` (and the last value) when `withinMs` passes. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T> | T,
  ok: (value: T) => boolean,
  withinMs: number,
  everyMs = 250,
): Promise<T> {
  const until = Date.now() + withinMs;
  let last: T | undefined;
  let lastError: unknown;
  for (;;) {
    try {
      last = await probe();
      if (ok(last)) return last;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > until) {
      const value = last instanceof Map ? [...last] : last;
      const shown = lastError ? String(lastError) : JSON.stringify(value)?.slice(0, 500);
      throw new Error(`${what}: not within ${withinMs} ms (last: ${shown})`);
    }
    await sleep(everyMs);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A fresh API key in the service's format (`cw_` + 40 base62 characters). */
function newApiKey(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let key = 'cw_';
  for (const byte of randomBytes(40)) key += alphabet[byte % 62];
  return key;
}

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `crestwatch-chaos-${prefix}-`));
  track(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// ---------------------------------------------------------------- PostgreSQL

const asRoot = process.getuid?.() === 0;

/** A PostgreSQL binary's command line, as the `postgres` user when the tests run as root (initdb refuses root). */
function pgArgv(binary: string, args: string[]): [string, string[]] {
  return asRoot
    ? ['runuser', ['-u', 'postgres', '--', path.join(PG_BIN, binary), ...args]]
    : [path.join(PG_BIN, binary), args];
}

/** Blocks: only for set-up and the exit handler. */
function pgCommandSync(binary: string, args: string[]): { status: number | null; output: string } {
  const [command, argv] = pgArgv(binary, args);
  const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 120_000 });
  return {
    status: result.status,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ?? ''}`,
  };
}

/** Without blocking the test's own clients, which keep measuring while the server stops and starts. */
function pgCommand(binary: string, args: string[]): Promise<{ status: number | null; output: string }> {
  const [command, argv] = pgArgv(binary, args);
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    output += String(chunk);
  });
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ status: null, output: `${output}${error}` }));
    child.once('exit', (status) => resolve({ status, output }));
  });
}

const postgresInstalled = fs.existsSync(path.join(PG_BIN, 'initdb'));

/** A PostgreSQL cluster of the test's own in a temporary folder, on a free port; database `postgres`. */
export class PostgresCluster {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  static async start(): Promise<PostgresCluster> {
    const dir = tempDir('pg');
    if (asRoot) {
      const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      fs.chownSync(dir, uid, gid);
    }
    const cluster = new PostgresCluster(dir, await freePort());
    const init = await pgCommand('initdb', [
      '-D',
      cluster.dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
    ]);
    if (init.status !== 0) throw new Error(`initdb failed: ${init.output}`);
    // Registered before starting: a half-started cluster is stopped too.
    track(() => {
      pgCommandSync('pg_ctl', ['-D', cluster.dataDir, '-m', 'immediate', '-w', '-t', '20', 'stop']);
    });
    await cluster.start();
    return cluster;
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    // fsync off: the tests kill the service, never PostgreSQL itself without a clean stop.
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -F`;
    const log = path.join(this.dir, 'server.log');
    const started = await pgCommand('pg_ctl', [
      '-D',
      this.dataDir,
      '-o',
      options,
      '-l',
      log,
      '-w',
      '-t',
      '60',
      'start',
    ]);
    if (started.status !== 0) throw new Error(`pg_ctl start failed: ${started.output}\n${this.log()}`);
  }

  /** Stops the server (`fast`: open sessions are ended, as an operator's restart does). */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    const stopped = await pgCommand('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    if (stopped.status !== 0) throw new Error(`pg_ctl stop failed: ${stopped.output}`);
  }

  log(): string {
    try {
      return fs.readFileSync(path.join(this.dir, 'server.log'), 'utf8').slice(-3000);
    } catch {
      return '';
    }
  }

  /** One query on a connection of its own. */
  async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({ connectionString: this.url });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  }
}

// ---------------------------------------------------------------- Redis

const redisInstalled = !spawnSync('redis-server', ['--version']).error;

/** A Redis of the test's own without persistence: stopping it loses everything, as a crashed cache does. */
export class RedisServer {
  private child: ChildProcess | null = null;
  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), tempDir('redis'));
    track(() => server.child?.kill('SIGKILL'));
    await server.start();
    return server;
  }

  start(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start within 20 s')), 20_000);
      let out = '';
      child.stdout!.on('data', (chunk) => {
        out += String(chunk);
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr!.resume();
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${out}`));
      });
    });
  }

  /** Kills the server: what it held is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

// ---------------------------------------------------------------- the service

/** Why a chaos test is skipped on a machine without PostgreSQL 15 or redis-server (false when both are here). */
export const backendsMissing =
  (!postgresInstalled || !redisInstalled) && 'PostgreSQL 15 and redis-server are needed';

/** A PostgreSQL cluster and a Redis of the test's own, and an operator key for the instances to bootstrap. */
export async function backends(): Promise<{
  cluster: PostgresCluster;
  redis: RedisServer;
  operatorKey: string;
}> {
  const cluster = await PostgresCluster.start();
  const redis = await RedisServer.start();
  return { cluster, redis, operatorKey: newApiKey() };
}

export interface InstanceOptions {
  databaseUrl: string;
  /** Shared by restarts of one instance (the service keeps no state there on PostgreSQL). */
  dataDir?: string;
  redisUrl?: string;
  redisKeyPrefix?: string;
  operatorKey: string;
  /** Defaults to a free port; pass the previous one to restart an instance where its clients expect it. */
  port?: number;
  env?: Record<string, string>;
}

/** Lifts the burst limits the load of these tests would otherwise hit; the quotas stay as they are. */
const LIFTED_BURSTS = JSON.stringify(
  Object.fromEntries(
    ['developer', 'advantage', 'scale', 'enterprise'].map((plan) => [plan, { burst_per_second: 100_000 }]),
  ),
);

/** One process of the real service (`node --import tsx src/main.ts`). */
export class Instance {
  private readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly options: InstanceOptions,
  ) {
    const keep = (chunk: Buffer) => {
      for (const line of String(chunk).split('\n')) if (line.trim()) this.lines.push(line);
      if (this.lines.length > 400) this.lines.splice(0, this.lines.length - 400);
    };
    // Always drained: a full pipe would block the child's logging, and with it the child.
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve({ code: child.exitCode, signal: child.signalCode });
      } else child.once('exit', (code, signal) => resolve({ code, signal }));
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The process's last log lines (for failure messages). */
  log(): string {
    return this.lines.slice(-60).join('\n');
  }

  /** The kept log lines of errors the service read as bugs (what a 500 logged). */
  unhandled(): string {
    return this.lines
      .filter((line) => line.includes('unhandled error'))
      .slice(-5)
      .join('\n');
  }

  /** Starts an instance and waits until `/status` answers 200. */
  static async start(options: InstanceOptions): Promise<Instance> {
    const port = options.port ?? (await freePort());
    const dataDir = options.dataDir ?? tempDir('data');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: options.databaseUrl,
        DATA_DIR: dataDir,
        SECRET_KEY,
        BOOTSTRAP_API_KEY: options.operatorKey,
        LOG_LEVEL: 'warn',
        SOURCES: 'none',
        REDIS_URL: options.redisUrl ?? '',
        REDIS_KEY_PREFIX: options.redisKeyPrefix ?? 'chaos:',
        OUTBOUND_ALLOWLIST: '127.0.0.0/8',
        PLANS: LIFTED_BURSTS,
        // The event-loop shedding answers 503 on a loaded machine, and every client here shares one address
        // (the per-IP limit covers /status and /metrics): these tests are about other faults.
        OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
        PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    track(() => child.kill('SIGKILL'));
    const instance = new Instance(child, port, { ...options, dataDir, port });
    const died = instance.exited.then(({ code, signal }) => {
      throw new Error(`the instance exited (${code ?? signal}) before it answered:\n${instance.log()}`);
    });
    const ready = eventually(
      `instance on port ${port} answering /status`,
      async () => (await fetch(`${instance.url}/status`, { signal: AbortSignal.timeout(5000) })).status,
      (status) => status === 200,
      90_000,
      200,
    );
    try {
      await Promise.race([ready, died]);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    } finally {
      died.catch(() => undefined);
    }
    return instance;
  }

  /** The same instance again on the same port and database (after it was killed or stopped). */
  restart(env: Record<string, string> = {}): Promise<Instance> {
    return Instance.start({ ...this.options, env: { ...this.options.env, ...env } });
  }

  /** Sends `signal` and waits for the exit. */
  async kill(
    signal: NodeJS.Signals = 'SIGKILL',
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }
}

// ---------------------------------------------------------------- HTTP

export interface Json {
  // biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely
  [key: string]: any;
}

export interface Answer<T = Json> {
  status: number;
  headers: Headers;
  data: T;
  ms: number;
}

/** One request with a key; the body as JSON (or text when it is not JSON). */
export async function api<T = Json>(
  base: string,
  method: string,
  url: string,
  options: { key?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<Answer<T>> {
  const started = performance.now();
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  return { status: res.status, headers: res.headers, data: data as T, ms: performance.now() - started };
}

/** A user on `plan` and a key of theirs, made through the operator routes. */
export async function createUser(
  base: string,
  operatorKey: string,
  plan: string,
  permissions = ['read', 'write'],
): Promise<{ userId: number; key: string; keyId: number }> {
  const email = `chaos-${randomBytes(5).toString('hex')}@example.com`;
  const user = await api(base, 'POST', '/api/admin/users', { key: operatorKey, body: { email, plan } });
  if (user.status !== 201) throw new Error(`creating a user: ${user.status} ${JSON.stringify(user.data)}`);
  const key = await api(base, 'POST', `/api/admin/users/${user.data.id}/api-keys`, {
    key: operatorKey,
    body: { name: 'chaos', permissions },
  });
  if (key.status !== 201) throw new Error(`creating a key: ${key.status} ${JSON.stringify(key.data)}`);
  return { userId: user.data.id, key: key.data.api_key, keyId: key.data.id };
}

/** `crestwatch_lease_held{loop}` of one instance's `/metrics`: loop → 0 or 1. */
export async function leasesHeld(base: string): Promise<Map<string, number>> {
  const res = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5000) });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const held = new Map<string, number>();
  for (const match of (await res.text()).matchAll(/^crestwatch_lease_held\{loop="([^"]+)"\} (\d+)$/gm)) {
    held.set(match[1]!, Number(match[2]));
  }
  return held;
}

// ---------------------------------------------------------------- receivers

export interface Delivery {
  webhookId: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** Records every webhook delivery; answers 200 after `delayMs` (a slow receiver keeps deliveries in flight). */
export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  /** Deliveries answered (the rest were cut off, or are still waiting for their answer). */
  answered = 0;
  delayMs = 0;
  private constructor(readonly url: string) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        receiver!.deliveries.push({
          webhookId: String(req.headers['webhook-id'] ?? ''),
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        // Unref'd: an answer still held back must not keep the test process alive.
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
          receiver!.answered++;
        }, receiver!.delayMs).unref();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    receiver = new WebhookReceiver(`http://127.0.0.1:${port}/hook`);
    track(() => {
      server.closeAllConnections();
      server.close();
    });
    return receiver;
  }
}

/**
 * An S3-compatible store (path-style `PUT /bucket/key`) that keeps an object once its whole body has arrived,
 * as S3 does, and answers after `delayMs`: an upload can be stored while its uploader never hears so.
 * Signatures are not checked (test/modules/exports/stand-ins.ts does that).
 */
export class ObjectStore {
  readonly objects = new Map<string, Buffer>();
  readonly puts: { key: string; at: number }[] = [];
  delayMs = 0;
  private constructor(readonly url: string) {}

  static async start(): Promise<ObjectStore> {
    let store: ObjectStore | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const key = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
        if (req.method === 'PUT') {
          store!.objects.set(key, Buffer.concat(chunks));
          store!.puts.push({ key, at: Date.now() });
        }
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(200, { etag: '"chaos"', 'content-length': 0 }).end();
        }, store!.delayMs).unref();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    store = new ObjectStore(`http://127.0.0.1:${port}`);
    track(() => {
      server.closeAllConnections();
      server.close();
    });
    return store;
  }
}
