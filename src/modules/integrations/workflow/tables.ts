// Kysely table types of the workflow integration (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

/** One per user: the workflow tool's URL and key (sealed), the push signing secret (sealed), the selection. */
export interface WorkflowConnectionsTable {
  id: Generated<number>;
  user_id: number;
  /** Normalised: origin + path, no trailing slash. */
  api_base_url: string;
  api_key_sealed: string;
  signing_secret_sealed: string;
  include_metadata: number;
  workflow_id: string | null;
  workflow_name: string | null;
  /** The selected workflow's Webhook trigger production URL. */
  webhook_url: string | null;
  default_event: string | null;
  selected_at: number | null;
  /** When the current connection was made (a reconnect replaces it): the status's `connected_at`. */
  created_at: number;
  /** Any change, a new selection included. */
  updated_at: number;
}

/** One per push, manual or automatic; its id is the push's `execution_id` and `webhook-id`. */
export interface WorkflowDeliveriesTable {
  id: Generated<number>;
  user_id: number;
  event: string;
  /** manual | automatic */
  origin: string;
  /** The domain event an automatic push carries (dedupes at-least-once delivery); null for manual pushes. */
  event_id: string | null;
  /** queued | delivered | failed */
  status: string;
  attempts: number;
  response_status: number | null;
  error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface WorkflowTables {
  workflow_connections: WorkflowConnectionsTable;
  workflow_deliveries: WorkflowDeliveriesTable;
}
