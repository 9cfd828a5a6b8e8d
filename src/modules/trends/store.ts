// SQL for trends and their hourly / minute buckets.
import { type Insertable, sql, type Transaction } from 'kysely';
import type { Database, DB } from '../../platform/db/index.ts';
import type { TrendHourlyTable, TrendsTable } from '../../platform/db/schema.ts';

export type Executor = DB | Transaction<Database>;

export interface PendingSignal {
  id: number;
  source: string;
  text: string;
  title: string | null;
  keywords: string | null;
  lang: string | null;
  observed_at: number;
}

/** One hourly bucket's additions (the row shape of trend_hourly). */
export type HourlyIncrement = TrendHourlyTable;

const CHUNK = 200;

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

export class TrendsStore {
  constructor(readonly db: DB) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  pendingSignals(limit: number): Promise<PendingSignal[]> {
    return this.db
      .selectFrom('signals')
      .select(['id', 'source', 'text', 'title', 'keywords', 'lang', 'observed_at'])
      .where('processed_at', 'is', null)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async markProcessed(trx: Executor, ids: number[], at: number): Promise<void> {
    for (const part of chunks(ids)) {
      await trx.updateTable('signals').set({ processed_at: at }).where('id', 'in', part).execute();
    }
  }

  async idsByKey(trx: Executor, keys: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const part of chunks(keys)) {
      const rows = await trx.selectFrom('trends').select(['id', 'key']).where('key', 'in', part).execute();
      for (const row of rows) out.set(row.key, row.id);
    }
    return out;
  }

  async insertTrend(trx: Executor, trend: Insertable<TrendsTable>): Promise<number> {
    const row = await trx.insertInto('trends').values(trend).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async touchTrend(
    trx: Executor,
    id: number,
    mentions: number,
    firstSeen: number,
    lastSeen: number,
  ): Promise<void> {
    await trx
      .updateTable('trends')
      .set((eb) => ({
        mentions: eb('mentions', '+', mentions),
        first_seen_at: sql<number>`case when first_seen_at > ${firstSeen} then ${firstSeen} else first_seen_at end`,
        last_seen_at: sql<number>`case when last_seen_at < ${lastSeen} then ${lastSeen} else last_seen_at end`,
      }))
      .where('id', '=', id)
      .execute();
  }

  async addSurfaces(
    trx: Executor,
    rows: { trend_id: number; surface: string; count: number }[],
  ): Promise<void> {
    for (const part of chunks(rows)) {
      await trx
        .insertInto('trend_surfaces')
        .values(part)
        .onConflict((oc) =>
          oc
            .columns(['trend_id', 'surface'])
            .doUpdateSet({ count: sql`trend_surfaces.count + excluded.count` }),
        )
        .execute();
    }
  }

  /** Surface-form counts of the given trends, grouped by trend. */
  async surfacesOf(trx: Executor, trendIds: number[]): Promise<Map<number, Map<string, number>>> {
    const out = new Map<number, Map<string, number>>();
    for (const part of chunks(trendIds)) {
      const rows = await trx
        .selectFrom('trend_surfaces')
        .select(['trend_id', 'surface', 'count'])
        .where('trend_id', 'in', part)
        .execute();
      for (const row of rows) {
        let forms = out.get(row.trend_id);
        if (!forms) {
          forms = new Map();
          out.set(row.trend_id, forms);
        }
        forms.set(row.surface, row.count);
      }
    }
    return out;
  }

  async setTitle(trx: Executor, id: number, title: string): Promise<void> {
    await trx.updateTable('trends').set({ title }).where('id', '=', id).where('title', '!=', title).execute();
  }

  async addHourly(trx: Executor, rows: HourlyIncrement[]): Promise<void> {
    for (const part of chunks(rows)) {
      await trx
        .insertInto('trend_hourly')
        .values(part)
        .onConflict((oc) =>
          oc.columns(['trend_id', 'platform', 'hour']).doUpdateSet({
            mentions: sql`trend_hourly.mentions + excluded.mentions`,
            sentiment_sum: sql`trend_hourly.sentiment_sum + excluded.sentiment_sum`,
            positive: sql`trend_hourly.positive + excluded.positive`,
            negative: sql`trend_hourly.negative + excluded.negative`,
          }),
        )
        .execute();
    }
  }

  async addMinutely(
    trx: Executor,
    rows: { trend_id: number; minute: number; mentions: number }[],
  ): Promise<void> {
    for (const part of chunks(rows)) {
      await trx
        .insertInto('trend_minutely')
        .values(part)
        .onConflict((oc) =>
          oc
            .columns(['trend_id', 'minute'])
            .doUpdateSet({ mentions: sql`trend_minutely.mentions + excluded.mentions` }),
        )
        .execute();
    }
  }

  async pruneMinutesBefore(minute: number): Promise<void> {
    await this.db.deleteFrom('trend_minutely').where('minute', '<', minute).execute();
  }

  findTrend(id: number) {
    return this.db.selectFrom('trends').selectAll().where('id', '=', id).executeTakeFirst();
  }

  hourlyRows(trendId: number, fromHour: number, toHour: number) {
    return this.db
      .selectFrom('trend_hourly')
      .select(['platform', 'hour', 'mentions', 'sentiment_sum', 'positive', 'negative'])
      .where('trend_id', '=', trendId)
      .where('hour', '>=', fromHour)
      .where('hour', '<=', toHour)
      .execute();
  }

  minuteRows(trendId: number, fromMinute: number, toMinute: number) {
    return this.db
      .selectFrom('trend_minutely')
      .select(['minute', 'mentions'])
      .where('trend_id', '=', trendId)
      .where('minute', '>=', fromMinute)
      .where('minute', '<=', toMinute)
      .execute();
  }

  async countByCategory(): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('trends')
      .select(['category', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('category')
      .execute();
    return new Map(rows.map((r) => [r.category, Number(r.n)]));
  }
}
