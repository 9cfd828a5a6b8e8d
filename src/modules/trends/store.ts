// SQL for trends and their hourly / minute buckets. The signals a batch turns into counts are the signals
// module's (processor.ts reaches them through its SignalQueue port).

import {
  CompiledQuery,
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type SqlBool,
  sql,
  type Transaction,
} from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import type { Dialect } from '../../platform/db/index.ts';
import { containsPattern, likeEscape } from '../../platform/db/like.ts';
import { powerOfTwoParts } from '../../platform/db/rows.ts';
import { foldLatinAccents } from '../text/index.ts';
import { TrendAliasesStore } from './stores/aliases.ts';
import { TrendBucketsStore } from './stores/buckets.ts';
import { chunks, containsWords } from './stores/conditions.ts';
import { TrendDirtyStore } from './stores/dirty.ts';
import { TrendReportsStore } from './stores/reports.ts';
import type {
  TrendHourlyTable,
  TrendMetricsTable,
  TrendMinutelyTable,
  TrendSurfacesTable,
  TrendsTable,
} from './tables.ts';

/** One hourly bucket's additions (the row shape of trend_hourly). */
export type HourlyIncrement = TrendHourlyTable;
/** One minute bucket's addition. */
export type MinuteIncrement = TrendMinutelyTable;
/** Occurrences of one surface form of a trend. */
export type SurfaceIncrement = TrendSurfacesTable;
/** A trend's mentions in a batch: the row it is created with when new (title, type, category kept). */
export type TrendAddition = Omit<Insertable<TrendsTable>, 'id'> & { mentions: number };

// ---------------------------------------------------------------------------------------------------------
// The hot write path (a processed batch's trends, surface forms and buckets) as raw multi-row statements, each
// row written once per batch. Kysely's builder costs more per row than SQLite's own work on these (a profile of
// the ingest showed it). A table's rows go out in statements whose row counts are powers of two (300 rows: 256,
// 32, 8 and 4; platform/db/rows.ts), so each table has at most a dozen statement texts.

/** Bound parameters per statement: under SQLite's limit (32,766) and PostgreSQL's (65,535). */
const MAX_PARAMETERS = 30_000;
/** Rows per statement at most (a power of two). */
const MAX_ROWS = 1_024;

/**
 * One raw statement over a list of rows (`values` tuples) or of ids (`in` lists): `{rows}` in the template
 * is replaced by the placeholders for that many rows of `width` parameters each, numbered for PostgreSQL.
 */
class RowStatement {
  private readonly texts = new Map<number, string>();
  /** The most rows one statement takes: a power of two. */
  private readonly maxRows: number;

  constructor(
    private readonly dialect: Dialect,
    private readonly template: string,
    private readonly width: number,
    /** `(…), (…)` for rows; `…, …` for a list of single values. */
    private readonly shape: 'tuples' | 'list',
  ) {
    let rows = MAX_ROWS;
    while (rows * width + 1 > MAX_PARAMETERS) rows /= 2;
    this.maxRows = rows;
  }

  /** The parts `rows` is written in: each part's length is a row count this statement has a text for. */
  parts<T>(rows: readonly T[]): T[][] {
    return powerOfTwoParts(rows, this.maxRows);
  }

  /** The statement for `rows` rows. */
  query(rows: number, parameters: unknown[]): CompiledQuery {
    let text = this.texts.get(rows);
    if (text === undefined) {
      const postgres = this.dialect === 'postgres';
      const groups: string[] = [];
      for (let r = 0, n = 0; r < rows; r++) {
        const marks: string[] = [];
        for (let c = 0; c < this.width; c++) marks.push(postgres ? `$${++n}` : '?');
        groups.push(this.shape === 'tuples' ? `(${marks.join(', ')})` : marks.join(', '));
      }
      text = this.template.replace('{rows}', groups.join(', '));
      this.texts.set(rows, text);
    }
    return CompiledQuery.raw(text, parameters);
  }
}

