// The exports module's routes.
import type { App } from '../../platform/http.ts';
import type { ExportsService } from './service.ts';

export async function exportRoutes(_app: App, _options: { dataExports: ExportsService }): Promise<void> {}
