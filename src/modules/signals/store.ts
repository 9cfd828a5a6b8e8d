// SQL for stored signals.

import { CompiledQuery, type Insertable, type Transaction } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import { insertLockKey } from '../../platform/db/insert-locks.ts';
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
  'processed_at',
] as const satisfies readonly (keyof NewSignal)[];
/**
 * Rows per insert statement at most: 14 parameters each stays far under SQLite's bound-parameter limit
 * (32,766). Statements take power-of-two row counts up to it, so SQLite prepares a few texts once rather than
 * one per batch size (a prepared multi-row insert holds memory for as long as the statement cache keeps it).
 */
const ROWS_PER_STATEMENT = 1_024;

export class SignalsStore {
  /** `?` (SQLite) or `$n` (PostgreSQL): how this database numbers parameters, read from Kysely's compiler. */
  private readonly numbered: boolean;
  /** Insert texts by row count (powers of two; SQLite prepares each text once). */
  private readonly insertTexts = new Map<number, string>();

  constructor(private readonly db: DB) {
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
   * Inserts what is new; returns how many rows were new (the rest were already stored). A raw multi-row
   * statement: on the ingest path Kysely's builder cost more than SQLite's own work for these rows.
   */
  async insertNew(rows: NewSignal[], executor: Executor = this.db): Promise<number> {
    let inserted = 0;
    for (const part of powerOfTwoParts(rows, ROWS_PER_STATEMENT)) {
      const parameters: unknown[] = [];
      for (const row of part) for (const column of INSERT_COLUMNS) parameters.push(row[column] ?? null);
      const result = await executor.executeQuery(CompiledQuery.raw(this.insertText(part.length), parameters));
      inserted += Number(result.numAffectedRows ?? 0);
    }
    return inserted;
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
        'on conflict (source, external_id) do nothing';
      this.insertTexts.set(rows, text);
    }
    return text;
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
   * Signals not yet turned into trend buckets; with `atMost`, counting stops there (an index range of at most
   * that many entries, however large the backlog).
   */
  async countPending(atMost?: number): Promise<number> {
    let pending = this.db.selectFrom('signals').select('id').where('processed_at', 'is', null);
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
      .where('processed_at', 'is not', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
