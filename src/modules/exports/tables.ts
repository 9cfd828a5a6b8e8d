// Kysely table types of the exports module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

/** One scheduled export: where to (destination + config), what (fields, format, filters) and when. */
export interface ExportConfigsTable {
  id: Generated<number>;
  user_id: number;
  /** aws | gcp | email */
  destination: string;
  /** JSON: the destination's settings without its secrets (see destinations.ts). */
  config: string;
  /** Encrypted (SecretBox) JSON of the destination's secrets: `secret_access_key` or `password`. */
  secrets: string | null;
  /** daily | weekly | none (never runs by itself; run-now only) */
  schedule: string;
  /** `HH:MM`, UTC; `''` for a `none` schedule saved without a time (the column is NOT NULL). */
  schedule_time: string;
  /** Weekly: the UTC weekday, 0 = Sunday … 6 = Saturday; null for daily and none. */
  schedule_day: number | null;
  is_active: number;
  /** JSON array of TrendItem field names, in column order. */
  selected_fields: string;
  /** When the schedule next queues a run; null while inactive and for none. Claimed atomically (compare-and-set). */
  next_run_at: number | null;
  created_at: number;
  updated_at: number;
}

/** One run of an export: queued → running → succeeded | failed (retried while `completed_at` is null). */
export interface ExportHistoryTable {
  id: Generated<number>;
  user_id: number;
  /** Null once the configuration is deleted (the history stays). */
  config_id: number | null;
  destination: string;
  /** What queued the run: schedule | manual (run-now). */
  origin: string;
  /** queued | running | succeeded | failed */
  status: string;
  file_url: string | null;
  row_count: number | null;
  error_message: string | null;
  /** Attempts started so far. */
  attempts: number;
  /** When a failed attempt will be retried; null otherwise. */
  next_attempt_at: number | null;
  created_at: number;
  started_at: number | null;
  /** Set when the run is over (succeeded, or failed for the last time); null while it may still change. */
  completed_at: number | null;
}

export interface ExportsTables {
  export_configs: ExportConfigsTable;
  export_history: ExportHistoryTable;
}
