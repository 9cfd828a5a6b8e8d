import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// Out-of-date snapshots are rows of trend_dirty (stores/dirty.ts), not a counter in the trend row. Each batch that
// named a trend updated its row, and with `dirty` and `last_seen_at` indexed no such update could be HOT on
// PostgreSQL: every one wrote an entry into each of the table's five indexes (about 440 bytes of WAL per real
// post). `last_seen_at` loses its index: only the hourly marker filters on it, and a scan of the trends once an
// hour costs less than an index entry per batch and trend. Trend pages keep a fifth free for in-place updates.
export function trendDirty(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('trend_dirty')
        .addColumn('trend_id', dialect === 'sqlite' ? 'integer' : 'bigint', (c) =>
          c.primaryKey().references('trends.id').onDelete('cascade'),
        )
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
      await sql`insert into trend_dirty (trend_id, version) select id, dirty from trends where dirty > 0`.execute(
        db,
      );
      await db.schema.dropIndex('trends_dirty_idx').execute();
      await db.schema.dropIndex('trends_last_seen_idx').execute();
      await db.schema.alterTable('trends').dropColumn('dirty').execute();
      if (dialect === 'postgres') await sql`alter table trends set (fillfactor = 80)`.execute(db);
    },
  };
}
