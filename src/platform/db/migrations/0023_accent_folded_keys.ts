import { type Kysely, sql } from 'kysely';
import type { Dialect } from './helpers.ts';

// Trend keys drop the accents of Latin letters from now on ("Pokémon" and "pokemon" are one trend, keys.ts).
// Keys stored before are folded the same way: a trend whose folded key is free is renamed; one whose folded key
// is taken is merged into that trend (its surface forms, hourly and minute buckets added, its insights, insight
// tasks, ads previews, crisis events and recommendations moved, its counts added, then it is removed; the merged
// trend's metrics are recomputed). Interests and crisis mentions keyed by a folded-away key move to the folded
// key; a duplicate that folding creates (the same user following both spellings, the same post counted under
// both) is dropped, as it says nothing the kept one does not. Runs once, under the migration lock.

/** Combining accents on Latin letters, as NFD spells them (the rule of keys.ts `foldLatinAccents`). */
const LATIN_ACCENTED = /([a-z])[\u0300-\u036f]+/g;

function fold(key: string): string {
  return key.normalize('NFD').replace(LATIN_ACCENTED, '$1').normalize('NFC');
}

// Migrations see every table untyped.
// biome-ignore lint/suspicious/noExplicitAny: a migration's database has no generated types.
type Db = Kysely<any>;

interface TrendRow {
  id: number;
  key: string;
  mentions: number;
  first_seen_at: number;
  last_seen_at: number;
}

export function accentFoldedKeys(dialect: Dialect) {
  /** Keys with a character outside printable ASCII (the only ones folding can change). */
  const nonAscii = (column: string) =>
    dialect === 'postgres'
      ? sql<boolean>`${sql.ref(column)} ~ '[^ -~]'`
      : sql<boolean>`${sql.ref(column)} glob '*[^ -~]*'`;

  return {
    async up(database: Kysely<unknown>): Promise<void> {
      const db = database as Db;
      const trends: TrendRow[] = await db
        .selectFrom('trends')
        .select(['id', 'key', 'mentions', 'first_seen_at', 'last_seen_at'])
        .where(nonAscii('key'))
        .orderBy('id')
        .execute();
      for (const trend of trends) {
        const key = fold(trend.key);
        if (key === trend.key) continue;
        const target: TrendRow | undefined = await db
          .selectFrom('trends')
          .select(['id', 'key', 'mentions', 'first_seen_at', 'last_seen_at'])
          .where('key', '=', key)
          .executeTakeFirst();
        if (target) await mergeTrend(db, trend, target);
        else await db.updateTable('trends').set({ key }).where('id', '=', trend.id).execute();
      }

      const interests: { id: number; user_id: number; key: string }[] = await db
        .selectFrom('topic_interests')
        .select(['id', 'user_id', 'key'])
        .where(nonAscii('key'))
        .orderBy('id')
        .execute();
      for (const interest of interests) {
        const key = fold(interest.key);
        if (key === interest.key) continue;
        const taken = await db
          .selectFrom('topic_interests')
          .select('id')
          .where('user_id', '=', interest.user_id)
          .where('key', '=', key)
          .executeTakeFirst();
        if (taken) await db.deleteFrom('topic_interests').where('id', '=', interest.id).execute();
        else await db.updateTable('topic_interests').set({ key }).where('id', '=', interest.id).execute();
      }

      const watched: { key: string }[] = await db
        .selectFrom('crisis_mentions')
        .select('key')
        .distinct()
        .where(nonAscii('key'))
        .execute();
      for (const { key: from } of watched) {
        const key = fold(from);
        if (key === from) continue;
        // A post already counted under the folded key keeps that copy.
        await db
          .updateTable('crisis_mentions')
          .set({ key })
          .where('key', '=', from)
          .where(
            sql<boolean>`signal_id not in (select kept.signal_id from crisis_mentions kept where kept.key = ${key})`,
          )
          .execute();
        await db.deleteFrom('crisis_mentions').where('key', '=', from).execute();
      }
      const events: { watch_key: string }[] = await db
        .selectFrom('crisis_events')
        .select('watch_key')
        .distinct()
        .where('kind', '=', 'social')
        .where(nonAscii('watch_key'))
        .execute();
      for (const { watch_key: from } of events) {
        const key = fold(from);
        if (key !== from)
          await db
            .updateTable('crisis_events')
            .set({ watch_key: key })
            .where('kind', '=', 'social')
            .where('watch_key', '=', from)
            .execute();
      }
    },
  };
}

const HOURLY_SUMS = ['mentions', 'sentiment_sum', 'positive', 'negative', 'evidence'];

/**
 * Adds trend `from`'s rows of `table` to trend `to`'s, in one statement: a row `to` lacks is copied, one it has
 * (same `keys`) gets the `sums` added.
 */
async function addRows(db: Db, table: string, keys: string[], sums: string[], from: number, to: number) {
  const columns = [...keys, ...sums];
  await db
    .insertInto(table)
    .columns(['trend_id', ...columns])
    .expression(
      db
        .selectFrom(table)
        .select([sql.lit(to).as('trend_id'), ...columns])
        .where('trend_id', '=', from),
    )
    .onConflict((oc) =>
      oc
        .columns(['trend_id', ...keys])
        .doUpdateSet(
          Object.fromEntries(
            sums.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`]),
          ),
        ),
    )
    .execute();
}

/** Moves everything of trend `from` to trend `to` and removes `from`. */
async function mergeTrend(db: Db, from: TrendRow, into: TrendRow): Promise<void> {
  const to = Number(into.id);
  await addRows(db, 'trend_surfaces', ['surface'], ['count'], from.id, to);
  await addRows(db, 'trend_hourly', ['platform', 'hour'], HOURLY_SUMS, from.id, to);
  await addRows(db, 'trend_minutely', ['minute'], ['mentions', 'evidence'], from.id, to);
  for (const table of ['ai_insights', 'insight_tasks', 'ads_previews', 'crisis_events']) {
    await db.updateTable(table).set({ trend_id: to }).where('trend_id', '=', from.id).execute();
  }
  await db
    .updateTable('recommendations')
    .set({ source_trend_id: String(to) })
    .where('source_trend_id', '=', String(from.id))
    .execute();
  // Each user's newest insight of the merged trend is the latest one.
  await db.updateTable('ai_insights').set({ is_latest: 0 }).where('trend_id', '=', to).execute();
  const newest: { id: number }[] = await db
    .selectFrom('ai_insights')
    .select(sql<number>`max(id)`.as('id'))
    .where('trend_id', '=', to)
    .groupBy('user_id')
    .execute();
  if (newest.length > 0)
    await db
      .updateTable('ai_insights')
      .set({ is_latest: 1 })
      .where(
        'id',
        'in',
        newest.map((row) => Number(row.id)),
      )
      .execute();
  await db
    .updateTable('trends')
    .set({
      mentions: Number(into.mentions) + Number(from.mentions),
      first_seen_at: Math.min(Number(into.first_seen_at), Number(from.first_seen_at)),
      last_seen_at: Math.max(Number(into.last_seen_at), Number(from.last_seen_at)),
      dirty: 1,
    })
    .where('id', '=', to)
    .execute();
  // Its buckets, surface forms and metrics go with it (ON DELETE CASCADE).
  await db.deleteFrom('trends').where('id', '=', from.id).execute();
}
