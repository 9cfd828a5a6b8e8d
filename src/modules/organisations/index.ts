// The organisations module's public entry.
export { createOrganisationsModule, type OrganisationsModule } from './module.ts';
export { OrganisationsService } from './service.ts';
