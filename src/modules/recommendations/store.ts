// All SQL of the recommendations module. Methods that may run inside a transaction take the executor last.
import { type Insertable, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import { containsPattern, likeEscape } from '../../platform/db/like.ts';
import type { RecommendationsTable } from './tables.ts';

export type RecommendationRow = Selectable<RecommendationsTable>;

interface ListFilter {
  userId: number;
  type?: string;
  priority?: string;
  status?: string;
  /** Substring of source_trend_name (case-insensitive). */
  search?: string;
  /** Normalised interest keys: rows whose source_words hold one of them as whole words. */
  interestKeys?: string[];
  sort: 'priority' | 'newest';
  limit: number;
  offset: number;
}

export class RecommendationsStore {
  constructor(private readonly db: DB) {}

  transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  /** What a regeneration compares drafts with: every row of the user, without the heavy columns. */
  heads(userId: number, executor: Executor = this.db) {
    return executor
      .selectFrom('recommendations')
      .select([
        'id',
        'source_key',
        'type',
        'fingerprint',
        'status',
        'trigger_level',
        'acted_level',
        'lapsed_at',
      ])
      .where('user_id', '=', userId)
      .execute();
  }

  /** Inserts unless the (user, source, type) row exists already (a concurrent regeneration made it). */
  async insert(row: Insertable<RecommendationsTable>, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('recommendations')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'source_key', 'type']).doNothing())
      .execute();
  }

  async update(
    userId: number,
    id: number,
    patch: Updateable<RecommendationsTable>,
    executor: Executor = this.db,
  ): Promise<void> {
    await executor
      .updateTable('recommendations')
      .set(patch)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .execute();
  }

  async markLapsed(userId: number, ids: number[], now: number, executor: Executor = this.db): Promise<void> {
    if (ids.length === 0) return;
    await executor
      .updateTable('recommendations')
      .set({ lapsed_at: now, updated_at: now })
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .execute();
  }

  /** Forgets the user's recommendations whose trigger lapsed before `before`. */
  async deleteLapsedBefore(userId: number, before: number, executor: Executor = this.db): Promise<void> {
    await executor
      .deleteFrom('recommendations')
      .where('user_id', '=', userId)
      .where('lapsed_at', '<', before)
      .execute();
  }

  find(userId: number, id: number, executor: Executor = this.db): Promise<RecommendationRow | undefined> {
    return executor
      .selectFrom('recommendations')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async list(f: ListFilter): Promise<{ rows: RecommendationRow[]; total: number }> {
    let q = this.db.selectFrom('recommendations').where('user_id', '=', f.userId);
    if (f.type !== undefined) q = q.where('type', '=', f.type);
    if (f.priority !== undefined) q = q.where('priority', '=', f.priority);
    if (f.status !== undefined) q = q.where('status', '=', f.status);
    if (f.search !== undefined) {
      q = q.where(sql<boolean>`lower(source_trend_name) like ${containsPattern(f.search)} escape '\\'`);
    }
    if (f.interestKeys !== undefined) {
      const keys = f.interestKeys;
      q = q.where((eb) =>
        eb.or(
          keys.map((key) => eb('source_words', 'like', sql<string>`${`% ${likeEscape(key)} %`} escape '\\'`)),
        ),
      );
    }
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    let page = q.selectAll();
    if (f.sort === 'priority') page = page.orderBy('priority_rank', 'desc');
    const rows = await page
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .execute();
    return { rows, total: Number(total?.n ?? 0) };
  }
}
