// Bluesky posts from Jetstream (JSON over WebSocket). New posts are handed over in batches with the
// Jetstream time (µs) of the last one as the cursor; a reconnect replays from there.
import WebSocket from 'ws';
import { clampTime, cleanKeywords, hostOf, httpUrl, LIMITS, signalText } from './text.ts';
import { SourceError, type SourceSignal, type StreamContext, type StreamingSource } from './types.ts';

interface BlueskySourceOptions {
  /** Jetstream subscribe endpoint, e.g. `wss://jetstream2.us-east.bsky.network/subscribe`. */
  url: string;
  /** Posts per batch (default 200). */
  batchSize?: number;
  /** A partial batch is handed over after this long (default 1,000 ms). */
  flushMs?: number;
  /** More posts than this waiting on a slow `emit` drops the connection (default 5,000). */
  maxQueued?: number;
  /** No message for this long means a dead connection (default 60,000 ms). */
  idleMs?: number;
}

interface BlueskySource extends StreamingSource {
  /** Counters since the source was created; `malformed` counts messages that were not JSON objects. */
  readonly stats: { messages: number; posts: number; malformed: number };
}

const POST = 'app.bsky.feed.post';
const TAG = 'app.bsky.richtext.facet#tag';
const LANG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

interface JetstreamPost {
  did?: unknown;
  time_us?: unknown;
  kind?: unknown;
  commit?: {
    operation?: unknown;
    collection?: unknown;
    rkey?: unknown;
    record?: { text?: unknown; createdAt?: unknown; langs?: unknown; facets?: unknown };
  };
}

function hashtags(facets: unknown): string[] {
  if (!Array.isArray(facets)) return [];
  return facets.flatMap((facet) => {
    const features: unknown = facet?.features;
    if (!Array.isArray(features)) return [];
    return features.flatMap((f) => (f?.$type === TAG && typeof f.tag === 'string' ? [f.tag] : []));
  });
}

/** A Jetstream message → a signal when it creates a post with text; null for everything else. */
function postSignal(message: JetstreamPost, now: number): SourceSignal | null {
  const { did, commit } = message;
  if (message.kind !== 'commit' || typeof did !== 'string' || typeof commit !== 'object' || commit === null) {
    return null;
  }
  if (commit.operation !== 'create' || commit.collection !== POST || typeof commit.rkey !== 'string')
    return null;
  const record = commit.record;
  if (typeof record !== 'object' || record === null || typeof record.text !== 'string') return null;
  const text = signalText(record.text);
  const externalId = `${did}/${commit.rkey}`;
  if (text === null || externalId.length > LIMITS.externalId) return null;
  const created = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : Number.NaN;
  const received = typeof message.time_us === 'number' ? message.time_us / 1000 : null;
  const lang = Array.isArray(record.langs) ? record.langs[0] : undefined;
  return {
    source: 'bluesky',
    external_id: externalId,
    text,
    title: null,
    url: httpUrl(`https://bsky.app/profile/${did}/post/${encodeURIComponent(commit.rkey)}`),
    author: did.length <= LIMITS.author ? did : null,
    observed_at: clampTime(Number.isFinite(created) ? created : received, now),
    lang: typeof lang === 'string' && lang.length <= 16 && LANG.test(lang) ? lang : null,
    keywords: cleanKeywords(hashtags(record.facets)),
  };
}

function messageText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * `run` resolves when `signal` aborts or the server closes normally (1000/1001), after handing over what was
 * read; it rejects on a socket error, another close code, a dead connection or a failed `emit`.
 */
