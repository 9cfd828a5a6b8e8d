import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { ManualClock } from '../../../src/platform/clock.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { createOwner, invite, uniqueEmail } from './helpers.ts';

async function counts(ctx: TestContext) {
  const db = ctx.app.services.db;
  const one = async (table: string) =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);
  return {
    users: await one('users'),
    keys: await one('api_keys'),
    members: await one('organisation_members'),
    organisations: await one('organisations'),
  };
}

describe('accepting an invite', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  before(async () => {
    ctx = await buildTestApp({ clock });
  });
  after(async () => ctx.close());

  test('creates the user in the organisation with the role, on the inviter’s plan, with a first key once', async () => {
    const owner = await createOwner(ctx, 'scale');
    const created = await invite(ctx, owner, 'admin');
    const accepted = await call(ctx.app, 'POST', '/api/org/invites/accept', {
      body: { token: created.token, full_name: 'Grace Hopper' },
    });
    assert.equal(accepted.statusCode, 201, accepted.body);
    const { user, api_key: key } = accepted.data;
    assert.equal(user.email, created.email);
    assert.equal(user.full_name, 'Grace Hopper');
    assert.equal(user.organization_role, 'admin');
    assert.equal(user.is_active, true);
    assert.equal(user.subscription.plan_name, 'scale');
    assert.match(key.api_key, /^cw_[0-9A-Za-z]{40}$/);
    assert.deepEqual(key.permissions, ['read', 'write']);
    const profile = await call(ctx.app, 'GET', '/api/user/profile', { key: key.api_key });
    assert.equal(profile.statusCode, 200);
    assert.deepEqual(profile.data, user);
    const keys = await call(ctx.app, 'GET', '/api/user/api-keys', { key: key.api_key });
    assert.ok(!keys.body.includes(key.api_key), 'the key is not shown again');
    assert.equal(keys.data.keys.length, 1);
    // Both see the same two members.
    for (const k of [owner.key, key.api_key]) {
      const members = await call(ctx.app, 'GET', '/api/org/members', { key: k });
      assert.deepEqual(
        members.data.map((m: { user_id: number; role: string; full_name: string | null }) => [
          m.user_id,
          m.role,
        ]),
        [
          [owner.userId, 'owner'],
          [user.id, 'admin'],
        ],
      );
    }
    const invites = await call(ctx.app, 'GET', '/api/org/invites?status=accepted', { key: owner.key });
    assert.deepEqual(
      invites.data.map((i: { id: number; status: string }) => [i.id, i.status]),
      [[created.id, 'accepted']],
    );
    const ownerLog = await call(ctx.app, 'GET', '/api/user/audit-log', { key: owner.key });
    assert.equal(ownerLog.data.entries[0].action, 'org.invite.accepted');
    const newLog = await call(ctx.app, 'GET', '/api/user/audit-log', { key: key.api_key });
    assert.deepEqual(
      newLog.data.entries.map((e: { action: string }) => e.action),
      ['org.member.joined', 'api_key.created'],
    );
    // The new admin can invite at once.
    await invite(ctx, { ...owner, key: key.api_key });
  });

  test('a wrong, reused, revoked or expired token → 400 and nothing stored', async () => {
    const owner = await createOwner(ctx);
    const created = await invite(ctx, owner);
    const first = await call(ctx.app, 'POST', '/api/org/invites/accept', { body: { token: created.token } });
    assert.equal(first.statusCode, 201);
    assert.equal(first.data.user.full_name, null);
    const before = await counts(ctx);
    const cases: [string, string][] = [
      [created.token, 'invite_used'],
      [`cwi_${'A'.repeat(40)}`, 'invite_invalid'],
      ['not-a-token', 'invite_invalid'],
      [created.token.toLowerCase(), 'invite_invalid'],
    ];
    for (const [token, code] of cases) {
      const res = await call(ctx.app, 'POST', '/api/org/invites/accept', { body: { token } });
      assertProblem(res, 400);
      assert.equal(res.data.code, code, token);
      assert.deepEqual(res.data.errors, [{ path: 'body.token', message: res.data.detail }]);
    }
    assert.deepEqual(await counts(ctx), before);
  });

  test('an email that got an account meanwhile → 409; the invite stays pending and nothing is stored', async () => {
    const owner = await createOwner(ctx);
    const email = uniqueEmail();
    const created = await invite(ctx, owner, 'member', email);
    const operator = await call(ctx.app, 'POST', '/api/admin/users', {
      key: ctx.operatorKey,
      body: { email, plan: 'developer' },
    });
    assert.equal(operator.statusCode, 201);
    const before = await counts(ctx);
    const res = await call(ctx.app, 'POST', '/api/org/invites/accept', { body: { token: created.token } });
    assertProblem(res, 409);
    assert.equal(res.data.code, 'email_taken');
    assert.deepEqual(await counts(ctx), before);
    const pending = await call(ctx.app, 'GET', '/api/org/invites', { key: owner.key });
    assert.deepEqual(
      pending.data.map((i: { id: number; status: string }) => [i.id, i.status]),
      [[created.id, 'pending']],
    );
  });

  test('validation: unknown fields and a blank name → 400; no key needed', async () => {
    const owner = await createOwner(ctx);
    const created = await invite(ctx, owner);
    const extra = await call(ctx.app, 'POST', '/api/org/invites/accept', {
      body: { token: created.token, password: 'x' },
    });
    assertProblem(extra, 400);
    assert.ok(extra.data.errors.some((e: { path: string }) => e.path === 'body.password'));
    const blank = await call(ctx.app, 'POST', '/api/org/invites/accept', {
      body: { token: created.token, full_name: '' },
    });
    assertProblem(blank, 400);
    const missing = await call(ctx.app, 'POST', '/api/org/invites/accept', { body: {} });
    assertProblem(missing, 400);
    // A key is not needed, and a key of someone else changes nothing.
    const other = await createUser(ctx, 'enterprise');
    const res = await call(ctx.app, 'POST', '/api/org/invites/accept', {
      key: other.key,
      body: { token: created.token },
    });
    assert.equal(res.statusCode, 201);
    assert.equal(res.data.user.email, created.email);
  });

  test('the accept_url page and its form: HTML, escaped, the key shown once', async () => {
    const owner = await createOwner(ctx);
    const created = await invite(ctx, owner, 'member');
    const page = await call(ctx.app, 'GET', `/api/org/invites/accept?token=${created.token}`);
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.ok(page.body.includes(created.email));
    assert.ok(page.body.includes(owner.email));
    assert.ok(page.body.includes(`name="token" value="${created.token}"`));
    assert.ok(page.body.includes('action="accept"'));
    const browser = { accept: 'text/html,application/xhtml+xml' };
    const bad = await call(ctx.app, 'GET', `/api/org/invites/accept?token=cwi_${'b'.repeat(40)}`, {
      headers: browser,
    });
    assert.equal(bad.statusCode, 400);
    assert.match(String(bad.headers['content-type']), /^text\/html/);
    assert.ok(bad.body.includes('This invite token is not valid.'));
    assertProblem(await call(ctx.app, 'GET', `/api/org/invites/accept?token=cwi_${'b'.repeat(40)}`), 400);
    assertProblem(await call(ctx.app, 'GET', '/api/org/invites/accept'), 400);

    const form = await ctx.app.inject({
      method: 'POST',
      url: '/api/org/invites/accept',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${created.token}&full_name=`,
    });
    assert.equal(form.statusCode, 201, form.body);
    assert.match(String(form.headers['content-type']), /^text\/html/);
    assert.equal(form.headers['cache-control'], 'no-store');
    const key = /cw_[0-9A-Za-z]{40}/.exec(form.body)?.[0];
    assert.ok(key, 'the page shows the key');
    const profile = await call(ctx.app, 'GET', '/api/user/profile', { key });
    assert.equal(profile.data.email, created.email);
    assert.equal(profile.data.full_name, null);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/org/invites/accept',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...browser },
      payload: `token=${created.token}`,
    });
    assert.equal(again.statusCode, 400);
    assert.match(String(again.headers['content-type']), /^text\/html/);
    assert.ok(again.body.includes('This invite was already used.'));
    // Only this route parses forms.
    const elsewhere = await ctx.app.inject({
      method: 'POST',
      url: '/api/org/invites',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${owner.key}` },
      payload: 'email=a%40example.com&role=member',
    });
    assert.equal(elsewhere.statusCode, 415);
  });
});
