// The recommendations module's public entry.
export { recommendationRoutes } from './routes.ts';
export { RecommendationsService } from './service.ts';
