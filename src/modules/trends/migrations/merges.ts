import { type Kysely, sql } from 'kysely';

/**
 * The trends 0023.1_fold_trend_keys merged into others, for the modules that keep rows of a trend to move
 * them (their 0023 migrations): each merged-away trend and the trend it was merged into.
 */
export async function trendKeyMerges(db: Kysely<unknown>): Promise<{ from: number; to: number }[]> {
  const merges = await sql<{ from_id: number; to_id: number }>`
    select from_id, to_id from trend_key_merges order by from_id`.execute(db);
  return merges.rows.map((row) => ({ from: Number(row.from_id), to: Number(row.to_id) }));
}
