import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

export function trends(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('trends')
        .$call((t) => withId(t, dialect))
        .addColumn('key', 'varchar(200)', (c) => c.notNull().unique())
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('category', 'varchar(120)', (c) => c.notNull())
        .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('mentions', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('trends_last_seen_idx').on('trends').column('last_seen_at').execute();

      await db.schema
        .createTable('trend_surfaces')
        .addColumn('trend_id', 'bigint', (c) => c.notNull().references('trends.id').onDelete('cascade'))
        .addColumn('surface', 'varchar(200)', (c) => c.notNull())
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('trend_surfaces_pk', ['trend_id', 'surface'])
        .execute();

      // Hour and minute are epoch hours / minutes (ms / 3,600,000 and / 60,000, floored).
      await db.schema
        .createTable('trend_hourly')
        .addColumn('trend_id', 'bigint', (c) => c.notNull().references('trends.id').onDelete('cascade'))
        .addColumn('platform', 'varchar(32)', (c) => c.notNull())
        .addColumn('hour', 'bigint', (c) => c.notNull())
        .addColumn('mentions', 'bigint', (c) => c.notNull())
        .addColumn('sentiment_sum', 'double precision', (c) => c.notNull())
        .addColumn('positive', 'bigint', (c) => c.notNull())
        .addColumn('negative', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('trend_hourly_pk', ['trend_id', 'platform', 'hour'])
        .execute();
      await db.schema
        .createIndex('trend_hourly_hour_idx')
        .on('trend_hourly')
        .columns(['hour', 'trend_id'])
        .execute();

      await db.schema
        .createTable('trend_minutely')
        .addColumn('trend_id', 'bigint', (c) => c.notNull().references('trends.id').onDelete('cascade'))
        .addColumn('minute', 'bigint', (c) => c.notNull())
        .addColumn('mentions', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('trend_minutely_pk', ['trend_id', 'minute'])
        .execute();
      await db.schema
        .createIndex('trend_minutely_minute_idx')
        .on('trend_minutely')
        .column('minute')
        .execute();
    },
  };
}
