// SQL for trend aliases: phrases folded into a trend (fragments.ts) and where their mentions go.
import type { DB, Executor } from '../../../database.ts';

/** Phrases listed as one trend's aliases at most (more still route to it). */
const MAX_ALIASES = 20;

export class TrendAliasesStore {
  constructor(private readonly db: DB) {}

  /** Aliases recorded after id `afterId`: the folded phrase's key and its trend's key. */
  after(afterId: number): Promise<{ id: number; key: string; target: string }[]> {
    return this.db
      .selectFrom('trend_aliases as a')
      .innerJoin('trends as t', 't.id', 'a.trend_id')
      .select(['a.id', 'a.key', 't.key as target'])
      .where('a.id', '>', afterId)
      .orderBy('a.id')
      .execute();
  }

  /**
   * Folds phrases into trends: each `key` routes to `trendId` from now on (a key already folded stays where it
   * is), and `alias` (the phrase as written) joins the trend's list, at most MAX_ALIASES.
   */
  async add(rows: { trendId: number; key: string; alias: string }[], trx: Executor = this.db): Promise<void> {
    for (const row of rows) {
      const inserted = await trx
        .insertInto('trend_aliases')
        .values({ key: row.key, trend_id: row.trendId })
        .onConflict((c) => c.column('key').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) continue;
      const trend = await trx
        .selectFrom('trends')
        .select('aliases')
        .where('id', '=', row.trendId)
        .executeTakeFirst();
      const aliases = JSON.parse(trend?.aliases ?? '[]') as string[];
      if (aliases.length >= MAX_ALIASES || aliases.some((a) => a.toLowerCase() === row.alias.toLowerCase()))
        continue;
      aliases.push(row.alias);
      await trx
        .updateTable('trends')
        .set({ aliases: JSON.stringify(aliases) })
        .where('id', '=', row.trendId)
        .execute();
    }
  }
}
