import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Database } from '../../../../src/database.ts';
import { migrateAppTo, migrateAppToLatest } from '../../../../src/migrations.ts';
import { typeForTitle } from '../../../../src/modules/text/extraction.ts';
import { openDatabase } from '../../../../src/platform/db/index.ts';
import { createTestDatabase } from '../../../helpers/db.ts';

const AT = Date.parse('2026-01-02T03:04:05Z');

test('a trend is a hashtag exactly when its title is one', () => {
  assert.equal(typeForTitle('entity', '#WorldCup'), 'hashtag');
  assert.equal(typeForTitle('hashtag', 'Stratus Cloud'), 'entity');
  assert.equal(typeForTitle('hashtag', 'stratus cloud'), 'keyword');
  assert.equal(typeForTitle('keyword', 'stratus cloud'), 'keyword');
  assert.equal(typeForTitle('hazard', 'Flood warning'), 'hazard');
});

test('migration 0024 makes stored types follow their titles, and leaves the rest alone', async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const handle = openDatabase<Database>(database.config);
  try {
    await migrateAppTo(handle, '0023.7_remove_merged_trends');
    const rows: [key: string, title: string, type: string][] = [
      ['stratus cloud', 'Stratus Cloud', 'hashtag'],
      ['acme outage', 'acme outage', 'hashtag'],
      ['world cup', '#WorldCup', 'entity'],
      ['openai', 'OpenAI', 'entity'],
      ['ai', '#AI', 'hashtag'],
      ['flood warning', 'Flood warning', 'hazard'],
    ];
    await handle.db
      .insertInto('trends')
      .values(
        rows.map(([key, title, type]) => ({
          key,
          title,
          type,
          category: 'Other',
          first_seen_at: AT,
          last_seen_at: AT,
          mentions: 1,
        })),
      )
      .execute();
    await migrateAppToLatest(handle);
    const stored = await handle.db.selectFrom('trends').select(['key', 'type']).orderBy('key').execute();
    assert.deepEqual(Object.fromEntries(stored.map((r) => [r.key, r.type])), {
      ai: 'hashtag',
      'acme outage': 'keyword',
      'flood warning': 'hazard',
      openai: 'entity',
      'stratus cloud': 'entity',
      'world cup': 'hashtag',
    });
    for (const [key, title, type] of rows) {
      assert.equal(stored.find((r) => r.key === key)?.type, typeForTitle(type, title), key);
    }
  } finally {
    await handle.db.destroy();
  }
});
