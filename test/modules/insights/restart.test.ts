import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import { buildTestApp, call, createUser } from '../../helpers/app.ts';
import { createTestDatabase } from '../../helpers/db.ts';
import { RELAXED_PLANS, seed, settle } from './fixtures.ts';

test('a queued insight task survives a restart and finishes on the next process', async () => {
  const database = await createTestDatabase();
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));
  const env = { PLANS: RELAXED_PLANS };
  try {
    const first = await buildTestApp({ clock, database, env });
    const ids = await seed(first, clock.now());
    const user = await createUser(first, 'developer');
    const res = await call(first.app, 'POST', `/api/trends/${ids.negative}/ai-insights/generate`, {
      key: user.key,
    });
    assert.equal(res.statusCode, 202);
    await first.close();

    const second = await buildTestApp({ clock, database, env, operatorKey: first.operatorKey });
    try {
      const pending = await call(second.app, 'GET', `/api/trends/ai-insights/status/${res.data.task_id}`, {
        key: user.key,
      });
      assert.equal(pending.data.status, 'queued');
      assert.equal((await settle(second, user.key, res.data.task_id)).status, 'succeeded');
      const insight = await call(second.app, 'GET', `/api/trends/${ids.negative}/ai-insights`, {
        key: user.key,
      });
      assert.equal(insight.data.trend_id, ids.negative);
      assert.equal(insight.data.usage_count, 1);
    } finally {
      await second.close();
    }
  } finally {
    await database.drop();
  }
});
