// The platform's own table types for Kysely (each module keeps its own in src/modules/<module>/tables.ts; the
// composition root merges them all in src/database.ts). Timestamps are epoch milliseconds, booleans 0/1 and JSON is text on both
// databases, so queries behave identically on SQLite and PostgreSQL.
import type { Generated, Selectable } from 'kysely';

export interface AuditLogTable {
  id: Generated<number>;
  user_id: number;
  actor_user_id: number | null;
  action: string;
  target_type: string;
  target_id: string | null;
  detail: string | null;
  request_id: string | null;
  created_at: number;
}

export interface UsageDailyTable {
  user_id: number;
  date: string;
  request_count: number;
}

export interface IdempotencyKeysTable {
  id: Generated<number>;
  user_id: number;
  idempotency_key: string;
  request_hash: string;
  state: string;
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  created_at: number;
  expires_at: number;
  /** The API key that made the first request (null on records older than migration 0019). */
  key_id: number | null;
}

export interface JobsTable {
  id: Generated<number>;
  type: string;
  payload: string;
  status: string;
  attempts: number;
  max_attempts: number;
  run_at: number;
  locked_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface LeasesTable {
  name: string;
  /** The instance holding the loop; null once released. */
  holder: string | null;
  expires_at: number;
  /** When the current holder took it over (kept while it renews). */
  acquired_at: number;
}

/**
 * The tables the platform itself owns: audit, usage, idempotency, jobs, background-loop leases. Users and their
 * API keys are the accounts module's (auth reaches them through its KeyLookup, usage and idempotency through
 * ports the composition root fills).
 */
export interface PlatformTables {
  audit_log: AuditLogTable;
  usage_daily: UsageDailyTable;
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
  leases: LeasesTable;
}

export type JobRow = Selectable<JobsTable>;
