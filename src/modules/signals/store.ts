// SQL for stored signals: ingestion, and what the trend processor and the crisis detector read of them (they
// reach this store through ports the composition root fills).

import { CompiledQuery, type Insertable, sql, type Transaction } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import { insertLockKey } from '../../platform/db/insert-locks.ts';
import { containsPattern } from '../../platform/db/like.ts';
import { powerOfTwoParts } from '../../platform/db/rows.ts';
import type { SignalsTable } from './tables.ts';

export type NewSignal = Insertable<SignalsTable>;

// The columns an ingested row fills, in the order of the insert's parameters.
const INSERT_COLUMNS = [
  'source',
  'external_id',
  'text',
  'title',
  'url',
  'author',
  'lang',
  'location',
  'category_hint',
  'keywords',
  'engagement',
  'observed_at',
  'received_at',
] as const satisfies readonly (keyof NewSignal)[];
/**
 * Rows per insert statement at most: 13 parameters each stays far under SQLite's bound-parameter limit
 * (32,766). Statements take power-of-two row counts up to it, so SQLite prepares a few texts once rather than
 * one per batch size (a prepared multi-row insert holds memory for as long as the statement cache keeps it).
 */
const ROWS_PER_STATEMENT = 1_024;
/** Ids per claim or queue statement at most. */
const IDS_PER_CLAIM = 1_024;
/** How long a reader of settled ids waits for signal inserts under way before it gives up (null) this time. */
const SETTLE_LOCK_TIMEOUT = '2s';

export class SignalsStore {
  /** `?` (SQLite) or `$n` (PostgreSQL): how this database numbers parameters, read from Kysely's compiler. */
  private readonly numbered: boolean;
  /** Insert texts by row count (powers of two; SQLite prepares each text once). */
  private readonly insertTexts = new Map<number, string>();
  /** Claim and queue texts by id count (powers of two, as the inserts). */
  private readonly claimTexts = new Map<number, string>();
  private readonly queueTexts = new Map<number, string>();

  constructor(
    private readonly db: DB,
    /** The trend processor's reads of pending signals: never queued behind ingestion's writes (SQLite). */
    private readonly reader: DB = db,
  ) {
    this.numbered = db.selectFrom('signals').select('id').where('id', '=', 0).compile().sql.includes('$1');
  }

