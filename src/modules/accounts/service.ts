// Users, plans, API keys, audit log and the usage report. Knows nothing of HTTP.
import fs from 'node:fs';
import path from 'node:path';
import type { Executor } from '../../database.ts';
import type { Actor, AuditLog } from '../../platform/audit.ts';
import type { KeyCache, Permission } from '../../platform/auth.ts';
import { type Clock, DAY_MS, isoString, nextUtcMidnight, utcDate } from '../../platform/clock.ts';
import { randomBase62, sha256Hex } from '../../platform/crypto.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { estimateCost, type PlanName, type PlanTable } from '../../platform/plans.ts';
import type { RateLimits } from '../../platform/ratelimit.ts';
import type { UsageCounter } from '../../platform/usage.ts';
import type { AccountsStore } from './store.ts';
import type { ApiKeyRow, UserRow } from './tables.ts';

export const ALL_PERMISSIONS: Permission[] = ['read', 'write', 'ingest', 'admin'];
/** A member's role in their organisation (the organisations module manages them). */
export type OrganisationRole = 'owner' | 'admin' | 'member';
const DEFAULT_KEY_PERMISSIONS: Permission[] = ['read', 'write'];
export const DEFAULT_GRACE_SECONDS = 86_400;
const OPERATOR_EMAIL = 'operator@crestwatch.local';

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = `cw_${randomBase62(40)}`;
  return { key, prefix: key.slice(0, 11), hash: sha256Hex(key) };
}

interface ApiKeyView {
  id: number;
  name: string;
  prefix: string;
  created_at: string | null;
  last_used_at: string | null;
  expires_at: string | null;
  permissions: Permission[];
  is_active: boolean;
  rotated_to_id: number | null;
}

interface CreatedKeyView {
  id: number;
  name: string;
  api_key: string;
  prefix: string;
  created_at: string | null;
  expires_at: string | null;
  permissions: Permission[];
}

interface UserProfileView {
  id: number;
  email: string;
  full_name: string | null;
  is_active: boolean;
  organization_role: string;
  subscription: {
    plan_name: string;
    status: string;
    current_period_end: string | null;
    cancel_at_period_end: boolean;
  };
  created_at: string | null;
}

/**
 * Where a user's membership is written: the organisations module's tables, through its store (the composition
 * root gives it), in the caller's transaction, so a user never exists without one.
 */
interface Memberships {
  /** A new organisation; its id. */
  insertOrganisation(name: string, now: number, executor: Executor): Promise<number>;
  insertMember(
    member: { organisation_id: number; user_id: number; role: string; joined_at: number },
    executor: Executor,
  ): Promise<void>;
}

export class AccountsService {
  constructor(
    private readonly store: AccountsStore,
    private readonly deps: {
      clock: Clock;
      plans: PlanTable;
      cache: KeyCache;
      limits: RateLimits;
      usage: UsageCounter;
      audit: AuditLog;
      memberships: Memberships;
    },
  ) {}

  // ---------- views

  keyView(row: ApiKeyRow): ApiKeyView {
    const now = this.deps.clock.now();
    return {
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      created_at: isoString(row.created_at),
      last_used_at: isoString(row.last_used_at),
      expires_at: isoString(row.expires_at),
      permissions: JSON.parse(row.permissions) as Permission[],
      is_active: row.revoked_at === null && (row.expires_at === null || row.expires_at > now),
      rotated_to_id: row.rotated_to_id,
    };
  }

  profileView(user: UserRow): UserProfileView {
    // Rows cached with a verified key are reused for many requests; their view is built once.
    let view = this.profileViews.get(user);
    if (!view) {
      view = this.buildProfileView(user);
      this.profileViews.set(user, view);
    }
    return view;
  }

  private readonly profileViews = new WeakMap<UserRow, UserProfileView>();

  private buildProfileView(user: UserRow): UserProfileView {
    return {
      id: user.id,
      email: user.email,
      full_name: user.full_name,
      is_active: user.is_active === 1,
      organization_role: user.organization_role,
      subscription: {
        plan_name: user.plan,
        status: user.subscription_status,
        current_period_end: isoString(user.current_period_end),
        cancel_at_period_end: user.cancel_at_period_end === 1,
      },
      created_at: isoString(user.created_at),
    };
  }

  // ---------- users

  async profile(userId: number): Promise<UserProfileView> {
    const user = await this.store.findUserById(userId);
    if (!user) throw notFound('No such user.');
    return this.profileView(user);
  }

