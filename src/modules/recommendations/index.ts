// The recommendations module's public entry.
export { createRecommendationsModule, type RecommendationsModule } from './module.ts';
export { RecommendationsService } from './service.ts';
