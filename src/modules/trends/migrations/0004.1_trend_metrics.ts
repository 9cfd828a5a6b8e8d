import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// Metric snapshots per trend and period (what `GET /api/trends` sorts and pages) and the dirty mark of trends
// (the first part of 0004_trend_metrics).
export function trendMetrics(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // 1 = the trend changed (or time moved on) since its snapshot was written.
      await db.schema
        .alterTable('trends')
        .addColumn('dirty', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.createIndex('trends_dirty_idx').on('trends').columns(['dirty', 'id']).execute();
      if (dialect === 'postgres') {
        // Prefix search (autocomplete) on the normalised key whatever the database collation.
        await sql`create index trends_key_prefix_idx on trends (key text_pattern_ops)`.execute(db);
      }

      await db.schema
        .createTable('trend_metrics')
        .addColumn('trend_id', 'bigint', (c) => c.notNull().references('trends.id').onDelete('cascade'))
        .addColumn('period', 'varchar(4)', (c) => c.notNull())
        .addColumn('volume', 'bigint', (c) => c.notNull())
        .addColumn('previous_volume', 'bigint', (c) => c.notNull())
        .addColumn('absolute_change', 'bigint', (c) => c.notNull())
        .addColumn('growth', 'double precision')
        .addColumn('average_velocity', 'double precision', (c) => c.notNull())
        .addColumn('trend_stability', 'double precision', (c) => c.notNull())
        .addColumn('overall_trend', 'varchar(16)', (c) => c.notNull())
        .addColumn('velocity_score', 'double precision', (c) => c.notNull())
        .addColumn('velocity_1h', 'bigint', (c) => c.notNull())
        .addColumn('lifecycle_stage', 'varchar(16)', (c) => c.notNull())
        .addColumn('sentiment', 'varchar(8)')
        .addColumn('sentiment_category', 'varchar(16)', (c) => c.notNull())
        .addColumn('platforms', 'text', (c) => c.notNull())
        .addColumn('meta_description', 'text', (c) => c.notNull())
        .addColumn('computed_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('trend_metrics_pk', ['trend_id', 'period'])
        .execute();
      for (const column of ['volume', 'velocity_score', 'growth', 'velocity_1h']) {
        await db.schema
          .createIndex(`trend_metrics_${column}_idx`)
          .on('trend_metrics')
          .columns(['period', column, 'trend_id'])
          .execute();
      }
    },
  };
}
