// The live stream's fan-out. Messages are published once to pub/sub (Redis when REDIS_URL is set), and every
// process sends them to its own connected clients: trend messages to clients whose `trends` filter matches,
// crisis messages only to their owner. Each message is serialised once per process. A client whose unsent
// data exceeds the bound is dropped, so a slow reader can never grow the server's memory.
import type { WebSocket } from 'ws';
import type { Clock } from '../../platform/clock.ts';
import { LocalPubSub, type PubSub } from '../../platform/pubsub.ts';
import { normaliseKey } from '../text/index.ts';

const STREAM_CHANNEL = 'stream:events';

/** What travels over pub/sub: the message plus who may see it. */
export interface StreamEnvelope {
  type: string;
  data: Record<string, unknown>;
  /** Crisis messages: only this user's clients. */
  user_id?: number;
  /** Trend messages: keys a client's `trends` filter is matched against. */
  trend_keys?: string[];
}

interface StreamClient {
  socket: WebSocket;
  userId: number;
  /** Normalised trend keys; null = every trend. */
  trends: Set<string> | null;
  alive: boolean;
  /**
   * Whether the connection's key still admits it: null while it does, else the reason (a problem code). Asked
   * every `recheckMs`, so a revoked key, a disabled account or a plan without the stream ends the connection.
   */
  recheck?: () => Promise<string | null>;
}

interface StreamHubOptions {
  /** Unsent bytes a client may have queued before it is dropped. Default 1 MiB. */
  maxBufferedBytes?: number;
  /** Ping interval; a client that did not answer the previous ping is dropped. Default 30 s. */
  heartbeatMs?: number;
  /** How often each connection's key is checked again. Default 5 s (a revoked key's refusal bound). */
  recheckMs?: number;
}

/** Close code for a connection whose key no longer admits it (RFC 6455 "policy violation"). */
const ACCESS_ENDED = 1008;

/** The keys a trend filter value stands for (`#AI` → `ai`). */
export function trendKeysOf(name: string): string[] {
  const lower = name.normalize('NFKC').trim().toLowerCase().replace(/^#/, '');
  const key = normaliseKey(name);
  return key && key !== lower ? [lower, key] : [lower];
}

/** Parses `?trends=ai,llms`: null when absent (every trend). */
export function parseTrendFilter(raw: unknown): Set<string> | null | 'invalid' {
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || raw.length > 2000) return 'invalid';
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (items.length === 0) return null;
  if (items.length > 50 || items.some((s) => s.length > 100)) return 'invalid';
  return new Set(items.flatMap(trendKeysOf));
}

export class StreamHub {
  private readonly clients = new Set<StreamClient>();
  private readonly maxBuffered: number;
  private readonly heartbeatMs: number;
  private readonly recheckMs: number;
  private timer: NodeJS.Timeout | undefined;
  private recheckTimer: NodeJS.Timeout | undefined;
  private rechecking = false;
  private unsubscribe: (() => void) | undefined;
  /** Clients dropped for being too slow (for tests and metrics). */
  dropped = 0;

  constructor(
    private readonly pubsub: PubSub,
    private readonly clock: Clock,
    options: StreamHubOptions = {},
  ) {
    this.maxBuffered = options.maxBufferedBytes ?? 1024 * 1024;
    this.heartbeatMs = options.heartbeatMs ?? 30_000;
    this.recheckMs = options.recheckMs ?? 5_000;
  }

  get size(): number {
    return this.clients.size;
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(STREAM_CHANNEL, (message) => {
      let parsed: StreamEnvelope | { batch: StreamEnvelope[] };
      try {
        parsed = JSON.parse(message) as StreamEnvelope | { batch: StreamEnvelope[] };
      } catch {
        return;
      }
      if ('batch' in parsed && Array.isArray(parsed.batch))
        for (const envelope of parsed.batch) this.fanOut(envelope);
      else this.fanOut(parsed as StreamEnvelope);
    });
    this.timer = setInterval(() => this.heartbeat(), this.heartbeatMs);
    this.timer.unref();
    this.recheckTimer = setInterval(() => void this.recheckAll(), this.recheckMs);
    this.recheckTimer.unref();
  }

  /** Ends the connections whose key no longer admits them (one round at a time). */
  async recheckAll(): Promise<void> {
    if (this.rechecking) return;
    this.rechecking = true;
    try {
      for (const client of [...this.clients]) {
        if (!client.recheck) continue;
        // A check that cannot be made (the database away) keeps the connection: it is not a refusal.
        const reason = await client.recheck().catch(() => null);
        if (reason === null || !this.clients.has(client)) continue;
        this.clients.delete(client);
        client.socket.close(ACCESS_ENDED, reason);
      }
    } finally {
      this.rechecking = false;
    }
  }

  /** Sends to every matching client in every process. */
  publish(envelope: StreamEnvelope): Promise<void> {
    return this.pubsub.publish(STREAM_CHANNEL, JSON.stringify(envelope));
  }

  /** Several messages as one pub/sub message (a recompute pass's trend updates). */
  publishMany(envelopes: StreamEnvelope[]): Promise<void> {
    if (envelopes.length === 0) return Promise.resolve();
    // In-process pub/sub reaches only this process: with no client here nobody would read them.
    if (this.pubsub instanceof LocalPubSub && this.clients.size === 0) return Promise.resolve();
    return this.pubsub.publish(STREAM_CHANNEL, JSON.stringify({ batch: envelopes }));
  }

  add(client: StreamClient): void {
    this.clients.add(client);
    client.socket.on('pong', () => {
      client.alive = true;
    });
    client.socket.on('close', () => this.clients.delete(client));
  }

  private matches(client: StreamClient, envelope: StreamEnvelope): boolean {
    if (envelope.user_id !== undefined) return envelope.user_id === client.userId;
    if (client.trends === null) return true;
    return (envelope.trend_keys ?? []).some((k) => client.trends!.has(k));
  }

  fanOut(envelope: StreamEnvelope): void {
    let text: string | undefined;
    for (const client of this.clients) {
      if (!this.matches(client, envelope)) continue;
      const socket = client.socket;
      if (socket.readyState !== socket.OPEN) continue;
      text ??= JSON.stringify({
        type: envelope.type,
        data: envelope.data,
        sent_at: new Date(this.clock.now()).toISOString(),
      });
      if (socket.bufferedAmount + text.length > this.maxBuffered) {
        this.drop(client);
        continue;
      }
      socket.send(text);
    }
  }

  private drop(client: StreamClient): void {
    this.dropped++;
    this.clients.delete(client);
    // terminate(), not close(): a close frame would queue behind the backlog the client is not reading.
    client.socket.terminate();
  }

  private heartbeat(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        this.clients.delete(client);
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      try {
        client.socket.ping();
      } catch {
        this.clients.delete(client);
      }
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.unsubscribe?.();
    for (const client of this.clients) client.socket.close(1001, 'server shutting down');
    this.clients.clear();
  }
}
