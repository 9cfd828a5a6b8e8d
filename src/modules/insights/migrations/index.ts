// The insights module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { insights } from './0005_insights.ts';
import { followMergedTrends } from './0023.3_follow_merged_trends.ts';

export const insightsMigrations: MigrationSet = {
  owner: 'insights',
  migrations: {
    '0005_insights': insights,
    '0023.3_follow_merged_trends': followMergedTrends,
  },
};
