import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// Fragments fold (docs/metrics.md, "Fragments fold"): a phrase promoted while its posts mostly name a trend it
// is part of (or that is part of it) becomes that trend's alias. `trend_aliases` routes the phrase's later
// mentions to the trend; `trends.aliases` lists the phrases as written (JSON), for the API and search.
export function trendAliases(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('trends')
        .addColumn('aliases', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createTable('trend_aliases')
        .$call((t) => withId(t, dialect))
        .addColumn('key', 'varchar(200)', (c) => c.notNull().unique())
        .addColumn('trend_id', 'bigint', (c) => c.notNull().references('trends.id').onDelete('cascade'))
        .execute();
      await db.schema.createIndex('trend_aliases_trend_idx').on('trend_aliases').column('trend_id').execute();
    },
  };
}
