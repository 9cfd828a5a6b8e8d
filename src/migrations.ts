// Every owner's migrations, gathered in one plan: the platform's, then each module's (each keeps them in
// src/modules/<module>/migrations/). The runner (src/platform/db/migrator.ts) orders them by name across owners,
// so this list's order does not matter; docs/architecture.md ("Tables and migrations") says how to add one.
import { accountsMigrations } from './modules/accounts/migrations/index.ts';
import { contentMigrations } from './modules/content/migrations/index.ts';
import { crisisMigrations } from './modules/crisis/migrations/index.ts';
import { exportsMigrations } from './modules/exports/migrations/index.ts';
import { insightsMigrations } from './modules/insights/migrations/index.ts';
import { integrationsMigrations } from './modules/integrations/migrations/index.ts';
import { notificationsMigrations } from './modules/notifications/migrations/index.ts';
import { organisationsMigrations } from './modules/organisations/migrations/index.ts';
import { recommendationsMigrations } from './modules/recommendations/migrations/index.ts';
import { reportsMigrations } from './modules/reports/migrations/index.ts';
import { signalsMigrations } from './modules/signals/migrations/index.ts';
import { trendsMigrations } from './modules/trends/migrations/index.ts';
import { webhooksMigrations } from './modules/webhooks/migrations/index.ts';
import {
  type MigrationPlan,
  type MigrationTarget,
  migrateTo,
  migrateToLatest,
  platformMigrations,
} from './platform/db/index.ts';

export const MIGRATIONS: MigrationPlan = {
  sets: [
    platformMigrations,
    accountsMigrations,
    signalsMigrations,
    trendsMigrations,
    insightsMigrations,
    crisisMigrations,
    webhooksMigrations,
    integrationsMigrations,
    contentMigrations,
    organisationsMigrations,
    recommendationsMigrations,
    notificationsMigrations,
    exportsMigrations,
    reportsMigrations,
  ],
  // Up to 0.10.0 every migration sat in src/platform/db/migrations; those that created or changed the tables
  // of several modules were split into one part per owner, and a database that ran one is recorded as having
  // run its parts.
  renamed: {
    '0001_foundation': ['0001.1_users', '0001.2_foundation', '0001.3_status_checks'],
    '0004_trend_metrics': ['0004.1_trend_metrics', '0004.2_topic_interests', '0004.3_source_state'],
    '0013_organisations': ['0013.1_organisations', '0013.2_owner_role'],
    '0020_leases': ['0020.1_leases', '0020.2_source_leases', '0020.3_detector_lease'],
    '0021_lookup_indexes': ['0021.1_interest_key_index', '0021.2_hazard_time_index'],
    '0023_accent_folded_keys': [
      '0023.1_fold_trend_keys',
      '0023.2_fold_interest_keys',
      '0023.3_follow_merged_trends',
      '0023.4_follow_merged_trends',
      '0023.5_fold_keys',
      '0023.6_follow_merged_trends',
      '0023.7_remove_merged_trends',
    ],
  },
};

/** Brings the app's database up to date; returns the migrations that ran. */
export function migrateAppToLatest(handle: MigrationTarget): Promise<string[]> {
  return migrateToLatest(handle, MIGRATIONS);
}

/** Migrates the app's database up or down to the named migration (tests that start from an older schema). */
export function migrateAppTo(handle: MigrationTarget, name: string): Promise<string[]> {
  return migrateTo(handle, MIGRATIONS, name);
}
