import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertProblem, build, call, createUser } from '../../helpers/app.ts';

describe('the report routes in the OpenAPI document', () => {
  test('each is documented with its body, parameters, answers and access', async (t) => {
    const ctx = await build(t);
    const doc = (await call(ctx.app, 'GET', '/api/openapi.json')).data;
    const custom = doc.paths['/api/reports/custom'].post;
    assert.equal(custom.requestBody.required, false, 'an empty body is a default report');
    const body = custom.requestBody.content['application/json'].schema;
    assert.equal(body.additionalProperties, false);
    assert.ok(
      ['dimensions', 'metrics', 'filters', 'time_period', 'start_date', 'limit'].every(
        (f) => f in body.properties,
      ),
    );
    assert.ok(custom.responses['200'] && custom.responses['400'] && custom.responses['401']);
    assert.notDeepEqual(custom.security, []);
    assert.ok(doc.paths['/api/user/session-info'].get.responses['200']);
    const demo = doc.paths['/api/v1/public/demo-signals'].get;
    assert.deepEqual(demo.security, [], 'public');
    assert.deepEqual(
      demo.parameters.map((p: { name: string }) => p.name),
      ['mode'],
    );
  });
});

describe('session info', () => {
  test('reports the configured default country (US unless DEFAULT_COUNTRY says otherwise)', async (t) => {
    const ctx = await build(t);
    const { key } = await createUser(ctx, 'developer', ['read']);
    const res = await call(ctx.app, 'GET', '/api/user/session-info', { key });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.data, { country: 'US' });

    const gb = await build(t, { env: { DEFAULT_COUNTRY: 'gb' } });
    const other = await createUser(gb, 'developer', ['read']);
    const answer = await call(gb.app, 'GET', '/api/user/session-info', {
      key: other.key,
      header: 'x-api-key',
    });
    assert.deepEqual(answer.data, { country: 'GB' });
  });

  test('needs a key with read', async (t) => {
    const ctx = await build(t);
    assertProblem(await call(ctx.app, 'GET', '/api/user/session-info'), 401);
    const { key } = await createUser(ctx, 'developer', ['write']);
    assertProblem(await call(ctx.app, 'GET', '/api/user/session-info', { key }), 403);
    const unknown = await call(ctx.app, 'GET', '/api/user/session-info?country=FR', {
      key: (await createUser(ctx, 'developer', ['read'])).key,
    });
    assertProblem(unknown, 400);
  });
});