  /**
   * A transaction to insert signals in. On PostgreSQL it first takes the signal-inserts lock shared until it ends
   * (platform/db/insert-locks.ts), so that a reader taking it exclusive knows no insert is under way.
   */
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (this.numbered) {
        await trx.executeQuery(
          CompiledQuery.raw(`select pg_advisory_xact_lock_shared(${insertLockKey('signals')})`),
        );
      }
      return work(trx);
    });
  }

  /**
   * Inserts what is new and queues it for the trend processor (`signal_queue`, in the same transaction when
   * the caller gives one); returns how many rows were new (the rest were already stored). Raw multi-row
   * statements: on the ingest path Kysely's builder cost more than SQLite's own work for these rows.
   */
  async insertNew(rows: NewSignal[], executor: Executor = this.db): Promise<number> {
    let inserted = 0;
    for (const part of powerOfTwoParts(rows, ROWS_PER_STATEMENT)) {
      const parameters: unknown[] = [];
      for (const row of part) for (const column of INSERT_COLUMNS) parameters.push(row[column] ?? null);
      const { rows: added } = await executor.executeQuery<{ id: number }>(
        CompiledQuery.raw(this.insertText(part.length), parameters),
      );
      const ids = added.map((row) => row.id);
      for (const queued of powerOfTwoParts(ids, IDS_PER_CLAIM)) {
        await executor.executeQuery(CompiledQuery.raw(this.queueText(queued.length), queued));
      }
      inserted += ids.length;
    }
    return inserted;
  }

  private queueText(ids: number): string {
    let text = this.queueTexts.get(ids);
    if (text === undefined) {
      const tuples: string[] = [];
      for (let i = 0; i < ids; i++) tuples.push(this.numbered ? `($${i + 1})` : '(?)');
      text = `insert into signal_queue (id) values ${tuples.join(', ')}`;
      this.queueTexts.set(ids, text);
    }
    return text;
  }

  private insertText(rows: number): string {
    let text = this.insertTexts.get(rows);
    if (text === undefined) {
      const tuples: string[] = [];
      for (let r = 0, n = 0; r < rows; r++) {
        const marks = INSERT_COLUMNS.map(() => (this.numbered ? `$${++n}` : '?'));
        tuples.push(`(${marks.join(', ')})`);
      }
      text =
        `insert into signals (${INSERT_COLUMNS.join(', ')}) values ${tuples.join(', ')} ` +
        'on conflict (source, external_id) do nothing returning id';
      this.insertTexts.set(rows, text);
    }
    return text;
  }

  /**
   * Up to `limit` signals not yet processed after id `afterId`, in id order. Read on the reader connection: on
   * SQLite the writer is held by the trend batch being committed, and the next batch is read and analysed
   * meanwhile (rows after `afterId`, so none of the batch being written).
   */
  /** Rows of the trend processor's SignalQueue port (trends/processor.ts declares the shape it reads). */
  unprocessed(limit: number, afterId = 0) {
    return this.reader
      .selectFrom('signal_queue as q')
      .innerJoin('signals as s', 's.id', 'q.id')
      .select([
        's.id',
        's.source',
        's.text',
        's.title',
        's.keywords',
        's.lang',
        's.category_hint',
        's.author',
        's.observed_at',
      ])
      .where('q.id', '>', afterId)
      .orderBy('q.id')
      .limit(limit)
      .execute();
  }

  /**
   * Takes signals off the queue unless another process already did; returns the ids this call claimed. Runs in
   * the caller's transaction (the trend processor's batch, whose counts commit with the claim). On PostgreSQL a
   * concurrent claimer waits for the row locks and then finds them gone. A raw statement, as the inserts.
   */
  async claimProcessed(ids: number[], trx: Executor): Promise<Set<number>> {
    const claimed = new Set<number>();
    for (const part of powerOfTwoParts(ids, IDS_PER_CLAIM)) {
      const { rows } = await trx.executeQuery<{ id: number }>(
        CompiledQuery.raw(this.claimText(part.length), part),
      );
      for (const row of rows) claimed.add(row.id);
    }
    return claimed;
  }

  private claimText(ids: number): string {
    let text = this.claimTexts.get(ids);
    if (text === undefined) {
      const marks: string[] = [];
      for (let i = 0; i < ids; i++) marks.push(this.numbered ? `$${i + 1}` : '?');
      text = `delete from signal_queue where id in (${marks.join(', ')}) returning id`;
      this.claimTexts.set(ids, text);
    }
    return text;
  }

  /** The highest signal id stored (0 when none). */
  async maxId(executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('signals')
      .select((eb) => eb.fn.max('id').as('m'))
      .executeTakeFirst();
    return row?.m === null || row?.m === undefined ? 0 : Number(row.m);
  }

  /**
   * The highest signal id with no insert of a lower one still under way, or null when that cannot be known now.
   * SQLite hands ids out in commit order (one writer). PostgreSQL hands them out at insert, so a lower id can
   * commit after a higher one: there the id is read holding the signal-inserts lock exclusive, which waits for
   * the inserts under way to commit (at most SETTLE_LOCK_TIMEOUT; null then) and holds new ones back for that
   * one read.
   */
  async settledMaxId(): Promise<number | null> {
    if (!this.numbered) return this.maxId();
    try {
      return await this.db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = ${sql.lit(SETTLE_LOCK_TIMEOUT)}`.execute(trx);
        await sql`select pg_advisory_xact_lock(${sql.raw(insertLockKey('signals'))})`.execute(trx);
        return this.maxId(trx);
      });
    } catch (error) {
      // lock_not_available: an insert transaction held its lock that long.
      if ((error as { code?: string }).code === '55P03') return null;
      throw error;
    }
  }

  /** Signals after id `id` up to id `through`, in id order, at most `limit` (crisis/surges.ts's SurgeSources port). */
  between(id: number, through: number, limit: number) {
    return this.db
      .selectFrom('signals')
      .select(['id', 'source', 'external_id', 'text', 'title', 'url', 'author', 'engagement', 'observed_at'])
      .where('id', '>', id)
      .where('id', '<=', through)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * The newest signals observed in [since, until] that carry a URL, newest first, leaving out `exceptSources`
   * (walks the observed_at index backwards, so it stops after `limit` matches).
   */
  recentWithUrl(query: { since: number; until: number; exceptSources: string[]; limit: number }) {
    return this.db
      .selectFrom('signals')
      .select(['id', 'source', 'title', 'text', 'url', 'observed_at'])
      .where('observed_at', '>=', query.since)
      .where('observed_at', '<=', query.until)
      .where('url', 'is not', null)
      .$if(query.exceptSources.length > 0, (qb) => qb.where('source', 'not in', query.exceptSources))
      .orderBy('observed_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .execute();
  }

  /**
   * Signals observed since `since` whose text, title or keywords contain one of `needles` (lower-case), newest
   * first (the insights analysis samples a trend's signals with it).
   */
  async containing(needles: string[], since: number, limit: number) {
    if (needles.length === 0) return [];
    return this.db
      .selectFrom('signals')
      .select(['text', 'title', 'source', 'observed_at', 'url', 'location', 'lang', 'keywords'])
      .where('observed_at', '>=', since)
      .where((eb) =>
        eb.or(
          needles.flatMap((needle) => {
            const p = containsPattern(needle);
            return [
              eb(sql`lower(text)`, 'like', sql`${p} escape '\\'`),
              eb(sql`lower(coalesce(title, ''))`, 'like', sql`${p} escape '\\'`),
              eb(sql`lower(coalesce(keywords, ''))`, 'like', sql`${p} escape '\\'`),
            ];
          }),
        ),
      )
      .orderBy('observed_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Signals not yet turned into trend buckets; with `atMost`, counting stops there (an index range of at most
   * that many entries, however large the backlog).
   */
  async countPending(atMost?: number): Promise<number> {
    let pending = this.db.selectFrom('signal_queue').select('id');
    if (atMost !== undefined) pending = pending.limit(atMost);
    const row = await this.db
      .selectFrom(pending.as('pending'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Retention: deletes signals observed before `before` (ms) that were already turned into buckets. */
  async pruneProcessedBefore(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('signals')
      .where('observed_at', '<', before)
      .where((eb) =>
        eb.not(
          eb.exists(eb.selectFrom('signal_queue as q').select('q.id').whereRef('q.id', '=', 'signals.id')),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