  /**
   * The one way a user comes into being (operator route, bootstrap, CLI, accepted invite): the user row and
   * their membership, in one transaction. Without `organisation` the user becomes the owner of an
   * organisation of their own; with it they join that organisation with that role.
   */
  async createUser(
    input: {
      email: string;
      full_name?: string | null;
      plan: PlanName;
      organisation?: { id: number; role: OrganisationRole };
    },
    actor: Actor | null,
    executor?: Executor,
  ): Promise<UserRow> {
    const email = input.email.trim().toLowerCase();
    const role = input.organisation?.role ?? 'owner';
    const work = async (trx: Executor): Promise<UserRow> => {
      if (await this.store.findUserByEmail(email, trx)) {
        throw conflict(`A user with the email ${email} already exists.`, 'email_taken');
      }
      const now = this.deps.clock.now();
      let user: UserRow;
      try {
        user = await this.store.insertUser(
          {
            email,
            full_name: input.full_name ?? null,
            is_active: 1,
            organization_role: role,
            ...newSubscription(input.plan, now),
            created_at: now,
            updated_at: now,
          },
          trx,
        );
      } catch (error) {
        if (/unique|duplicate/i.test((error as Error).message)) {
          throw conflict(`A user with the email ${email} already exists.`, 'email_taken');
        }
        throw error;
      }
      if (input.organisation) {
        await this.deps.memberships.insertMember(
          { organisation_id: input.organisation.id, user_id: user.id, role, joined_at: now },
          trx,
        );
      } else {
        await this.placeInOwnOrganisation(user, trx);
      }
      if (actor) {
        await this.deps.audit.record(
          actor.userId,
          actor,
          'user.created',
          'user',
          user.id,
          `User ${email} created on the ${input.plan} plan.`,
          trx,
        );
      }
      return user;
    };
    return executor ? work(executor) : this.store.transaction(work);
  }

  /**
   * Makes `user` (who belongs to no organisation at this point) the owner of a new organisation of their own,
   * in the caller's transaction (a new user; a member removed from their organisation).
   */
  async placeInOwnOrganisation(
    user: Pick<UserRow, 'id' | 'email' | 'full_name' | 'organization_role'>,
    executor: Executor,
  ): Promise<void> {
    const now = this.deps.clock.now();
    const organisationId = await this.deps.memberships.insertOrganisation(
      user.full_name ?? user.email,
      now,
      executor,
    );
    await this.deps.memberships.insertMember(
      { organisation_id: organisationId, user_id: user.id, role: 'owner', joined_at: now },
      executor,
    );
    if (user.organization_role !== 'owner') {
      await this.store.updateUser(user.id, { organization_role: 'owner', updated_at: now }, executor);
    }
  }

  /**
   * Revokes every key of the user and disables the account, in the caller's transaction, remembering the
   * organisation it was removed from (which may invite it back). The caller invalidates the key cache
   * (`{ userId }`) once that transaction has committed. Returns the keys revoked.
   */
  async disableUser(userId: number, leftOrganisationId: number, executor: Executor): Promise<number> {
    const now = this.deps.clock.now();
    const revoked = await this.store.revokeAllKeys(userId, now, executor);
    await this.store.updateUser(
      userId,
      { is_active: 0, left_organisation_id: leftOrganisationId, updated_at: now },
      executor,
    );
    return revoked;
  }

  /**
   * Brings back an account disabled by its removal from an organisation, as that organisation's new member
   * with `role`, in the caller's transaction (whose membership it moves): enabled again, on `plan` as a new
   * member would be, no longer marked as having left; `full_name` replaces its name when given. Any key it
   * still holds is revoked, so the first key the caller issues is the only one that works. The caller
   * invalidates the key cache (`{ userId }`) once that transaction has committed.
   */
  async reenableUser(
    userId: number,
    input: { full_name?: string | null; plan: PlanName; role: OrganisationRole },
    executor: Executor,
  ): Promise<UserRow> {
    const now = this.deps.clock.now();
    await this.store.revokeAllKeys(userId, now, executor);
    const user = await this.store.updateUser(
      userId,
      {
        ...(input.full_name != null ? { full_name: input.full_name } : {}),
        is_active: 1,
        organization_role: input.role,
        ...newSubscription(input.plan, now),
        left_organisation_id: null,
        updated_at: now,
      },
      executor,
    );
    if (!user) throw notFound('No such user.');
    return user;
  }

  // ---------- what other modules read of users (they query no users table themselves)

  /** Email and name of each of the users, by id (ids of no user are absent). */
  identities(userIds: readonly number[], executor?: Executor) {
    return this.store.identities(userIds, executor);
  }

