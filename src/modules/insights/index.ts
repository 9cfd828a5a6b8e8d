// The insights module's public entry: what the composition root, other modules and tools use from it.
export { createInsightAnalysis, type InsightAnalysis } from './analysis-pool.ts';
export { type AIInsight, recommendedNextSteps } from './analyzer.ts';
export { LlmProvider } from './llm.ts';
export { insightRoutes } from './routes.ts';
export { classifySentiment } from './sentiment.ts';
export { InsightsService } from './service.ts';
export { InsightsStore } from './store.ts';
