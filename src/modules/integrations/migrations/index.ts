// The integrations module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { integrations } from './0008_integrations.ts';
import { workflow } from './0010_workflow.ts';
import { followMergedTrends } from './0023.4_follow_merged_trends.ts';

export const integrationsMigrations: MigrationSet = {
  owner: 'integrations',
  migrations: {
    '0008_integrations': integrations,
    '0010_workflow': workflow,
    '0023.4_follow_merged_trends': followMergedTrends,
  },
};
