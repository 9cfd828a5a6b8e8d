// Validators and serializers are compiled once per distinct schema for the process, however many apps it builds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { schemaCache } from '../../src/platform/schema-cache.ts';
import { buildTestApp } from '../helpers/app.ts';

test('a schema is compiled once per context, whether it comes back as the same object or as a copy', () => {
  const cache = schemaCache<string>();
  let compiles = 0;
  const compile = (label: string) => () => {
    compiles++;
    return label;
  };
  const schema = { type: 'object', properties: { a: { type: 'string' } } };
  assert.equal(cache('body', schema, compile('first')), 'first');
  assert.equal(cache('body', schema, compile('again')), 'first');
  assert.equal(cache('body', structuredClone(schema), compile('copy')), 'first');
  assert.equal(cache('querystring', schema, compile('other context')), 'other context');
  assert.equal(cache('body', { type: 'string' }, compile('other schema')), 'other schema');
  assert.equal(compiles, 3);
});

test('a second app in the process answers like the first, with the serializers the first compiled', async (t) => {
  const answers: unknown[] = [];
  for (let i = 0; i < 2; i++) {
    const ctx = await buildTestApp();
    t.after(() => ctx.close());
    const auth = { authorization: `Bearer ${ctx.operatorKey}` };
    const profile = await ctx.app.inject({ method: 'GET', url: '/api/user/profile', headers: auth });
    const invalid = await ctx.app.inject({ method: 'GET', url: '/api/trends?limit=abc', headers: auth });
    assert.equal(profile.statusCode, 200);
    assert.equal(invalid.statusCode, 400);
    assert.ok(invalid.json().errors?.length, invalid.body);
    const { email, ...rest } = profile.json();
    answers.push({
      keys: Object.keys(profile.json()).sort(),
      email: typeof email,
      plan: rest.plan,
      invalid: invalid.json().errors,
    });
  }
  assert.deepEqual(answers[1], answers[0]);
});
