// The reports module's public entry.
export { reportRoutes } from './routes.ts';
export { ReportsService } from './service.ts';
