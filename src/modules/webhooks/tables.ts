// Kysely table types of the webhooks module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

export interface WebhookSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  trigger_type: string;
  delivery_mode: string;
  threshold_value: number;
  cooldown_seconds: number;
  /** JSON object {category?, keywords?, min_severity?}. */
  filters: string;
  is_active: number;
  /** Consecutive failed attempts since the last success. */
  failure_count: number;
  /** When the current run of failures began; null after a success. */
  failing_since: number | null;
  disabled_reason: string | null;
  last_delivery_at: number | null;
  /** Encrypted (SecretBox). */
  secret: string;
  /** The secret before the last rotation (encrypted), signed with until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  /** Digest mode: start of the open window, null when none is open. */
  digest_window_start: number | null;
  created_at: number;
  updated_at: number;
}

/** One outbound event for one subscription: its exact body, so every attempt sends the same bytes. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  subscription_id: number;
  user_id: number;
  /** The body's `id` and the `webhook-id` header. */
  event_id: string;
  event: string;
  body: string;
  created_at: number;
}

export interface WebhookExecutionsTable {
  id: Generated<number>;
  delivery_id: number;
  subscription_id: number;
  attempt: number;
  /** pending | succeeded | failed */
  status: string;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: number;
  next_attempt_at: number | null;
}

/** Last time a subscription fired for a subject (`trend:<id>`, `crisis:<id>`). */
export interface WebhookCooldownsTable {
  subscription_id: number;
  subject: string;
  last_fired_at: number;
}

/** Events waiting for a digest subscription's window to close. */
export interface WebhookDigestItemsTable {
  id: Generated<number>;
  subscription_id: number;
  event_id: string;
  body: string;
  created_at: number;
}

export interface WebhooksTables {
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_executions: WebhookExecutionsTable;
  webhook_cooldowns: WebhookCooldownsTable;
  webhook_digest_items: WebhookDigestItemsTable;
}
