// Webhooks and live-stream scenarios of `npm run bench`.
// - webhooks: 1,000 subscriptions (10 users × 100) on a local receiver; E velocity events are recorded in the
//   job table (as the trend engine does) and every signed delivery is timed: deliveries/s from the first
//   receipt to the last (also from recording the events, idle poll included), event-to-receipt latency p50/p99
//   and the server's CPU per delivery. Baseline in the same run: the same bodies as plain unsigned POSTs with
//   undici to the same receiver, with as many in flight as the job worker runs (JOB_CONCURRENCY, 16).
//   BENCH_PROFILE_DIR writes a CPU profile of the Crestwatch process.
// - stream: 1,000 WebSocket clients on /ws/trends-live; E events; fan-out latency (event recorded → message
//   received) p50/p99 over every client. Baseline: a bare `ws` server broadcasting the same message to 1,000
//   clients (send → receipt).
// Both measured latencies include the job worker's idle poll (≤ 250 ms: the bench records events from another
// process, so nothing pokes the worker, as the trend engine would).
//
// Environment: BENCH_WEBHOOK_EVENTS (default 5), BENCH_STREAM_EVENTS (default 5), BENCH_STREAM_CLIENTS
// (default 1000), BENCH_WEBHOOK_SUBSCRIPTIONS (default 1000).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Agent, request } from 'undici';
import WebSocket, { WebSocketServer } from 'ws';
import { loadConfig } from '../src/config.ts';
import { generateApiKey } from '../src/modules/accounts/index.ts';
import { TREND_VELOCITY_EVENT, type TrendEvents } from '../src/modules/trends/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { type DatabaseHandle, openDatabase } from '../src/platform/db/index.ts';
import { DomainEvents } from '../src/platform/events.ts';
import { JobQueue } from '../src/platform/jobs/index.ts';
import {
  type BenchSettings,
  crestwatchOnSqlite,
  makeTempDir,
  processCpuSeconds,
  progress,
  removeDir,
  setting,
  startTarget,
  type Target,
} from './lib.ts';

