import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// Trend buckets count evidence beside mentions (docs/metrics.md, "Evidence"): a mention is evidence unless its
// account or its text (normalised) already counted for the trend in that hour, so one account or one
// copy-pasted text cannot make a trend surge alone. Buckets written before this migration had no such
// weighting: their evidence is their mentions.
export function trendEvidence(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of ['trend_hourly', 'trend_minutely']) {
        await db.schema
          .alterTable(table)
          .addColumn('evidence', 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
        await sql`update ${sql.table(table)} set evidence = mentions`.execute(db);
      }
    },
  };
}
