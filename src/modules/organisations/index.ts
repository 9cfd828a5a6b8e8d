// The organisations module's public entry.
export { organisationRoutes } from './routes.ts';
export { OrganisationsService } from './service.ts';
export { OrganisationsStore } from './store.ts';
