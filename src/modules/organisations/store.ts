// All SQL of the organisations module: organisations, memberships and invites. A new user's membership is
// written by the accounts module (the one place users are created) through this store's insertOrganisation and
// insertMember (its Memberships port). Users' emails and names are the accounts module's: the service adds
// them. Methods that may run in a transaction take the executor last.
import type { Selectable, Transaction } from 'kysely';
import type { Database, DB, Executor } from '../../database.ts';
import type { Dialect } from '../../platform/db/index.ts';
import type { OrganisationInvitesTable } from './tables.ts';

export interface MembershipRow {
  id: number;
  organisation_id: number;
  user_id: number;
  role: string;
  joined_at: number;
}

export type InviteRecord = Selectable<OrganisationInvitesTable>;

/** Which invites a list shows; `pending` and `expired` are judged against `now`. */
export type InviteFilter = 'pending' | 'accepted' | 'revoked' | 'expired' | 'all';

export class OrganisationsStore {
  constructor(
    private readonly db: DB,
    private readonly dialect: Dialect,
  ) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Serialises changes to one organisation's members on PostgreSQL (SQLite transactions are serial anyway),
   * so two owners removing each other at once cannot leave it without one.
   */
  async lockOrganisation(organisationId: number, trx: Transaction<Database>): Promise<void> {
    if (this.dialect === 'postgres') {
      await trx
        .selectFrom('organisations')
        .select('id')
        .where('id', '=', organisationId)
        .forUpdate()
        .execute();
    }
  }