/** The raw statements of the write path, for one dialect. */
function writeStatements(dialect: Dialect) {
  const rows = (template: string, width: number) => new RowStatement(dialect, template, width, 'tuples');
  const list = (template: string) => new RowStatement(dialect, template, 1, 'list');
  return {
    trendsByKey: list('select id, key, title, type from trends where key in ({rows})'),
    mentionsByKey: list('select key, mentions from trends where key in ({rows})'),
    upsertTrends: rows(
      'insert into trends (key, title, type, category, first_seen_at, last_seen_at, mentions) values {rows} ' +
        'on conflict (key) do update set mentions = trends.mentions + excluded.mentions, ' +
        'first_seen_at = case when excluded.first_seen_at < trends.first_seen_at ' +
        'then excluded.first_seen_at else trends.first_seen_at end, ' +
        'last_seen_at = case when excluded.last_seen_at > trends.last_seen_at ' +
        'then excluded.last_seen_at else trends.last_seen_at end returning id, key',
      7,
    ),
    addSurfaces: rows(
      'insert into trend_surfaces (trend_id, surface, count) values {rows} ' +
        'on conflict (trend_id, surface) do update set count = trend_surfaces.count + excluded.count',
      3,
    ),
    addHourly: rows(
      'insert into trend_hourly (trend_id, platform, hour, mentions, sentiment_sum, positive, negative, evidence) ' +
        'values {rows} on conflict (trend_id, platform, hour) do update set ' +
        'mentions = trend_hourly.mentions + excluded.mentions, ' +
        'sentiment_sum = trend_hourly.sentiment_sum + excluded.sentiment_sum, ' +
        'positive = trend_hourly.positive + excluded.positive, ' +
        'negative = trend_hourly.negative + excluded.negative, ' +
        'evidence = trend_hourly.evidence + excluded.evidence',
      8,
    ),
    addMinutely: rows(
      'insert into trend_minutely (trend_id, minute, mentions, evidence) values {rows} ' +
        'on conflict (trend_id, minute) do update set mentions = trend_minutely.mentions + excluded.mentions, ' +
        'evidence = trend_minutely.evidence + excluded.evidence',
      4,
    ),
    surfacesOf: list('select trend_id, surface, count from trend_surfaces where trend_id in ({rows})'),
    upsertSnapshots: rows(
      `insert into trend_metrics (${SNAPSHOT_COLUMNS.join(', ')}) values {rows} on conflict (trend_id, period) do update set ` +
        SNAPSHOT_COLUMNS.slice(2)
          .map((column) => `${column} = excluded.${column}`)
          .join(', '),
      SNAPSHOT_COLUMNS.length,
    ),
  };
}

export type SnapshotRow = TrendMetricsTable;

/** A snapshot's columns in the order of the upsert's parameters (the key first). */
const SNAPSHOT_COLUMNS = [
  'trend_id',
  'period',
  'volume',
  'previous_volume',
  'absolute_change',
  'growth',
  'average_velocity',
  'trend_stability',
  'overall_trend',
  'velocity_score',
  'velocity_1h',
  'lifecycle_stage',
  'velocity_window',
  'sentiment',
  'sentiment_category',
  'platforms',
  'meta_description',
  'computed_at',
] as const satisfies readonly (keyof SnapshotRow)[];

export type ListSort = 'volume' | 'velocity' | 'growth' | 'timestamp' | 'name';

export interface ListFilter {
  /** Category names to keep (a parent's filter lists its children too). */
  categories?: string[];
  /** Case-insensitive substring of the key or title. */
  search?: string;
  /** Normalised interest key: trends whose key contains it as whole words. */
  interestKey?: string;
  /** Normalised keywords: trends whose key contains any of them as whole words. */
  anyKeys?: string[];
  /** Sentiment categories to leave out. */
  excludeSentiments?: string[];
  /** Trends observed in at least `min` distinct hourly buckets between two epoch hours (inclusive). */
  activeHours?: { min: number; fromHour: number; toHour: number };
}

interface ListQuery extends ListFilter {
  period: string;
  sortBy: ListSort;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** The list filters as one condition on the trends table aliased `t`. */
// biome-ignore lint/suspicious/noExplicitAny: used by queries of different shapes that all join `trends as t`.
function trendFilter(filter: ListFilter): (eb: ExpressionBuilder<any, any>) => Expression<SqlBool> {
  return (eb) => {
    const parts: Expression<SqlBool>[] = [];
    if (filter.categories !== undefined) parts.push(eb('t.category', 'in', filter.categories));
    if (filter.search !== undefined) {
      const pattern = containsPattern(filter.search);
      // Keys are accent-folded: "Pokémon" finds the key `pokemon`.
      const keyPattern = containsPattern(foldLatinAccents(filter.search.toLowerCase()));
      parts.push(
        eb.or([
          sql<SqlBool>`t.key like ${keyPattern} escape '\\'`,
          sql<SqlBool>`lower(t.title) like ${pattern} escape '\\'`,
          // The folded phrases as written (a JSON list): "tsunami warning" finds the trend "tsunami".
          sql<SqlBool>`lower(t.aliases) like ${pattern} escape '\\'`,
        ]),
      );
    }
    if (filter.interestKey !== undefined) parts.push(eb.or(containsWords(filter.interestKey)));
    if (filter.anyKeys !== undefined) parts.push(eb.or(filter.anyKeys.flatMap(containsWords)));
    return eb.and(parts);
  };
}

// ---------------------------------------------------------------------------------------------------------
export class TrendsStore {
  private readonly write: ReturnType<typeof writeStatements>;

