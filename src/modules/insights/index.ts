// The insights module's public entry: what the composition root, other modules and tools use from it.
export { type AIInsight, recommendedNextSteps } from './analyzer.ts';
export { createInsightsModule, type InsightsModule } from './module.ts';
export { classifySentiment } from './sentiment.ts';
export { InsightsService } from './service.ts';
