// Organisations: every user belongs to exactly one, as owner, admin or member. Owners and admins invite
// (one-time tokens, stored as SHA-256 only), change roles and remove members; an admin never touches an owner
// or grants the owner role; the last owner can be neither demoted nor removed, nor leave. Resources (keys,
// interests, webhooks, …) stay per user. Knows nothing of HTTP.
import type { Transaction } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database, DB, Executor } from '../../database.ts';
import type { Actor, AuditLog } from '../../platform/audit.ts';
import type { KeyCache } from '../../platform/auth.ts';
import { type Clock, DAY_MS, isoString } from '../../platform/clock.ts';
import { randomBase62, sha256Hex } from '../../platform/crypto.ts';
import type { Dialect } from '../../platform/db/index.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { PlanName } from '../../platform/plans.ts';
import type { AccountsService, OrganisationRole, UserRow } from '../accounts/index.ts';
import { type InviteFilter, type InviteRecord, type MembershipRow, OrganisationsStore } from './store.ts';

export const ORGANISATION_ROLES: OrganisationRole[] = ['owner', 'admin', 'member'];
export const INVITE_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
type InviteStatus = (typeof INVITE_STATUSES)[number];
/** How long an invite's token works. */
export const INVITE_TTL_DAYS = 7;
/** Live pending invites an organisation may hold at once (so the default invite list is always complete). */
export const MAX_PENDING_INVITES = 100;
const TOKEN_PATTERN = /^cwi_[0-9A-Za-z]{40}$/;
/** The permissions of the first key an accepted invite returns. */
const FIRST_KEY_PERMISSIONS: ('read' | 'write')[] = ['read', 'write'];

interface OrganisationsDeps {
  config: Config;
  clock: Clock;
  db: DB;
  dialect: Dialect;
  audit: AuditLog;
  keyCache: KeyCache;
  accounts: AccountsService;
}

interface MemberView {
  id: number;
  email: string;
  full_name: string | null;
  role: OrganisationRole;
  joined_at: string | null;
  user_id: number;
}

interface InviteView {
  id: number;
  email: string;
  role: OrganisationRole;
  invited_by_email: string | null;
  status: InviteStatus;
  created_at: string;
  expires_at: string;
}

/** What the page behind `accept_url` shows before anything is stored. */
export interface InviteSummary {
  email: string;
  role: string;
  invited_by_email: string | null;
  expires_at: string;
  /** Accepting brings back the account that was removed from (or left) the organisation. */
  rejoining: boolean;
}

const isManager = (role: string) => role === 'owner' || role === 'admin';

/** A membership with its user's email and name (the accounts module's). */
type MemberRow = MembershipRow & { email: string; full_name: string | null };
/** An invite with the email of the user who sent it (null once that user is gone). */
type InviteRow = InviteRecord & { invited_by_email: string | null };

export class OrganisationsService {
  private readonly store: OrganisationsStore;

  constructor(private readonly deps: OrganisationsDeps) {
    this.store = new OrganisationsStore(deps.db, deps.dialect);
  }

  // ---------- views

  private memberView(row: MemberRow, role = row.role as OrganisationRole): MemberView {
    return {
      id: row.id,
      email: row.email,
      full_name: row.full_name,
      role,
      joined_at: isoString(row.joined_at),
      user_id: row.user_id,
    };
  }

  private inviteView(row: InviteRow, now: number): InviteView {
    return {
      id: row.id,
      email: row.email,
      role: row.role as OrganisationRole,
      invited_by_email: row.invited_by_email,
      status: (row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status) as InviteStatus,
      created_at: isoString(row.created_at)!,
      expires_at: isoString(row.expires_at)!,
    };
  }

  /** Members with their user's email and name; a membership whose user is gone is left out. */
  private async withIdentities(rows: MembershipRow[], executor?: Executor): Promise<MemberRow[]> {
    if (rows.length === 0) return [];
    const identities = await this.deps.accounts.identities(
      rows.map((row) => row.user_id),
      executor,
    );
    return rows.flatMap((row) => {
      const identity = identities.get(row.user_id);
      return identity ? [{ ...row, ...identity }] : [];
    });
  }

  /** Invites with the email of the user who sent each. */
  private async withInviters(rows: InviteRecord[], executor?: Executor): Promise<InviteRow[]> {
    if (rows.length === 0) return [];
    const identities = await this.deps.accounts.identities(
      rows.map((row) => row.invited_by),
      executor,
    );
    return rows.map((row) => ({ ...row, invited_by_email: identities.get(row.invited_by)?.email ?? null }));
  }

