// The trends module's public entry: what the composition root, the CLI and other modules may use from it.
export { TrendEngine } from './engine.ts';
export {
  type LifecycleChangedData,
  TREND_LIFECYCLE_EVENT,
  TREND_VELOCITY_EVENT,
  type TrendEvents,
  type VelocityCrossedData,
} from './events.ts';
export { RedisEvidence } from './evidence-store.ts';
export {
  averageVelocity,
  formatSentiment,
  growth,
  hourIndex,
  overallTrend,
  PERIOD_HOURS,
  type PeriodName,
  sentimentCategory,
} from './metrics.ts';
export { createTrendsModule, type TrendsModule } from './module.ts';
export { TrendProcessor } from './processor.ts';
export { MetricsRecomputer } from './recompute.ts';
export { TrendIdParams, TrendItemSchema } from './schemas.ts';
export { requireCategory, type TrendItemView, TrendsService } from './service.ts';
export { TrendsStore } from './store.ts';
export type { TrendSelection, TrendTotalsRow } from './stores/reports.ts';
