import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';
import { trendKeyMerges } from '../../trends/migrations/index.ts';

// Insights and insight tasks of a trend merged into another by trends' 0023.1_fold_trend_keys move to that
// trend; each user's newest insight of it is then the latest one.
export function followMergedTrends(_dialect: Dialect) {
  return {
    async up(database: Kysely<unknown>): Promise<void> {
      // biome-ignore lint/suspicious/noExplicitAny: a migration's database has no generated types.
      const db = database as Kysely<any>;
      const merges = await trendKeyMerges(db);
      for (const { from, to } of merges) {
        for (const table of ['ai_insights', 'insight_tasks']) {
          await db.updateTable(table).set({ trend_id: to }).where('trend_id', '=', from).execute();
        }
      }
      for (const to of new Set(merges.map((merge) => merge.to))) {
        await db.updateTable('ai_insights').set({ is_latest: 0 }).where('trend_id', '=', to).execute();
        const newest: { id: number }[] = await db
          .selectFrom('ai_insights')
          .select(sql<number>`max(id)`.as('id'))
          .where('trend_id', '=', to)
          .groupBy('user_id')
          .execute();
        if (newest.length > 0)
          await db
            .updateTable('ai_insights')
            .set({ is_latest: 1 })
            .where(
              'id',
              'in',
              newest.map((row) => Number(row.id)),
            )
            .execute();
      }
    },
  };
}
