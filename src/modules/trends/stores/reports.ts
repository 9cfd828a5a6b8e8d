// Reads for custom reports (the reports module asks TrendsService for them): sums over the hourly buckets and
// reads of trends and snapshots, on the reader connection. Every query is bounded (a row limit, ids in chunks);
// the reports service refuses a report that would exceed a bound.
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../../../database.ts';
import { containsPattern } from '../../../platform/db/like.ts';
import { chunks, containsWords } from './conditions.ts';

/** Ids per statement of the report reads. */
const REPORT_ID_CHUNK = 500;

/** Trend-level conditions (on `trends as t`) and the platforms whose mentions count (on `trend_hourly as h`). */
export interface TrendSelection {
  /** Category names (a parent's list holds its children). */
  categories?: string[];
  /** Case-insensitive text in the key or the title. */
  search?: string;
  /** Normalised keywords: trends whose key holds any of them as whole words. */
  anyKeys?: string[];
  types?: string[];
  platforms?: string[];
  trendIds?: number[];
}

/** One trend's sums over a report's window. */
export interface TrendTotalsRow {
  trend_id: number;
  title: string;
  category: string;
  type: string;
  volume: number;
  previous_volume: number;
  sentiment_sum: number;
  positive: number;
  negative: number;
}

interface BucketRow {
  trend_id: number | null;
  platform: string | null;
  day: number | null;
  hour: number | null;
  volume: number;
  sentiment_sum: number;
  positive: number;
  negative: number;
  trends: number;
}

// biome-ignore lint/suspicious/noExplicitAny: the condition reads columns of the query's aliases `t` and `h`.
type AnyBuilder = ExpressionBuilder<any, any>;

/** The selection as one condition on a query joining `trends as t` and `trend_hourly as h`. */
function reportConditions(selection: TrendSelection): (eb: AnyBuilder) => Expression<SqlBool> {
  return (eb) => {
    const parts: Expression<SqlBool>[] = [];
    if (selection.categories !== undefined) parts.push(eb('t.category', 'in', selection.categories));
    if (selection.types !== undefined) parts.push(eb('t.type', 'in', selection.types));
    if (selection.trendIds !== undefined) parts.push(eb('t.id', 'in', selection.trendIds));
    if (selection.platforms !== undefined) parts.push(eb('h.platform', 'in', selection.platforms));
    if (selection.search !== undefined) {
      const pattern = containsPattern(selection.search);
      parts.push(
        eb.or([
          sql<SqlBool>`t.key like ${pattern} escape '\\'`,
          sql<SqlBool>`lower(t.title) like ${pattern} escape '\\'`,
        ]),
      );
    }
    if (selection.anyKeys !== undefined) parts.push(eb.or(selection.anyKeys.flatMap(containsWords)));
    return eb.and(parts);
  };
}

export class TrendReportsStore {
  constructor(private readonly reader: DB) {}

