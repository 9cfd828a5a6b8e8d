import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../../src/database.ts';
import { migrateAppTo, migrateAppToLatest } from '../../../src/migrations.ts';
import { openDatabase } from '../../../src/platform/db/index.ts';
import { buildTestApp, call } from '../../helpers/app.ts';
import { createTestDatabase } from '../../helpers/db.ts';

test('the migration gives every existing user an organisation of their own, as owner', async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const handle = openDatabase<Database>(database.config);
  try {
    await migrateAppTo(handle, '0012_blog_tags');
    const at = Date.parse('2026-01-02T03:04:05Z');
    const user = (email: string, role: string, fullName: string | null) => ({
      email,
      full_name: fullName,
      is_active: 1,
      organization_role: role,
      plan: 'developer',
      subscription_status: 'active',
      current_period_end: null,
      cancel_at_period_end: 0,
      created_at: at,
      updated_at: at,
    });
    await handle.db
      .insertInto('users')
      .values([
        user('operator@crestwatch.local', 'admin', 'Operator'),
        user('ada@example.com', 'owner', 'Ada Lovelace'),
        user('bob@example.com', 'owner', null),
      ])
      .execute();
    assert.ok((await migrateAppToLatest(handle)).includes('0013.1_organisations'));
    const rows = await sql<{
      email: string;
      name: string;
      role: string;
      organization_role: string;
      joined_at: number;
    }>`
      select u.email, o.name, m.role, u.organization_role, m.joined_at
      from users u join organisation_members m on m.user_id = u.id join organisations o on o.id = m.organisation_id
      order by u.id`.execute(handle.db);
    assert.deepEqual(
      rows.rows.map((r) => ({ ...r, joined_at: Number(r.joined_at) })),
      [
        {
          email: 'operator@crestwatch.local',
          name: 'Operator',
          role: 'owner',
          organization_role: 'owner',
          joined_at: at,
        },
        {
          email: 'ada@example.com',
          name: 'Ada Lovelace',
          role: 'owner',
          organization_role: 'owner',
          joined_at: at,
        },
        {
          email: 'bob@example.com',
          name: 'bob@example.com',
          role: 'owner',
          organization_role: 'owner',
          joined_at: at,
        },
      ],
    );
    const orgs = await sql<{
      n: number;
    }>`select count(distinct organisation_id) as n from organisation_members`.execute(handle.db);
    assert.equal(Number(orgs.rows[0]!.n), 3, 'one organisation each');
  } finally {
    await handle.close();
  }
  // The pre-existing operator is recognised as such on start: no second operator, and it may invite.
  const ctx = await buildTestApp({ database });
  try {
    const users = await sql<{ n: number }>`select count(*) as n from users`.execute(ctx.app.services.db);
    assert.equal(Number(users.rows[0]!.n), 3, 'the operator created at start is the existing one');
    const created = await call(ctx.app, 'POST', '/api/admin/users', {
      key: ctx.operatorKey,
      body: { email: 'carol@example.com', plan: 'developer' },
    });
    assert.equal(created.statusCode, 201);
    assert.equal(created.data.organization_role, 'owner');
  } finally {
    await ctx.app.close();
  }
});