  /** One member of the organisation, with their email and name. */
  private async findMember(
    organisationId: number,
    memberId: number,
    executor?: Executor,
  ): Promise<MemberRow | undefined> {
    const row = await this.store.findMember(organisationId, memberId, executor);
    return row && (await this.withIdentities([row], executor))[0];
  }

  /** One invite of the organisation, with its inviter's email. */
  private async findInvite(
    organisationId: number,
    inviteId: number,
    executor?: Executor,
  ): Promise<InviteRow | undefined> {
    const row = await this.store.findInvite(organisationId, inviteId, executor);
    return row && (await this.withInviters([row], executor))[0];
  }

  private acceptUrl(token: string): string {
    return `${this.deps.config.publicBaseUrl.replace(/\/+$/, '')}/api/org/invites/accept?token=${token}`;
  }

  // ---------- reading

  private async membershipOf(userId: number, executor?: Executor) {
    const membership = await this.store.membershipOf(userId, executor);
    // Every user is given one when created; only a row written outside the accounts module could lack it.
    if (!membership) throw notFound('Your account belongs to no organisation.', 'no_organisation');
    return membership;
  }

  /**
   * The caller's membership, read again once their organisation is locked, so a change that committed while
   * this transaction waited for the lock (their role, their removal) is what the checks see.
   */
  private async lockedMembership(userId: number, trx: Transaction<Database>): Promise<MembershipRow> {
    const first = await this.membershipOf(userId, trx);
    await this.store.lockOrganisation(first.organisation_id, trx);
    const me = await this.membershipOf(userId, trx);
    if (me.organisation_id !== first.organisation_id) {
      throw conflict('Your membership changed meanwhile; retry the request.', 'membership_changed');
    }
    return me;
  }

  /**
   * The membership of the account `userId` in the organisation of its own it was moved to, when that account
   * may come back into `organisationId`: it is disabled, it was removed from (or left) that organisation, and
   * it still stands alone where it was moved. Undefined otherwise (the email is then taken). With `lock`, the
   * account and its organisation are locked first (PostgreSQL), so what is checked holds until the commit.
   */
  private async returningMembership(
    userId: number,
    organisationId: number,
    executor: Executor,
    lock?: Transaction<Database>,
  ): Promise<MembershipRow | undefined> {
    const account = await this.deps.accounts.standing(userId, executor, lock !== undefined);
    if (account?.is_active !== 0 || account.left_organisation_id !== organisationId) return;
    const membership = await this.store.membershipOf(userId, executor);
    if (!membership || membership.organisation_id === organisationId) return;
    if (lock) await this.store.lockOrganisation(membership.organisation_id, lock);
    if ((await this.store.countMembers(membership.organisation_id, executor)) !== 1) return;
    return membership;
  }

  async members(userId: number): Promise<MemberView[]> {
    const me = await this.membershipOf(userId);
    const rows = await this.withIdentities(await this.store.listMembers(me.organisation_id));
    return rows.map((row) => this.memberView(row));
  }

  async invites(
    userId: number,
    filter: InviteFilter,
    page: { limit: number; offset: number },
  ): Promise<InviteView[]> {
    const me = await this.membershipOf(userId);
    const now = this.deps.clock.now();
    const rows = await this.withInviters(await this.store.listInvites(me.organisation_id, filter, now, page));
    return rows.map((row) => this.inviteView(row, now));
  }

  // ---------- invites

