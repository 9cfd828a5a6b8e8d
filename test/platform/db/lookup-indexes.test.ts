import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../../src/database.ts';
import { migrateToLatest, openDatabase } from '../../../src/platform/db/index.ts';
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
];

test('lookups by interest key and by hazard time use an index, not a table scan', async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const handle = openDatabase<Database>(database.config);
  t.after(() => handle.db.destroy());
  await migrateToLatest(handle);
  for (const lookup of LOOKUPS) {
    if (handle.dialect === 'sqlite') {
      const plan = await sql<{ detail: string }>`explain query plan ${lookup.query}`.execute(handle.db);
      const details = plan.rows.map((r) => r.detail).join(' | ');
      assert.match(details, new RegExp(`USING INDEX ${lookup.index}`), details);
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
