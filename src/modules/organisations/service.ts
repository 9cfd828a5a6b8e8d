// Organisations: every user belongs to one; members, roles and invites.
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import type { Clock } from '../../platform/clock.ts';

export interface OrganisationsDeps {
  config: Config;
  clock: Clock;
  db: DB;
}

export class OrganisationsService {
  constructor(private readonly deps: OrganisationsDeps) {}
}
