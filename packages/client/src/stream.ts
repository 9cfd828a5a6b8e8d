// The live stream (`/ws/trends-live`): a typed WebSocket client that reconnects with backoff. The key travels
// as `?token=` because browsers cannot set headers on a WebSocket (the server redacts it from its logs).
// Any WebSocket constructor works: the global one (browsers, Deno, Node 22+) or `ws` on Node 20.
import { errorFromResponse } from './errors.ts';
import { backoffDelayMs } from './retry.ts';
import type { components, webhooks } from './schema.js';

type TrendItem = components['schemas']['TrendItem'];
type WebhookBody<K extends keyof webhooks> = webhooks[K] extends {
  post: { requestBody: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

/** `trend.update`: a trend's 24-hour snapshot, each time it is recomputed. */
export interface TrendUpdate {
  trend_id: TrendItem['id'];
  trend_name: TrendItem['title'];
  category: TrendItem['category'];
  volume: TrendItem['volume'];
  velocity: TrendItem['velocity_score'];
  /** The window `velocity` comes from. */
  velocity_window: TrendItem['velocity_window'];
  velocity_1h: TrendItem['velocity_1h'];
  growth: TrendItem['growth'];
  lifecycle_stage: TrendItem['lifecycle_stage'];
  sentiment: TrendItem['sentiment'];
  sentiment_category: TrendItem['sentiment_category'];
  timestamp: TrendItem['timestamp'];
}

type Envelope<T extends string, D> = { type: T; data: D; sent_at: string };
type CrisisType = 'crisis.event.opened' | 'crisis.event.escalated' | 'crisis.event.resolved';

/** Every message type the stream sends; `data` of alerts is the webhook body of the same name. */
export type StreamMessage =
  | Envelope<'trend.update', TrendUpdate>
  | Envelope<'trend.alert.created', WebhookBody<'trend.alert.created'>>
  | Envelope<'trend.lifecycle.changed', WebhookBody<'trend.lifecycle.changed'>>
  | { [K in CrisisType]: Envelope<K, WebhookBody<K>> }[CrisisType];

const MESSAGE_TYPES: ReadonlySet<string> = new Set<StreamMessage['type']>([
  'trend.update',
  'trend.alert.created',
  'trend.lifecycle.changed',
  'crisis.event.opened',
  'crisis.event.escalated',
  'crisis.event.resolved',
]);

/**
 * What the client needs of a WebSocket (the standard interface, which `ws` implements too). Handler
 * parameters are `never` so that any implementation's own event types are accepted.
 */
export interface WebSocketLike {
  onopen: ((event: never) => void) | null;
  onmessage: ((event: never) => void) | null;
  onclose: ((event: never) => void) | null;
  onerror: ((event: never) => void) | null;
  close(code?: number, reason?: string): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface ReconnectOptions {
  /** Backoff base before the first reconnection (full jitter, doubling). Default 500 ms. */
  baseDelayMs?: number;
  /** Cap of one wait. Default 30 s. */
  maxDelayMs?: number;
  /** Consecutive failed connections before giving up. Default: never give up. */
  maxAttempts?: number;
}

export interface StreamOptions {
  /** Trend names to follow (`#AI` = `ai`); every trend when left out. At most 50. */
  trends?: readonly string[];
  reconnect?: ReconnectOptions | false;
  /** Closes the stream when aborted. */
  signal?: AbortSignal;
}

export interface StreamEvents {
  message: StreamMessage;
  open: undefined;
  /** About to reconnect after `delayMs` (the `attempt`-th consecutive try). */
  reconnecting: { attempt: number; delayMs: number };
  /** A connection failed for good: refused by the server (a CrestwatchError: bad key, plan, filter) or too many attempts. */
  error: Error;
  /** The stream has ended (after `close()`, an abort, or an `error`); no more events follow. */
  close: undefined;
}

/** What `createClient` hands to a stream. */
interface StreamContext {
  baseUrl: string;
  apiKey: string | undefined;
  WebSocket: WebSocketConstructor | undefined;
  fetch: (input: Request) => Promise<Response>;
  random: () => number;
}

const STREAM_PATH = '/ws/trends-live';
const NORMAL_CLOSURE = 1000;
const DEFAULT_RECONNECT = { baseDelayMs: 500, maxDelayMs: 30_000, maxAttempts: Number.POSITIVE_INFINITY };
/** Answers to the plain-GET probe that mean the stream refuses this client: reconnecting will not help. */
const REFUSALS = new Set([400, 401, 403, 404]);

/** The stream's URL for `baseUrl` (http → ws, https → wss; a path prefix is kept). */
export function streamUrl(baseUrl: string, trends: readonly string[] | undefined, apiKey?: string): URL {
  const url = new URL(baseUrl.replace(/\/+$/, '') + STREAM_PATH);
  url.protocol = url.protocol === 'https:' ? 'wss:' : url.protocol === 'http:' ? 'ws:' : url.protocol;
  if (trends && trends.length > 0) url.searchParams.set('trends', trends.join(','));
  if (apiKey) url.searchParams.set('token', apiKey);
  return url;
}

/** Parses one frame; undefined for anything that is not a message of a known type. */
export function parseMessage(data: unknown): StreamMessage | undefined {
  let text: string;
  if (typeof data === 'string') text = data;
  else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data))
    text = new TextDecoder().decode(data as ArrayBuffer);
  else return undefined;
  try {
    const message = JSON.parse(text) as { type?: unknown };
    return typeof message.type === 'string' && MESSAGE_TYPES.has(message.type)
      ? (message as StreamMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

type Listener<K extends keyof StreamEvents> = (event: StreamEvents[K]) => void;

export class LiveStream implements AsyncIterable<StreamMessage> {
  private readonly listeners: { [K in keyof StreamEvents]: Set<Listener<K>> } = {
    message: new Set(),
    open: new Set(),
    reconnecting: new Set(),
    error: new Set(),
    close: new Set(),
  };
  private socket: WebSocketLike | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private ended = false;
  private readonly reconnect: typeof DEFAULT_RECONNECT | false;

  constructor(
    private readonly context: StreamContext,
    private readonly options: StreamOptions = {},
  ) {
    if (!context.WebSocket) {
      throw new TypeError(
        'No WebSocket implementation: pass createClient({ WebSocket }) (on Node 20, the `ws` package).',
      );
    }
    this.reconnect = options.reconnect === false ? false : { ...DEFAULT_RECONNECT, ...options.reconnect };
    if (options.signal?.aborted) {
      queueMicrotask(() => this.close());
      return;
    }
    options.signal?.addEventListener('abort', () => this.close(), { once: true });
    this.connect();
  }

  /** Adds a listener; returns the function that removes it. */
  on<K extends keyof StreamEvents>(event: K, listener: Listener<K>): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  /** Ends the stream: closes the connection and stops reconnecting. */
  close(): void {
    if (this.ended) return;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = undefined;
    socket?.close(NORMAL_CLOSURE);
    this.end();
  }

  /** Messages in order of arrival, until the stream ends (rejects with the `error`, if one ended it). */
  async *[Symbol.asyncIterator](): AsyncGenerator<StreamMessage, void, undefined> {
    const queue: StreamMessage[] = [];
    let failure: Error | undefined;
    let done = this.ended;
    let wake: (() => void) | undefined;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    const off = [
      this.on('message', (m) => {
        queue.push(m);
        notify();
      }),
      this.on('error', (e) => {
        failure = e;
      }),
      this.on('close', () => {
        done = true;
        notify();
      }),
    ];
    try {
      for (;;) {
        const next = queue.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        if (failure) throw failure;
        if (done) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } finally {
      for (const remove of off) remove();
    }
  }

  private emit<K extends keyof StreamEvents>(event: K, value: StreamEvents[K]): void {
    for (const listener of this.listeners[event]) listener(value);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.emit('close', undefined);
  }

  private fail(error: Error): void {
    if (this.ended) return;
    this.emit('error', error);
    this.end();
  }

  private connect(): void {
    const Socket = this.context.WebSocket!;
    let opened = false;
    let socket: WebSocketLike;
    try {
      socket = new Socket(
        streamUrl(this.context.baseUrl, this.options.trends, this.context.apiKey).toString(),
      );
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      opened = true;
      this.failures = 0;
      this.emit('open', undefined);
    };
    socket.onmessage = (event: { data: unknown }) => {
      const message = parseMessage(event.data);
      if (message) this.emit('message', message);
    };
    // The close that follows says all there is to know.
    socket.onerror = () => {};
    socket.onclose = () => {
      if (this.socket !== socket || this.ended) return;
      this.socket = undefined;
      if (opened) this.scheduleReconnect();
      else void this.probeThenReconnect();
    };
  }

  /**
   * A connection that never opened was refused or could not reach the server. A WebSocket does not show the
   * refusal's status, so ask with a plain GET: the stream answers it 426 when key, plan and filter are fine,
   * and its 401/403/400 problem otherwise, which ends the stream instead of retrying forever.
   */
  private async probeThenReconnect(): Promise<void> {
    try {
      const url = streamUrl(this.context.baseUrl, this.options.trends);
      url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
      const headers = new Headers();
      if (this.context.apiKey) headers.set('authorization', `Bearer ${this.context.apiKey}`);
      const response = await this.context.fetch(new Request(url, { headers }));
      if (REFUSALS.has(response.status)) {
        const body = await response.json().catch(() => undefined);
        this.fail(errorFromResponse(response, body));
        return;
      }
      await response.body?.cancel().catch(() => {});
    } catch {
      // Unreachable: retry like any other dropped connection.
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.ended) return;
    if (this.reconnect === false) {
      this.end();
      return;
    }
    this.failures++;
    if (this.failures > this.reconnect.maxAttempts) {
      this.fail(
        new Error(`The live stream could not reconnect after ${this.reconnect.maxAttempts} attempts.`),
      );
      return;
    }
    const delayMs = backoffDelayMs(this.failures, this.reconnect, this.context.random);
    this.emit('reconnecting', { attempt: this.failures, delayMs });
    this.timer = setTimeout(() => {
      if (!this.ended) this.connect();
    }, delayMs);
  }
}
