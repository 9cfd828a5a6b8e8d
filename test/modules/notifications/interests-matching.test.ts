// The accounts module's InterestsService.matchingTrend (added for trend notices): the users whose active interests a trend name matches as whole words.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';

describe('interests matching a trend', () => {
  let ctx: TestContext;
  const users: Record<string, number> = {};
  before(async () => {
    ctx = await buildTestApp();
    const follows: Record<string, string[]> = {
      ai: ['AI'],
      openai: ['#OpenAI'],
      phrase: ['climate change'],
      partial: ['clim', 'open'],
    };
    for (const [name, keywords] of Object.entries(follows)) {
      const user = await createUser(ctx, 'enterprise');
      users[name] = user.userId;
      for (const keyword of keywords) {
        const res = await call(ctx.app, 'POST', '/api/user/interests', { key: user.key, body: { keyword } });
        assert.equal(res.statusCode, 201, res.body);
      }
    }
  });
  after(async () => ctx.close());

  const match = async (name: string) =>
    [...new Set((await ctx.app.services.interests.matchingTrend(name)).map((i) => Number(i.user_id)))].sort();

  test('whole words only, normalised as trend keys are', async () => {
    assert.deepEqual(await match('OpenAI'), [users.openai]);
    assert.deepEqual(await match('AI Act'), [users.ai]);
    assert.deepEqual(await match('#ClimateChange protests'), [users.phrase]);
    assert.deepEqual(await match('Climate'), [], 'one word of a two-word interest is not a match');
    assert.deepEqual(await match('the'), [], 'a name with no key matches nothing');
  });
});