  /** Which of the users are enabled: a disabled account (e.g. a removed member) gets nothing delivered. */
  activeAmong(userIds: readonly number[]): Promise<Set<number>> {
    return userIds.length === 0 ? Promise.resolve(new Set()) : this.store.activeAmong(userIds);
  }

  async userIdByEmail(email: string, executor?: Executor): Promise<number | undefined> {
    return (await this.store.findUserByEmail(email, executor))?.id;
  }

  planOf(userId: number, executor?: Executor): Promise<string | undefined> {
    return this.store.planOf(userId, executor);
  }

  /**
   * Whether the account is enabled and which organisation it left, in the caller's transaction; with `lock`
   * the row is locked on PostgreSQL until it ends.
   */
  standing(userId: number, executor: Executor, lock?: boolean) {
    return this.store.standing(userId, executor, lock);
  }

  /** Whether some account stands marked as having left the organisation (it may be invited back). */
  hasFormerMembers(organisationId: number, executor: Executor): Promise<boolean> {
    return this.store.anyLeft(organisationId, executor);
  }

  /**
   * The copy of a member's role on their user row (the verified key's cached row carries it), in the
   * organisations module's transaction that changes the membership.
   */
  async setOrganisationRole(userId: number, role: OrganisationRole, executor: Executor): Promise<void> {
    await this.store.updateUser(
      userId,
      { organization_role: role, updated_at: this.deps.clock.now() },
      executor,
    );
  }

  async listUsers(limit: number, offset: number) {
    const { users, total } = await this.store.listUsers(limit, offset);
    return { users: users.map((u) => this.profileView(u)), meta: { total, limit, offset } };
  }

  async updateUser(
    id: number,
    changes: { plan?: PlanName; is_active?: boolean },
    actor: Actor,
  ): Promise<UserProfileView> {
    // An operator disabling its own account would lock itself out of the operator routes (perhaps the last
    // operator, with no way back but the CLI).
    if (changes.is_active === false && id === actor.userId) {
      throw conflict(
        'You cannot disable your own account: its keys would stop working, this one included. Another operator can.',
        'cannot_disable_self',
      );
    }
    const update: Record<string, unknown> = { updated_at: this.deps.clock.now() };
    if (changes.plan !== undefined) update.plan = changes.plan;
    if (changes.is_active !== undefined) update.is_active = changes.is_active ? 1 : 0;
    // An account the operator enables stands alone from then on: the organisation it left can no longer invite
    // it back, even once it is disabled again.
    if (changes.is_active === true) update.left_organisation_id = null;
    const user = await this.store.updateUser(id, update);
    if (!user) throw notFound(`No user has id ${id}.`);
    await this.deps.cache.invalidate({ userId: id });
    const what = [
      changes.plan !== undefined ? `plan set to ${changes.plan}` : null,
      changes.is_active !== undefined ? (changes.is_active ? 'enabled' : 'disabled') : null,
    ].filter(Boolean);
    await this.deps.audit.record(
      actor.userId,
      actor,
      'user.updated',
      'user',
      id,
      `User ${user.email}: ${what.join(', ') || 'no change'}.`,
    );
    return this.profileView(user);
  }

  // ---------- keys

  private assertGrantable(actor: Actor, requested: Permission[]): void {
    const missing = requested.filter((p) => !actor.permissions.includes(p));
    if (missing.length > 0) {
      throw forbidden(
        `A key cannot be given permissions its creating key lacks (${missing.join(', ')}).`,
        'permission_escalation',
      );
    }
  }

  /** A key on its way out (rotated, in its grace period) may finish work but not mint new keys. */
  private assertMayCreateKeys(actor: Actor): void {
    if (actor.keyRotated) {
      throw forbidden(
        'This key was rotated and only works for its grace period; create keys with its successor.',
        'api_key_rotated',
      );
    }
  }

