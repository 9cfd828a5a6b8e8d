// The webhooks module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { webhooks } from './0007_webhooks.ts';

export const webhooksMigrations: MigrationSet = {
  owner: 'webhooks',
  migrations: {
    '0007_webhooks': webhooks,
  },
};
