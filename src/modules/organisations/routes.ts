// The organisations module's routes.
import type { App } from '../../platform/http.ts';
import type { OrganisationsService } from './service.ts';

export async function organisationRoutes(
  _app: App,
  _options: { organisations: OrganisationsService },
): Promise<void> {}
