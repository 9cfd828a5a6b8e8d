// The exports module: scheduled exports of trends to S3-compatible storage or e-mail and their history; its
// service registers the export-run job.
import { type Module, routes } from '../../platform/module.ts';
import { exportRoutes } from './routes.ts';
import { ExportsService } from './service.ts';

type ExportsModuleDeps = ConstructorParameters<typeof ExportsService>[0];

export type ExportsModule = Module<{ dataExports: ExportsService }, 'exports'>;

export function createExportsModule(deps: ExportsModuleDeps): ExportsModule {
  const dataExports = new ExportsService(deps);
  return {
    api: { dataExports },
    routes: { exports: routes(exportRoutes, { dataExports }) },
  };
}
