// One migration set for both databases; each migration gets the dialect for the few type differences.
import type { Migration, MigrationProvider } from 'kysely';
import { foundation } from './0001_foundation.ts';
import { signals } from './0002_signals.ts';
import { trends } from './0003_trends.ts';
import { trendMetrics } from './0004_trend_metrics.ts';
import { insights } from './0005_insights.ts';
import { crisis } from './0006_crisis.ts';
import { webhooks } from './0007_webhooks.ts';
import { integrations } from './0008_integrations.ts';
import { content } from './0009_content.ts';
import { workflow } from './0010_workflow.ts';
import { signalCategory } from './0011_signal_category.ts';
import { blogTags } from './0012_blog_tags.ts';
import { organisations } from './0013_organisations.ts';
import { recommendations } from './0014_recommendations.ts';
import { notifications } from './0015_notifications.ts';
import { dataExports } from './0016_exports.ts';
import { reports } from './0017_reports.ts';
import { trendEvidence } from './0018_trend_evidence.ts';
import { idempotencyKeyOwner } from './0019_idempotency_key_owner.ts';
import { leases } from './0020_leases.ts';
import { lookupIndexes } from './0021_lookup_indexes.ts';
import { leftOrganisation } from './0022_left_organisation.ts';
import { accentFoldedKeys } from './0023_accent_folded_keys.ts';
import { trendTypeFollowsTitle } from './0024_trend_type_follows_title.ts';
import { pendingSignalsIndex } from './0025_pending_signals_index.ts';
import { snapshotIndexes } from './0026_snapshot_indexes.ts';
import type { Dialect } from './helpers.ts';

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '0001_foundation': foundation(dialect),
        '0002_signals': signals(dialect),
        '0003_trends': trends(dialect),
        '0004_trend_metrics': trendMetrics(dialect),
        '0005_insights': insights(dialect),
        '0006_crisis': crisis(dialect),
        '0007_webhooks': webhooks(dialect),
        '0008_integrations': integrations(dialect),
        '0009_content': content(dialect),
        '0010_workflow': workflow(dialect),
        '0011_signal_category': signalCategory(dialect),
        '0012_blog_tags': blogTags(dialect),
        '0013_organisations': organisations(dialect),
        '0014_recommendations': recommendations(dialect),
        '0015_notifications': notifications(dialect),
        '0016_exports': dataExports(dialect),
        '0017_reports': reports(dialect),
        '0018_trend_evidence': trendEvidence(dialect),
        '0019_idempotency_key_owner': idempotencyKeyOwner(dialect),
        '0020_leases': leases(dialect),
        '0021_lookup_indexes': lookupIndexes(dialect),
        '0022_left_organisation': leftOrganisation(dialect),
        '0023_accent_folded_keys': accentFoldedKeys(dialect),
        '0024_trend_type_follows_title': trendTypeFollowsTitle(),
        '0025_pending_signals_index': pendingSignalsIndex(),
        '0026_snapshot_indexes': snapshotIndexes(),
      };
    },
  };
}
