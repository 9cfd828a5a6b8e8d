// SQL for the hourly buckets' retention: old hours rolled up into days, and buckets past retention deleted.
import { sql } from 'kysely';
import type { DB } from '../../../database.ts';

// A literal, not a parameter: SQLite may bind a JS number as a real, and hour / 24.0 is no day.
const DAY = sql.lit(24);

export class TrendBucketsStore {
  constructor(private readonly db: DB) {}

  /**
   * Rolls the hourly buckets of hours in [fromHour, beforeHour) up into one bucket per trend, platform and UTC
   * day, stored at the day's first hour (sums of every count), in one transaction; returns how many hourly rows
   * it folded away. Day-start rows are left as they are (they may already be a rolled-up day), so running it
   * again over the same hours changes nothing.
   */
  async rollUpDays(fromHour: number, beforeHour: number): Promise<number> {
    if (beforeHour <= fromHour) return 0;
    return this.db.transaction().execute(async (trx) => {
      const inRange = sql`hour >= ${fromHour} and hour < ${beforeHour} and hour % ${DAY} <> 0`;
      await sql`
        insert into trend_hourly (trend_id, platform, hour, mentions, sentiment_sum, positive, negative, evidence)
        select trend_id, platform, (hour / ${DAY}) * ${DAY}, sum(mentions), sum(sentiment_sum),
          sum(positive), sum(negative), sum(evidence)
        from trend_hourly where ${inRange}
        group by trend_id, platform, hour / ${DAY}
        on conflict (trend_id, platform, hour) do update set
          mentions = trend_hourly.mentions + excluded.mentions,
          sentiment_sum = trend_hourly.sentiment_sum + excluded.sentiment_sum,
          positive = trend_hourly.positive + excluded.positive,
          negative = trend_hourly.negative + excluded.negative,
          evidence = trend_hourly.evidence + excluded.evidence`.execute(trx);
      const deleted = await sql`delete from trend_hourly where ${inRange}`.execute(trx);
      return Number(deleted.numAffectedRows ?? 0);
    });
  }

  async pruneBefore(hour: number): Promise<void> {
    await this.db.deleteFrom('trend_hourly').where('hour', '<', hour).execute();
  }
}
