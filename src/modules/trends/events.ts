// The domain events the trends module records (with each snapshot change, in its transaction) for the delivery
// modules: webhooks, the live stream, chat and the workflow tool.
import type { VelocityWindow } from './metrics.ts';

export const TREND_VELOCITY_EVENT = 'trend.velocity.crossed';
export const TREND_LIFECYCLE_EVENT = 'trend.lifecycle.changed';

interface TrendEventBase {
  trend_id: number;
  trend_name: string;
  /** Slash path in the taxonomy. */
  category: string;
  /** velocity_score (0–100) of the new snapshot. */
  velocity: number;
  /** The window velocity comes from (absent in events recorded before metrics version 13). */
  velocity_window?: VelocityWindow;
  /** Mentions in the default period (24 h). */
  volume: number;
}

/** `velocity_score` crossed one or more watched levels upward. */
export interface VelocityCrossedData extends TrendEventBase {
  from_velocity: number;
  /** The levels crossed, lowest first. */
  levels?: number[];
}

/** The lifecycle stage changed (null `from_stage`: the trend's first snapshot). */
export interface LifecycleChangedData extends TrendEventBase {
  from_stage: string | null;
  to_stage: string;
}

export interface TrendEvents {
  [TREND_VELOCITY_EVENT]: VelocityCrossedData;
  [TREND_LIFECYCLE_EVENT]: LifecycleChangedData;
}