  async invite(
    actor: Actor,
    input: { email: string; role: OrganisationRole },
  ): Promise<InviteView & { token: string; accept_url: string }> {
    const email = input.email.trim().toLowerCase();
    const token = `cwi_${randomBase62(40)}`;
    const now = this.deps.clock.now();
    const { organisationId, inviteId } = await this.store.transaction(async (trx) => {
      const me = await this.lockedMembership(actor.userId, trx);
      assertManager(me, 'invite members');
      if (input.role === 'owner' && me.role !== 'owner') {
        throw forbidden('Only an owner can invite someone as an owner.', 'owner_role_required');
      }
      const existing = await this.deps.accounts.userIdByEmail(email, trx);
      // An account removed from (or that left) this organisation, and disabled since, may be invited back.
      const rejoining =
        existing !== undefined &&
        (await this.returningMembership(existing, me.organisation_id, trx)) !== undefined;
      if (existing !== undefined && !rejoining) {
        const membership = await this.store.membershipOf(existing, trx);
        if (membership?.organisation_id === me.organisation_id) {
          throw conflict(`${email} is already a member of your organisation.`, 'already_member');
        }
        throw conflict(
          `A Crestwatch account with the email ${email} already exists; an account belongs to exactly one ` +
            'organisation, so it cannot be invited (only the organisation it was removed from can invite it ' +
            'back, while it stands disabled).',
          'email_taken',
        );
      }
      const pending = await this.store.findPendingInvite(me.organisation_id, email, trx);
      if (pending) {
        if (pending.expires_at > now) {
          throw conflict(
            `An invite for ${email} is already pending (id ${pending.id}); revoke it first to send a new one.`,
            'invite_pending',
          );
        }
        await this.store.markExpired(pending.id, trx);
      }
      if ((await this.store.countLivePendingInvites(me.organisation_id, now, trx)) >= MAX_PENDING_INVITES) {
        throw conflict(
          `Your organisation already has ${MAX_PENDING_INVITES} pending invites; revoke some first.`,
          'too_many_pending_invites',
        );
      }
      const id = await this.store.insertInvite(
        {
          organisation_id: me.organisation_id,
          email,
          role: input.role,
          token_hash: sha256Hex(token),
          invited_by: actor.userId,
          created_at: now,
          expires_at: now + INVITE_TTL_DAYS * DAY_MS,
        },
        trx,
      );
      await this.deps.audit.record(
        actor.userId,
        actor,
        'org.invite.created',
        'org_invite',
        id,
        `Invited ${email} ${rejoining ? 'back into' : 'to'} the organisation as ${input.role}; the invite ` +
          `expires in ${INVITE_TTL_DAYS} days.`,
        trx,
      );
      return { organisationId: me.organisation_id, inviteId: id };
    });
    const row = await this.findInvite(organisationId, inviteId);
    return { ...this.inviteView(row!, now), token, accept_url: this.acceptUrl(token) };
  }

  async revokeInvite(actor: Actor, inviteId: number): Promise<void> {
    await this.store.transaction(async (trx) => {
      const me = await this.membershipOf(actor.userId, trx);
      const invite = await this.store.findInvite(me.organisation_id, inviteId, trx);
      if (!invite) throw notFound(`No invite with id ${inviteId}.`);
      assertManager(me, 'revoke invites');
      if (invite.status === 'accepted') {
        throw conflict(
          'This invite was already accepted; remove the member instead (DELETE /api/org/members/{id}).',
          'invite_accepted',
        );
      }
      if (invite.status === 'revoked') return;
      await this.store.markRevoked(invite.id, this.deps.clock.now(), trx);
      await this.deps.audit.record(
        actor.userId,
        actor,
        'org.invite.revoked',
        'org_invite',
        invite.id,
        `Revoked the invite for ${invite.email} (${invite.role}).`,
        trx,
      );
    });
  }

  /** A usable invite for `token`, or the 400 that says why not. Checks only; stores nothing. */
  private async usableInvite(token: string, executor?: Executor) {
    const invalid = () => badRequest('This invite token is not valid.', 'token', 'invite_invalid');
    if (!TOKEN_PATTERN.test(token)) throw invalid();
    const record = await this.store.findInviteByTokenHash(sha256Hex(token), executor);
    if (!record) throw invalid();
    const [invite] = await this.withInviters([record], executor);
    if (!invite) throw invalid();
    if (invite.status === 'accepted') {
      throw badRequest('This invite was already used.', 'token', 'invite_used');
    }
    if (invite.status === 'revoked') {
      throw badRequest('This invite was revoked; ask for a new one.', 'token', 'invite_revoked');
    }
    if (invite.status === 'expired' || invite.expires_at <= this.deps.clock.now()) {
      throw badRequest('This invite has expired; ask for a new one.', 'token', 'invite_expired');
    }
    return invite;
  }

  async inviteSummary(token: string): Promise<InviteSummary> {
    const invite = await this.usableInvite(token);
    const existing = await this.deps.accounts.userIdByEmail(invite.email);
    const rejoining =
      existing !== undefined &&
      (await this.returningMembership(existing, invite.organisation_id, this.deps.db)) !== undefined;
    return {
      email: invite.email,
      role: invite.role,
      invited_by_email: invite.invited_by_email,
      expires_at: isoString(invite.expires_at)!,
      rejoining,
    };
  }

