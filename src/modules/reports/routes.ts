// The reports module's routes.
import type { App } from '../../platform/http.ts';
import type { ReportsService } from './service.ts';

export async function reportRoutes(_app: App, _options: { reports: ReportsService }): Promise<void> {}
