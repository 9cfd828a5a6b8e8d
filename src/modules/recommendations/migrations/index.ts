// The recommendations module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { recommendations } from './0014_recommendations.ts';
import { followMergedTrends } from './0023.6_follow_merged_trends.ts';

export const recommendationsMigrations: MigrationSet = {
  owner: 'recommendations',
  migrations: {
    '0014_recommendations': recommendations,
    '0023.6_follow_merged_trends': followMergedTrends,
  },
};
