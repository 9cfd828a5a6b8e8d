// The module of upstream capabilities a self-hosted service does not offer: their routes answer 503.
import { type Module, routes } from '../../platform/module.ts';
import { unavailableRoutes } from './routes.ts';

export type UnavailableModule = Module<Record<string, never>, 'unavailable'>;

export function createUnavailableModule(): UnavailableModule {
  return { api: {}, routes: { unavailable: routes(unavailableRoutes) } };
}