/** Jobs the worker runs at once: the app's default JOB_CONCURRENCY. */
const IN_FLIGHT = loadConfig({}).jobConcurrency;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function startCrestwatch(
  tmp: string,
  key: string,
  profileDir?: string,
): Promise<{ target: Target; file: string }> {
  const file = path.join(tmp, 'bench.db');
  const nodeArgs = [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
  const target = await startTarget(
    'crestwatch',
    crestwatchOnSqlite(file, tmp, key, { OUTBOUND_ALLOWLIST: '127.0.0.0/8' }),
    { nodeArgs },
  );
  return { target, file };
}

async function api(target: Target, key: string, method: string, url: string, body?: unknown) {
  const res = await fetch(target.url + url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(data)}`);
  return data;
}

/** Records `count` velocity crossings (distinct trends) the way the trend engine does. */
async function recordEvents(handle: DatabaseHandle, count: number, offset: number): Promise<void> {
  const events = new DomainEvents<TrendEvents>(
    new JobQueue({ db: handle.db, dialect: handle.dialect, clock: systemClock }),
  );
  for (let i = 0; i < count; i++) {
    const at = Date.now();
    const trendId = offset + i + 1;
    await events.record(handle.db, {
      id: `trend.velocity.crossed:${trendId}:50:${at}`,
      type: TREND_VELOCITY_EVENT,
      occurred_at: at,
      data: {
        trend_id: trendId,
        trend_name: `Bench trend ${trendId}`,
        category: 'Technology/AI',
        velocity: 60,
        volume: 100,
        from_velocity: 10,
        levels: [50],
      },
    });
  }
}

interface Receipts {
  server: http.Server;
  url: string;
  latencies: number[];
  count: number;
  /** performance.now() of the first request since the last `resetFirst()`. */
  firstAt: number | undefined;
  resetFirst(): void;
  done(n: number, timeoutMs: number): Promise<number>;
}

async function receiver(): Promise<Receipts> {
  const state = { latencies: [] as number[], count: 0, firstAt: undefined as number | undefined };
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { timestamp?: string; sent?: number };
        const from = body.sent ?? (body.timestamp ? Date.parse(body.timestamp) : Number.NaN);
        if (Number.isFinite(from)) state.latencies.push(now - from);
      } catch {
        // counted anyway
      }
      state.count++;
      state.firstAt ??= performance.now();
      res.writeHead(200).end();
      for (const w of waiters) w();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}/hook`,
    get latencies() {
      return state.latencies;
    },
    get count() {
      return state.count;
    },
    get firstAt() {
      return state.firstAt;
    },
    resetFirst() {
      state.firstAt = undefined;
    },
    done(n, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${state.count} of ${n} arrived`)), timeoutMs);
        const check = () => {
          if (state.count >= n) {
            clearTimeout(timer);
            resolve(performance.now());
          }
        };
        waiters.push(check);
        check();
      });
    },
  };
}

export async function runWebhooksScenario(settings: BenchSettings): Promise<number> {
  let events: number;
  let subscriptions: number;
  try {
    events = setting('BENCH_WEBHOOK_EVENTS', 5);
    subscriptions = setting('BENCH_WEBHOOK_SUBSCRIPTIONS', 1000);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 2;
  }
  const tmp = makeTempDir();
  const key = generateApiKey().key;
  let target: Target | undefined;
  let handle: DatabaseHandle | undefined;
  const recv = await receiver();
  try {
    const total = events * subscriptions;
    process.stdout.write(
      `\nCrestwatch benchmark: webhooks — ${subscriptions} subscriptions on a local receiver, ${events} events ` +
        `→ ${total} signed deliveries; baseline: the same bodies as unsigned undici POSTs (${IN_FLIGHT} in flight)\n`,
    );
    progress('starting Crestwatch on a fresh SQLite database…');
    const started0 = await startCrestwatch(
      tmp,
      key,
      settings.profileDir && path.join(settings.profileDir, 'crestwatch-webhooks'),
    );
    target = started0.target;
    const app = target;
    handle = openDatabase({ kind: 'sqlite', path: started0.file });
    progress(`creating ${subscriptions} subscriptions…`);
    for (let made = 0, user = 0; made < subscriptions; user++) {
      const created = await api(app, key, 'POST', '/api/admin/users', {
        email: `bench-${user}@example.com`,
        plan: 'enterprise',
      });
      const userKey = (
        await api(app, key, 'POST', `/api/admin/users/${created.id}/api-keys`, { name: 'bench' })
      ).api_key as string;
      for (let i = 0; i < 100 && made < subscriptions; i++, made++) {
        await api(app, userKey, 'POST', '/api/integrations/webhooks', {
          url: recv.url,
          trigger_type: 'trend_velocity',
          delivery_mode: 'instant_stream',
          threshold_value: 50,
          cooldown_seconds: 0,
        });
      }
    }
    // Warm-up: one event, all its deliveries.
    progress('warm-up event…');
    await recordEvents(handle!, 1, 10_000);
    await recv.done(subscriptions, 120_000);
    recv.latencies.length = 0;
    const before = recv.count;

    progress(`recording ${events} events…`);
    recv.resetFirst();
    const started = performance.now();
    const cpuBefore = processCpuSeconds(app.pid);
    await recordEvents(handle!, events, 0);
    const finished = await recv.done(before + total, 600_000);
    const cpuAfter = processCpuSeconds(app.pid);
    const seconds = (finished - started) / 1000;
    // Server CPU per delivery: less sensitive than the rate to what else the machine runs.
    const cpuPerDelivery =
      cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) / total) * 1e6;
    // The rate from the first delivery to the last, as the baseline's is from its first POST to its last: the
    // time before the first is the worker's idle poll, which only exists because the events come from this
    // process (the trend engine pokes the worker); it is in the event-to-receipt latencies.
    const deliverySeconds = (finished - (recv.firstAt ?? started)) / 1000;
    const rate = (total - 1) / deliverySeconds;
    const rateFromEvents = total / seconds;
    const lat = [...recv.latencies].sort((a, b) => a - b);

    // Baseline: unsigned POSTs of alert-sized bodies, same receiver, as many in flight as the worker runs.
    progress('baseline: unsigned undici POSTs…');
    const agent = new Agent({ connections: 64 });
    const baseLat: number[] = [];
    const bodyFor = () =>
      JSON.stringify({
        id: 'msg_00000000000000000000000000000000',
        event: 'trend.alert.created',
        trend_id: 1,
        trend_name: 'Bench trend 1',
        category: 'Technology/AI',
        severity: 'medium',
        velocity: 60,
        timestamp: new Date().toISOString(),
        summary:
          'Bench trend 1 (Technology/AI): velocity score rose from 10 to 60, 100 mentions in 24 hours.',
        source_link: 'http://localhost:3000/api/trends/1',
        recommended_next_steps: ['Prepare content on “Bench trend 1” now: it is gaining momentum.'],
        sent: Date.now(),
      });
    let next = 0;
    const baseStart = performance.now();
    const baseBefore = recv.count;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next++ < total) {
          const t = performance.now();
          const res = await request(recv.url, {
            method: 'POST',
            dispatcher: agent,
            headers: { 'content-type': 'application/json' },
            body: bodyFor(),
          });
          await res.body.dump();
          baseLat.push(performance.now() - t);
        }
      }),
    );
    const baseSeconds = (performance.now() - baseStart) / 1000;
    const baseRate = (recv.count - baseBefore) / baseSeconds;
    await agent.close();
    baseLat.sort((a, b) => a - b);

    process.stdout.write(
      `crestwatch: ${total} deliveries in ${deliverySeconds.toFixed(2)} s from the first to the last → ` +
        `${Math.round(rate)} deliveries/s (${seconds.toFixed(2)} s, ${Math.round(rateFromEvents)}/s from recording ` +
        `the events, idle poll included); ` +
        `event-to-receipt p50 ${fmt(percentile(lat, 50))}, p99 ${fmt(percentile(lat, 99))}` +
        `${cpuPerDelivery === undefined ? '' : `; server CPU ${Math.round(cpuPerDelivery)} µs per delivery`}\n` +
        `baseline (unsigned undici POST, ${IN_FLIGHT} in flight): ${Math.round(baseRate)} POSTs/s; ` +
        `request latency p50 ${fmt(percentile(baseLat, 50))}, p99 ${fmt(percentile(baseLat, 99))}\n` +
        `\nRESULT: webhooks ${(rate / baseRate).toFixed(3)} × the baseline's rate ` +
        `(each delivery is a job: claimed, signed, sent, and its execution row and subscription written)\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`\nbenchmark failed: ${(error as Error).stack ?? error}\n`);
    return 1;
  } finally {
    await handle?.close();
    await target?.close();
    recv.server.closeAllConnections();
    recv.server.close();
    removeDir(tmp);
  }
}

interface Listener {
  sockets: WebSocket[];
  latencies: number[];
  received: number;
}

async function openClients(
  url: string,
  count: number,
  headers: Record<string, string>,
  stampOf: (m: { data: { timestamp?: string; sent?: number } }) => number,
): Promise<Listener> {
  const listener: Listener = { sockets: [], latencies: [], received: 0 };
  const batch = 50;
  for (let i = 0; i < count; i += batch) {
    await Promise.all(
      Array.from(
        { length: Math.min(batch, count - i) },
        () =>
          new Promise<void>((resolve, reject) => {
            const ws = new WebSocket(url, { headers });
            ws.on('message', (raw) => {
              const now = Date.now();
              const message = JSON.parse(String(raw)) as {
                type: string;
                data: { timestamp?: string; sent?: number };
              };
              if (message.type === 'trend.update') return;
              listener.received++;
              listener.latencies.push(now - stampOf(message));
            });
            ws.once('open', () => resolve());
            ws.once('error', reject);
            listener.sockets.push(ws);
          }),
      ),
    );
  }
  return listener;
}

async function until(what: string, fn: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function runStreamScenario(_settings: BenchSettings): Promise<number> {
  let events: number;
  let clients: number;
  try {
    events = setting('BENCH_STREAM_EVENTS', 5);
    clients = setting('BENCH_STREAM_CLIENTS', 1000);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 2;
  }
  const tmp = makeTempDir();
  const key = generateApiKey().key;
  let target: Target | undefined;
  let handle: DatabaseHandle | undefined;
  const all: WebSocket[] = [];
  let bare: WebSocketServer | undefined;
  try {
    process.stdout.write(
      `\nCrestwatch benchmark: live stream — ${clients} WebSocket clients, ${events} alerts each; baseline: a ` +
        `bare ws server broadcasting to ${clients} clients\n`,
    );
    progress('starting Crestwatch on a fresh SQLite database…');
    const started = await startCrestwatch(tmp, key);
    target = started.target;
    handle = openDatabase({ kind: 'sqlite', path: started.file });
    progress(`connecting ${clients} clients…`);
    const stream = await openClients(
      `${target.url.replace(/^http/, 'ws')}/ws/trends-live`,
      clients,
      { authorization: `Bearer ${key}` },
      (m) => Date.parse(m.data.timestamp ?? ''),
    );
    all.push(...stream.sockets);
    await recordEvents(handle, 1, 10_000);
    await until('the warm-up alert', () => stream.received >= clients, 60_000);
    stream.latencies.length = 0;
    stream.received = 0;
    for (let i = 0; i < events; i++) {
      await recordEvents(handle, 1, i);
      await until('every client’s alert', () => stream.received >= clients * (i + 1), 60_000);
    }
    const lat = [...stream.latencies].sort((a, b) => a - b);

    progress('baseline: bare ws broadcast…');
    bare = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => bare!.once('listening', () => resolve()));
    const { port } = bare.address() as AddressInfo;
    const base = await openClients(`ws://127.0.0.1:${port}`, clients, {}, (m) => m.data.sent ?? Number.NaN);
    all.push(...base.sockets);
    for (let i = 0; i < events; i++) {
      const text = JSON.stringify({ type: 'trend.alert.created', data: { sent: Date.now() }, sent_at: '' });
      for (const client of bare.clients) client.send(text);
      await until('every baseline message', () => base.received >= clients * (i + 1), 60_000);
    }
    const baseLat = [...base.latencies].sort((a, b) => a - b);
    process.stdout.write(
      `crestwatch: event recorded → message at ${clients} clients: p50 ${fmt(percentile(lat, 50))}, ` +
        `p99 ${fmt(percentile(lat, 99))} (${lat.length} messages; includes the worker's ≤ 250 ms idle poll)\n` +
        `baseline (bare ws broadcast, same process as the clients): p50 ${fmt(percentile(baseLat, 50))}, ` +
        `p99 ${fmt(percentile(baseLat, 99))}\n` +
        `\nRESULT: stream fan-out p99 ${fmt(percentile(lat, 99))} vs baseline ${fmt(percentile(baseLat, 99))}\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`\nbenchmark failed: ${(error as Error).stack ?? error}\n`);
    return 1;
  } finally {
    for (const ws of all) ws.terminate();
    bare?.close();
    await handle?.close();
    await target?.close();
    removeDir(tmp);
  }
}
