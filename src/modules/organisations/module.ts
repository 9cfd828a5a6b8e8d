// The organisations module: organisations, members, roles and invites (accepting one creates the user).
import { type Module, routes } from '../../platform/module.ts';
import { organisationRoutes } from './routes.ts';
import { OrganisationsService } from './service.ts';

type OrganisationsModuleDeps = ConstructorParameters<typeof OrganisationsService>[0];

export type OrganisationsModule = Module<{ organisations: OrganisationsService }, 'organisations'>;

export function createOrganisationsModule(deps: OrganisationsModuleDeps): OrganisationsModule {
  const organisations = new OrganisationsService(deps);
  return {
    api: { organisations },
    routes: { organisations: routes(organisationRoutes, { organisations }) },
  };
}
