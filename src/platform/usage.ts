// Counted requests per user and UTC day, and keys' last use: buffered in memory, flushed every few seconds
// and on shutdown. The live daily figure is the quota counter in RateLimits; this keeps the durable copy.
import { sql } from 'kysely';
import type { PlatformDb } from './db/index.ts';

/** Where keys' last use is stored: the accounts module's `api_keys` (the composition root gives its store). */
interface KeyUses {
  /** Key id → when it was last used; a later use already stored is kept. */
  markKeysUsed(used: ReadonlyMap<number, number>): Promise<void>;
}

export class UsageCounter {
  private pending = new Map<string, number>();
  private lastUsed = new Map<number, number>();
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly db: PlatformDb,
    private readonly keys: KeyUses,
  ) {}

  record(userId: number, date: string): void {
    const key = `${userId}|${date}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  /** Takes back a count `record` made for a request that was then refused by a limit. */
  unrecord(userId: number, date: string): void {
    const key = `${userId}|${date}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) - 1);
  }

  touchKey(keyId: number, now: number): void {
    this.lastUsed.set(keyId, now);
  }

  /** What the database holds for the day plus what this process has not flushed yet. */
  async storedCount(userId: number, date: string): Promise<number> {
    const row = await this.db
      .selectFrom('usage_daily')
      .select('request_count')
      .where('user_id', '=', userId)
      .where('date', '=', date)
      .executeTakeFirst();
    return (row?.request_count ?? 0) + (this.pending.get(`${userId}|${date}`) ?? 0);
  }

  /** Stored per-day counts since `fromDate` (inclusive), with unflushed counts added. */
  async dailyCounts(userId: number, fromDate: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('usage_daily')
      .select(['date', 'request_count'])
      .where('user_id', '=', userId)
      .where('date', '>=', fromDate)
      .execute();
    const out = new Map(rows.map((r) => [r.date, r.request_count]));
    for (const [key, count] of this.pending) {
      const [uid, date] = key.split('|');
      if (Number(uid) === userId && date! >= fromDate) out.set(date!, (out.get(date!) ?? 0) + count);
    }
    return out;
  }

  flush(): Promise<void> {
    if (!this.flushing) {
      this.flushing = this.doFlush().finally(() => {
        this.flushing = null;
      });
    }
    return this.flushing;
  }

  private async doFlush(): Promise<void> {
    const counts = this.pending;
    const used = this.lastUsed;
    this.pending = new Map();
    this.lastUsed = new Map();
    try {
      if (counts.size > 0) {
        const rows = [...counts].map(([key, request_count]) => {
          const [user_id, date] = key.split('|');
          return { user_id: Number(user_id), date: date!, request_count };
        });
        for (let i = 0; i < rows.length; i += 200) {
          await this.db
            .insertInto('usage_daily')
            .values(rows.slice(i, i + 200))
            .onConflict((oc) =>
              oc.columns(['user_id', 'date']).doUpdateSet({
                request_count: sql`usage_daily.request_count + excluded.request_count`,
              }),
            )
            .execute();
        }
      }
      if (used.size > 0) await this.keys.markKeysUsed(used);
    } catch (error) {
      // Put the counts back so the next flush retries them; nothing is lost while the process lives.
      for (const [key, count] of counts) this.pending.set(key, (this.pending.get(key) ?? 0) + count);
      for (const [id, at] of used) if (!this.lastUsed.has(id)) this.lastUsed.set(id, at);
      throw error;
    }
  }
}
