// The recommendations module's routes.
import type { App } from '../../platform/http.ts';
import type { RecommendationsService } from './service.ts';

export async function recommendationRoutes(
  _app: App,
  _options: { recommendations: RecommendationsService },
): Promise<void> {}
