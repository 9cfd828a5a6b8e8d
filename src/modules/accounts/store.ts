// SQL for users and API keys. Other modules and the platform read them through AccountsService or ports the
// composition root fills with these methods; the organisation a new user joins is written through the
// Memberships port (the organisations module's tables).

import type { Transaction } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import type { Permission, Principal } from '../../platform/auth.ts';
import type { Dialect } from '../../platform/db/index.ts';
import type { PlanName } from '../../platform/plans.ts';
import type { ApiKeyRow, NewUser, UserRow, UserUpdate } from './tables.ts';

interface NewApiKey {
  user_id: number;
  name: string;
  prefix: string;
  key_hash: string;
  permissions: Permission[];
  created_at: number;
  expires_at: number | null;
}

/** Ids per statement of the reads by many user ids. */
const ID_CHUNK = 500;

export class AccountsStore {
  constructor(
    private readonly db: DB,
    private readonly dialect: Dialect,
  ) {}

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

  /** Email and name of each of the users (absent ids are left out). */
  async identities(
    userIds: readonly number[],
    executor: Executor = this.db,
  ): Promise<Map<number, { email: string; full_name: string | null }>> {
    const out = new Map<number, { email: string; full_name: string | null }>();
    const ids = [...new Set(userIds)];
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const rows = await executor
        .selectFrom('users')
        .select(['id', 'email', 'full_name'])
        .where('id', 'in', ids.slice(i, i + ID_CHUNK))
        .execute();
      for (const row of rows) out.set(row.id, { email: row.email, full_name: row.full_name });
    }
    return out;
  }

  /** Which of the users are enabled. */
  async activeAmong(userIds: readonly number[]): Promise<Set<number>> {
    const out = new Set<number>();
    const ids = [...new Set(userIds)];
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const rows = await this.db
        .selectFrom('users')
        .select('id')
        .where('id', 'in', ids.slice(i, i + ID_CHUNK))
        .where('is_active', '=', 1)
        .execute();
      for (const row of rows) out.add(row.id);
    }
    return out;
  }

  async planOf(userId: number, executor: Executor = this.db): Promise<string | undefined> {
    const row = await executor.selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
    return row?.plan;
  }

  /**
   * Whether the account is enabled and which organisation it was removed from (or left); on PostgreSQL the
   * row is locked when `lock` is set, so an operator re-enabling it meanwhile waits for (or is seen by) the
   * caller's transaction.
   */
  async standing(
    userId: number,
    executor: Executor,
    lock = false,
  ): Promise<{ is_active: number; left_organisation_id: number | null } | undefined> {
    let query = executor
      .selectFrom('users')
      .select(['is_active', 'left_organisation_id'])
      .where('id', '=', userId);
    if (lock && this.dialect === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return (
      row && {
        is_active: Number(row.is_active),
        left_organisation_id: row.left_organisation_id === null ? null : Number(row.left_organisation_id),
      }
    );
  }

  /** Whether an account stands marked as having left the organisation (which may invite it back). */
  async anyLeft(organisationId: number, executor: Executor): Promise<boolean> {
    const row = await executor
      .selectFrom('users')
      .select('id')
      .where('left_organisation_id', '=', organisationId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
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

  /** A key's permissions (JSON) and expiry as stored now, or undefined when it no longer exists. */
  keyGrant(keyId: number) {
    return this.db
      .selectFrom('api_keys')
      .select(['permissions', 'expires_at'])
      .where('id', '=', keyId)
      .executeTakeFirst();
  }

  /** Records when keys were last used (key id → instant); a later use already stored is kept. */
  async markKeysUsed(used: ReadonlyMap<number, number>): Promise<void> {
    for (const [id, at] of used) {
      await this.db
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute();
    }
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
