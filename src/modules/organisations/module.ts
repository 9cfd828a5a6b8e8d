// The organisations module: organisations, members, roles and invites (accepting one creates the user).
import type { DB } from '../../database.ts';
import type { Dialect } from '../../platform/db/index.ts';
import { type Module, routes } from '../../platform/module.ts';
import { organisationRoutes } from './routes.ts';
import { OrganisationsService } from './service.ts';
import { OrganisationsStore } from './store.ts';

type OrganisationsModuleDeps = ConstructorParameters<typeof OrganisationsService>[0];

export type OrganisationsModule = Module<{ organisations: OrganisationsService }, 'organisations'>;

/**
 * Where the accounts module writes a new user's own organisation and membership (this module's tables), in the
 * user's transaction; available before this module is built, which needs the accounts module.
 */
export function organisationMemberships(
  db: DB,
  dialect: Dialect,
): Pick<OrganisationsStore, 'insertOrganisation' | 'insertMember'> {
  return new OrganisationsStore(db, dialect);
}

export function createOrganisationsModule(deps: OrganisationsModuleDeps): OrganisationsModule {
  const organisations = new OrganisationsService(deps);
  return {
    api: { organisations },
    routes: { organisations: routes(organisationRoutes, { organisations }) },
  };
}
