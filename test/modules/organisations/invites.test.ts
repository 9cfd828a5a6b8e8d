import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { DAY_MS, ManualClock } from '../../../src/platform/clock.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { createOwner, invite, join, uniqueEmail } from './helpers.ts';

describe('organisation members and invites', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  before(async () => {
    ctx = await buildTestApp({ clock, env: { PUBLIC_BASE_URL: 'https://crestwatch.example.com/' } });
  });
  after(async () => ctx.close());

  test('a new user is the owner of an organisation of their own', async () => {
    const owner = await createOwner(ctx);
    const members = await call(ctx.app, 'GET', '/api/org/members', { key: owner.key });
    assert.equal(members.statusCode, 200);
    assert.ok(Array.isArray(members.data), 'a bare array, as upstream answers');
    assert.deepEqual(members.data, [
      {
        id: owner.memberId,
        email: owner.email,
        full_name: null,
        role: 'owner',
        joined_at: '2026-11-21T10:00:00.000Z',
        user_id: owner.userId,
      },
    ]);
    const profile = await call(ctx.app, 'GET', '/api/user/profile', { key: owner.key });
    assert.equal(profile.data.organization_role, 'owner');
    const invites = await call(ctx.app, 'GET', '/api/org/invites', { key: owner.key });
    assert.deepEqual(invites.data, []);
  });

  test('an owner invites: the token and accept_url are shown once, only a SHA-256 is stored', async () => {
    const owner = await createOwner(ctx);
    const email = uniqueEmail('Mixed.Case');
    const res = await call(ctx.app, 'POST', '/api/org/invites', {
      key: owner.key,
      body: { email: `  ${email.toUpperCase()} `.trim(), role: 'admin' },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.match(res.data.token, /^cwi_[0-9A-Za-z]{40}$/);
    assert.equal(
      res.data.accept_url,
      `https://crestwatch.example.com/api/org/invites/accept?token=${res.data.token}`,
    );
    assert.deepEqual(
      { ...res.data, token: undefined, accept_url: undefined },
      {
        id: res.data.id,
        email: email.toLowerCase(),
        role: 'admin',
        invited_by_email: owner.email,
        status: 'pending',
        created_at: '2026-11-21T10:00:00.000Z',
        expires_at: new Date(clock.now() + 7 * DAY_MS).toISOString(),
        token: undefined,
        accept_url: undefined,
      },
    );
    const list = await call(ctx.app, 'GET', '/api/org/invites', { key: owner.key });
    assert.equal(list.statusCode, 200);
    assert.equal(list.data.length, 1);
    assert.equal(list.data[0].id, res.data.id);
    assert.ok(!list.body.includes(res.data.token), 'the token is never shown again');
    assert.deepEqual(Object.keys(list.data[0]).sort(), [
      'created_at',
      'email',
      'expires_at',
      'id',
      'invited_by_email',
      'role',
      'status',
    ]);
    const stored = await sql<{ token_hash: string }>`
      select token_hash from organisation_invites where id = ${res.data.id}`.execute(ctx.app.services.db);
    assert.equal(stored.rows[0]!.token_hash, createHash('sha256').update(res.data.token).digest('hex'));
    const everything = await sql<Record<string, unknown>>`
      select * from organisation_invites`.execute(ctx.app.services.db);
    const audit = await sql<Record<string, unknown>>`select * from audit_log`.execute(ctx.app.services.db);
    assert.ok(!JSON.stringify([everything.rows, audit.rows]).includes(res.data.token));
    const entries = await call(ctx.app, 'GET', '/api/user/audit-log', { key: owner.key });
    assert.equal(entries.data.entries[0].action, 'org.invite.created');
    assert.equal(entries.data.entries[0].target_id, String(res.data.id));
  });

  test('members and admins: who may invite whom', async () => {
    const owner = await createOwner(ctx);
    const admin = await join(ctx, owner, 'admin');
    const member = await join(ctx, owner, 'member');
    const byMember = await call(ctx.app, 'POST', '/api/org/invites', {
      key: member.key,
      body: { email: uniqueEmail(), role: 'member' },
    });
    assertProblem(byMember, 403);
    assert.equal(byMember.data.code, 'org_admin_required');
    const adminOwner = await call(ctx.app, 'POST', '/api/org/invites', {
      key: admin.key,
      body: { email: uniqueEmail(), role: 'owner' },
    });
    assertProblem(adminOwner, 403);
    assert.equal(adminOwner.data.code, 'owner_role_required');
    const adminAdmin = await invite(ctx, admin, 'admin');
    assert.equal(adminAdmin.invited_by_email, admin.email);
    const ownerOwner = await invite(ctx, owner, 'owner');
    assert.equal(ownerOwner.role, 'owner');
    // A member reads both lists.
    const list = await call(ctx.app, 'GET', '/api/org/invites', { key: member.key });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.data.map((i: { id: number }) => i.id),
      [ownerOwner.id, adminAdmin.id],
    );
    const members = await call(ctx.app, 'GET', '/api/org/members', { key: member.key });
    assert.deepEqual(
      members.data.map((m: { role: string; user_id: number }) => [m.user_id, m.role]),
      [
        [owner.userId, 'owner'],
        [admin.userId, 'admin'],
        [member.userId, 'member'],
      ],
    );
  });

  test('409: a pending invite for the email, a member, an account elsewhere', async () => {
    const owner = await createOwner(ctx);
    const member = await join(ctx, owner);
    const first = await invite(ctx, owner);
    const again = await call(ctx.app, 'POST', '/api/org/invites', {
      key: owner.key,
      body: { email: first.email.toUpperCase(), role: 'admin' },
    });
    assertProblem(again, 409);
    assert.equal(again.data.code, 'invite_pending');
    const existingMember = await call(ctx.app, 'POST', '/api/org/invites', {
      key: owner.key,
      body: { email: member.email, role: 'member' },
    });
    assertProblem(existingMember, 409);
    assert.equal(existingMember.data.code, 'already_member');
    const self = await call(ctx.app, 'POST', '/api/org/invites', {
      key: owner.key,
      body: { email: owner.email, role: 'member' },
    });
    assertProblem(self, 409);
    assert.equal(self.data.code, 'already_member');
    const elsewhere = await createUser(ctx, 'enterprise');
    const taken = await call(ctx.app, 'POST', '/api/org/invites', {
      key: owner.key,
      body: { email: elsewhere.email, role: 'member' },
    });
    assertProblem(taken, 409);
    assert.equal(taken.data.code, 'email_taken');
    // Another organisation may invite the same email meanwhile.
    const other = await createOwner(ctx);
    await invite(ctx, other, 'member', first.email);
  });

  test('400: invalid bodies and queries name the field; 401 without a key; 403 with a read-only key', async () => {
    const owner = await createOwner(ctx);
    const cases: [unknown, string][] = [
      [{ email: 'not-an-email', role: 'member' }, 'body.email'],
      [{ email: uniqueEmail(), role: 'viewer' }, 'body.role'],
      [{ email: uniqueEmail() }, 'body.role'],
      [{ email: uniqueEmail(), role: 'member', team: 'x' }, 'body.team'],
    ];
    for (const [body, path] of cases) {
      const res = await call(ctx.app, 'POST', '/api/org/invites', { key: owner.key, body });
      assertProblem(res, 400);
      assert.ok(
        res.data.errors.some((e: { path: string }) => e.path === path),
        `${path} in ${JSON.stringify(res.data.errors)}`,
      );
    }
    const badStatus = await call(ctx.app, 'GET', '/api/org/invites?status=open', { key: owner.key });
    assertProblem(badStatus, 400);
    const unknown = await call(ctx.app, 'GET', '/api/org/invites?pages=2', { key: owner.key });
    assertProblem(unknown, 400);
    assert.ok(unknown.data.errors.some((e: { path: string }) => e.path === 'query.pages'));
    // Upstream's 1-based `page` is taken wherever `offset` is (README "Compatibility").
    const paged = await call(ctx.app, 'GET', '/api/org/invites?page=2&limit=1', { key: owner.key });
    assert.equal(paged.statusCode, 200, paged.body);
    const byOffset = await call(ctx.app, 'GET', '/api/org/invites?offset=1&limit=1', { key: owner.key });
    assert.deepEqual(paged.data, byOffset.data);
    for (const [method, url] of [
      ['GET', '/api/org/members'],
      ['GET', '/api/org/invites'],
      ['POST', '/api/org/invites'],
      ['DELETE', '/api/org/invites/1'],
      ['PATCH', '/api/org/members/1'],
      ['DELETE', '/api/org/members/1'],
    ] as const) {
      assertProblem(await call(ctx.app, method, url, { body: method === 'GET' ? undefined : {} }), 401);
    }
    const reader = await createUser(ctx, 'enterprise', ['read']);
    const readOnly = await call(ctx.app, 'POST', '/api/org/invites', {
      key: reader.key,
      body: { email: uniqueEmail(), role: 'member' },
    });
    assertProblem(readOnly, 403);
    assert.equal(readOnly.data.code, 'missing_permission');
    assert.equal((await call(ctx.app, 'GET', '/api/org/members', { key: reader.key })).statusCode, 200);
  });

  test('revoking: 204, idempotent, listed under status=revoked; the tenant wall and the roles hold', async () => {
    const owner = await createOwner(ctx);
    const member = await join(ctx, owner);
    const created = await invite(ctx, owner);
    const other = await createOwner(ctx);
    const foreign = await call(ctx.app, 'DELETE', `/api/org/invites/${created.id}`, { key: other.key });
    assertProblem(foreign, 404);
    const byMember = await call(ctx.app, 'DELETE', `/api/org/invites/${created.id}`, { key: member.key });
    assertProblem(byMember, 403);
    assertProblem(await call(ctx.app, 'DELETE', '/api/org/invites/999999', { key: owner.key }), 404);
    const revoked = await call(ctx.app, 'DELETE', `/api/org/invites/${created.id}`, { key: owner.key });
    assert.equal(revoked.statusCode, 204);
    assert.equal(
      (await call(ctx.app, 'DELETE', `/api/org/invites/${created.id}`, { key: owner.key })).statusCode,
      204,
    );
    const pending = await call(ctx.app, 'GET', '/api/org/invites', { key: owner.key });
    assert.ok(!pending.data.some((i: { id: number }) => i.id === created.id));
    const listed = await call(ctx.app, 'GET', '/api/org/invites?status=revoked', { key: owner.key });
    assert.deepEqual(
      listed.data.map((i: { id: number; status: string }) => [i.id, i.status]),
      [[created.id, 'revoked']],
    );
    const accept = await call(ctx.app, 'POST', '/api/org/invites/accept', { body: { token: created.token } });
    assertProblem(accept, 400);
    assert.equal(accept.data.code, 'invite_revoked');
    // The invite of an accepted member cannot be revoked.
    const joined = await call(ctx.app, 'GET', '/api/org/invites?status=accepted', { key: owner.key });
    assert.equal(joined.data.length, 1);
    const lateRevoke = await call(ctx.app, 'DELETE', `/api/org/invites/${joined.data[0].id}`, {
      key: owner.key,
    });
    assertProblem(lateRevoke, 409);
    assert.equal(lateRevoke.data.code, 'invite_accepted');
    const entries = await call(ctx.app, 'GET', '/api/user/audit-log', { key: owner.key });
    assert.ok(entries.data.entries.some((e: { action: string }) => e.action === 'org.invite.revoked'));
    // The same number a member of another organisation reads is empty.
    assert.deepEqual(
      (await call(ctx.app, 'GET', '/api/org/invites?status=all', { key: other.key })).data,
      [],
    );
  });

  test('invites expire after 7 days: listed as expired, refused, and the email can be invited again', async () => {
    const owner = await createOwner(ctx);
    const created = await invite(ctx, owner);
    clock.advance(7 * DAY_MS);
    try {
      const pending = await call(ctx.app, 'GET', '/api/org/invites', { key: owner.key });
      assert.deepEqual(pending.data, []);
      const expired = await call(ctx.app, 'GET', '/api/org/invites?status=expired', { key: owner.key });
      assert.deepEqual(
        expired.data.map((i: { id: number; status: string }) => [i.id, i.status]),
        [[created.id, 'expired']],
      );
      const accept = await call(ctx.app, 'POST', '/api/org/invites/accept', {
        body: { token: created.token },
      });
      assertProblem(accept, 400);
      assert.equal(accept.data.code, 'invite_expired');
      const again = await invite(ctx, owner, 'member', created.email);
      assert.notEqual(again.id, created.id);
      const all = await call(ctx.app, 'GET', '/api/org/invites?status=all', { key: owner.key });
      assert.deepEqual(
        all.data.map((i: { id: number; status: string }) => [i.id, i.status]),
        [
          [again.id, 'pending'],
          [created.id, 'expired'],
        ],
      );
    } finally {
      clock.set('2026-11-21T10:00:00Z');
    }
  });

  test('an organisation holds at most 100 pending invites', async () => {
    const owner = await createOwner(ctx);
    for (let i = 0; i < 100; i++) await invite(ctx, owner);
    const full = await call(ctx.app, 'POST', '/api/org/invites', {
      key: owner.key,
      body: { email: uniqueEmail(), role: 'member' },
    });
    assertProblem(full, 409);
    assert.equal(full.data.code, 'too_many_pending_invites');
    const list = await call(ctx.app, 'GET', '/api/org/invites', { key: owner.key });
    assert.equal(list.data.length, 100);
    const page = await call(ctx.app, 'GET', '/api/org/invites?limit=10&offset=95', { key: owner.key });
    assert.equal(page.data.length, 5);
  });
});
