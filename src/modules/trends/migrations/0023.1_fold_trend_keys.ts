import { type Kysely, sql } from 'kysely';
import { type Dialect, foldAccentsOfKey, nonAsciiKey } from '../../../platform/db/index.ts';

// Trend keys drop the accents of Latin letters from now on ("Pokémon" and "pokemon" are one trend, the text
// module's keys.ts). Keys stored before are folded the same way: a trend whose folded key is free is renamed;
// one whose folded key is taken is merged into that trend (its surface forms, hourly and minute buckets added,
// its counts added, the merged trend's metrics recomputed) and recorded in trend_key_merges. The modules that
// keep rows of a trend then move those of a merged-away trend (0023.3–0023.6, through `trendKeyMerges`), and
// 0023.7_remove_merged_trends removes it. Runs once, under the migration lock.

// Migrations see every table untyped.
// biome-ignore lint/suspicious/noExplicitAny: a migration's database has no generated types.
type Db = Kysely<any>;

interface TrendRow {
  id: number;
  key: string;
  mentions: number;
  first_seen_at: number;
  last_seen_at: number;
}

export function foldTrendKeys(dialect: Dialect) {
  return {
    async up(database: Kysely<unknown>): Promise<void> {
      const db = database as Db;
      await db.schema
        .createTable('trend_key_merges')
        .addColumn('from_id', 'bigint', (c) => c.primaryKey())
        .addColumn('to_id', 'bigint', (c) => c.notNull())
        .execute();
      const trends: TrendRow[] = await db
        .selectFrom('trends')
        .select(['id', 'key', 'mentions', 'first_seen_at', 'last_seen_at'])
        .where(nonAsciiKey(dialect, 'key'))
        .orderBy('id')
        .execute();
      for (const trend of trends) {
        const key = foldAccentsOfKey(trend.key);
        if (key === trend.key) continue;
        const target: TrendRow | undefined = await db
          .selectFrom('trends')
          .select(['id', 'key', 'mentions', 'first_seen_at', 'last_seen_at'])
          .where('key', '=', key)
          .executeTakeFirst();
        if (target) await mergeTrend(db, trend, target);
        else await db.updateTable('trends').set({ key }).where('id', '=', trend.id).execute();
      }
    },
  };
}

const HOURLY_SUMS = ['mentions', 'sentiment_sum', 'positive', 'negative', 'evidence'];

/**
 * Adds trend `from`'s rows of `table` to trend `to`'s, in one statement: a row `to` lacks is copied, one it has
 * (same `keys`) gets the `sums` added.
 */
async function addRows(db: Db, table: string, keys: string[], sums: string[], from: number, to: number) {
  const columns = [...keys, ...sums];
  await db
    .insertInto(table)
    .columns(['trend_id', ...columns])
    .expression(
      db
        .selectFrom(table)
        .select([sql.lit(to).as('trend_id'), ...columns])
        .where('trend_id', '=', from),
    )
    .onConflict((oc) =>
      oc
        .columns(['trend_id', ...keys])
        .doUpdateSet(
          Object.fromEntries(
            sums.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`]),
          ),
        ),
    )
    .execute();
}

/** Adds trend `from`'s counts to trend `into` and records the merge (`from` is removed by 0023.7). */
async function mergeTrend(db: Db, from: TrendRow, into: TrendRow): Promise<void> {
  const to = Number(into.id);
  await addRows(db, 'trend_surfaces', ['surface'], ['count'], from.id, to);
  await addRows(db, 'trend_hourly', ['platform', 'hour'], HOURLY_SUMS, from.id, to);
  await addRows(db, 'trend_minutely', ['minute'], ['mentions', 'evidence'], from.id, to);
  await db
    .updateTable('trends')
    .set({
      mentions: Number(into.mentions) + Number(from.mentions),
      first_seen_at: Math.min(Number(into.first_seen_at), Number(from.first_seen_at)),
      last_seen_at: Math.max(Number(into.last_seen_at), Number(from.last_seen_at)),
      dirty: 1,
    })
    .where('id', '=', to)
    .execute();
  await db.insertInto('trend_key_merges').values({ from_id: from.id, to_id: to }).execute();
}
