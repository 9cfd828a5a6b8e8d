// SQL for users, API keys, audit log entries and stored usage.

import type { Transaction } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import type { Permission, Principal } from '../../platform/auth.ts';
import type { ApiKeyRow, NewUser, UserRow, UserUpdate } from '../../platform/db/schema.ts';
import type { PlanName } from '../../platform/plans.ts';

interface NewApiKey {
  user_id: number;
  name: string;
  prefix: string;
  key_hash: string;
  permissions: Permission[];
  created_at: number;
  expires_at: number | null;
}

export class AccountsStore {
  constructor(private readonly db: DB) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async findPrincipalByHash(hash: string): Promise<Principal | null> {
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .selectAll('users')
      .select([
        'api_keys.id as key_id',
        'api_keys.permissions as key_permissions',
        'api_keys.expires_at as key_expires_at',
        'api_keys.revoked_at as key_revoked_at',
        'api_keys.rotated_to_id as key_rotated_to_id',
      ])
      .where('api_keys.key_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return null;
    const { key_id, key_permissions, key_expires_at, key_revoked_at, key_rotated_to_id, ...user } = row;
    return {
      userId: user.id,
      email: user.email,
      plan: user.plan as PlanName,
      userActive: user.is_active === 1,
      user,
      keyId: key_id,
      keyPermissions: JSON.parse(key_permissions) as Permission[],
      keyExpiresAt: key_expires_at,
      keyRevokedAt: key_revoked_at,
      keyRotated: key_rotated_to_id !== null,
    };
  }

  async insertUser(user: NewUser, executor: Executor = this.db): Promise<UserRow> {
    return executor.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  }

  findUserById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findUserByEmail(email: string, executor: Executor = this.db): Promise<UserRow | undefined> {
    return executor.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async listUsers(limit: number, offset: number): Promise<{ users: UserRow[]; total: number }> {
    const [users, count] = await Promise.all([
      this.db.selectFrom('users').selectAll().orderBy('id', 'asc').limit(limit).offset(offset).execute(),
      this.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { users, total: Number(count.n) };
  }

  async insertOrganisation(name: string, now: number, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .insertInto('organisations')
      .values({ name, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async insertMembership(
    membership: { organisation_id: number; user_id: number; role: string; joined_at: number },
    executor: Executor = this.db,
  ): Promise<void> {
    await executor.insertInto('organisation_members').values(membership).execute();
  }

  /** Revokes every key of the user still unrevoked; returns how many. */
  async revokeAllKeys(userId: number, now: number, executor: Executor = this.db): Promise<number> {
    const result = await executor
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async updateUser(
    id: number,
    changes: UserUpdate,
    executor: Executor = this.db,
  ): Promise<UserRow | undefined> {
    return executor.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async insertKey(key: NewApiKey, executor: Executor = this.db): Promise<ApiKeyRow> {
    return executor
      .insertInto('api_keys')
      .values({ ...key, permissions: JSON.stringify(key.permissions) })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  findKeyByHash(hash: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst();
  }

  /** The id of the user who owns a key (whoever that is: the operator's CLI acts for any user). */
  async keyOwnerId(keyId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select('user_id')
      .where('id', '=', keyId)
      .executeTakeFirst();
    return row?.user_id;
  }

  findKey(userId: number, keyId: number): Promise<ApiKeyRow | undefined> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', keyId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  listKeys(userId: number): Promise<ApiKeyRow[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
  }

  /**
   * Keys in use (neither revoked nor rotated away) whose expiry falls in (from, to], by id: the page after
   * `afterId`.
   */
  keysExpiringBetween(from: number, to: number, afterId: number, limit: number) {
    return this.db
      .selectFrom('api_keys')
      .select(['id', 'user_id', 'name', 'prefix', 'expires_at'])
      .where('revoked_at', 'is', null)
      .where('rotated_to_id', 'is', null)
      .where('expires_at', '>', from)
      .where('expires_at', '<=', to)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .$narrowType<{ expires_at: number }>()
      .execute();
  }

  async updateKey(
    keyId: number,
    changes: { revoked_at?: number; expires_at?: number | null; rotated_to_id?: number },
    executor: Executor = this.db,
  ): Promise<void> {
    await executor.updateTable('api_keys').set(changes).where('id', '=', keyId).execute();
  }
}
