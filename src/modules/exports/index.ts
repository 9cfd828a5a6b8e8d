// The exports module's public entry.

export { EXPORT_RUN_FAILED, EXPORT_RUN_FINISHED, type ExportEvents } from './events.ts';
export { createExportsModule, type ExportsModule } from './module.ts';
export { ExportsService } from './service.ts';
