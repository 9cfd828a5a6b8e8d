// The exports module's public entry.

export { EXPORT_RUN_FAILED, EXPORT_RUN_FINISHED, type ExportEvents } from './events.ts';
export { exportRoutes } from './routes.ts';
export { ExportsService } from './service.ts';
