import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SourceStateStore } from '../../../../src/modules/signals/index.ts';
import { build } from '../../../helpers/app.ts';

test('failures recorded at the same time are each counted: the count is incremented in one statement', async (t) => {
  const ctx = await build(t);
  const store = new SourceStateStore(ctx.app.services.db);
  await store.ensure('hackernews');
  const failure = (attemptAt: number) => ({
    attemptAt,
    durationMs: 12,
    error: 'HTTP 500',
    nextAttemptAt: (failures: number) => attemptAt + 1000 * 2 ** failures,
  });
  const counts = await Promise.all([
    store.recordFailure('hackernews', failure(1000)),
    store.recordFailure('hackernews', failure(1000)),
    store.recordFailure('hackernews', failure(1000)),
  ]);
  assert.deepEqual(
    [...counts].sort((a, b) => a - b),
    [1, 2, 3],
  );
  const row = await store.get('hackernews');
  assert.equal(row?.consecutive_failures, 3);
  assert.equal(row?.status, 'degraded');
  assert.equal(row?.last_error, 'HTTP 500');
  assert.equal(Number(row?.next_attempt_at), 1000 + 1000 * 2 ** 3, 'the backoff follows the last count');
});
