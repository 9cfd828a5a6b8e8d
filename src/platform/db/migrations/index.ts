// One migration set for both databases; each migration gets the dialect for the few type differences.
import type { Migration, MigrationProvider } from 'kysely';
import { foundation } from './0001_foundation.ts';
import { signals } from './0002_signals.ts';
import { trends } from './0003_trends.ts';
import { trendMetrics } from './0004_trend_metrics.ts';
import type { Dialect } from './helpers.ts';

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '0001_foundation': foundation(dialect),
        '0002_signals': signals(dialect),
        '0003_trends': trends(dialect),
        '0004_trend_metrics': trendMetrics(dialect),
      };
    },
  };
}
