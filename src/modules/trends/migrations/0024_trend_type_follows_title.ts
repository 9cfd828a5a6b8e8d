import { type Kysely, sql } from 'kysely';

// A trend's type follows its title from now on (trends' extraction.ts `typeForTitle`): `hashtag` exactly when
// the title is one. Stored trends are brought in line the same way: a hashtag title makes the type `hashtag`;
// a `hashtag` trend with a plain title becomes `entity` when the title has a capital, else `keyword`.
export function trendTypeFollowsTitle() {
  return {
    async up(database: Kysely<unknown>): Promise<void> {
      const db = database as Kysely<{ trends: { title: string; type: string } }>;
      await db
        .updateTable('trends')
        .set({ type: 'hashtag' })
        .where('title', 'like', '#%')
        .where('type', '!=', 'hashtag')
        .execute();
      await db
        .updateTable('trends')
        .set({ type: sql<string>`case when title <> lower(title) then 'entity' else 'keyword' end` })
        .where('type', '=', 'hashtag')
        .where('title', 'not like', '#%')
        .execute();
    },
  };
}
