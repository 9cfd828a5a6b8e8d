// The notifications module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { notifications } from './0015_notifications.ts';

export const notificationsMigrations: MigrationSet = {
  owner: 'notifications',
  migrations: {
    '0015_notifications': notifications,
  },
};