  async createKey(
    ownerId: number,
    input: { name: string; permissions?: Permission[]; expires_at?: string },
    actor: Actor,
    executor?: Executor,
  ): Promise<CreatedKeyView> {
    // The upstream SDK always sends `permissions`, `[]` when the caller named none: that means the default.
    const requested = input.permissions?.length ? input.permissions : DEFAULT_KEY_PERMISSIONS;
    const permissions = normalisePermissions(requested);
    this.assertGrantable(actor, permissions);
    this.assertMayCreateKeys(actor);
    const now = this.deps.clock.now();
    let expiresAt: number | null = null;
    if (input.expires_at !== undefined) {
      expiresAt = Date.parse(input.expires_at);
      if (!(expiresAt > now)) throw badRequest('expires_at must be in the future.', 'expires_at');
    }
    expiresAt = cappedExpiry(expiresAt, actor.keyExpiresAt ?? null);
    const name = input.name.trim();
    if (name === '') throw badRequest('name must not be blank.', 'name');
    const generated = generateApiKey();
    const work = async (trx: Executor) => {
      const key = await this.store.insertKey(
        {
          user_id: ownerId,
          name,
          prefix: generated.prefix,
          key_hash: generated.hash,
          permissions,
          created_at: now,
          expires_at: expiresAt,
        },
        trx,
      );
      await this.deps.audit.record(
        ownerId,
        actor,
        'api_key.created',
        'api_key',
        key.id,
        `Key "${name}" (${key.prefix}…) created with ${permissions.join(', ')}.`,
        trx,
      );
      return key;
    };
    const row = executor ? await work(executor) : await this.store.transaction(work);
    return this.createdView(row, generated.key);
  }

  async listKeys(userId: number): Promise<ApiKeyView[]> {
    return (await this.store.listKeys(userId)).map((row) => this.keyView(row));
  }

  /**
   * Every user's keys in use (not revoked, not rotated away) that expire within `withinMs` from now, not yet
   * expired: a page of `limit` by id after `afterId`.
   */
  keysExpiringWithin(withinMs: number, afterId = 0, limit = 500) {
    const now = this.deps.clock.now();
    return this.store.keysExpiringBetween(now, now + withinMs, afterId, limit);
  }

  async revokeKey(userId: number, keyId: number, actor: Actor): Promise<void> {
    const key = await this.store.findKey(userId, keyId);
    if (!key) throw notFound(`No API key with id ${keyId}.`);
    if (key.revoked_at === null) {
      await this.store.transaction(async (trx) => {
        await this.store.updateKey(keyId, { revoked_at: this.deps.clock.now() }, trx);
        await this.deps.audit.record(
          userId,
          actor,
          'api_key.revoked',
          'api_key',
          keyId,
          `Key "${key.name}" (${key.prefix}…) revoked.`,
          trx,
        );
      });
    }
    await this.deps.cache.invalidate({ keyId });
  }

  async rotateKey(
    userId: number,
    keyId: number,
    graceSeconds: number,
    actor: Actor,
  ): Promise<CreatedKeyView> {
    const old = await this.store.findKey(userId, keyId);
    if (!old) throw notFound(`No API key with id ${keyId}.`);
    const now = this.deps.clock.now();
    if (old.revoked_at !== null)
      throw conflict('A revoked key cannot be rotated; create a new key instead.', 'api_key_revoked');
    if (old.expires_at !== null && old.expires_at <= now) {
      throw conflict('An expired key cannot be rotated; create a new key instead.', 'api_key_expired');
    }
    // Rotating the old key again would give the successor the old key's grace-period expiry.
    if (old.rotated_to_id !== null) {
      throw conflict(
        `This key was already rotated to key ${old.rotated_to_id}; rotate that key instead.`,
        'api_key_rotated',
      );
    }
    const permissions = JSON.parse(old.permissions) as Permission[];
    this.assertGrantable(actor, permissions);
    this.assertMayCreateKeys(actor);
    const successorExpiry = cappedExpiry(old.expires_at, actor.keyExpiresAt ?? null);
    const generated = generateApiKey();
    const graceEnd = now + graceSeconds * 1000;
    const row = await this.store.transaction(async (trx) => {
      const fresh = await this.store.insertKey(
        {
          user_id: userId,
          name: old.name,
          prefix: generated.prefix,
          key_hash: generated.hash,
          permissions,
          created_at: now,
          expires_at: successorExpiry,
        },
        trx,
      );
      const oldExpiry = old.expires_at === null ? graceEnd : Math.min(old.expires_at, graceEnd);
      await this.store.updateKey(old.id, { expires_at: oldExpiry, rotated_to_id: fresh.id }, trx);
      await this.deps.audit.record(
        userId,
        actor,
        'api_key.rotated',
        'api_key',
        old.id,
        `Key "${old.name}" (${old.prefix}…) rotated to key ${fresh.id} (${fresh.prefix}…); the old key works until ${isoString(oldExpiry)}.`,
        trx,
      );
      return fresh;
    });
    await this.deps.cache.invalidate({ keyId: old.id });
    return this.createdView(row, generated.key);
  }

  private createdView(row: ApiKeyRow, key: string): CreatedKeyView {
    const view = this.keyView(row);
    return {
      id: view.id,
      name: view.name,
      api_key: key,
      prefix: view.prefix,
      created_at: view.created_at,
      expires_at: view.expires_at,
      permissions: view.permissions,
    };
  }