  async insertOrganisation(name: string, now: number, executor: Executor): Promise<number> {
    const row = await executor
      .insertInto('organisations')
      .values({ name, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  private members(executor: Executor) {
    return executor
      .selectFrom('organisation_members')
      .select(['id', 'organisation_id', 'user_id', 'role', 'joined_at']);
  }

  /** The membership of a user (every user has exactly one). */
  membershipOf(userId: number, executor: Executor = this.db): Promise<MembershipRow | undefined> {
    return this.members(executor).where('user_id', '=', userId).executeTakeFirst();
  }

  listMembers(organisationId: number): Promise<MembershipRow[]> {
    return this.members(this.db)
      .where('organisation_id', '=', organisationId)
      .orderBy('joined_at')
      .orderBy('id')
      .execute();
  }

  findMember(
    organisationId: number,
    memberId: number,
    executor: Executor = this.db,
  ): Promise<MembershipRow | undefined> {
    return this.members(executor)
      .where('organisation_id', '=', organisationId)
      .where('id', '=', memberId)
      .executeTakeFirst();
  }

  async countOwners(organisationId: number, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('organisation_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organisation_id', '=', organisationId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The membership's role (the service copies it onto the user row in the same transaction). */
  async setRole(memberId: number, role: string, executor: Executor): Promise<void> {
    await executor.updateTable('organisation_members').set({ role }).where('id', '=', memberId).execute();
  }

  async deleteMember(memberId: number, executor: Executor): Promise<void> {
    await executor.deleteFrom('organisation_members').where('id', '=', memberId).execute();
  }

  async insertMember(
    member: { organisation_id: number; user_id: number; role: string; joined_at: number },
    executor: Executor,
  ): Promise<void> {
    await executor.insertInto('organisation_members').values(member).execute();
  }

  async countMembers(organisationId: number, executor: Executor): Promise<number> {
    const row = await executor
      .selectFrom('organisation_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organisation_id', '=', organisationId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Deletes the organisation when nothing of its own refers to it any more: no member and no invite (of any
   * status: they are its history). The service first asks whether an account that left it still names it.
   * Returns whether it was deleted.
   */
  async deleteOrganisationIfUnused(organisationId: number, executor: Executor): Promise<boolean> {
    const result = await executor
      .deleteFrom('organisations')
      .where('id', '=', organisationId)
      .where((eb) =>
        eb.and([
          eb.not(
            eb.exists(
              eb
                .selectFrom('organisation_members')
                .select('id')
                .where('organisation_id', '=', organisationId),
            ),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('organisation_invites')
                .select('id')
                .where('organisation_id', '=', organisationId),
            ),
          ),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  // ---------- invites

  private invites(executor: Executor) {
    return executor.selectFrom('organisation_invites as i').selectAll('i');
  }

  async listInvites(
    organisationId: number,
    filter: InviteFilter,
    now: number,
    page: { limit: number; offset: number },
  ): Promise<InviteRecord[]> {
    let query = this.invites(this.db).where('i.organisation_id', '=', organisationId);
    if (filter === 'pending') {
      query = query.where('i.status', '=', 'pending').where('i.expires_at', '>', now);
    } else if (filter === 'expired') {
      query = query.where((eb) =>
        eb.or([
          eb('i.status', '=', 'expired'),
          eb.and([eb('i.status', '=', 'pending'), eb('i.expires_at', '<=', now)]),
        ]),
      );
    } else if (filter !== 'all') {
      query = query.where('i.status', '=', filter);
    }
    return query.orderBy('i.id', 'desc').limit(page.limit).offset(page.offset).execute();
  }

  findInvite(organisationId: number, inviteId: number, executor: Executor = this.db) {
    return this.invites(executor)
      .where('i.organisation_id', '=', organisationId)
      .where('i.id', '=', inviteId)
      .executeTakeFirst();
  }

  findInviteByTokenHash(tokenHash: string, executor: Executor = this.db) {
    return this.invites(executor).where('i.token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** The organisation's invite for `email` that is still marked pending (live or past its expiry). */
  findPendingInvite(organisationId: number, email: string, executor: Executor) {
    return this.invites(executor)
      .where('i.organisation_id', '=', organisationId)
      .where('i.email', '=', email)
      .where('i.status', '=', 'pending')
      .executeTakeFirst();
  }

  async countLivePendingInvites(organisationId: number, now: number, executor: Executor): Promise<number> {
    const row = await executor
      .selectFrom('organisation_invites')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organisation_id', '=', organisationId)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insertInvite(
    invite: {
      organisation_id: number;
      email: string;
      role: string;
      token_hash: string;
      invited_by: number;
      created_at: number;
      expires_at: number;
    },
    executor: Executor,
  ): Promise<number> {
    const row = await executor
      .insertInto('organisation_invites')
      .values({ ...invite, status: 'pending' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async markExpired(inviteId: number, executor: Executor): Promise<void> {
    await executor
      .updateTable('organisation_invites')
      .set({ status: 'expired' })
      .where('id', '=', inviteId)
      .where('status', '=', 'pending')
      .execute();
  }

  async markRevoked(inviteId: number, now: number, executor: Executor): Promise<void> {
    await executor
      .updateTable('organisation_invites')
      .set({ status: 'revoked', revoked_at: now })
      .where('id', '=', inviteId)
      .execute();
  }

  /** Revokes the still-pending invites `userId` sent in the organisation; returns how many. */
  async revokeInvitesSentBy(
    organisationId: number,
    userId: number,
    now: number,
    executor: Executor,
  ): Promise<number> {
    const result = await executor
      .updateTable('organisation_invites')
      .set({ status: 'revoked', revoked_at: now })
      .where('organisation_id', '=', organisationId)
      .where('invited_by', '=', userId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Claims a live pending invite for acceptance: true when this call moved it to `accepted` (a concurrent
   * acceptance of the same token finds it no longer pending and gets false).
   */
  async claimInvite(inviteId: number, now: number, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable('organisation_invites')
      .set({ status: 'accepted', accepted_at: now })
      .where('id', '=', inviteId)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async setAcceptedUser(inviteId: number, userId: number, executor: Executor): Promise<void> {
    await executor
      .updateTable('organisation_invites')
      .set({ accepted_user_id: userId })
      .where('id', '=', inviteId)
      .execute();
  }
}
