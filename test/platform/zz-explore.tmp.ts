import { buildTestApp } from '../helpers/app.ts';

const ctx = await buildTestApp();
const op = { authorization: `Bearer ${ctx.operatorKey}` };
const tries: any[] = [
  { method: 'GET', url: '/api/%E0%A4%A' },
  { method: 'GET', url: '/api/user/api-keys/%E0%A4%A', headers: op },
  { method: 'DELETE', url: '/api/user/api-keys/%E0%A4%A', headers: op },
  { method: 'GET', url: '/api/user/audit-log?limit=%E0%A4%A', headers: op },
  { method: 'GET', url: '/api/user/audit-log?offset=1e309', headers: op },
  { method: 'GET', url: '/api/user/audit-log?limit=1&limit=2', headers: op },
  { method: 'GET', url: '/api/user/audit-log?hasOwnProperty=1', headers: op },
  { method: 'GET', url: '/api/user/audit-log?__proto__=1', headers: op },
  { method: 'TRACE', url: '/api/plans' },
  { method: 'PROPFIND', url: '/api/plans' },
  { method: 'FOO', url: '/api/plans' },
  { method: 'OPTIONS', url: '/api/plans' },
  { method: 'HEAD', url: '/api/user/api-keys/1/rotate' },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: { ...op, 'content-type': 'application/json; charset=' },
    payload: '{"name":"x"}',
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: { ...op, 'content-type': 'text/plain' },
    payload: '{"name":"x"}',
  },
  { method: 'POST', url: '/api/user/api-keys', headers: { ...op }, payload: 'x' },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: { ...op, 'content-type': 'application/json' },
    payload: 'x'.repeat(1024 * 1024 + 5),
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: { 'content-type': 'application/json' },
    payload: 'x'.repeat(1024 * 1024 + 5),
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: { ...op, 'content-type': 'application/json' },
    payload: '{"name":"x","__proto__":{"a":1}}',
  },
  { method: 'GET', url: '/api/user/profile', headers: { 'x-api-key': 'ключ' } },
  {
    method: 'GET',
    url: '/api/user/profile',
    headers: { 'x-api-key': Buffer.from('ключ').toString('latin1') },
  },
  { method: 'GET', url: '/' + 'a'.repeat(100000) },
  { method: 'GET', url: '/api/user/api-keys/../../x' },
  { method: 'GET', url: '//api//plans' },
  { method: 'DELETE', url: '/api/user/api-keys/99999999999999999999', headers: op },
  { method: 'DELETE', url: '/api/user/api-keys/' + '9'.repeat(600), headers: op },
  {
    method: 'PATCH',
    url: '/api/admin/users/1',
    headers: { ...op, 'content-type': 'application/json' },
    payload: '['.repeat(200000),
  },
  {
    method: 'POST',
    url: '/api/user/api-keys',
    headers: { ...op, 'content-type': 'application/json', 'idempotency-key': 'k' },
    payload: '{"name":"' + '\\u0000' + '"}',
  },
];
for (const t of tries) {
  try {
    const r = await ctx.app.inject(t);
    console.log(
      t.method,
      t.url.slice(0, 60),
      '→',
      r.statusCode,
      r.headers['content-type'],
      r.body.slice(0, 200),
    );
  } catch (e) {
    console.log(t.method, t.url.slice(0, 60), 'THREW', e);
  }
}
await ctx.close();
