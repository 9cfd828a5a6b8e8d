// Kysely table types of the signals module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

export interface SignalsTable {
  id: Generated<number>;
  source: string;
  external_id: string;
  text: string;
  title: string | null;
  url: string | null;
  author: string | null;
  lang: string | null;
  location: string | null;
  /** The signal's own category hint (`category` on ingest), when it gave one. */
  category_hint: Generated<string | null>;
  keywords: string | null;
  engagement: string | null;
  observed_at: number;
  received_at: number;
}

/** Signals not yet turned into trend buckets (migration 0029): an id per pending signal. */
export interface SignalQueueTable {
  id: number;
}

export interface SourceStateTable {
  id: string;
  cursor: string | null;
  status: string;
  last_attempt_at: number | null;
  last_success_at: number | null;
  last_error: string | null;
  observation_count: Generated<number>;
  fetch_duration_ms: number | null;
  consecutive_failures: Generated<number>;
  next_attempt_at: Generated<number>;
}

export interface SignalsTables {
  signals: SignalsTable;
  signal_queue: SignalQueueTable;
  source_state: SourceStateTable;
}
