import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { DAY_MS, ManualClock } from '../../../src/platform/clock.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { createOwner, invite, join } from './helpers.ts';

type Member = Awaited<ReturnType<typeof join>>;

/** The account's row and its one membership. */
async function account(ctx: TestContext, userId: number) {
  const rows = await sql<{
    organisation_id: number;
    role: string;
    organization_role: string;
    is_active: number;
    plan: string;
    current_period_end: number;
    left_organisation_id: number | null;
  }>`
    select m.organisation_id, m.role, u.organization_role, u.is_active, u.plan, u.current_period_end,
      u.left_organisation_id
    from organisation_members m join users u on u.id = m.user_id where m.user_id = ${userId}`.execute(
    ctx.app.services.db,
  );
  assert.equal(rows.rows.length, 1, 'exactly one membership');
  const row = rows.rows[0]!;
  return {
    ...row,
    organisation_id: Number(row.organisation_id),
    current_period_end: Number(row.current_period_end),
    left_organisation_id: row.left_organisation_id === null ? null : Number(row.left_organisation_id),
  };
}

async function organisationExists(ctx: TestContext, id: number): Promise<boolean> {
  const rows = await sql`select id from organisations where id = ${id}`.execute(ctx.app.services.db);
  return rows.rows.length === 1;
}

const remove = (ctx: TestContext, by: Member, member: Member) =>
  call(ctx.app, 'DELETE', `/api/org/members/${member.memberId}`, { key: by.key });

const inviteEmail = (ctx: TestContext, by: { key: string }, email: string, role = 'member') =>
  call(ctx.app, 'POST', '/api/org/invites', { key: by.key, body: { email, role } });

const accept = (ctx: TestContext, token: string, fullName?: string) =>
  call(ctx.app, 'POST', '/api/org/invites/accept', {
    body: fullName === undefined ? { token } : { token, full_name: fullName },
  });

const setActive = (ctx: TestContext, userId: number, active: boolean) =>
  call(ctx.app, 'PATCH', `/api/admin/users/${userId}`, { key: ctx.operatorKey, body: { is_active: active } });

