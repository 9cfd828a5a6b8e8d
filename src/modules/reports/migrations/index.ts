// The reports module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { reports } from './0017_reports.ts';

export const reportsMigrations: MigrationSet = {
  owner: 'reports',
  migrations: {
    '0017_reports': reports,
  },
};