  /**
   * Uses up the invite and creates its user in the inviter's organisation, with the invited role and on the
   * inviter's plan, with a first read+write key: all in one transaction, so a refusal stores nothing. An
   * account removed from (or that left) that organisation and disabled since, still standing alone, comes
   * back instead (`rejoined`): moved into it, enabled again, with a new first key; its old keys stay revoked.
   */
  async accept(input: { token: string; full_name?: string | null }, requestId: string | null) {
    const { accounts, audit, clock } = this.deps;
    const accepted = await this.store.transaction(async (trx) => {
      const invite = await this.usableInvite(input.token, trx);
      await this.store.lockOrganisation(invite.organisation_id, trx);
      const now = clock.now();
      // A concurrent acceptance of the same token finds it claimed.
      if (!(await this.store.claimInvite(invite.id, now, trx))) {
        throw badRequest('This invite was already used.', 'token', 'invite_used');
      }
      const plan = (await accounts.planOf(invite.invited_by, trx)) as PlanName;
      const role = invite.role as OrganisationRole;
      const existing = await accounts.userIdByEmail(invite.email, trx);
      let user: UserRow;
      let placeholderDeleted = false;
      if (existing === undefined) {
        user = await accounts.createUser(
          {
            email: invite.email,
            full_name: input.full_name ?? null,
            plan,
            organisation: { id: invite.organisation_id, role },
          },
          null,
          trx,
        );
      } else {
        // The conditions are checked again now, under locks: an operator may have re-enabled the account.
        const placeholder = await this.returningMembership(existing, invite.organisation_id, trx, trx);
        if (!placeholder) {
          throw conflict(`A user with the email ${invite.email} already exists.`, 'email_taken');
        }
        // As when a member is removed: invites it sent from the organisation it leaves stop working.
        await this.store.revokeInvitesSentBy(placeholder.organisation_id, existing, now, trx);
        await this.store.deleteMember(placeholder.id, trx);
        // Another account that left it still names it (and may be invited back): the organisation stays.
        placeholderDeleted =
          !(await accounts.hasFormerMembers(placeholder.organisation_id, trx)) &&
          (await this.store.deleteOrganisationIfUnused(placeholder.organisation_id, trx));
        await this.store.insertMember(
          { organisation_id: invite.organisation_id, user_id: existing, role, joined_at: now },
          trx,
        );
        user = await accounts.reenableUser(existing, { full_name: input.full_name, plan, role }, trx);
      }
      const rejoined = existing !== undefined;
      await this.store.setAcceptedUser(invite.id, user.id, trx);
      const actor: Actor = { userId: user.id, permissions: FIRST_KEY_PERMISSIONS, requestId };
      const key = await accounts.createKey(
        user.id,
        { name: 'first key', permissions: FIRST_KEY_PERMISSIONS },
        actor,
        trx,
      );
      const inviter = invite.invited_by_email ?? 'a former member';
      await audit.record(
        user.id,
        actor,
        'org.member.joined',
        'org_invite',
        invite.id,
        rejoined
          ? `Rejoined the organisation of ${inviter} as ${invite.role} by accepting their invite: the account ` +
              'is enabled again, with a new first key' +
              (placeholderDeleted ? ', and the organisation of its own it stood in is deleted.' : '.')
          : `Joined the organisation of ${inviter} as ${invite.role} by accepting their invite.`,
        trx,
      );
      await audit.record(
        invite.invited_by,
        actor,
        'org.invite.accepted',
        'org_invite',
        invite.id,
        rejoined
          ? `${invite.email} accepted the invite and rejoined as ${invite.role}: the account that left the ` +
              'organisation earlier is enabled again.'
          : `${invite.email} accepted the invite and joined as ${invite.role}.`,
        trx,
      );
      return { user: accounts.profileView(user), api_key: key, rejoined };
    });
    // After the commit: a key of the account that came back is read again (any it still held is revoked).
    if (accepted.rejoined) await this.deps.keyCache.invalidate({ userId: accepted.user.id });
    return accepted;
  }

  // ---------- members