describe('inviting back a member who was removed or left', () => {
  let ctx: TestContext;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  before(async () => {
    ctx = await buildTestApp({ clock });
  });
  after(async () => ctx.close());

  test('a removed member invited back rejoins with the new role, a new key that works, old keys revoked and their interests kept', async () => {
    const owner = await createOwner(ctx);
    const member = await join(ctx, owner, 'member');
    const interest = await call(ctx.app, 'POST', '/api/user/interests', {
      key: member.key,
      body: { keyword: 'solar' },
    });
    assert.equal(interest.statusCode, 201, interest.body);
    const ownOrganisation = (await account(ctx, owner.userId)).organisation_id;
    assert.equal((await remove(ctx, owner, member)).statusCode, 204);
    const removed = await account(ctx, member.userId);
    assert.equal(removed.is_active, 0);
    assert.equal(removed.left_organisation_id, ownOrganisation, 'remembers the organisation it left');
    assert.notEqual(removed.organisation_id, ownOrganisation);
    // Meanwhile the operator moved the disabled account to another plan; it rejoins on the inviter's.
    const downgraded = await call(ctx.app, 'PATCH', `/api/admin/users/${member.userId}`, {
      key: ctx.operatorKey,
      body: { plan: 'developer' },
    });
    assert.equal(downgraded.statusCode, 200);
    clock.advance(3 * DAY_MS);

    const invited = await inviteEmail(ctx, owner, member.email, 'admin');
    assert.equal(invited.statusCode, 201, invited.body);
    assert.equal(invited.data.email, member.email);
    assert.equal(invited.data.role, 'admin');
    const ownerLog = await call(ctx.app, 'GET', '/api/user/audit-log', { key: owner.key });
    assert.equal(ownerLog.data.entries[0].action, 'org.invite.created');
    assert.match(ownerLog.data.entries[0].detail, /back into the organisation as admin/);

    const accepted = await accept(ctx, invited.data.token, 'Returning Member');
    assert.equal(accepted.statusCode, 201, accepted.body);
    // The same shape as a new acceptance: the account (the same one) and its first key, shown once.
    assert.deepEqual(Object.keys(accepted.data).sort(), ['api_key', 'user']);
    const { user, api_key: key } = accepted.data;
    assert.equal(user.id, member.userId);
    assert.equal(user.email, member.email);
    assert.equal(user.full_name, 'Returning Member');
    assert.equal(user.organization_role, 'admin');
    assert.equal(user.is_active, true);
    assert.equal(user.subscription.plan_name, 'enterprise');
    assert.equal(user.subscription.status, 'active');
    assert.equal(
      user.subscription.current_period_end,
      new Date(Date.parse('2026-12-24T00:00:00Z')).toISOString(),
    );
    assert.match(key.api_key, /^cw_[0-9A-Za-z]{40}$/);
    assert.equal(key.name, 'first key');
    assert.deepEqual(key.permissions, ['read', 'write']);

    const profile = await call(ctx.app, 'GET', '/api/user/profile', { key: key.api_key });
    assert.equal(profile.statusCode, 200, profile.body);
    assert.deepEqual(profile.data, user);
    const old = await call(ctx.app, 'GET', '/api/user/profile', { key: member.key });
    assertProblem(old, 401);
    assert.equal(old.data.code, 'api_key_revoked');
    const interests = await call(ctx.app, 'GET', '/api/user/interests', { key: key.api_key });
    assert.deepEqual(
      interests.data.map((i: { id: number; user_id: number }) => [i.id, i.user_id]),
      [[interest.data.id, member.userId]],
    );
    const keys = await call(ctx.app, 'GET', '/api/user/api-keys', { key: key.api_key });
    assert.deepEqual(
      keys.data.keys.filter((k: { is_active: boolean }) => k.is_active).map((k: { id: number }) => k.id),
      [key.id],
      'the new key is the only one that works',
    );

    // A member of the organisation again, with the invited role; the organisation it stood in is gone.
    const members = await call(ctx.app, 'GET', '/api/org/members', { key: owner.key });
    assert.deepEqual(
      members.data.map((m: { user_id: number; role: string }) => [m.user_id, m.role]),
      [
        [owner.userId, 'owner'],
        [member.userId, 'admin'],
      ],
    );
    const back = await account(ctx, member.userId);
    assert.deepEqual(
      { ...back, current_period_end: undefined },
      {
        organisation_id: ownOrganisation,
        role: 'admin',
        organization_role: 'admin',
        is_active: 1,
        plan: 'enterprise',
        current_period_end: undefined,
        left_organisation_id: null,
      },
    );
    assert.equal(await organisationExists(ctx, removed.organisation_id), false);
    // Both invites of the email are accepted: the first join and this one, newest first.
    const invites = await call(ctx.app, 'GET', '/api/org/invites?status=accepted', { key: owner.key });
    assert.deepEqual(
      invites.data.map((i: { id: number; email: string }) => [i.id, i.email]),
      [
        [invited.data.id, member.email],
        [invites.data[1].id, member.email],
      ],
    );
    // Audited as a new member is, saying the account rejoined; the new admin can invite at once.
    const memberLog = await call(ctx.app, 'GET', '/api/user/audit-log', { key: key.api_key });
    assert.deepEqual(
      memberLog.data.entries.slice(0, 2).map((e: { action: string }) => e.action),
      ['org.member.joined', 'api_key.created'],
    );
    assert.match(memberLog.data.entries[0].detail, /^Rejoined the organisation of .* as admin/);
    const inviterLog = await call(ctx.app, 'GET', '/api/user/audit-log', { key: owner.key });
    assert.equal(inviterLog.data.entries[0].action, 'org.invite.accepted');
    assert.match(inviterLog.data.entries[0].detail, /rejoined as admin/);
    await invite(ctx, { ...member, key: key.api_key });
    // Now a member again, so a second invite is `already_member`.
    const again = await inviteEmail(ctx, owner, member.email);
    assertProblem(again, 409);
    assert.equal(again.data.code, 'already_member');
  });

  test('a member who left is invited back by the organisation they left, through the accept page', async () => {
    const owner = await createOwner(ctx);
    const member = await join(ctx, owner, 'admin');
    const left = await call(ctx.app, 'DELETE', `/api/org/members/${member.memberId}`, { key: member.key });
    assert.equal(left.statusCode, 204);
    const invited = await inviteEmail(ctx, owner, member.email, 'member');
    assert.equal(invited.statusCode, 201, invited.body);

    const page = await call(ctx.app, 'GET', `/api/org/invites/accept?token=${invited.data.token}`);
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes('Accept and rejoin'), page.body);
    const form = await ctx.app.inject({
      method: 'POST',
      url: '/api/org/invites/accept',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${invited.data.token}&full_name=`,
    });
    assert.equal(form.statusCode, 201, form.body);
    assert.match(String(form.headers['content-type']), /^text\/html/);
    assert.ok(form.body.includes('Welcome back'), form.body);
    const key = /cw_[0-9A-Za-z]{40}/.exec(form.body)?.[0];
    assert.ok(key, 'the page shows the new key');
    const profile = await call(ctx.app, 'GET', '/api/user/profile', { key });
    assert.equal(profile.statusCode, 200);
    assert.equal(profile.data.id, member.userId);
    assert.equal(profile.data.organization_role, 'member');
    assert.equal(profile.data.full_name, 'New admin', 'an empty name keeps the one it had');
    const members = await call(ctx.app, 'GET', '/api/org/members', { key });
    assert.deepEqual(
      members.data.map((m: { user_id: number; role: string }) => [m.user_id, m.role]),
      [
        [owner.userId, 'owner'],
        [member.userId, 'member'],
      ],
    );
  });

  test('another organisation inviting a removed account → 409 email_taken', async () => {
    const owner = await createOwner(ctx);
    const member = await join(ctx, owner);
    assert.equal((await remove(ctx, owner, member)).statusCode, 204);
    const other = await createOwner(ctx);
    const res = await inviteEmail(ctx, other, member.email);
    assertProblem(res, 409);
    assert.equal(res.data.code, 'email_taken');
  });

  test('an account the operator disabled without a removal → 409 email_taken', async () => {
    const owner = await createOwner(ctx);
    const standalone = await createUser(ctx);
    assert.equal((await setActive(ctx, standalone.userId, false)).statusCode, 200);
    const res = await inviteEmail(ctx, owner, standalone.email);
    assertProblem(res, 409);
    assert.equal(res.data.code, 'email_taken');
    // A member the operator disabled is still a member.
    const member = await join(ctx, owner);
    assert.equal((await setActive(ctx, member.userId, false)).statusCode, 200);
    const again = await inviteEmail(ctx, owner, member.email);
    assertProblem(again, 409);
    assert.equal(again.data.code, 'already_member');
  });

  test('a removed account the operator re-enabled → 409 email_taken, also once disabled again', async () => {
    const owner = await createOwner(ctx);
    const member = await join(ctx, owner);
    assert.equal((await remove(ctx, owner, member)).statusCode, 204);
    assert.equal((await setActive(ctx, member.userId, true)).statusCode, 200);
    const res = await inviteEmail(ctx, owner, member.email);
    assertProblem(res, 409);
    assert.equal(res.data.code, 'email_taken');
    // The operator's enabling ends the organisation's claim: disabled again, it still cannot be invited back.
    assert.equal((await setActive(ctx, member.userId, false)).statusCode, 200);
    const again = await inviteEmail(ctx, owner, member.email);
    assertProblem(again, 409);
    assert.equal(again.data.code, 'email_taken');
  });

  test('a removed account no longer alone in the organisation it was moved to → 409 email_taken', async () => {
    const owner = await createOwner(ctx);
    const member = await join(ctx, owner);
    assert.equal((await remove(ctx, owner, member)).statusCode, 204);
    // Re-enabled with a key, it invites someone into its own organisation; then it is disabled again.
    assert.equal((await setActive(ctx, member.userId, true)).statusCode, 200);
    const operatorKey = await call(ctx.app, 'POST', `/api/admin/users/${member.userId}/api-keys`, {
      key: ctx.operatorKey,
      body: { name: 'again', permissions: ['read', 'write'] },
    });
    assert.equal(operatorKey.statusCode, 201);
    await join(ctx, { ...member, key: operatorKey.data.api_key });
    assert.equal((await setActive(ctx, member.userId, false)).statusCode, 200);
    const res = await inviteEmail(ctx, owner, member.email);
    assertProblem(res, 409);
    assert.equal(res.data.code, 'email_taken');
  });

  test('the operator re-enabling the account between invite and acceptance → 409 email_taken; the invite stays pending', async () => {
    const owner = await createOwner(ctx);
    const member = await join(ctx, owner);
    assert.equal((await remove(ctx, owner, member)).statusCode, 204);
    const invited = await inviteEmail(ctx, owner, member.email);
    assert.equal(invited.statusCode, 201, invited.body);
    const before = await account(ctx, member.userId);
    assert.equal((await setActive(ctx, member.userId, true)).statusCode, 200);
    const res = await accept(ctx, invited.data.token);
    assertProblem(res, 409);
    assert.equal(res.data.code, 'email_taken');
    assert.deepEqual(
      await account(ctx, member.userId),
      { ...before, is_active: 1, left_organisation_id: null },
      'nothing moved (the operator enabling it ended the claim)',
    );
    const pending = await call(ctx.app, 'GET', '/api/org/invites', { key: owner.key });
    assert.deepEqual(
      pending.data.map((i: { id: number; status: string }) => [i.id, i.status]),
      [[invited.data.id, 'pending']],
    );
  });

  test('a key the operator issued to the account while it stood disabled stays revoked once it rejoins', async () => {
    const owner = await createOwner(ctx);
    const member = await join(ctx, owner);
    assert.equal((await remove(ctx, owner, member)).statusCode, 204);
    const operatorKey = await call(ctx.app, 'POST', `/api/admin/users/${member.userId}/api-keys`, {
      key: ctx.operatorKey,
      body: { name: 'while disabled', permissions: ['read', 'write'] },
    });
    assert.equal(operatorKey.statusCode, 201, operatorKey.body);
    const invited = await inviteEmail(ctx, owner, member.email);
    assert.equal(invited.statusCode, 201, invited.body);
    const accepted = await accept(ctx, invited.data.token);
    assert.equal(accepted.statusCode, 201, accepted.body);
    const operatorIssued = await call(ctx.app, 'GET', '/api/user/profile', { key: operatorKey.data.api_key });
    assertProblem(operatorIssued, 401);
    assert.equal(operatorIssued.data.code, 'api_key_revoked');
    const fresh = await call(ctx.app, 'GET', '/api/user/profile', { key: accepted.data.api_key.api_key });
    assert.equal(fresh.statusCode, 200);
  });
});