export function blueskySource(options: BlueskySourceOptions): BlueskySource {
  const batchSize = options.batchSize ?? 200;
  const flushMs = options.flushMs ?? 1000;
  const maxQueued = options.maxQueued ?? 5000;
  const idleMs = options.idleMs ?? 60_000;
  const host = hostOf(options.url);
  const stats = { messages: 0, posts: 0, malformed: 0 };

  const run = (context: StreamContext) =>
    new Promise<void>((resolve, reject) => {
      if (context.signal.aborted) return resolve();
      const url = new URL(options.url);
      url.searchParams.set('wantedCollections', POST);
      if (context.cursor !== null && /^\d+$/.test(context.cursor))
        url.searchParams.set('cursor', context.cursor);

      // The stream outlives `context.now`: advance that clock by the time elapsed since the start.
      const started = performance.now();
      const now = () => context.now + Math.round(performance.now() - started);
      const pending: { signal: SourceSignal; timeUs: number | null }[] = [];
      let lastCursor = context.cursor;
      let pumping: Promise<void> | null = null;
      let settled = false;
      let socketError: Error | null = null;
      let lastActivity = performance.now();

      const ws = new WebSocket(url, { handshakeTimeout: 10_000, maxPayload: 1024 * 1024 });

      const settle = (error?: unknown) => {
        if (settled) return;
        settled = true;
        clearInterval(timer);
        context.signal.removeEventListener('abort', onAbort);
        if (error === undefined) {
          if (ws.readyState === WebSocket.OPEN) {
            ws.close(1000);
            // A server that never answers the close must not hold the process open.
            setTimeout(() => ws.terminate(), 2000).unref();
          } else if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
          resolve();
        } else {
          ws.terminate();
          reject(error);
        }
      };

      /** Hands over one batch; the socket is paused meanwhile so nothing more is read. */
      const emitBatch = async () => {
        const batch = pending.splice(0, batchSize);
        for (const { timeUs } of batch) if (timeUs !== null) lastCursor = String(timeUs);
        ws.pause();
        try {
          await context.emit(
            batch.map((p) => p.signal),
            lastCursor,
          );
        } finally {
          if (!settled) ws.resume();
          lastActivity = performance.now();
        }
      };

      // One batch now, then more only while full batches wait (partial ones go on the next tick).
      const pump = () => {
        if (pumping !== null || settled || pending.length === 0) return;
        pumping = (async () => {
          do await emitBatch();
          while (!settled && pending.length >= batchSize);
        })()
          .catch((error: unknown) => settle(error))
          .finally(() => {
            pumping = null;
          });
      };

      const onAbort = () => settle();
      context.signal.addEventListener('abort', onAbort, { once: true });

      const timer = setInterval(() => {
        if (
          ws.readyState === WebSocket.OPEN &&
          pumping === null &&
          performance.now() - lastActivity > idleMs
        ) {
          settle(new SourceError(`${host} sent nothing for ${Math.round(idleMs / 1000)} s`));
          return;
        }
        pump();
      }, flushMs);

      ws.on('unexpected-response', (_request, response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        settle(new SourceError(`${host} answered ${status}`, status));
      });
      ws.on('open', () => {
        lastActivity = performance.now();
      });
      ws.on('error', (error) => {
        socketError ??= error;
      });
      ws.on('message', (data, isBinary) => {
        if (settled) return;
        lastActivity = performance.now();
        stats.messages++;
        let message: unknown;
        try {
          message = isBinary ? null : JSON.parse(messageText(data));
        } catch {
          message = null;
        }
        if (typeof message !== 'object' || message === null) {
          stats.malformed++;
          return;
        }
        const signal = postSignal(message as JetstreamPost, now());
        if (signal === null) return;
        stats.posts++;
        const timeUs = (message as JetstreamPost).time_us;
        pending.push({
          signal,
          timeUs: typeof timeUs === 'number' && Number.isSafeInteger(timeUs) ? timeUs : null,
        });
        if (pending.length > maxQueued) {
          settle(new SourceError(`more than ${maxQueued} Bluesky posts waiting to be stored; reconnecting`));
        } else if (pending.length >= batchSize) {
          pump();
        }
      });
      ws.on('close', (code) => {
        if (settled) return;
        // What was read is still good: hand it over before settling.
        void (async () => {
          while (!settled && (pumping !== null || pending.length > 0)) {
            if (pumping !== null) await pumping;
            else await emitBatch();
          }
          if (socketError !== null) {
            settle(new SourceError(`${host} connection failed: ${socketError.message}`));
          } else if (code === 1000 || code === 1001) {
            settle();
          } else {
            settle(new SourceError(`${host} closed the connection (code ${code})`));
          }
        })().catch((error: unknown) => settle(error));
      });
    });

  return {
    kind: 'stream',
    id: 'bluesky',
    name: 'Bluesky',
    attribution: 'Bluesky Social PBC (Jetstream)',
    // No licence is published for post content; Jetstream use falls under Bluesky's developer guidelines.
    licence_url: 'https://docs.bsky.app/docs/support/developer-guidelines',
    coverage:
      'New public Bluesky posts (text, language, hashtags) from the Jetstream firehose; no licence is ' +
      'published for the content, which is used under Bluesky’s developer guidelines.',
    stats,
    run,
  };
}
