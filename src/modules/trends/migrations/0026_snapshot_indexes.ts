import { type Kysely, sql } from 'kysely';

// Snapshot indexes that serve their queries, and only those. Every snapshot write touched four secondary
// indexes; two were never read: a list sorted by velocity (velocity_score, then velocity_1h) or by growth (nulls
// last) could not follow (period, velocity_score, trend_id) or (period, growth, trend_id), so both sorted every
// listed snapshot of the period instead (about 20 ms at 30,000 trends).
// - Listing by velocity can follow (period, velocity_score, velocity_1h, trend_id), the list's whole order.
// - The minute marker reads the trends with mentions in the last hour from an index of just those (the 24 h
//   snapshots with velocity_1h > 0) instead of one over every snapshot of every period.
// - A list by growth still sorts its rows (its nulls-last order is an expression); its index goes.
export function snapshotIndexes() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('trend_metrics_velocity_idx')
        .on('trend_metrics')
        .columns(['period', 'velocity_score', 'velocity_1h', 'trend_id'])
        .execute();
      await db.schema
        .createIndex('trend_metrics_recent_idx')
        .on('trend_metrics')
        .columns(['period', 'velocity_1h', 'trend_id'])
        .where((eb) =>
          eb.and([eb(sql.ref('period'), '=', sql.lit('24h')), eb(sql.ref('velocity_1h'), '>', sql.lit(0))]),
        )
        .execute();
      for (const name of ['velocity_score', 'velocity_1h', 'growth']) {
        await db.schema.dropIndex(`trend_metrics_${name}_idx`).execute();
      }
    },
  };
}
