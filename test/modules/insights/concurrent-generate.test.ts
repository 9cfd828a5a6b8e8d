// Generate requests sent together by one user for one trend: one task, one charge.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../../src/platform/clock.ts';
import { buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { RELAXED_PLANS, seed, settle } from './fixtures.ts';

describe('simultaneous insight generation', () => {
  let ctx: TestContext;
  let ids: Awaited<ReturnType<typeof seed>>;
  const clock = new ManualClock(Date.parse('2026-11-21T10:30:00Z'));
  const generate = (key: string) =>
    call(ctx.app, 'POST', `/api/trends/${ids.positive}/ai-insights/generate`, { key });
  const burst = (key: string, n: number) => Promise.all(Array.from({ length: n }, () => generate(key)));
  const charged = async (userId: number) => (await ctx.app.services.insights.usage(userId)).count;

  before(async () => {
    ctx = await buildTestApp({ clock, env: { PLANS: RELAXED_PLANS } });
    ids = await seed(ctx, clock.now());
  });
  after(async () => ctx.close());

  test('a burst of generates by one user for one trend shares one task and one charge', async () => {
    const user = await createUser(ctx, 'developer');
    const answers = await burst(user.key, 5);
    for (const res of answers) assert.equal(res.statusCode, 202, res.body);
    assert.equal(new Set(answers.map((res) => res.data.task_id)).size, 1);
    assert.equal(await charged(user.userId), 1);
    await settle(ctx, user.key, answers[0]!.data.task_id);
  });

  test('a task that just failed is not handed out again: a retry queues a new one', async () => {
    const user = await createUser(ctx, 'developer');
    const first = await generate(user.key);
    await ctx.app.services.db
      .updateTable('insight_tasks')
      .set({ status: 'failed', error: 'gave up', finished_at: clock.now() })
      .where('id', '=', first.data.task_id)
      .execute();
    const retry = await generate(user.key);
    assert.equal(retry.statusCode, 202, retry.body);
    assert.notEqual(retry.data.task_id, first.data.task_id);
    await settle(ctx, user.key, retry.data.task_id);
  });
});