  constructor(
    private readonly db: DB,
    private readonly dialect: Dialect = 'sqlite',
    /** Reads that serve requests (lists, details, analytics): never queued behind ingestion's writes. */
    private readonly reader: DB = db,
  ) {
    this.write = writeStatements(dialect);
    this.reports = new TrendReportsStore(reader);
    this.aliases = new TrendAliasesStore(db);
    this.buckets = new TrendBucketsStore(db);
    this.dirty = new TrendDirtyStore(db, dialect);
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Ids, titles and types of the trends with the given keys. */
  async trendsByKey(
    keys: string[],
    trx: Executor = this.db,
  ): Promise<Map<string, { id: number; title: string; type: string }>> {
    const out = new Map<string, { id: number; title: string; type: string }>();
    const statement = this.write.trendsByKey;
    for (const part of statement.parts(keys)) {
      const { rows } = await trx.executeQuery<{ id: number; key: string; title: string; type: string }>(
        statement.query(part.length, part),
      );
      for (const row of rows) out.set(row.key, { id: row.id, title: row.title, type: row.type });
    }
    return out;
  }

  /** The stored mentions of the trends with the given keys (keys without a trend are absent). */
  async mentionsByKey(keys: string[], trx: Executor = this.db): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const statement = this.write.mentionsByKey;
    for (const part of statement.parts(keys)) {
      const { rows } = await trx.executeQuery<{ key: string; mentions: number }>(
        statement.query(part.length, part),
      );
      for (const row of rows) out.set(row.key, Number(row.mentions));
    }
    return out;
  }

  /**
   * Adds mentions to trends, creating those that are new (statements of power-of-two row counts): a new key gets
   * the given title, type and category; an existing one keeps them and gains the mentions and seen times.
   * Keys must be distinct. Returns key → id.
   */
  async upsertTrends(rows: TrendAddition[], trx: Executor = this.db): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const statement = this.write.upsertTrends;
    for (const part of statement.parts(rows)) {
      const parameters: unknown[] = [];
      for (const r of part) {
        parameters.push(r.key, r.title, r.type, r.category, r.first_seen_at, r.last_seen_at, r.mentions);
      }
      const { rows: returned } = await trx.executeQuery<{ id: number; key: string }>(
        statement.query(part.length, parameters),
      );
      for (const row of returned) out.set(row.key, row.id);
    }
    // Their snapshots are out of date now (in the same transaction as the counts).
    await this.dirty.mark([...out.values()], trx);
    return out;
  }

  /** Adds surface-form counts (one row per trend and form). */
  async addSurfaces(rows: SurfaceIncrement[], trx: Executor = this.db): Promise<void> {
    const statement = this.write.addSurfaces;
    for (const part of statement.parts(rows)) {
      const parameters: unknown[] = [];
      for (const r of part) parameters.push(r.trend_id, r.surface, r.count);
      await trx.executeQuery(statement.query(part.length, parameters));
    }
  }

  /** Surface-form counts of the given trends, grouped by trend. */
  async surfacesOf(trendIds: number[], trx: Executor = this.db): Promise<Map<number, Map<string, number>>> {
    const out = new Map<number, Map<string, number>>();
    const statement = this.write.surfacesOf;
    for (const part of statement.parts(trendIds)) {
      const { rows } = await trx.executeQuery<SurfaceIncrement>(statement.query(part.length, part));
      for (const row of rows) {
        let forms = out.get(row.trend_id);
        if (!forms) {
          forms = new Map();
          out.set(row.trend_id, forms);
        }
        forms.set(row.surface, Number(row.count));
      }
    }
    return out;
  }

