// The organisation routes against TrendsAGI's SDK 0.10.0 models (`OrgMember`, `OrgInvite` in models.py): the
// requests its client.py sends (`get_organization_members`, `get_organization_invites`: no query, no body),
// replayed against the app, each answer held field by field against the model, as the SDK parses it (a bare
// array, or a `members`/`invites` wrapper it unwraps).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, call, type Json, type TestContext } from '../helpers/app.ts';
import { createOwner, invite, join } from '../modules/organisations/helpers.ts';
import { checkModel, checkType, MODELS } from './upstream-models.ts';

// models.py, written down as upstream-models.ts does.
MODELS.OrgMember = {
  id: 'int',
  email: 'str',
  full_name: 'str?',
  role: 'str?',
  joined_at: 'datetime?',
  user_id: 'int?',
};
MODELS.OrgMemberListResponse = { members: 'list<OrgMember>' };
MODELS.OrgInvite = {
  id: 'int',
  email: 'str',
  role: 'str',
  invited_by_email: 'str?',
  status: 'str',
  created_at: 'datetime',
  expires_at: 'datetime',
};
MODELS.OrgInviteListResponse = { invites: 'list<OrgInvite>' };

/** What client.py does with the answer: unwrap `{members}` / `{invites}` if present, else parse the list. */
function sdkItems(body: Json | Json[], wrapper: string): unknown {
  return !Array.isArray(body) && body && typeof body === 'object' && wrapper in body ? body[wrapper] : body;
}

describe('upstream SDK: organisation members and invites', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await buildTestApp();
  });
  after(async () => ctx.close());

  test('get_organization_members: GET /api/org/members parses as list[OrgMember]', async () => {
    const owner = await createOwner(ctx);
    await join(ctx, owner, 'admin');
    const res = await call(ctx.app, 'GET', '/api/org/members', { key: owner.key });
    assert.equal(res.statusCode, 200);
    assert.ok(Array.isArray(res.data), 'upstream answers a bare array');
    const items = sdkItems(res.data, 'members');
    assert.deepEqual(checkType(items, 'list<OrgMember>', 'members'), []);
    assert.equal((items as unknown[]).length, 2);
    // A null full_name and role are allowed by the model; Crestwatch always sets role.
    for (const member of items as Json[]) assert.deepEqual(checkModel(member, 'OrgMember'), []);
  });

  test('get_organization_invites: GET /api/org/invites parses as list[OrgInvite], pending by default', async () => {
    const owner = await createOwner(ctx);
    await invite(ctx, owner, 'member');
    await invite(ctx, owner, 'admin');
    const res = await call(ctx.app, 'GET', '/api/org/invites', { key: owner.key });
    assert.equal(res.statusCode, 200);
    assert.ok(Array.isArray(res.data), 'upstream answers a bare array');
    const items = sdkItems(res.data, 'invites');
    assert.deepEqual(checkType(items, 'list<OrgInvite>', 'invites'), []);
    assert.deepEqual(
      (items as Json[]).map((i) => i.status),
      ['pending', 'pending'],
    );
  });

  test('the created invite is an OrgInvite too (plus the one-time token and accept_url)', async () => {
    const owner = await createOwner(ctx);
    const created = await invite(ctx, owner, 'member');
    assert.deepEqual(checkModel(created, 'OrgInvite'), []);
    assert.equal(typeof created.token, 'string');
    assert.equal(typeof created.accept_url, 'string');
  });
});
