// @crestwatch/client: the typed TypeScript client for the Crestwatch API. Types are generated from the
// served OpenAPI document (schema.d.ts, `npm run client:generate`); calls go through openapi-fetch. The core
// uses web standards only (fetch, WebCrypto, WebSocket), so it runs on Node 20+, Deno and in browsers.
import createFetchClient, { type Client } from 'openapi-fetch';
import { unwrap } from './errors.ts';
import { type PageItem, type PaginatedPath, type PaginateOptions, paginate } from './paginate.ts';
import { DEFAULT_RETRY, type RetryOptions, retryingFetch } from './retry.ts';
import type { paths } from './schema.js';
import { LiveStream, type StreamOptions, type WebSocketConstructor } from './stream.ts';
import { verify } from './webhooks.ts';

export { CrestwatchError, type DataOf, type FieldError, type Problem, unwrap } from './errors.ts';
export type { PageItem, PaginatedPath, PaginateOptions } from './paginate.ts';
export type { RetryOptions } from './retry.ts';
export type { components, paths, webhooks } from './schema.js';
export type { RequestBody, ResponseBody, Schema } from './shapes.ts';
export type {
  LiveStream,
  ReconnectOptions,
  StreamEvents,
  StreamMessage,
  StreamOptions,
  TrendUpdate,
  WebSocketConstructor,
  WebSocketLike,
} from './stream.ts';
export {
  type VerifyOptions,
  verify as verifyWebhook,
  type WebhookEvent,
  type WebhookScheme,
  WebhookVerificationError,
} from './webhooks.ts';

export interface ClientOptions {
  /** Where Crestwatch is served, e.g. `https://crestwatch.example.com` (no `/api`: paths include it). */
  baseUrl: string;
  /** An API key (`cw_…`), sent as `Authorization: Bearer`. Public routes work without one. */
  apiKey?: string;
  /** A fetch to use instead of the global one (a proxy, a test double, instrumentation). */
  fetch?: (input: Request) => Promise<Response>;
  /** Attempts and backoff for retries (a number is `maxAttempts`); `false` never retries. */
  retries?: number | RetryOptions | false;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** The WebSocket class for `stream()`; default the global one (Node 22+, Deno, browsers). On Node 20 pass `ws`. */
  WebSocket?: WebSocketConstructor;
  /** Milliseconds since the epoch (HTTP-date Retry-After values); default the system clock. */
  now?: () => number;
  /** A number in [0, 1) for backoff jitter; default Math.random. */
  random?: () => number;
}

export interface CrestwatchClient extends Client<paths> {
  /** The data of a successful call, or a thrown CrestwatchError: `await client.unwrap(client.GET(…))`. */
  unwrap: typeof unwrap;
  /**
   * Every item of a paginated list, fetching page after page as the loop goes:
   * `for await (const trend of client.paginate('/api/trends', { query: { limit: 100 } }))`.
   */
  paginate<P extends PaginatedPath>(path: P, options?: PaginateOptions<P>): AsyncGenerator<PageItem<P>, void>;
  /** Webhook signature verification (needs no key: it uses the subscription's secret). */
  webhooks: { verify: typeof verify };
  /** Opens the live stream (plans with `live_stream`), reconnecting until closed. */
  stream(options?: StreamOptions): LiveStream;
}

function retryOptions(retries: ClientOptions['retries']): Required<RetryOptions> {
  if (retries === false) return { ...DEFAULT_RETRY, maxAttempts: 1 };
  if (typeof retries === 'number') return { ...DEFAULT_RETRY, maxAttempts: Math.max(1, Math.floor(retries)) };
  return { ...DEFAULT_RETRY, ...retries };
}

export function createClient(options: ClientOptions): CrestwatchClient {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const random = options.random ?? Math.random;
  const fetch = retryingFetch({
    fetch: baseFetch,
    retry: retryOptions(options.retries),
    now: options.now ?? Date.now,
    random,
    randomUUID: () => crypto.randomUUID(),
  });
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const client = createFetchClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch, headers });
  const get = client.GET as unknown as Parameters<typeof paginate>[0];
  return Object.assign(client, {
    unwrap,
    paginate: <P extends PaginatedPath>(path: P, pageOptions?: PaginateOptions<P>) =>
      paginate(get, path, pageOptions),
    webhooks: { verify },
    stream: (streamOptions?: StreamOptions) =>
      new LiveStream(
        {
          baseUrl: options.baseUrl,
          apiKey: options.apiKey,
          WebSocket: options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket,
          fetch: baseFetch,
          random,
        },
        streamOptions,
      ),
  });
}
