import type { Kysely } from 'kysely';
import { type Dialect, foldAccentsOfKey, nonAsciiKey } from '../../../platform/db/index.ts';

// Interests keyed by a key with Latin accents move to the folded key, as trend keys did (trends'
// 0023.1_fold_trend_keys); the same user following both spellings keeps one.
export function foldInterestKeys(dialect: Dialect) {
  return {
    async up(database: Kysely<unknown>): Promise<void> {
      // biome-ignore lint/suspicious/noExplicitAny: a migration's database has no generated types.
      const db = database as Kysely<any>;
      const interests: { id: number; user_id: number; key: string }[] = await db
        .selectFrom('topic_interests')
        .select(['id', 'user_id', 'key'])
        .where(nonAsciiKey(dialect, 'key'))
        .orderBy('id')
        .execute();
      for (const interest of interests) {
        const key = foldAccentsOfKey(interest.key);
        if (key === interest.key) continue;
        const taken = await db
          .selectFrom('topic_interests')
          .select('id')
          .where('user_id', '=', interest.user_id)
          .where('key', '=', key)
          .executeTakeFirst();
        if (taken) await db.deleteFrom('topic_interests').where('id', '=', interest.id).execute();
        else await db.updateTable('topic_interests').set({ key }).where('id', '=', interest.id).execute();
      }
    },
  };
}
