// All SQL of the insights module: stored insights and tasks (the trends and signals an analysis reads are their
// modules', asked through their services).

import { type Selectable, sql, type Transaction } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import type { Dialect } from '../../platform/db/index.ts';
import { containsPattern, likeEscape } from '../../platform/db/like.ts';
import type { AiInsightsTable, InsightTasksTable } from './tables.ts';

export type TaskRow = Selectable<InsightTasksTable>;
export type InsightRow = Selectable<AiInsightsTable>;

export interface SearchFilter {
  q?: string;
  key_theme?: string;
  audience_keyword?: string;
  sentiment_category?: string;
  topic_category?: string;
  trend_name?: string;
  limit: number;
  offset: number;
}

export class InsightsStore {
  constructor(
    private readonly db: DB,
    private readonly dialect: Dialect,
  ) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Serialises one user's charge-and-enqueue on PostgreSQL (SQLite transactions are serial anyway): a lock for
   * the transaction on (insight_tasks, user), this module's own, so no other module's row is locked.
   */
  async lockUser(userId: number, trx: Transaction<Database>): Promise<void> {
    if (this.dialect === 'postgres') {
      await sql`select pg_advisory_xact_lock('insight_tasks'::regclass::oid::int, ${userId}::int)`.execute(
        trx,
      );
    }
  }

  async chargedSince(userId: number, since: number, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('insight_tasks')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('charged', '=', 1)
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  pendingTask(userId: number, trendId: number, kind: string, executor: Executor = this.db) {
    return executor
      .selectFrom('insight_tasks')
      .selectAll()
      .where('user_id', '=', userId)
      .where('trend_id', '=', trendId)
      .where('kind', '=', kind)
      .where('status', 'in', ['queued', 'running'])
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  async insertTask(row: TaskRow, executor: Executor = this.db): Promise<void> {
    await executor.insertInto('insight_tasks').values(row).execute();
  }

  getTask(id: string) {
    return this.db.selectFrom('insight_tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async updateTask(id: string, patch: Partial<TaskRow>, executor: Executor = this.db): Promise<void> {
    await executor.updateTable('insight_tasks').set(patch).where('id', '=', id).execute();
  }

  /** Stores an insight as the user's latest for its trend; returns its id. */
  async insertInsight(
    row: Omit<InsightRow, 'id' | 'is_latest'>,
    trx?: Transaction<Database>,
  ): Promise<number> {
    // Demoting the previous latest and inserting the new one go together.
    if (!trx) return this.transaction((t) => this.insertInsight(row, t));
    await trx
      .updateTable('ai_insights')
      .set({ is_latest: 0 })
      .where('user_id', '=', row.user_id)
      .where('trend_id', '=', row.trend_id)
      .where('is_latest', '=', 1)
      .execute();
    const inserted = await trx
      .insertInto('ai_insights')
      .values({ ...row, is_latest: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  latestInsight(userId: number, trendId: number) {
    return this.db
      .selectFrom('ai_insights')
      .selectAll()
      .where('user_id', '=', userId)
      .where('trend_id', '=', trendId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The user's latest insight per trend matching every given filter, newest first. */
  async search(userId: number, f: SearchFilter): Promise<{ rows: InsightRow[]; total: number }> {
    let q = this.db.selectFrom('ai_insights').where('user_id', '=', userId).where('is_latest', '=', 1);
    const like = (column: string, text: string) =>
      sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`;
    if (f.q) {
      const text = f.q;
      q = q.where((eb) =>
        eb.or([like('trend_name', text), like('themes_text', text), like('audience_text', text)]),
      );
    }
    if (f.key_theme) q = q.where(like('themes_text', f.key_theme));
    if (f.audience_keyword) q = q.where(like('audience_text', f.audience_keyword));
    if (f.trend_name) q = q.where(like('trend_name', f.trend_name));
    if (f.sentiment_category) q = q.where('sentiment_category', '=', f.sentiment_category);
    if (f.topic_category) {
      const name = f.topic_category.toLowerCase();
      const prefix = `${likeEscape(name)}/%`;
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(topic_category)`, '=', name),
          eb(sql`lower(topic_category)`, 'like', sql`${prefix} escape '\\'`),
        ]),
      );
    }
    const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll()
      .orderBy('generated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .execute();
    return { rows, total: Number(total?.n ?? 0) };
  }
}
