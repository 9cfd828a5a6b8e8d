// The reports module's public entry.
export { createReportsModule, type ReportsModule } from './module.ts';
export { ReportsService } from './service.ts';
