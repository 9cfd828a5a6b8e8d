import type { Kysely } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// A signal's own category hint (`category` on ingest, a subreddit, a feed's section), read when its new
// trends are categorised.
export function signalCategory(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('signals').addColumn('category_hint', 'varchar(100)').execute();
    },
  };
}
