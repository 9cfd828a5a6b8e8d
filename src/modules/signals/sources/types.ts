// The one interface every signal source implements. A source only fetches and maps; the SourceRunner
// stores what it returns (deduplicated on source + external_id), keeps its cursor in the database,
// records its health and backs off when it fails.

/** A signal as a source produces it (same fields as an item of `POST /api/signals`). */
export interface SourceSignal {
  /** Platform, lowercase: hackernews, reddit, bluesky, news, … */
  source: string;
  /** The item's id at the platform (≤ 256 chars). */
  external_id: string;
  /** 1–10,000 characters. */
  text: string;
  title?: string | null;
  /** http(s) only. */
  url?: string | null;
  author?: string | null;
  /** Epoch ms. */
  observed_at: number;
  lang?: string | null;
  location?: string | null;
  /** A category hint (section name, `r/subreddit`, taxonomy name); see `category` on ingest. */
  category?: string | null;
  keywords?: string[] | null;
  engagement?: { likes?: number; shares?: number; comments?: number; views?: number } | null;
}

interface SourceInfo {
  /** Stable id, one of config's SOURCE_IDS (plus a suffix when a kind has several instances). */
  id: string;
  name: string;
  attribution: string;
  /** The licence or terms the data is used under; '' only where none applies (synthetic data). */
  licence_url: string;
  /** A sentence on what the source covers. */
  coverage: string;
}

export interface SourceContext {
  /** Where the previous successful call stopped; null on the first call. */
  cursor: string | null;
  /** Epoch ms (the injectable clock). */
  now: number;
  /** Aborted when the service stops. */
  signal: AbortSignal;
  /** `fetch` to use (tests inject one); always pass `signal` on. */
  fetch: typeof fetch;
}

export interface PollResult {
  signals: SourceSignal[];
  /** Stored and handed back next time; keep it small (< 4 kB). */
  cursor: string | null;
}

/** Asked every `intervalMs` (longer after failures); a thrown error marks the source degraded. */
export interface PollingSource extends SourceInfo {
  kind: 'poll';
  intervalMs: number;
  poll(context: SourceContext): Promise<PollResult>;
}

export interface StreamContext extends SourceContext {
  /** Hand over a batch; the runner stores it and the cursor before the promise resolves. */
  emit(signals: SourceSignal[], cursor: string | null): Promise<void>;
}

/**
 * Holds a connection open: `run` resolves when the connection closes normally and rejects on failure; the
 * runner reconnects with backoff either way, resuming from the last cursor it stored.
 */
export interface StreamingSource extends SourceInfo {
  kind: 'stream';
  run(context: StreamContext): Promise<void>;
}

export type Source = PollingSource | StreamingSource;

/** Thrown for an answer the source cannot use (bad status, bad body); the message is shown in health. */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}