  /** A new title, and the type that goes with it (extraction.ts `typeForTitle`). */
  async setTitle(id: number, title: string, type: string, trx: Executor = this.db): Promise<void> {
    await trx
      .updateTable('trends')
      .set({ title, type })
      .where('id', '=', id)
      .where('title', '!=', title)
      .execute();
  }

  /** Adds to hourly buckets (one row per trend, platform and hour). */
  async addHourly(rows: HourlyIncrement[], trx: Executor = this.db): Promise<void> {
    const statement = this.write.addHourly;
    for (const part of statement.parts(rows)) {
      const parameters: unknown[] = [];
      for (const r of part) {
        parameters.push(
          r.trend_id,
          r.platform,
          r.hour,
          r.mentions,
          r.sentiment_sum,
          r.positive,
          r.negative,
          r.evidence,
        );
      }
      await trx.executeQuery(statement.query(part.length, parameters));
    }
  }

  /** Adds to minute buckets (one row per trend and minute). */
  async addMinutely(rows: MinuteIncrement[], trx: Executor = this.db): Promise<void> {
    const statement = this.write.addMinutely;
    for (const part of statement.parts(rows)) {
      const parameters: unknown[] = [];
      for (const r of part) parameters.push(r.trend_id, r.minute, r.mentions, r.evidence);
      await trx.executeQuery(statement.query(part.length, parameters));
    }
  }

  async pruneMinutesBefore(minute: number): Promise<void> {
    await this.db.deleteFrom('trend_minutely').where('minute', '<', minute).execute();
  }

