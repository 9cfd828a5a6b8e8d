// SQL for out-of-date snapshots: a trend is out of date while it has a row in trend_dirty, whose version counts the
// changes since its snapshots were last computed (migration 0030). Kept beside the trend rows rather than in them:
// a batch's update of a trend then changes no indexed column, which PostgreSQL writes in place (a HOT update)
// instead of adding an entry to every index of the table.
import { CompiledQuery, type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database, DB, Executor } from '../../../database.ts';
import type { Dialect } from '../../../platform/db/index.ts';
import { powerOfTwoParts } from '../../../platform/db/rows.ts';

/** Trend ids per statement at most (a power of two). */
const IDS_PER_STATEMENT = 1_024;

export class TrendDirtyStore {
  private readonly markTexts = new Map<number, string>();

  constructor(
    private readonly db: DB,
    private readonly dialect: Dialect,
  ) {}

  /**
   * One more change to each trend's snapshots, in id order: every writer of trend_dirty rows (batches, the time
   * markers, the recompute's clear) takes them in that order, so two instances never wait on each other in a cycle.
   */
  async mark(trendIds: readonly number[], trx: Executor = this.db): Promise<void> {
    const ids = [...new Set(trendIds)].sort((a, b) => a - b);
    for (const part of powerOfTwoParts(ids, IDS_PER_STATEMENT)) {
      await trx.executeQuery(CompiledQuery.raw(this.markText(part.length), part));
    }
  }

  private markText(ids: number): string {
    let text = this.markTexts.get(ids);
    if (text === undefined) {
      const tuples: string[] = [];
      for (let i = 0; i < ids; i++) tuples.push(this.dialect === 'postgres' ? `($${i + 1}, 1)` : '(?, 1)');
      text =
        `insert into trend_dirty (trend_id, version) values ${tuples.join(', ')} ` +
        'on conflict (trend_id) do update set version = trend_dirty.version + 1';
      this.markTexts.set(ids, text);
    }
    return text;
  }

  /** Trends whose snapshots are out of date, oldest id first, with their change counter. */
  list(limit: number) {
    return this.db
      .selectFrom('trend_dirty')
      .select(['trend_id as id', 'version as dirty'])
      .orderBy('trend_id')
      .limit(limit)
      .execute();
  }

  /** Out-of-date trends mentioned fewer than `fewerMentionsThan` times in all (the first `limit` found), by id. */
  async oneOffs(limit: number, fewerMentionsThan: number) {
    const rows = await this.db
      .selectFrom('trend_dirty as d')
      .innerJoin('trends as t', 't.id', 'd.trend_id')
      .select(['d.trend_id as id', 'd.version as dirty'])
      .where('t.mentions', '<', fewerMentionsThan)
      .limit(limit)
      .execute();
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Marks trends seen since `since` (ms) as out of date: time moved their windows. */
  markSeenSince(since: number): Promise<void> {
    return this.markWhere((eb) => eb('last_seen_at', '>=', since));
  }

  /** Marks trends with mentions in the last hour as out of date: their velocity_1h slides every minute. */
  markRecentlyActive(): Promise<void> {
    return this.markWhere((eb) =>
      eb(
        'id',
        'in',
        eb
          .selectFrom('trend_metrics')
          .select('trend_id')
          // Literals, as the partial index trend_metrics_recent_idx is written: a bound parameter cannot prove it.
          .where('period', '=', sql.lit('24h'))
          .where('velocity_1h', '>', sql.lit(0)),
      ),
    );
  }

  private async markWhere(which: (eb: ExpressionBuilder<Database, 'trends'>) => Expression<SqlBool>) {
    await this.db
      .insertInto('trend_dirty')
      .columns(['trend_id', 'version'])
      .expression((eb) =>
        eb
          .selectFrom('trends')
          .select(['id', sql<number>`1`.as('version')])
          .where(which)
          .orderBy('id'),
      )
      .onConflict((oc) =>
        oc.column('trend_id').doUpdateSet((eb) => ({ version: eb('trend_dirty.version', '+', 1) })),
      )
      .execute();
  }

  /** Ends the out-of-date state of trends whose counter is still what was read (no change since). */
  async clear(read: readonly { id: number; dirty: number }[], trx: Executor = this.db): Promise<void> {
    const sorted = [...read].sort((a, b) => a.id - b.id);
    const byValue = new Map<number, number[]>();
    for (const { id, dirty } of sorted) {
      const ids = byValue.get(dirty) ?? [];
      ids.push(id);
      byValue.set(dirty, ids);
    }
    if (this.dialect === 'postgres') {
      // Locked in id order before the deletes by counter value, which would take them out of order.
      const ids = sorted.map((r) => r.id);
      for (const part of powerOfTwoParts(ids, IDS_PER_STATEMENT)) {
        await trx
          .selectFrom('trend_dirty')
          .select('trend_id')
          .where('trend_id', 'in', part)
          .orderBy('trend_id')
          .forUpdate()
          .execute();
      }
    }
    for (const [value, ids] of byValue) {
      for (const part of powerOfTwoParts(ids, IDS_PER_STATEMENT)) {
        await trx
          .deleteFrom('trend_dirty')
          .where('trend_id', 'in', part)
          .where('version', '=', value)
          .execute();
      }
    }
  }
}
