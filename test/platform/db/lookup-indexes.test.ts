import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../../src/database.ts';
import { migrateAppTo, migrateAppToLatest } from '../../../src/migrations.ts';
import { openDatabase } from '../../../src/platform/db/index.ts';
import { createTestDatabase } from '../../helpers/db.ts';

// The lookups that run by key and by time, not by user or id, have indexes: who follows a trend's key, and the
// hazards of the last 24 hours.
const LOOKUPS = [
  {
    index: 'topic_interests_key_idx',
    table: 'topic_interests',
    query: sql`select * from topic_interests where key in ('acme', 'acme launch') and status = 'active'`,
  },
  {
    index: 'crisis_hazards_observed_idx',
    table: 'crisis_hazards',
    query: sql`select * from crisis_hazards where observed_at >= 1700000000000 order by observed_at, id limit 2000`,
  },
  {
    // The minute marker: trends with mentions in the last hour, from a partial index holding only them.
    index: 'trend_metrics_recent_idx',
    table: 'trend_metrics',
    query: sql`select trend_id from trend_metrics where period = '24h' and velocity_1h > 0`,
  },
];

test('lookups by interest key, by hazard time and of recently active trends use an index, not a table scan', async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const handle = openDatabase<Database>(database.config);
  t.after(() => handle.db.destroy());
  await migrateAppToLatest(handle);
  for (const lookup of LOOKUPS) {
    if (handle.dialect === 'sqlite') {
      const plan = await sql<{ detail: string }>`explain query plan ${lookup.query}`.execute(handle.db);
      const details = plan.rows.map((r) => r.detail).join(' | ');
      assert.match(details, new RegExp(`USING (COVERING )?INDEX ${lookup.index}`), details);
    } else {
      const rows = await sql<{ indexname: string }>`
        select indexname from pg_indexes where schemaname = current_schema() and tablename = ${lookup.table}`.execute(
        handle.db,
      );
      assert.ok(
        rows.rows.some((r) => r.indexname === lookup.index),
        `${lookup.index} on ${lookup.table}: ${rows.rows.map((r) => r.indexname).join(', ')}`,
      );
    }
  }
});

test('snapshots keep the indexes their queries read; only recently active 24 h snapshots are in the recent one', async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const handle = openDatabase<Database>(database.config);
  t.after(() => handle.db.destroy());
  await migrateAppToLatest(handle);
  const names = await indexNames(handle, 'trend_metrics');
  for (const kept of ['trend_metrics_volume_idx', 'trend_metrics_velocity_idx', 'trend_metrics_recent_idx'])
    assert.ok(names.includes(kept), `${kept}: ${names.join(', ')}`);
  // Written with every snapshot and read by no query: a growth list sorts by an expression (nulls last), a
  // velocity list by velocity_score and then velocity_1h.
  for (const gone of [
    'trend_metrics_growth_idx',
    'trend_metrics_velocity_score_idx',
    'trend_metrics_velocity_1h_idx',
  ])
    assert.ok(!names.includes(gone), `${gone} is gone: ${names.join(', ')}`);

  const trend = await handle.db
    .insertInto('trends')
    .values({
      key: 'harbor flood',
      title: 'Harbor flood',
      type: 'keyword',
      category: 'News',
      first_seen_at: 1,
      last_seen_at: 1,
      mentions: 3,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const snapshot = (period: string, velocity_1h: number) => ({
    trend_id: trend.id,
    period,
    volume: 3,
    previous_volume: 0,
    absolute_change: 3,
    growth: null,
    average_velocity: 3,
    trend_stability: 0,
    overall_trend: 'growing',
    velocity_score: 0,
    velocity_1h,
    lifecycle_stage: 'stable',
    velocity_window: '1h',
    sentiment: null,
    sentiment_category: 'neutral',
    platforms: '{}',
    meta_description: '',
    computed_at: 1,
  });
  await handle.db
    .insertInto('trend_metrics')
    .values([snapshot('1h', 3), snapshot('24h', 3), snapshot('7d', 3), snapshot('30d', 0)])
    .execute();
  if (handle.dialect === 'sqlite') {
    const entries = await sql<{
      n: number;
    }>`select count(*) as n from trend_metrics indexed by trend_metrics_recent_idx
      where period = '24h' and velocity_1h > 0`.execute(handle.db);
    assert.equal(Number(entries.rows[0]!.n), 1);
  } else {
    const definition = await sql<{ indexdef: string }>`select indexdef from pg_indexes
      where schemaname = current_schema() and indexname = 'trend_metrics_recent_idx'`.execute(handle.db);
    assert.match(
      definition.rows[0]!.indexdef,
      /WHERE \(\(\(?period\)?::text = '24h'::text\) AND \(velocity_1h > 0\)\)/,
    );
  }
});

test("a batch's update of a trend (mentions, seen times) changes no indexed column, so PostgreSQL can make it HOT; out-of-date trends are rows of trend_dirty", async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const handle = openDatabase<Database>(database.config);
  t.after(() => handle.db.destroy());
  await migrateAppTo(handle, '0029_signal_queue');
  const trend = (key: string, dirty: number) =>
    sql`insert into trends (key, title, type, category, first_seen_at, last_seen_at, mentions, dirty)
      values (${key}, ${key}, 'keyword', 'Other', 1, 2, 3, ${dirty})`.execute(handle.db);
  await trend('up to date', 0);
  await trend('out of date', 2);
  await migrateAppToLatest(handle);
  const dirty = await handle.db
    .selectFrom('trend_dirty as d')
    .innerJoin('trends as t', 't.id', 'd.trend_id')
    .select(['t.key', 'd.version'])
    .execute();
  assert.deepEqual(
    dirty.map((r) => [r.key, Number(r.version)]),
    [['out of date', 2]],
  );
  const indexed =
    handle.dialect === 'sqlite'
      ? (
          await sql<{ name: string }>`select ii.name from pragma_index_list('trends') il,
            pragma_index_info(il.name) ii`.execute(handle.db)
        ).rows.map((r) => r.name)
      : (
          await sql<{ attname: string }>`select a.attname from pg_index i
            join pg_class c on c.oid = i.indrelid join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
            where c.relname = 'trends' and c.relnamespace = current_schema()::regnamespace`.execute(handle.db)
        ).rows.map((r) => r.attname);
  for (const column of ['mentions', 'first_seen_at', 'last_seen_at']) {
    assert.ok(!indexed.includes(column), `${column} is not indexed: ${indexed.join(', ')}`);
  }
  assert.ok(indexed.includes('key'));
});

async function indexNames(
  handle: ReturnType<typeof openDatabase<Database>>,
  table: string,
): Promise<string[]> {
  if (handle.dialect === 'sqlite') {
    const rows = await sql<{ name: string }>`select name from pragma_index_list(${table})`.execute(handle.db);
    return rows.rows.map((r) => r.name);
  }
  const rows = await sql<{ indexname: string }>`select indexname from pg_indexes
    where schemaname = current_schema() and tablename = ${table}`.execute(handle.db);
  return rows.rows.map((r) => r.indexname);
}
