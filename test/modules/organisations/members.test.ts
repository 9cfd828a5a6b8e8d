import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { ManualClock } from '../../../src/platform/clock.ts';
import { assertProblem, buildTestApp, call, type TestContext } from '../../helpers/app.ts';
import { testRedisUrl } from '../../helpers/db.ts';
import { createOwner, invite, join } from './helpers.ts';

async function membership(ctx: TestContext, userId: number) {
  const rows = await sql<{
    organisation_id: number;
    role: string;
    organization_role: string;
    is_active: number;
  }>`
    select m.organisation_id, m.role, u.organization_role, u.is_active
    from organisation_members m join users u on u.id = m.user_id where m.user_id = ${userId}`.execute(
    ctx.app.services.db,
  );
  assert.equal(rows.rows.length, 1, 'exactly one membership');
  return rows.rows[0]!;
}

describe('organisation roles and removals', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  before(async () => {
    ctx = await buildTestApp({ clock });
  });
  after(async () => ctx.close());

  test('an owner changes roles; the profile reflects it on the next request; both logs record it', async () => {
    const owner = await createOwner(ctx);
    const member = await join(ctx, owner);
    // Cache the member's key with their old role.
    const before = await call(ctx.app, 'GET', '/api/user/profile', { key: member.key });
    assert.equal(before.data.organization_role, 'member');
    const res = await call(ctx.app, 'PATCH', `/api/org/members/${member.memberId}`, {
      key: owner.key,
      body: { role: 'admin' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      { id: res.data.id, role: res.data.role, user_id: res.data.user_id, email: res.data.email },
      { id: member.memberId, role: 'admin', user_id: member.userId, email: member.email },
    );
    const after = await call(ctx.app, 'GET', '/api/user/profile', { key: member.key });
    assert.equal(after.data.organization_role, 'admin');
    const row = await membership(ctx, member.userId);
    assert.equal(row.role, 'admin');
    assert.equal(row.organization_role, 'admin');
    for (const key of [owner.key, member.key]) {
      const log = await call(ctx.app, 'GET', '/api/user/audit-log', { key });
      assert.equal(log.data.entries[0].action, 'org.member.role_changed');
      assert.match(log.data.entries[0].detail, /from member to admin/);
    }
    // The same role again is a no-op.
    const same = await call(ctx.app, 'PATCH', `/api/org/members/${member.memberId}`, {
      key: owner.key,
      body: { role: 'admin' },
    });
    assert.equal(same.statusCode, 200);
    assert.equal(same.data.role, 'admin');
  });

  test('admins cannot touch owners or grant owner; members change nothing; other organisations → 404', async () => {
    const owner = await createOwner(ctx);
    const admin = await join(ctx, owner, 'admin');
    const member = await join(ctx, owner, 'member');
    const other = await createOwner(ctx);
    const patch = (key: string, id: number, role: string) =>
      call(ctx.app, 'PATCH', `/api/org/members/${id}`, { key, body: { role } });

    const onOwner = await patch(admin.key, owner.memberId, 'member');
    assertProblem(onOwner, 403);
    assert.equal(onOwner.data.code, 'owner_role_required');
    const grant = await patch(admin.key, member.memberId, 'owner');
    assertProblem(grant, 403);
    assert.equal(grant.data.code, 'owner_role_required');
    const selfPromote = await patch(admin.key, admin.memberId, 'owner');
    assertProblem(selfPromote, 403);
    const byMember = await patch(member.key, member.memberId, 'admin');
    assertProblem(byMember, 403);
    assert.equal(byMember.data.code, 'org_admin_required');
    assertProblem(await patch(other.key, member.memberId, 'admin'), 404);
    assertProblem(await patch(admin.key, other.memberId, 'member'), 404);
    assertProblem(await patch(owner.key, 999_999, 'member'), 404);
    const bad = await patch(owner.key, member.memberId, 'superuser');
    assertProblem(bad, 400);
    assert.ok(bad.data.errors.some((e: { path: string }) => e.path === 'body.role'));
    const extra = await call(ctx.app, 'PATCH', `/api/org/members/${member.memberId}`, {
      key: owner.key,
      body: { role: 'admin', note: 'x' },
    });
    assertProblem(extra, 400);
    // An admin manages members and admins.
    assert.equal((await patch(admin.key, member.memberId, 'admin')).statusCode, 200);
    assert.equal((await patch(admin.key, member.memberId, 'member')).statusCode, 200);
    assert.equal((await membership(ctx, member.userId)).role, 'member');
  });

  test('the last owner can be neither demoted nor removed, nor leave; with two owners each can', async () => {
    const owner = await createOwner(ctx);
    const demote = await call(ctx.app, 'PATCH', `/api/org/members/${owner.memberId}`, {
      key: owner.key,
      body: { role: 'admin' },
    });
    assertProblem(demote, 409);
    assert.equal(demote.data.code, 'last_owner');
    const leave = await call(ctx.app, 'DELETE', `/api/org/members/${owner.memberId}`, { key: owner.key });
    assertProblem(leave, 409);
    assert.equal(leave.data.code, 'last_owner');
    const second = await join(ctx, owner, 'owner');
    const demoted = await call(ctx.app, 'PATCH', `/api/org/members/${owner.memberId}`, {
      key: second.key,
      body: { role: 'admin' },
    });
    assert.equal(demoted.statusCode, 200);
    // Now `second` is the last owner.
    const lastLeave = await call(ctx.app, 'DELETE', `/api/org/members/${second.memberId}`, {
      key: second.key,
    });
    assertProblem(lastLeave, 409);
    const byAdmin = await call(ctx.app, 'DELETE', `/api/org/members/${second.memberId}`, { key: owner.key });
    assertProblem(byAdmin, 403);
    assert.equal(byAdmin.data.code, 'owner_role_required');
    // Promoted back, the first owner may let the second leave.
    await call(ctx.app, 'PATCH', `/api/org/members/${owner.memberId}`, {
      key: second.key,
      body: { role: 'owner' },
    });
    const left = await call(ctx.app, 'DELETE', `/api/org/members/${second.memberId}`, { key: second.key });
    assert.equal(left.statusCode, 204);
    assertProblem(await call(ctx.app, 'GET', '/api/org/members', { key: second.key }), 401);
  });

  test('two owners removing each other at once: one succeeds, the organisation keeps an owner', async () => {
    const owner = await createOwner(ctx);
    const second = await join(ctx, owner, 'owner');
    const [a, b] = await Promise.all([
      call(ctx.app, 'DELETE', `/api/org/members/${second.memberId}`, { key: owner.key }),
      call(ctx.app, 'DELETE', `/api/org/members/${owner.memberId}`, { key: second.key }),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    assert.equal(statuses[0], 204, `${a.body} ${b.body}`);
    // 409 when the other waited for the lock, 404 when it began after the removal (its caller then stood alone).
    assert.ok([401, 404, 409].includes(statuses[1]!), `the other is refused: ${a.body} ${b.body}`);
    const survivor = a.statusCode === 204 ? owner : second;
    const members = await call(ctx.app, 'GET', '/api/org/members', { key: survivor.key });
    assert.deepEqual(
      members.data.map((m: { user_id: number; role: string }) => [m.user_id, m.role]),
      [[survivor.userId, 'owner']],
    );
  });

  test('one token accepted twice at once: one account', async () => {
    const owner = await createOwner(ctx);
    const created = await invite(ctx, owner);
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        call(ctx.app, 'POST', '/api/org/invites/accept', { body: { token: created.token } }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.statusCode).sort(),
      [201, 400, 400],
      results.map((r) => r.body).join('\n'),
    );
    const members = await call(ctx.app, 'GET', '/api/org/members', { key: owner.key });
    assert.equal(members.data.length, 2);
  });

  test('a removed member’s keys answer 401 on their very next request; the account is disabled and stands alone', async () => {
    const owner = await createOwner(ctx);
    const admin = await join(ctx, owner, 'admin');
    const member = await join(ctx, owner, 'member');
    // A second key, and both used just before, so the verified keys sit in the cache.
    const second = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: member.key,
      body: { name: 'ci' },
    });
    assert.equal(second.statusCode, 201);
    for (const key of [member.key, second.data.api_key]) {
      assert.equal((await call(ctx.app, 'GET', '/api/org/members', { key })).statusCode, 200);
    }
    const pendingInvite = await invite(ctx, admin);
    const removed = await call(ctx.app, 'DELETE', `/api/org/members/${member.memberId}`, { key: admin.key });
    assert.equal(removed.statusCode, 204);
    for (const key of [member.key, second.data.api_key]) {
      const next = await call(ctx.app, 'GET', '/api/user/profile', { key });
      assertProblem(next, 401);
      assert.equal(next.data.code, 'api_key_revoked');
    }
    const members = await call(ctx.app, 'GET', '/api/org/members', { key: owner.key });
    assert.ok(!members.data.some((m: { user_id: number }) => m.user_id === member.userId));
    const row = await membership(ctx, member.userId);
    assert.equal(row.is_active, 0);
    assert.equal(row.role, 'owner', 'moved to an organisation of their own');
    assert.equal(row.organization_role, 'owner');
    const ownersOrg = await membership(ctx, owner.userId);
    assert.notEqual(row.organisation_id, ownersOrg.organisation_id);
    // The admin's pending invite is untouched; audit entries on both logs.
    const invites = await call(ctx.app, 'GET', '/api/org/invites', { key: owner.key });
    assert.ok(invites.data.some((i: { id: number }) => i.id === pendingInvite.id));
    const log = await call(ctx.app, 'GET', '/api/user/audit-log', { key: admin.key });
    assert.equal(log.data.entries[0].action, 'org.member.removed');
    assert.match(log.data.entries[0].detail, /2 API key\(s\) revoked, the account disabled/);
    const memberLog = await sql<{ action: string }>`
      select action from audit_log where user_id = ${member.userId} order by id desc`.execute(
      ctx.app.services.db,
    );
    assert.equal(memberLog.rows[0]!.action, 'org.member.removed');
    // The operator can re-enable the account: it is then the owner of its own organisation, with new keys.
    const enabled = await call(ctx.app, 'PATCH', `/api/admin/users/${member.userId}`, {
      key: ctx.operatorKey,
      body: { is_active: true },
    });
    assert.equal(enabled.statusCode, 200);
    assert.equal(enabled.data.organization_role, 'owner');
    assertProblem(await call(ctx.app, 'GET', '/api/user/profile', { key: member.key }), 401);
  });

  test('removing an admin revokes the invites they sent; a member leaving is the same removal', async () => {
    const owner = await createOwner(ctx);
    const admin = await join(ctx, owner, 'admin');
    const member = await join(ctx, owner, 'member');
    const sent = await invite(ctx, admin);
    const byMember = await call(ctx.app, 'DELETE', `/api/org/members/${admin.memberId}`, { key: member.key });
    assertProblem(byMember, 403);
    const other = await createOwner(ctx);
    assertProblem(
      await call(ctx.app, 'DELETE', `/api/org/members/${admin.memberId}`, { key: other.key }),
      404,
    );
    assert.equal(
      (await call(ctx.app, 'DELETE', `/api/org/members/${admin.memberId}`, { key: owner.key })).statusCode,
      204,
    );
    const revoked = await call(ctx.app, 'GET', '/api/org/invites?status=revoked', { key: owner.key });
    assert.deepEqual(
      revoked.data.map((i: { id: number }) => i.id),
      [sent.id],
    );
    const accept = await call(ctx.app, 'POST', '/api/org/invites/accept', { body: { token: sent.token } });
    assertProblem(accept, 400);
    assert.equal(accept.data.code, 'invite_revoked');
    // The member leaves.
    const left = await call(ctx.app, 'DELETE', `/api/org/members/${member.memberId}`, { key: member.key });
    assert.equal(left.statusCode, 204);
    assertProblem(await call(ctx.app, 'GET', '/api/org/members', { key: member.key }), 401);
    const ownerMembers = await call(ctx.app, 'GET', '/api/org/members', { key: owner.key });
    assert.deepEqual(
      ownerMembers.data.map((m: { user_id: number }) => m.user_id),
      [owner.userId],
    );
    const log = await sql<{ action: string }>`
      select action from audit_log where user_id = ${member.userId} order by id desc`.execute(
      ctx.app.services.db,
    );
    assert.equal(log.rows[0]!.action, 'org.member.left');
  });
});

describe('a removed member’s key on another instance', { skip: !testRedisUrl && 'needs Redis' }, () => {
  test('answers 401 once the invalidation arrives (within 5 s)', async (t) => {
    const first = await buildTestApp();
    t.after(() => first.close());
    const second = await buildTestApp({
      database: first.database,
      operatorKey: first.operatorKey,
      redisPrefix: first.config.redisKeyPrefix,
    });
    t.after(() => second.app.close());
    const owner = await createOwner(first);
    const member = await join(first, owner);
    assert.equal((await call(second.app, 'GET', '/api/org/members', { key: member.key })).statusCode, 200);
    const removed = await call(first.app, 'DELETE', `/api/org/members/${member.memberId}`, {
      key: owner.key,
    });
    assert.equal(removed.statusCode, 204);
    assertProblem(await call(first.app, 'GET', '/api/org/members', { key: member.key }), 401);
    const deadline = Date.now() + 5000;
    let status = 200;
    while (Date.now() < deadline) {
      status = (await call(second.app, 'GET', '/api/org/members', { key: member.key })).statusCode;
      if (status === 401) break;
      await sleep(20);
    }
    assert.equal(status, 401);
  });
});
