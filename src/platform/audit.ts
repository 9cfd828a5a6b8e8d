// The audit log: who changed what among a user's resources (keys, integrations, ads, webhooks), written in the
// transaction of the change itself, so an entry exists exactly when the change does.
import type { Kysely, Transaction } from 'kysely';
import type { Permission, Principal } from './auth.ts';
import type { Clock } from './clock.ts';
import { type PlatformDb, type PlatformTables, platformTables } from './db/index.ts';

/** Who is acting: the user and the permissions of the key they hold. */
export interface Actor {
  userId: number;
  permissions: Permission[];
  requestId: string | null;
  /** When the acting key expires (null or absent: never, e.g. the CLI). */
  keyExpiresAt?: number | null;
  /** The acting key was rotated and works only for its grace period. */
  keyRotated?: boolean;
}

export function actorOf(principal: Principal, requestId: string | null): Actor {
  return {
    userId: principal.userId,
    permissions: principal.keyPermissions,
    requestId,
    keyExpiresAt: principal.keyExpiresAt,
    keyRotated: principal.keyRotated,
  };
}

export class AuditLog {
  constructor(
    private readonly db: PlatformDb,
    private readonly clock: Clock,
  ) {}

  /** Records one entry on `userId`'s log; pass the transaction of the change. */
  async record<T extends PlatformTables>(
    userId: number,
    actor: Actor | null,
    action: string,
    targetType: string,
    targetId: number | string | null,
    detail: string,
    executor?: Kysely<T> | Transaction<T>,
  ): Promise<void> {
    await (executor ? platformTables(executor) : this.db)
      .insertInto('audit_log')
      .values({
        user_id: userId,
        actor_user_id: actor?.userId ?? null,
        action,
        target_type: targetType,
        target_id: targetId === null ? null : String(targetId),
        detail,
        request_id: actor?.requestId ?? null,
        created_at: this.clock.now(),
      })
      .execute();
  }

  /** A page of `userId`'s entries, newest first, with the total. */
  async list(userId: number, limit: number, offset: number) {
    const [entries, count] = await Promise.all([
      this.db
        .selectFrom('audit_log')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ]);
    return { entries, total: Number(count.n) };
  }
}
