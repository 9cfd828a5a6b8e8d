// Table types for Kysely. Timestamps are epoch milliseconds, booleans 0/1 and JSON is text on both
// databases, so queries behave identically on SQLite and PostgreSQL.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ContentTables } from '../../modules/content/tables.ts';
import type { CrisisTables } from '../../modules/crisis/tables.ts';
import type { InsightsTables } from '../../modules/insights/tables.ts';
import type { IntegrationsTables } from '../../modules/integrations/tables.ts';
import type { WorkflowTables } from '../../modules/integrations/workflow/tables.ts';
import type { WebhooksTables } from '../../modules/webhooks/tables.ts';

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

export interface StatusChecksTable {
  id: Generated<number>;
  component: string;
  status: string;
  detail: string | null;
  latency_ms: number | null;
  checked_at: number;
}

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
  processed_at: number | null;
}

export interface TrendsTable {
  id: Generated<number>;
  key: string;
  title: string;
  type: string;
  category: string;
  first_seen_at: number;
  last_seen_at: number;
  mentions: Generated<number>;
  /** 1 when the metric snapshots are out of date. */
  dirty: Generated<number>;
}

export interface TrendMetricsTable {
  trend_id: number;
  period: string;
  volume: number;
  previous_volume: number;
  absolute_change: number;
  growth: number | null;
  average_velocity: number;
  trend_stability: number;
  overall_trend: string;
  velocity_score: number;
  velocity_1h: number;
  lifecycle_stage: string;
  sentiment: string | null;
  sentiment_category: string;
  /** JSON object: mentions by platform. */
  platforms: string;
  meta_description: string;
  computed_at: number;
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
  leased_by: string | null;
  leased_until: number | null;
}

export interface TrendSurfacesTable {
  trend_id: number;
  surface: string;
  count: number;
}

export interface TrendHourlyTable {
  trend_id: number;
  platform: string;
  hour: number;
  mentions: number;
  sentiment_sum: number;
  positive: number;
  negative: number;
}

export interface TrendMinutelyTable {
  trend_id: number;
  minute: number;
  mentions: number;
}

// Each later module keeps its own table types in src/modules/<module>/tables.ts.
export interface Database
  extends InsightsTables,
    CrisisTables,
    WebhooksTables,
    IntegrationsTables,
    WorkflowTables,
    ContentTables {
  trends: TrendsTable;
  trend_surfaces: TrendSurfacesTable;
  trend_hourly: TrendHourlyTable;
  trend_minutely: TrendMinutelyTable;
  trend_metrics: TrendMetricsTable;
  topic_interests: TopicInterestsTable;
  source_state: SourceStateTable;
  signals: SignalsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
  usage_daily: UsageDailyTable;
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
  status_checks: StatusChecksTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type JobRow = Selectable<JobsTable>;
