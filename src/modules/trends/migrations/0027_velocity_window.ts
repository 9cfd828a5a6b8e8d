import type { Kysely } from 'kysely';

// Snapshots name the window their velocity_score comes from (metrics version 13: 1h, 6h or 24h). Snapshots
// written before were 1h scores; the recompute loop rewrites them within the hour.
export function velocityWindow() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('trend_metrics')
        .addColumn('velocity_window', 'text', (c) => c.notNull().defaultTo('1h'))
        .execute();
    },
  };
}
