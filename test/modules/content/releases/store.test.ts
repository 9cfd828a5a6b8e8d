import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReleaseFeedStore } from '../../../../src/modules/content/index.ts';
import { build } from '../../../helpers/app.ts';

test('release feed failures recorded at the same time are each counted', async (t) => {
  const ctx = await build(t);
  const store = new ReleaseFeedStore(ctx.app.services.db);
  await store.ensure('upstream', 'https://example.com/releases.atom');
  const failure = { attemptAt: 5000, error: 'HTTP 503', nextAttemptAt: (n: number) => 5000 + 60_000 * n };
  const counts = await Promise.all([
    store.recordFailure('upstream', failure),
    store.recordFailure('upstream', failure),
  ]);
  assert.deepEqual(
    [...counts].sort((a, b) => a - b),
    [1, 2],
  );
  const row = await ctx.app.services.db
    .selectFrom('release_feeds')
    .selectAll()
    .where('name', '=', 'upstream')
    .executeTakeFirstOrThrow();
  assert.equal(row.consecutive_failures, 2);
  assert.equal(Number(row.next_attempt_at), 5000 + 120_000);
  assert.equal(row.last_error, 'HTTP 503');
});
