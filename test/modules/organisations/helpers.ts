// Shared steps of the organisation tests: an owner (created by the operator) and members joined by invite.
import assert from 'node:assert/strict';
import { call, createUser, type TestContext } from '../../helpers/app.ts';

interface Member {
  userId: number;
  key: string;
  email: string;
  /** The membership id (OrgMember `id`). */
  memberId: number;
}

let counter = 0;
export const uniqueEmail = (label = 'invitee') =>
  `${label}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** A new user on `plan` (enterprise by default: no burst limit under a manual clock; owner of an organisation of their own) with a read+write key and their membership id. */
export async function createOwner(ctx: TestContext, plan = 'enterprise'): Promise<Member> {
  const user = await createUser(ctx, plan);
  const members = await call(ctx.app, 'GET', '/api/org/members', { key: user.key });
  assert.equal(members.statusCode, 200, members.body);
  return { userId: user.userId, key: user.key, email: user.email, memberId: members.data[0].id };
}

/** `inviter` invites a fresh email with `role`; returns the created invite (with its token). */
export async function invite(ctx: TestContext, inviter: Member, role = 'member', email = uniqueEmail()) {
  const res = await call(ctx.app, 'POST', '/api/org/invites', { key: inviter.key, body: { email, role } });
  assert.equal(res.statusCode, 201, res.body);
  return res.data;
}

/** Invites and accepts: a member of `inviter`'s organisation with `role`, holding their first key. */
export async function join(ctx: TestContext, inviter: Member, role = 'member'): Promise<Member> {
  const created = await invite(ctx, inviter, role);
  const accepted = await call(ctx.app, 'POST', '/api/org/invites/accept', {
    body: { token: created.token, full_name: `New ${role}` },
  });
  assert.equal(accepted.statusCode, 201, accepted.body);
  const members = await call(ctx.app, 'GET', '/api/org/members', { key: accepted.data.api_key.api_key });
  const me = members.data.find((m: { user_id: number }) => m.user_id === accepted.data.user.id);
  return {
    userId: accepted.data.user.id,
    key: accepted.data.api_key.api_key,
    email: accepted.data.user.email,
    memberId: me.id,
  };
}
