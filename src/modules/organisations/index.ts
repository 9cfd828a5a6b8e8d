// The organisations module's public entry.
export { createOrganisationsModule, type OrganisationsModule, organisationMemberships } from './module.ts';
export { OrganisationsService } from './service.ts';
