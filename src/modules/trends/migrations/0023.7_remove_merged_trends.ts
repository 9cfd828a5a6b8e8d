import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// The trends 0023.1_fold_trend_keys merged into others go, once every module has moved its rows of them
// (0023.3–0023.6): their buckets, surface forms and metrics go with them (ON DELETE CASCADE).
export function removeMergedTrends(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`delete from trends where id in (select from_id from trend_key_merges)`.execute(db);
      await db.schema.dropTable('trend_key_merges').execute();
    },
  };
}