  /**
   * Each selected trend with mentions in hours [fromHour, toHour]: its sums there (and over the equal span
   * before when `previous`), largest volume first, at most `limit` trends.
   */
  async reportTotals(
    selection: TrendSelection,
    window: { fromHour: number; toHour: number; previous: boolean },
    limit: number,
  ): Promise<TrendTotalsRow[]> {
    const { fromHour, toHour } = window;
    const span = toHour - fromHour + 1;
    const inWindow = (column: string) =>
      sql<number>`sum(case when h.hour >= ${fromHour} then ${sql.ref(column)} else 0 end)`;
    const rows = await this.reader
      .selectFrom('trend_hourly as h')
      .innerJoin('trends as t', 't.id', 'h.trend_id')
      .select([
        't.id as trend_id',
        't.title',
        't.category',
        't.type',
        inWindow('h.mentions').as('volume'),
        sql<number>`sum(case when h.hour < ${fromHour} then h.mentions else 0 end)`.as('previous_volume'),
        inWindow('h.sentiment_sum').as('sentiment_sum'),
        inWindow('h.positive').as('positive'),
        inWindow('h.negative').as('negative'),
      ])
      .where('h.hour', '>=', window.previous ? fromHour - span : fromHour)
      .where('h.hour', '<=', toHour)
      .where(reportConditions(selection))
      .groupBy(['t.id', 't.title', 't.category', 't.type'])
      .having(inWindow('h.mentions'), '>', 0)
      .orderBy(sql`sum(case when h.hour >= ${fromHour} then h.mentions else 0 end)`, 'desc')
      .orderBy('t.id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      trend_id: Number(r.trend_id),
      title: r.title,
      category: r.category,
      type: r.type,
      volume: Number(r.volume),
      previous_volume: Number(r.previous_volume),
      sentiment_sum: Number(r.sentiment_sum),
      positive: Number(r.positive),
      negative: Number(r.negative),
    }));
  }

  /**
   * Sums of the given trends' buckets in hours [fromHour, toHour], grouped by trend (when `byTrend`) and the
   * asked bucket columns (`day` = epoch day, `hour` = epoch hour). Reads ids in chunks; stops once more than
   * `limit` rows were read (the caller refuses the report then).
   */
  async reportBuckets(
    trendIds: number[],
    window: { fromHour: number; toHour: number },
    group: { byTrend: boolean; platform: boolean; day: boolean; hour: boolean },
    platforms: string[] | undefined,
    limit: number,
  ): Promise<BucketRow[]> {
    const out: BucketRow[] = [];
    for (const part of chunks(trendIds, REPORT_ID_CHUNK)) {
      const rows = await this.reader
        .selectFrom('trend_hourly as h')
        .select([
          sql<number>`sum(h.mentions)`.as('volume'),
          sql<number>`sum(h.sentiment_sum)`.as('sentiment_sum'),
          sql<number>`sum(h.positive)`.as('positive'),
          sql<number>`sum(h.negative)`.as('negative'),
          sql<number>`count(distinct case when h.mentions > 0 then h.trend_id end)`.as('trends'),
        ])
        .$if(group.byTrend, (qb) => qb.select('h.trend_id').groupBy('h.trend_id'))
        .$if(group.platform, (qb) => qb.select('h.platform').groupBy('h.platform'))
        .$if(group.day, (qb) => qb.select(sql<number>`h.hour / 24`.as('day')).groupBy(sql`h.hour / 24`))
        .$if(group.hour, (qb) => qb.select('h.hour').groupBy('h.hour'))
        .where('h.trend_id', 'in', part)
        .where('h.hour', '>=', window.fromHour)
        .where('h.hour', '<=', window.toHour)
        .$if(platforms !== undefined, (qb) => qb.where('h.platform', 'in', platforms!))
        .limit(limit - out.length + 1)
        .execute();
      for (const r of rows as Record<string, unknown>[]) {
        out.push({
          trend_id: r.trend_id === undefined ? null : Number(r.trend_id),
          platform: r.platform === undefined ? null : String(r.platform),
          day: r.day === undefined ? null : Number(r.day),
          hour: r.hour === undefined ? null : Number(r.hour),
          volume: Number(r.volume),
          sentiment_sum: Number(r.sentiment_sum),
          positive: Number(r.positive),
          negative: Number(r.negative),
          trends: Number(r.trends),
        });
      }
      if (out.length > limit) break;
    }
    return out;
  }

  /** The stored metric snapshots of one period (what `GET /api/trends` lists) for the given trends. */
  async reportSnapshots(trendIds: number[], period: string) {
    const out = new Map<
      number,
      { velocity_score: number; velocity_1h: number; trend_stability: number; lifecycle_stage: string }
    >();
    for (const part of chunks(trendIds, REPORT_ID_CHUNK)) {
      const rows = await this.reader
        .selectFrom('trend_metrics')
        .select(['trend_id', 'velocity_score', 'velocity_1h', 'trend_stability', 'lifecycle_stage'])
        .where('period', '=', period)
        .where('trend_id', 'in', part)
        .execute();
      for (const r of rows) {
        out.set(Number(r.trend_id), {
          velocity_score: Number(r.velocity_score),
          velocity_1h: Number(r.velocity_1h),
          trend_stability: Number(r.trend_stability),
          lifecycle_stage: r.lifecycle_stage,
        });
      }
    }
    return out;
  }

  /** Whole trend rows (what the trends module computes metrics from). */
  async reportTrendRows(trendIds: number[]) {
    const out = [];
    for (const part of chunks(trendIds, REPORT_ID_CHUNK)) {
      out.push(...(await this.reader.selectFrom('trends').selectAll().where('id', 'in', part).execute()));
    }
    return out;
  }
}
