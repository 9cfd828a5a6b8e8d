// The recommendations module: the rule engine and decision briefs, generated per user; its service
// subscribes to the trend and crisis events that make a user's recommendations out of date.
import { type Module, routes } from '../../platform/module.ts';
import { recommendationRoutes } from './routes.ts';
import { RecommendationsService } from './service.ts';

type RecommendationsModuleDeps = ConstructorParameters<typeof RecommendationsService>[0];

export type RecommendationsModule = Module<{ recommendations: RecommendationsService }, 'recommendations'>;

export function createRecommendationsModule(deps: RecommendationsModuleDeps): RecommendationsModule {
  const recommendations = new RecommendationsService(deps);
  return {
    api: { recommendations },
    routes: { recommendations: routes(recommendationRoutes, { recommendations }) },
  };
}
