// The organisations module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { organisations } from './0013.1_organisations.ts';

export const organisationsMigrations: MigrationSet = {
  owner: 'organisations',
  migrations: {
    '0013.1_organisations': organisations,
  },
};
