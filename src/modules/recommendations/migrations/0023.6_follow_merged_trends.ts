import type { Kysely } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';
import { trendKeyMerges } from '../../trends/migrations/index.ts';

// Recommendations drawn from a trend merged into another by trends' 0023.1_fold_trend_keys name that trend.
export function followMergedTrends(_dialect: Dialect) {
  return {
    async up(database: Kysely<unknown>): Promise<void> {
      // biome-ignore lint/suspicious/noExplicitAny: a migration's database has no generated types.
      const db = database as Kysely<any>;
      for (const { from, to } of await trendKeyMerges(db)) {
        await db
          .updateTable('recommendations')
          .set({ source_trend_id: String(to) })
          .where('source_trend_id', '=', String(from))
          .execute();
      }
    },
  };
}