  // ---------- audit log

  async auditLog(userId: number, limit: number, offset: number) {
    const { entries, total } = await this.deps.audit.list(userId, limit, offset);
    return {
      entries: entries.map((e) => ({
        id: e.id,
        action: e.action,
        target_type: e.target_type,
        target_id: e.target_id,
        detail: e.detail,
        request_id: e.request_id,
        created_at: isoString(e.created_at)!,
      })),
      meta: { total, limit, offset },
    };
  }

  // ---------- usage

  async usageReport(userId: number, plan: PlanName) {
    const now = this.deps.clock.now();
    const today = utcDate(now);
    const from = utcDate(now - 29 * DAY_MS);
    const stored = await this.deps.usage.dailyCounts(userId, from);
    // Today's figure is the quota counter itself, so the report and the limit can never disagree.
    const requestsToday = await this.deps.limits.peekQuota(userId, today);
    const daily = [] as { date: string; request_count: number }[];
    for (let i = 29; i >= 0; i--) {
      const date = utcDate(now - i * DAY_MS);
      daily.push({ date, request_count: date === today ? requestsToday : (stored.get(date) ?? 0) });
    }
    const total = daily.reduce((sum, d) => sum + d.request_count, 0);
    const planDef = this.deps.plans[plan];
    const cost = estimateCost(requestsToday, planDef);
    return {
      summary: {
        plan_daily_limit: planDef.daily_quota,
        requests_today: requestsToday,
        remaining_today:
          planDef.daily_quota === null ? null : Math.max(0, planDef.daily_quota - requestsToday),
        total_requests_last_30_days: total,
        cost_estimated_today: cost,
      },
      daily_usage: daily,
      total_requests_last_30_days: total,
      cost_estimated_today: cost,
    };
  }

  // ---------- operator bootstrap

  /**
   * BOOTSTRAP_API_KEY set: make sure an enterprise admin holds it. Otherwise, on the first start of an empty
   * embedded database, generate such a key and write it to `<dataDir>/bootstrap-key.txt` (0600).
   * Returns the file written, if any; the key itself is never logged.
   */
  async bootstrap(options: {
    bootstrapApiKey?: string;
    embedded: boolean;
    dataDir: string;
  }): Promise<string | null> {
    if (options.bootstrapApiKey) {
      const hash = sha256Hex(options.bootstrapApiKey);
      if (await this.store.findKeyByHash(hash)) return null;
      await this.createOperator(options.bootstrapApiKey);
      return null;
    }
    if (!options.embedded || (await this.store.findUserByEmail(OPERATOR_EMAIL))) return null;
    const { key } = generateApiKey();
    await this.createOperator(key);
    fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    const file = path.join(options.dataDir, 'bootstrap-key.txt');
    fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    return file;
  }

  private async createOperator(key: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.store.transaction(async (trx) => {
      let user = await this.store.findUserByEmail(OPERATOR_EMAIL, trx);
      user ??= await this.createUser(
        { email: OPERATOR_EMAIL, full_name: 'Operator', plan: 'enterprise' },
        null,
        trx,
      );
      const inserted = await this.store.insertKey(
        {
          user_id: user.id,
          name: 'bootstrap',
          prefix: key.slice(0, 11),
          key_hash: sha256Hex(key),
          permissions: ALL_PERMISSIONS,
          created_at: now,
          expires_at: null,
        },
        trx,
      );
      await this.deps.audit.record(
        user.id,
        null,
        'api_key.created',
        'api_key',
        inserted.id,
        'Operator bootstrap key created.',
        trx,
      );
    });
  }
}

/**
 * A new key's expiry: what was asked for (null = never), but never later than the creating key's own, so a
 * key cannot outlive the key that made it (a leaked short-lived key cannot mint a permanent one).
 */
export function cappedExpiry(requested: number | null, creatorExpiresAt: number | null): number | null {
  if (creatorExpiresAt === null) return requested;
  return requested === null ? creatorExpiresAt : Math.min(requested, creatorExpiresAt);
}

/** A new member's subscription: the plan, active, its first period ending in 30 days. */
function newSubscription(plan: PlanName, now: number) {
  return {
    plan,
    subscription_status: 'active',
    current_period_end: nextUtcMidnight(now) + 29 * DAY_MS,
    cancel_at_period_end: 0,
  };
}

/** Unique permissions in canonical order. */
function normalisePermissions(permissions: Permission[]): Permission[] {
  return ALL_PERMISSIONS.filter((p) => permissions.includes(p));
}