  /** How many trends are stored. */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('trends')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  findTrend(id: number) {
    return this.reader.selectFrom('trends').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The best trend for an interest key: the same key, else the busiest trend containing it as whole words. Takes
   * the caller's transaction (the crisis detector reads it while opening an event).
   */
  async trendForKey(
    key: string,
    executor: Executor = this.db,
  ): Promise<{ id: number; title: string } | null> {
    const exact = await executor
      .selectFrom('trends')
      .select(['id', 'title'])
      .where('key', '=', key)
      .executeTakeFirst();
    if (exact) return exact;
    const k = likeEscape(key);
    const row = await executor
      .selectFrom('trends')
      .select(['id', 'title'])
      .where((eb) =>
        eb.or([
          sql<SqlBool>`key like ${`${k} %`} escape '\\'`,
          sql<SqlBool>`key like ${`% ${k}`} escape '\\'`,
          sql<SqlBool>`key like ${`% ${k} %`} escape '\\'`,
        ]),
      )
      .orderBy('mentions', 'desc')
      .orderBy('id')
      .executeTakeFirst();
    return row ?? null;
  }

  /** A trend's most frequent surface forms, at most `limit`. */
  async topSurfaces(trendId: number, limit: number): Promise<string[]> {
    const rows = await this.reader
      .selectFrom('trend_surfaces')
      .select('surface')
      .where('trend_id', '=', trendId)
      .orderBy('count', 'desc')
      .orderBy('surface')
      .limit(limit)
      .execute();
    return rows.map((r) => r.surface);
  }

  /** Marks one trend's metric snapshots out of date so the next recompute pass refreshes them. */
  async markDirty(trendId: number): Promise<void> {
    await this.dirty.mark([trendId]);
  }

  /** A trend's stored lifecycle stage and sentiment category for a period (what an alert adds to its body). */
  snapshotLabels(trendId: number, period: string) {
    return this.reader
      .selectFrom('trend_metrics')
      .select(['lifecycle_stage', 'sentiment_category'])
      .where('trend_id', '=', trendId)
      .where('period', '=', period)
      .executeTakeFirst();
  }

  hourlyRows(trendId: number, fromHour: number, toHour: number) {
    return this.reader
      .selectFrom('trend_hourly')
      .select(['platform', 'hour', 'mentions', 'sentiment_sum', 'positive', 'negative', 'evidence'])
      .where('trend_id', '=', trendId)
      .where('hour', '>=', fromHour)
      .where('hour', '<=', toHour)
      .execute();
  }

  minuteRows(trendId: number, fromMinute: number, toMinute: number) {
    return this.reader
      .selectFrom('trend_minutely')
      .select(['minute', 'mentions'])
      .where('trend_id', '=', trendId)
      .where('minute', '>=', fromMinute)
      .where('minute', '<=', toMinute)
      .execute();
  }

  async countByCategory(): Promise<Map<string, number>> {
    const rows = await this.reader
      .selectFrom('trends')
      .select(['category', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('category')
      .execute();
    return new Map(rows.map((r) => [r.category, Number(r.n)]));
  }

  /** Hourly buckets of several trends (a request's or the engine's computation: the read connection). */
  hourlyRowsFor(trendIds: number[], fromHour: number, toHour: number) {
    return this.reader
      .selectFrom('trend_hourly')
      .select([
        'trend_id',
        'platform',
        'hour',
        'mentions',
        'sentiment_sum',
        'positive',
        'negative',
        'evidence',
      ])
      .where('trend_id', 'in', trendIds)
      .where('hour', '>=', fromHour)
      .where('hour', '<=', toHour)
      .execute();
  }

  /** Minute buckets of several trends, on the read connection. */
  minuteRowsFor(trendIds: number[], fromMinute: number, toMinute: number) {
    return this.reader
      .selectFrom('trend_minutely')
      .select(['trend_id', 'minute', 'mentions', 'evidence'])
      .where('trend_id', 'in', trendIds)
      .where('minute', '>=', fromMinute)
      .where('minute', '<=', toMinute)
      .execute();
  }

  trendsByIds(ids: number[], executor: Executor = this.db) {
    return executor.selectFrom('trends').selectAll().where('id', 'in', ids).execute();
  }

  /** `trendsByIds` for a request: on the read connection. */
  readTrendsByIds(ids: number[]) {
    return this.trendsByIds(ids, this.reader);
  }

  /** The current snapshots of the given trends, by trend and period (locked until commit on PostgreSQL). */
  async snapshots(
    trendIds: number[],
    trx: Executor = this.db,
  ): Promise<Map<number, Map<string, SnapshotRow>>> {
    const out = new Map<number, Map<string, SnapshotRow>>();
    for (const part of chunks(trendIds)) {
      const rows = await trx
        .selectFrom('trend_metrics')
        .selectAll()
        .where('trend_id', 'in', part)
        .$if(this.dialect === 'postgres', (qb) => qb.forUpdate())
        .execute();
      for (const row of rows) {
        const periods = out.get(row.trend_id) ?? new Map<string, SnapshotRow>();
        periods.set(row.period, row);
        out.set(row.trend_id, periods);
      }
    }
    return out;
  }

  async upsertSnapshots(rows: SnapshotRow[], trx: Executor = this.db): Promise<void> {
    const statement = this.write.upsertSnapshots;
    for (const part of statement.parts(rows)) {
      const parameters: unknown[] = [];
      for (const row of part) for (const column of SNAPSHOT_COLUMNS) parameters.push(row[column]);
      await trx.executeQuery(statement.query(part.length, parameters));
    }
  }

  private listBase(query: ListFilter & { period: string }) {
    const { excludeSentiments, activeHours } = query;
    return this.reader
      .selectFrom('trend_metrics as m')
      .innerJoin('trends as t', 't.id', 'm.trend_id')
      .where('m.period', '=', query.period)
      .where('m.volume', '>', 0)
      .where(trendFilter(query))
      .$if(excludeSentiments !== undefined, (qb) =>
        qb.where('m.sentiment_category', 'not in', excludeSentiments!),
      )
      .$if(activeHours !== undefined, (qb) =>
        qb.where(
          (eb) =>
            eb
              .selectFrom('trend_hourly as h')
              .select(sql<number>`count(distinct h.hour)`.as('n'))
              .whereRef('h.trend_id', '=', 't.id')
              .where('h.hour', '>=', activeHours!.fromHour)
              .where('h.hour', '<=', activeHours!.toHour)
              .where('h.mentions', '>', 0),
          '>=',
          activeHours!.min,
        ),
      );
  }

  /** One page of snapshots of a period, with the trends they belong to, and the total. */
  async listSnapshots(query: ListQuery) {
    const direction = query.order;
    // Phase 1 sorts narrow rows (ids); by volume or velocity the index order ends the scan after one page.
    let order = this.listBase(query).select('m.trend_id');
    switch (query.sortBy) {
      case 'volume':
        order = order.orderBy('m.volume', direction);
        break;
      case 'velocity':
        order = order.orderBy('m.velocity_score', direction).orderBy('m.velocity_1h', direction);
        break;
      case 'growth':
        // Null growth (nothing in the previous period) sorts last either way.
        order = order
          .orderBy(sql`case when m.growth is null then 1 else 0 end`)
          .orderBy('m.growth', direction);
        break;
      case 'timestamp':
        order = order.orderBy('t.last_seen_at', direction);
        break;
      case 'name':
        order = order.orderBy(sql`lower(t.title)`, direction);
        break;
    }
    const filtered =
      query.categories !== undefined ||
      query.search !== undefined ||
      query.interestKey !== undefined ||
      query.anyKeys !== undefined ||
      query.excludeSentiments !== undefined ||
      query.activeHours !== undefined;
    const [page, count] = await Promise.all([
      order.orderBy('m.trend_id', direction).limit(query.limit).offset(query.offset).execute(),
      filtered
        ? this.listBase(query)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        : this.reader
            .selectFrom('trend_metrics')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('period', '=', query.period)
            .where('volume', '>', 0)
            .executeTakeFirstOrThrow(),
    ]);
    const ids = page.map((r) => r.trend_id);
    if (ids.length === 0) return { rows: [], total: Number(count.n) };
    // Phase 2 reads the page's full rows.
    const rows = await this.reader
      .selectFrom('trend_metrics as m')
      .innerJoin('trends as t', 't.id', 'm.trend_id')
      .selectAll('m')
      .select(['t.title', 't.type', 't.category', 't.last_seen_at', 't.aliases'])
      .where('m.period', '=', query.period)
      .where('m.trend_id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((r) => [r.trend_id, r]));
    return { rows: ids.flatMap((id) => byId.get(id) ?? []), total: Number(count.n) };
  }

  /**
   * Trends with mentions between two hours (inclusive), with their volume there and in the equal span
   * before, filtered like a list.
   */
  async volumesBetween(filter: ListFilter, fromHour: number, toHour: number) {
    const span = toHour - fromHour + 1;
    // Sentiment is not a bucket column the range could filter on: the caller filters computed views.
    const minHours = filter.activeHours?.min;
    const rows = await this.reader
      .selectFrom('trend_hourly as h')
      .innerJoin('trends as t', 't.id', 'h.trend_id')
      .select([
        'h.trend_id',
        sql<number>`sum(case when h.hour >= ${fromHour} then h.mentions else 0 end)`.as('volume'),
        sql<number>`sum(case when h.hour < ${fromHour} then h.mentions else 0 end)`.as('previous_volume'),
      ])
      .where('h.hour', '>=', fromHour - span)
      .where('h.hour', '<=', toHour)
      .where(trendFilter(filter))
      .groupBy('h.trend_id')
      .$if(minHours !== undefined, (qb) =>
        qb.having(
          sql<number>`count(distinct case when h.hour >= ${fromHour} and h.mentions > 0 then h.hour end)`,
          '>=',
          minHours!,
        ),
      )
      .execute();
    return rows
      .map((r) => ({
        trend_id: r.trend_id,
        volume: Number(r.volume),
        previous_volume: Number(r.previous_volume),
      }))
      .filter((r) => r.volume > 0);
  }

  /** Trends whose key starts with `prefix`, largest 24-hour volume first. */
  autocomplete(prefix: string, limit: number) {
    const pattern = `${likeEscape(prefix)}%`;
    return (
      this.reader
        .selectFrom('trends as t')
        .leftJoin('trend_metrics as m', (join) =>
          join.onRef('m.trend_id', '=', 't.id').on('m.period', '=', '24h'),
        )
        .select(['t.id', 't.key', 't.title', 't.category', 't.mentions', 'm.volume'])
        .$if(this.dialect === 'postgres', (qb) => qb.where(sql<boolean>`t.key like ${pattern} escape '\\'`))
        // SQLite uses the key's unique index for a range, not for LIKE (which is case-insensitive there).
        .$if(this.dialect === 'sqlite', (qb) =>
          qb.where('t.key', '>=', prefix).where('t.key', '<', `${prefix}\u{10ffff}`),
        )
        .orderBy(sql`coalesce(m.volume, 0)`, 'desc')
        .orderBy('t.mentions', 'desc')
        .orderBy('t.id')
        .limit(limit)
        .execute()
    );
  }

  /** Reads for custom reports (stores/reports.ts), on the reader connection. */
  readonly reports: TrendReportsStore;
  readonly aliases: TrendAliasesStore;
  /** Hourly buckets' roll-up and retention (stores/buckets.ts). */
  readonly buckets: TrendBucketsStore;
  /** Which trends' snapshots are out of date (stores/dirty.ts). */
  readonly dirty: TrendDirtyStore;
}
