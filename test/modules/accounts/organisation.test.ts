import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Database, DB } from '../../../src/database.ts';
import { openDatabase } from '../../../src/platform/db/index.ts';
import { assertProblem, build, call, TEST_SECRET_KEY } from '../../helpers/app.ts';
import { createTestDatabase } from '../../helpers/db.ts';

async function memberships(db: DB, email: string) {
  const rows = await sql<{ organisation_id: number; role: string; organization_role: string }>`
    select m.organisation_id, m.role, u.organization_role
    from users u join organisation_members m on m.user_id = u.id where u.email = ${email}`.execute(db);
  return rows.rows;
}

async function count(db: DB, table: string): Promise<number> {
  const rows = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows.rows[0]!.n);
}

describe('every user is created with an organisation', () => {
  test('the operator route and the bootstrap operator: owners of organisations of their own', async (t) => {
    const ctx = await build(t);
    const db = ctx.app.services.db;
    const profile = await call(ctx.app, 'GET', '/api/user/profile', { key: ctx.operatorKey });
    assert.equal(profile.data.organization_role, 'owner');
    const operator = await memberships(db, profile.data.email);
    assert.deepEqual(
      operator.map((m) => [m.role, m.organization_role]),
      [['owner', 'owner']],
    );
    const created = await call(ctx.app, 'POST', '/api/admin/users', {
      key: ctx.operatorKey,
      body: { email: 'Dana@Example.com', full_name: 'Dana', plan: 'advantage' },
    });
    assert.equal(created.statusCode, 201);
    assert.equal(created.data.organization_role, 'owner');
    const dana = await memberships(db, 'dana@example.com');
    assert.equal(dana.length, 1);
    assert.equal(dana[0]!.role, 'owner');
    assert.notEqual(dana[0]!.organisation_id, operator[0]!.organisation_id);
    const listed = await call(ctx.app, 'GET', '/api/admin/users', { key: ctx.operatorKey });
    assert.ok(listed.data.users.every((u: { organization_role: string }) => u.organization_role === 'owner'));
    // A refused creation leaves no organisation behind.
    const organisations = await count(db, 'organisations');
    const again = await call(ctx.app, 'POST', '/api/admin/users', {
      key: ctx.operatorKey,
      body: { email: 'dana@example.com', plan: 'developer' },
    });
    assertProblem(again, 409);
    assert.equal(await count(db, 'organisations'), organisations);
  });

  test('`crestwatch users create` too, refusing what the operator route refuses', async (t) => {
    const database = await createTestDatabase();
    t.after(() => database.drop());
    const usersCreate = (...args: string[]) =>
      spawnSync(process.execPath, ['bin/crestwatch.mjs', 'users', 'create', ...args], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          DATA_DIR: database.dataDir,
          SECRET_KEY: TEST_SECRET_KEY,
          DATABASE_POOL_SIZE: '2',
          SOURCES: 'none',
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
    for (const [email, message] of [
      ['notanemail', /--email must match format "email"/],
      ['  ', /--email must match format "email"/],
    ] as const) {
      const refused = usersCreate('--email', email, '--plan', 'scale');
      assert.notEqual(refused.status, 0, refused.stdout);
      assert.match(refused.stderr, message);
    }
    const result = usersCreate('--email', 'cli@example.com', '--plan', 'scale');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /owner of an organisation of their own/);
    const handle = openDatabase<Database>(database.config);
    try {
      const rows = await memberships(handle.db, 'cli@example.com');
      assert.equal(await count(handle.db, 'users'), 1, 'the refused emails made no user');
      assert.deepEqual(
        rows.map((m) => [m.role, m.organization_role]),
        [['owner', 'owner']],
      );
    } finally {
      await handle.close();
    }
  });
});
