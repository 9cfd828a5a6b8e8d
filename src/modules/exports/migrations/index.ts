// The exports module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { dataExports } from './0016_exports.ts';

export const exportsMigrations: MigrationSet = {
  owner: 'exports',
  migrations: {
    '0016_exports': dataExports,
  },
};
