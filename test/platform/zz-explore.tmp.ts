import { buildTestApp } from '../helpers/app.ts';

const ctx = await buildTestApp();
const op = { authorization: `Bearer ${ctx.operatorKey}`, 'content-type': 'application/json' };
const tries: any[] = [
  { method: 'POST', url: '/api/user/api-keys', headers: op, payload: '{"name":"a\\u0000b"}' },
  {
    method: 'POST',
    url: '/api/admin/users',
    headers: op,
    payload: '{"email":"a@example.com","plan":"developer","full_name":"x\\u0000y"}',
  },
  { method: 'POST', url: '/api/user/api-keys', headers: op, payload: '{"name":"\\ud800"}' },
  { method: 'POST', url: '/api/user/api-keys/5/rotate', headers: { authorization: op.authorization } },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: op,
    payload: '{"name":"x","expires_at":"2020-01-01T00:00:00Z"}',
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: op,
    payload: '{"name":"x","expires_at":"9999-12-31T23:59:59Z"}',
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: op,
    payload: '{"name":"x","expires_at":"275760-09-13T00:00:00Z"}',
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: op,
    payload: '{"name":"x","expires_at":"2026-11-21T25:00:00Z"}',
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: op,
    payload: '{"name":"x","expires_at":"2030-01-01T00:00:00+14:00"}',
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: op,
    payload: '{"name":"x","expires_at":"2030-01-01t00:00:00z"}',
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: op,
    payload: '{"name":"x","expires_at":"2030-01-01T00:00:60Z"}',
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: op,
    payload: '{"name":"x","expires_at":"2030-02-30T00:00:00Z"}',
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: op,
    payload: '{"name":"x","expires_at":"0000-01-01T00:00:00Z"}',
  },
  {
    method: 'POST',
    url: '/api/admin/users',
    headers: op,
    payload: '{"email":"a\\u0000@example.com","plan":"developer"}',
  },
  {
    method: 'POST',
    url: '/api/admin/users',
    headers: op,
    payload: '{"email":"' + 'a'.repeat(64) + '@' + 'b'.repeat(250) + '.com","plan":"developer"}',
  },
  {
    method: 'POST',
    url: '/api/admin/users',
    headers: op,
    payload: '{"email":"A@EXAMPLE.com","plan":"developer"}',
  },
  {
    method: 'POST',
    url: '/api/admin/users',
    headers: op,
    payload: '{"email":"a@example.com","plan":"developer"}',
  },
  {
    method: 'POST',
    url: '/api/admin/users',
    headers: op,
    payload: '{"email":"a@example.com ","plan":"developer"}',
  },
  { method: 'GET', url: '/api/user/audit-log?limit=1%00', headers: op },
  { method: 'POST', url: '/api/user/api-keys', headers: op },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: { authorization: op.authorization },
    payload: '{"name":"x"}',
  },
];
for (const t of tries) {
  try {
    const r = await ctx.app.inject(t);
    console.log(
      t.method,
      t.url.slice(0, 60),
      (t.payload ?? '').slice(0, 80),
      '→',
      r.statusCode,
      r.body.slice(0, 250),
    );
  } catch (e) {
    console.log(t.method, t.url.slice(0, 60), 'THREW', e);
  }
}
await ctx.close();
