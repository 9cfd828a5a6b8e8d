// Kysely table types of the integrations module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

/** One OAuth authorization in progress: single use, bound to a user and provider, short-lived. */
export interface IntegrationOauthStatesTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  /** SHA-256 hex of the state value (the value itself is only in the authorization URL). */
  state_hash: string;
  /** PKCE code verifier, sealed with the SecretBox; null where the provider has no PKCE. */
  verifier_sealed: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A user's connection to one OAuth provider (`chat`, `forum_ads`, `social_ads`). */
export interface IntegrationConnectionsTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  /** `active` or `broken` (the provider refused the token). */
  status: string;
  broken_reason: string | null;
  access_token_sealed: string;
  refresh_token_sealed: string | null;
  /** Epoch ms when the access token expires; null = does not expire. */
  token_expires_at: number | null;
  scope: string | null;
  account_id: string | null;
  account_name: string | null;
  /** JSON: provider-specific facts (e.g. the chat tool's configuration URL). */
  details: string;
  /** JSON: the user's selection (ad account, pixel, channel …) or null. */
  selection: string | null;
  /** JSON: alert settings (chat) or null. */
  settings: string | null;
  created_at: number;
  updated_at: number;
}

export interface ForumAdsDeliveriesTable {
  id: Generated<number>;
  user_id: number;
  event_name: string;
  /** JSON: `{value, currency, ...}` as pushed. */
  data: string;
  /** Sent to the provider as `metadata.conversion_id`; stable across retries. */
  conversion_id: string;
  status: string;
  attempts: number;
  response_status: number | null;
  error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface AdsPreviewsTable {
  id: Generated<number>;
  user_id: number;
  platform: string;
  trend_id: number;
  /** JSON: `[{ad_set_id, before, after}]`. */
  changes: string;
  blocked: number;
  /** JSON string array. */
  blocked_reasons: string;
  created_at: number;
  expires_at: number;
}

export interface AdsAppliesTable {
  id: Generated<number>;
  user_id: number;
  platform: string;
  /** Unique: a preview is applied at most once. */
  preview_id: number;
  /** `applying`, `applied`, `rolled_back`. */
  status: string;
  changes: string;
  created_at: number;
  rolled_back_at: number | null;
}

/** Which domain events were already turned into chat posts for a connection (listeners run at least once). */
export interface ChatAlertsTable {
  connection_id: number;
  event_id: string;
  created_at: number;
}

export interface IntegrationsTables {
  integration_oauth_states: IntegrationOauthStatesTable;
  integration_connections: IntegrationConnectionsTable;
  forum_ads_deliveries: ForumAdsDeliveriesTable;
  ads_previews: AdsPreviewsTable;
  ads_applies: AdsAppliesTable;
  chat_alerts: ChatAlertsTable;
}
