// The accounts module's public entry: what the composition root, the CLI and other modules may use from it.
export { interestRoutes } from './interests/routes.ts';
export { InterestsService } from './interests/service.ts';
export { InterestsStore } from './interests/store.ts';
export { DEFAULT_PLANS, isPlanName, PLAN_NAMES, type PlanName, type PlanTable } from './plans.ts';
export { accountRoutes } from './routes.ts';
export {
  AccountsService,
  type Actor,
  ALL_PERMISSIONS,
  actorOf,
  generateApiKey,
} from './service.ts';
export { AccountsStore } from './store.ts';