  async changeRole(actor: Actor, memberId: number, role: OrganisationRole): Promise<MemberView> {
    const { target, changed } = await this.store.transaction(async (trx) => {
      const me = await this.lockedMembership(actor.userId, trx);
      const target = await this.findMember(me.organisation_id, memberId, trx);
      if (!target) throw notFound(`No member with id ${memberId} in your organisation.`);
      assertManager(me, "change members' roles");
      if (me.role !== 'owner') {
        if (target.role === 'owner') {
          throw forbidden("An admin cannot change an owner's role.", 'owner_role_required');
        }
        if (role === 'owner') {
          throw forbidden('Only an owner can make a member an owner.', 'owner_role_required');
        }
      }
      if (target.role === role) return { target, changed: false };
      if (target.role === 'owner' && (await this.store.countOwners(me.organisation_id, trx)) <= 1) {
        throw conflict(
          `${target.email} is the organisation's last owner; make another member an owner first.`,
          'last_owner',
        );
      }
      // The role and its copy on the user row, together.
      await this.store.setRole(target.id, role, trx);
      await this.deps.accounts.setOrganisationRole(target.user_id, role, trx);
      const detail = `Changed the role of ${target.email} from ${target.role} to ${role}.`;
      await this.deps.audit.record(
        actor.userId,
        actor,
        'org.member.role_changed',
        'org_member',
        target.id,
        detail,
        trx,
      );
      if (target.user_id !== actor.userId) {
        await this.deps.audit.record(
          target.user_id,
          actor,
          'org.member.role_changed',
          'org_member',
          target.id,
          detail,
          trx,
        );
      }
      return { target, changed: true };
    });
    // The member's verified keys carry their user row (and so the profile's organization_role).
    if (changed) await this.deps.keyCache.invalidate({ userId: target.user_id });
    return this.memberView(target, role);
  }

  /**
   * Removes a member (or, for their own id, lets a member leave). Their keys are revoked and their account
   * disabled at once; the account moves to an organisation of its own (so every user keeps one) where an
   * operator can re-enable it, and remembers the organisation it left, which may invite it back while it
   * stands disabled and alone. Invites they sent that are still pending are revoked.
   */
  async removeMember(actor: Actor, memberId: number): Promise<void> {
    const { accounts, audit, clock } = this.deps;
    const removedUserId = await this.store.transaction(async (trx) => {
      const me = await this.lockedMembership(actor.userId, trx);
      const target = await this.findMember(me.organisation_id, memberId, trx);
      if (!target) throw notFound(`No member with id ${memberId} in your organisation.`);
      const leaving = target.user_id === actor.userId;
      if (!leaving) {
        assertManager(me, 'remove members');
        if (target.role === 'owner' && me.role !== 'owner') {
          throw forbidden('An admin cannot remove an owner.', 'owner_role_required');
        }
      }
      if (target.role === 'owner' && (await this.store.countOwners(me.organisation_id, trx)) <= 1) {
        throw conflict(
          leaving
            ? "You are the organisation's last owner; make another member an owner before leaving."
            : `${target.email} is the organisation's last owner and cannot be removed.`,
          'last_owner',
        );
      }
      const now = clock.now();
      await this.store.deleteMember(target.id, trx);
      await accounts.placeInOwnOrganisation(
        {
          id: target.user_id,
          email: target.email,
          full_name: target.full_name,
          organization_role: target.role,
        },
        trx,
      );
      const keys = await accounts.disableUser(target.user_id, me.organisation_id, trx);
      const invites = await this.store.revokeInvitesSentBy(me.organisation_id, target.user_id, now, trx);
      const consequences =
        `${keys} API key(s) revoked, the account disabled` +
        (invites > 0 ? `, ${invites} pending invite(s) they sent revoked.` : '.');
      const detail = leaving
        ? `${target.email} left the organisation: ${consequences}`
        : `Removed ${target.email} (${target.role}) from the organisation: ${consequences}`;
      const action = leaving ? 'org.member.left' : 'org.member.removed';
      await audit.record(actor.userId, actor, action, 'org_member', target.id, detail, trx);
      if (!leaving) await audit.record(target.user_id, actor, action, 'org_member', target.id, detail, trx);
      return target.user_id;
    });
    // After the commit, so no request re-reads the keys as they were before it.
    await this.deps.keyCache.invalidate({ userId: removedUserId });
  }
}

function assertManager(me: MembershipRow, what: string): void {
  if (!isManager(me.role)) {
    throw forbidden(`Only the organisation's owners and admins can ${what}.`, 'org_admin_required');
  }
}
