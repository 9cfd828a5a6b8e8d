// Kysely table types of the accounts module: users, their API keys, topic interests (merged into the app's
// Database in src/database.ts). Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  email: string;
  full_name: string | null;
  is_active: number;
  organization_role: string;
  plan: string;
  subscription_status: string;
  current_period_end: number | null;
  cancel_at_period_end: number;
  created_at: number;
  updated_at: number;
  /**
   * The organisation this account was removed from (or left), while it stands disabled in one of its own;
   * that organisation may invite it back. Null otherwise (migration 0022).
   */
  left_organisation_id: number | null;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  prefix: string;
  key_hash: string;
  permissions: string;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  rotated_to_id: number | null;
}

export interface TopicInterestsTable {
  id: Generated<number>;
  user_id: number;
  keyword: string;
  /** The keyword normalised as trend keys are. */
  key: string;
  alert_condition_type: string;
  volume_threshold_value: number | null;
  percentage_growth_value: number | null;
  status: string;
  created_at: number;
}

export interface AccountsTables {
  users: UsersTable;
  api_keys: ApiKeysTable;
  topic_interests: TopicInterestsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

declare module '../../platform/auth.ts' {
  /** A verified key's principal carries its user's row (the profile route answers from it). */
  interface PrincipalUser extends UserRow {}
}
