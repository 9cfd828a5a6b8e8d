// Idempotency-Key on POST: the first response is stored (encrypted) for 24 h and replayed for retries.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Permission, Principal } from './auth.ts';
import type { Clock } from './clock.ts';
import { type SecretBox, sha256Hex } from './crypto.ts';
import type { PlatformDb } from './db/index.ts';
import { ApiError, badRequest, conflict, forbidden } from './errors.ts';
import { asArray } from './http.ts';

const TTL_MS = 24 * 3600 * 1000;
// A "running" record older than this belongs to a request that died with its process.
const ABANDONED_MS = 60_000;
const REPLAYED_HEADERS = ['content-type', 'location'];

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyRecordId: number | null;
  }
}

/** What a replay checks of the key that made the first request: the accounts module's `api_keys` (its store). */
interface KeyGrants {
  /** The key's permissions (JSON) and expiry as stored now, or undefined when it no longer exists. */
  keyGrant(keyId: number): Promise<{ permissions: string; expires_at: number | null } | undefined>;
}

export class IdempotencyStore {
  constructor(
    private readonly db: PlatformDb,
    private readonly clock: Clock,
    private readonly keys: KeyGrants,
  ) {}

  find(userId: number, key: string) {
    return this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }

  /** The key's permissions (JSON) and expiry as stored now, or undefined when it no longer exists. */
  findKey(keyId: number) {
    return this.keys.keyGrant(keyId);
  }

  async insertRunning(
    userId: number,
    key: string,
    requestHash: string,
    keyId: number,
  ): Promise<number | null> {
    const now = this.clock.now();
    const row = await this.db
      .insertInto('idempotency_keys')
      .values({
        user_id: userId,
        idempotency_key: key,
        request_hash: requestHash,
        state: 'running',
        created_at: now,
        expires_at: now + TTL_MS,
        key_id: keyId,
      })
      .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('id', '=', id).execute();
  }

