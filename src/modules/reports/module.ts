// The reports module: custom reports over trends and crisis events, session info, public demo signals.
import { type Module, routes } from '../../platform/module.ts';
import { reportRoutes } from './routes.ts';
import { ReportsService } from './service.ts';

type ReportsModuleDeps = ConstructorParameters<typeof ReportsService>[0];

export type ReportsModule = Module<{ reports: ReportsService }, 'reports'>;

export function createReportsModule(deps: ReportsModuleDeps): ReportsModule {
  const reports = new ReportsService(deps);
  return {
    api: { reports },
    routes: { reports: routes(reportRoutes, { reports }) },
  };
}
