// The web module: the dashboard served at `/`.
import { type Module, routes } from '../../platform/module.ts';
import { webRoutes } from './routes.ts';

export type WebModule = Module<Record<string, never>, 'web'>;

export function createWebModule(): WebModule {
  return { api: {}, routes: { web: routes(webRoutes) } };
}
