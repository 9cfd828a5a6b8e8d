// Kysely table types of the trends module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

export interface TrendsTable {
  id: Generated<number>;
  key: string;
  title: string;
  type: string;
  category: string;
  first_seen_at: number;
  last_seen_at: number;
  mentions: Generated<number>;
  /** JSON array: the phrases folded into this trend, as written (trend_aliases routes their keys here). */
  aliases: Generated<string>;
}

/** A trend whose metric snapshots are out of date; `version` counts the changes since (stores/dirty.ts). */
export interface TrendDirtyTable {
  trend_id: number;
  version: number;
}

/** A phrase folded into a trend: mentions of `key` count towards `trend_id`. */
export interface TrendAliasesTable {
  id: Generated<number>;
  key: string;
  trend_id: number;
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
  /** Mentions that count as evidence: not a repeat of an account or a text in this trend-hour (evidence.ts). */
  evidence: number;
}

export interface TrendMinutelyTable {
  trend_id: number;
  minute: number;
  mentions: number;
  /** The minute's mentions that count as evidence (see TrendHourlyTable.evidence). */
  evidence: number;
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
  /** The window velocity_score comes from: 1h, 6h or 24h (metrics.ts velocityWindows). */
  velocity_window: string;
  sentiment: string | null;
  sentiment_category: string;
  /** JSON object: mentions by platform. */
  platforms: string;
  meta_description: string;
  computed_at: number;
}

export interface TrendsTables {
  trends: TrendsTable;
  trend_surfaces: TrendSurfacesTable;
  trend_hourly: TrendHourlyTable;
  trend_minutely: TrendMinutelyTable;
  trend_metrics: TrendMetricsTable;
  trend_aliases: TrendAliasesTable;
  trend_dirty: TrendDirtyTable;
}
