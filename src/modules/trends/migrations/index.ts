// The trends module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { trends } from './0003_trends.ts';
import { trendMetrics } from './0004.1_trend_metrics.ts';
import { trendEvidence } from './0018_trend_evidence.ts';
import { foldTrendKeys } from './0023.1_fold_trend_keys.ts';
import { removeMergedTrends } from './0023.7_remove_merged_trends.ts';
import { trendTypeFollowsTitle } from './0024_trend_type_follows_title.ts';
import { snapshotIndexes } from './0026_snapshot_indexes.ts';
import { velocityWindow } from './0027_velocity_window.ts';
import { trendAliases } from './0028_trend_aliases.ts';
import { trendDirty } from './0030_trend_dirty.ts';

export const trendsMigrations: MigrationSet = {
  owner: 'trends',
  migrations: {
    '0003_trends': trends,
    '0004.1_trend_metrics': trendMetrics,
    '0018_trend_evidence': trendEvidence,
    '0023.1_fold_trend_keys': foldTrendKeys,
    '0023.7_remove_merged_trends': removeMergedTrends,
    '0024_trend_type_follows_title': trendTypeFollowsTitle,
    '0026_snapshot_indexes': snapshotIndexes,
    '0027_velocity_window': velocityWindow,
    '0028_trend_aliases': trendAliases,
    '0030_trend_dirty': trendDirty,
  },
};
export { trendKeyMerges } from './merges.ts';