  async finish(
    id: number,
    status: number,
    headers: Record<string, string>,
    sealedBody: string,
  ): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({
        state: 'done',
        response_status: status,
        response_headers: JSON.stringify(headers),
        response_body: sealedBody,
      })
      .where('id', '=', id)
      .execute();
  }

  async purgeExpired(): Promise<number> {
    const result = await this.db
      .deleteFrom('idempotency_keys')
      .where('expires_at', '<=', this.clock.now())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

interface IdempotencyOptions {
  store: IdempotencyStore;
  box: SecretBox;
  clock: Clock;
}

/**
 * Whether a key (`replaying`) could have made a request that `original` made: it holds every permission the
 * original held, is not in a rotation grace period, and expires no sooner (null = never).
 */
export function couldHaveMade(
  replaying: { permissions: readonly string[]; expiresAt: number | null; rotated: boolean },
  original: { permissions: readonly string[]; expiresAt: number | null },
): boolean {
  if (replaying.rotated) return false;
  if (!original.permissions.every((p) => replaying.permissions.includes(p))) return false;
  if (replaying.expiresAt === null) return true;
  return original.expiresAt !== null && replaying.expiresAt >= original.expiresAt;
}

/** JSON with every object's fields in name order: the same request sent with its fields reordered reads alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** How keys stored before 2026-11-25 (kept 24 h) hashed their request: the body in the order it was sent. */
function legacyRequestHash(request: FastifyRequest): string {
  return sha256Hex(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`);
}

/** What "the same request" means for a key: method, path, and the parsed query and body (not their bytes). */
function requestHash(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  return sha256Hex(
    `${request.method} ${path}\n${canonicalJson(request.query ?? {})}\n${canonicalJson(request.body ?? null)}`,
  );
}

export const idempotencyPlugin = fp(
  async (app: FastifyInstance, { store, box, clock }: IdempotencyOptions) => {
    app.decorateRequest('idempotencyRecordId', null);

    // Only authenticated POST routes take part. preHandler runs after validation, so requests that fail
    // validation are never stored.
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const access = (route.config as { access?: unknown } | undefined)?.access;
      if (!methods.includes('POST') || access === undefined || access === 'public') return;
      route.preHandler = [...asArray(route.preHandler), replayOrReserve];
      route.onSend = [...asArray(route.onSend), storeResponse];
    });

    async function replayOrReserve(request: FastifyRequest, reply: FastifyReply) {
      if (!request.principal) return;
      const header = request.headers['idempotency-key'];
      if (header === undefined) return;
      const key = Array.isArray(header) ? header[0] : header;
      if (key === undefined || key.length === 0 || key.length > 255) {
        throw badRequest('Idempotency-Key must be 1 to 255 characters.', 'header.idempotency-key');
      }
      const userId = request.principal.userId;
      const hash = requestHash(request);
      for (let attempt = 0; attempt < 3; attempt++) {
        const existing = await store.find(userId, key);
        const now = clock.now();
        if (
          existing &&
          (existing.expires_at <= now ||
            (existing.state === 'running' && existing.created_at < now - ABANDONED_MS))
        ) {
          await store.remove(existing.id);
          continue;
        }
        if (existing) {
          if (existing.request_hash !== hash && existing.request_hash !== legacyRequestHash(request)) {
            throw new ApiError(
              422,
              'idempotency_key_reused',
              'This Idempotency-Key was already used with a different request; use a new key for a new request.',
            );
          }
          if (existing.state === 'running') {
            throw conflict(
              'A request with this Idempotency-Key is still being processed; retry shortly.',
              'idempotency_in_progress',
            );
          }
          await assertCouldHaveMade(request.principal, existing.key_id);
          const headers = JSON.parse(existing.response_headers ?? '{}') as Record<string, string>;
          for (const [name, value] of Object.entries(headers)) reply.header(name, value);
          reply.header('Idempotent-Replayed', 'true');
          reply.code(existing.response_status ?? 200);
          return reply.send(existing.response_body ? box.decrypt(existing.response_body) : undefined);
        }
        const id = await store.insertRunning(userId, key, hash, request.principal.keyId);
        if (id !== null) {
          request.idempotencyRecordId = id;
          return;
        }
      }
      throw conflict(
        'A request with this Idempotency-Key is still being processed; retry shortly.',
        'idempotency_in_progress',
      );
    }

    /**
     * A stored response may hold what only the first key could get (a new key's secret, capped by that key's
     * permissions and expiry). Another key of the same user gets the replay only if it could have made the
     * request itself: all of the first key's permissions, not rotated away, expiring no sooner.
     */
    async function assertCouldHaveMade(principal: Principal, originalKeyId: number | null): Promise<void> {
      if (originalKeyId === null || Number(originalKeyId) === principal.keyId) return;
      const original = await store.findKey(Number(originalKeyId));
      const permissions = original ? (JSON.parse(original.permissions) as Permission[]) : null;
      if (
        !original ||
        !couldHaveMade(
          {
            permissions: principal.keyPermissions,
            expiresAt: principal.keyExpiresAt,
            rotated: principal.keyRotated,
          },
          { permissions: permissions!, expiresAt: original.expires_at },
        )
      ) {
        throw forbidden(
          'This Idempotency-Key was used by another API key with more rights than this one; only a key ' +
            'that could have made the first request gets its response.',
          'idempotency_key_forbidden',
        );
      }
    }

    async function storeResponse(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
      const id = request.idempotencyRecordId;
      if (id === null) return payload;
      request.idempotencyRecordId = null;
      // A server-side failure is not final, and a request that failed validation is not kept (routes that
      // validate items themselves attach validation errors and may still answer 400).
      if (reply.statusCode >= 500 || (reply.statusCode === 400 && request.validationError)) {
        await store.remove(id);
        return payload;
      }
      const body =
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      await store.finish(id, reply.statusCode, headers, box.encrypt(body));
      return payload;
    }
  },
);
