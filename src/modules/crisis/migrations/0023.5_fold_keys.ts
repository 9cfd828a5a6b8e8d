import { type Kysely, sql } from 'kysely';
import { type Dialect, foldAccentsOfKey, nonAsciiKey } from '../../../platform/db/index.ts';
import { trendKeyMerges } from '../../trends/migrations/index.ts';

// Crisis events of a trend merged into another by trends' 0023.1_fold_trend_keys move to that trend, and
// watched keys with Latin accents move to the folded key, as trend keys did; a post already counted under the
// folded key keeps that copy.
export function foldKeys(dialect: Dialect) {
  return {
    async up(database: Kysely<unknown>): Promise<void> {
      // biome-ignore lint/suspicious/noExplicitAny: a migration's database has no generated types.
      const db = database as Kysely<any>;
      for (const { from, to } of await trendKeyMerges(db)) {
        await db.updateTable('crisis_events').set({ trend_id: to }).where('trend_id', '=', from).execute();
      }
      const watched: { key: string }[] = await db
        .selectFrom('crisis_mentions')
        .select('key')
        .distinct()
        .where(nonAsciiKey(dialect, 'key'))
        .execute();
      for (const { key: from } of watched) {
        const key = foldAccentsOfKey(from);
        if (key === from) continue;
        await db
          .updateTable('crisis_mentions')
          .set({ key })
          .where('key', '=', from)
          .where(
            sql<boolean>`signal_id not in (select kept.signal_id from crisis_mentions kept where kept.key = ${key})`,
          )
          .execute();
        await db.deleteFrom('crisis_mentions').where('key', '=', from).execute();
      }
      const events: { watch_key: string }[] = await db
        .selectFrom('crisis_events')
        .select('watch_key')
        .distinct()
        .where('kind', '=', 'social')
        .where(nonAsciiKey(dialect, 'watch_key'))
        .execute();
      for (const { watch_key: from } of events) {
        const key = foldAccentsOfKey(from);
        if (key !== from)
          await db
            .updateTable('crisis_events')
            .set({ watch_key: key })
            .where('kind', '=', 'social')
            .where('watch_key', '=', from)
            .execute();
      }
    },
  };
}
