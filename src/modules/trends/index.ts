// The trends module's public entry: what the composition root, the CLI and other modules may use from it.
export { categoryByNameOrSlug, descendantsOf } from './categories.ts';
export { TrendEngine } from './engine.ts';
export { extractCandidates, normaliseKey, normaliseTokens } from './extraction.ts';
export { createNlpPool, type NlpPool } from './nlp-pool.ts';
export { TrendProcessor } from './processor.ts';
export { MetricsRecomputer, TREND_LIFECYCLE_EVENT, TREND_VELOCITY_EVENT } from './recompute.ts';
export { trendRoutes } from './routes.ts';
export { TrendIdParams } from './schemas.ts';
export { compound } from './sentiment.ts';
export { type TrendItemView, TrendsService } from './service.ts';
export { TrendsStore } from './store.ts';
