// Authentication, per-route permission checks and the limits that apply to each request.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Plan, PlanName, PlanTable } from '../modules/accounts/plans.ts';
import { type Clock, nextUtcMidnight, utcDate } from './clock.ts';
import { sha256Hex } from './crypto.ts';
import { ApiError, forbidden, unauthorized } from './errors.ts';
import type { PubSub } from './pubsub.ts';
import type { LimitState, RateLimits } from './ratelimit.ts';
import type { UsageCounter } from './usage.ts';

export const PERMISSIONS = ['read', 'write', 'ingest', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Declared by every route in `config.access`:
 * - `public`: no key; limited per client IP.
 * - `{ permission }`: a key holding that permission; counts against the daily quota unless `quota: 'exempt'`.
 */
export type Access =
  | 'public'
  | { permission: Permission; quota?: 'count' | 'exempt'; entitlement?: keyof Plan };

export interface Principal {
  userId: number;
  email: string;
  plan: PlanName;
  userActive: boolean;
  keyId: number;
  keyPermissions: Permission[];
  keyExpiresAt: number | null;
  keyRevokedAt: number | null;
}

export interface KeyLookup {
  findPrincipalByHash(hash: string): Promise<Principal | null>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The route's body may be omitted entirely (it is then `{}`). */
    optionalBody?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const CACHE_TTL_MS = 5000;
const INVALIDATE_CHANNEL = 'auth:invalidate';

/** Short-lived cache of verified keys; revocations clear it here at once and elsewhere via pub/sub. */
export class KeyCache {
  private readonly byHash = new Map<string, { principal: Principal; at: number }>();

  constructor(private readonly pubsub: PubSub) {}

  async start(): Promise<void> {
    await this.pubsub.subscribe(INVALIDATE_CHANNEL, (message) => {
      try {
        this.dropLocal(JSON.parse(message) as { userId?: number; keyId?: number });
      } catch {
        this.byHash.clear();
      }
    });
  }

  get(hash: string): Principal | null {
    const hit = this.byHash.get(hash);
    if (!hit) return null;
    if (Date.now() - hit.at > CACHE_TTL_MS) {
      this.byHash.delete(hash);
      return null;
    }
    return hit.principal;
  }

  set(hash: string, principal: Principal): void {
    if (this.byHash.size > 50_000) this.byHash.clear();
    this.byHash.set(hash, { principal, at: Date.now() });
  }

  /** Forget a key or every key of a user, in this process now and in the others via pub/sub. */
  async invalidate(target: { userId?: number; keyId?: number }): Promise<void> {
    this.dropLocal(target);
    await this.pubsub.publish(INVALIDATE_CHANNEL, JSON.stringify(target));
  }

  private dropLocal(target: { userId?: number; keyId?: number }): void {
    for (const [hash, { principal }] of this.byHash) {
      if (principal.keyId === target.keyId || principal.userId === target.userId) this.byHash.delete(hash);
    }
  }
}

export interface AuthOptions {
  lookup: KeyLookup;
  cache: KeyCache;
  limits: RateLimits;
  usage: UsageCounter;
  clock: Clock;
  plans: PlanTable;
}

export function extractKey(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.length > 0) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? match[1]! : '';
  }
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string') return apiKey.trim();
  return null;
}

function setLimitHeaders(
  reply: FastifyReply,
  state: { limit: number; remaining: number; resetAt: number },
): void {
  reply.header('X-RateLimit-Limit', state.limit);
  reply.header('X-RateLimit-Remaining', Math.max(0, state.remaining));
  reply.header('X-RateLimit-Reset', Math.ceil(state.resetAt / 1000));
}

function tooMany(code: string, detail: string, state: LimitState, now: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil((state.resetAt - now) / 1000));
  return new ApiError(429, code, detail, {
    headers: {
      'Retry-After': retryAfter,
      'X-RateLimit-Limit': state.limit,
      'X-RateLimit-Remaining': 0,
      'X-RateLimit-Reset': Math.ceil(state.resetAt / 1000),
    },
  });
}

export function hasPermission(principal: Principal, permission: Permission): boolean {
  return principal.keyPermissions.includes(permission);
}

export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized('This route needs an API key.');
  return request.principal;
}

export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => {
  const { lookup, cache, limits, usage, clock, plans } = options;
  app.decorateRequest('principal', null);

  async function authenticate(request: FastifyRequest): Promise<Principal> {
    const now = clock.now();
    const blocked = await limits.ipExhausted('auth', request.ip, now);
    if (blocked) {
      throw tooMany(
        'too_many_failed_authentications',
        'Too many failed authentications from this address; retry later.',
        blocked,
        now,
      );
    }
    const fail = async (detail: string, code: string): Promise<never> => {
      await limits.consumeIp('auth', request.ip, now);
      throw unauthorized(detail, code);
    };
    const key = extractKey(request);
    if (key === null) {
      return fail(
        'This route needs an API key: send `Authorization: Bearer <key>` or `X-API-Key: <key>`.',
        'missing_api_key',
      );
    }
    if (key === '' || key.length > 200)
      return fail('The Authorization header must be `Bearer <key>`.', 'invalid_api_key');
    const hash = sha256Hex(key);
    let principal = cache.get(hash);
    if (!principal) {
      principal = await lookup.findPrincipalByHash(hash);
      if (principal) cache.set(hash, principal);
    }
    if (!principal) return fail('The API key is not valid.', 'invalid_api_key');
    if (principal.keyRevokedAt !== null && principal.keyRevokedAt <= now) {
      return fail('The API key has been revoked.', 'api_key_revoked');
    }
    if (principal.keyExpiresAt !== null && principal.keyExpiresAt <= now) {
      return fail('The API key has expired.', 'api_key_expired');
    }
    return principal;
  }

  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access;
    const now = clock.now();
    if (access === undefined || access === 'public') {
      const state = await limits.consumeIp('public', request.ip, now);
      if (!state.allowed) {
        throw tooMany(
          'rate_limited',
          'Too many requests from this address; retry after the reset time.',
          state,
          now,
        );
      }
      return;
    }
    const principal = await authenticate(request);
    request.principal = principal;
    if (!principal.userActive)
      throw forbidden('This account is disabled; ask an operator to re-enable it.', 'account_disabled');
    const plan = plans[principal.plan];
    const burst = await limits.consumeBurst(principal.keyId, plan.burst_per_second, now);
    if (!burst.allowed) {
      throw tooMany(
        'rate_limited',
        `This key is limited to ${plan.burst_per_second} requests per second.`,
        burst,
        now,
      );
    }
    const date = utcDate(now);
    const midnight = nextUtcMidnight(now);
    const seed = () => usage.storedCount(principal.userId, date);
    if (access.quota === 'exempt') {
      if (plan.daily_quota === null) setLimitHeaders(reply, burst);
      else {
        const count = await limits.peekQuota(principal.userId, date, seed);
        setLimitHeaders(reply, {
          limit: plan.daily_quota,
          remaining: plan.daily_quota - count,
          resetAt: midnight,
        });
      }
    } else {
      const result = await limits.consumeQuota(principal.userId, date, plan.daily_quota, seed);
      if (!result.allowed) {
        const state = { allowed: false, limit: plan.daily_quota ?? 0, remaining: 0, resetAt: midnight };
        throw tooMany(
          'quota_exceeded',
          `The daily quota of ${plan.daily_quota} requests for the ${principal.plan} plan is used up; it resets at 00:00 UTC.`,
          state,
          now,
        );
      }
      usage.record(principal.userId, date);
      if (plan.daily_quota === null) setLimitHeaders(reply, burst);
      else
        setLimitHeaders(reply, {
          limit: plan.daily_quota,
          remaining: plan.daily_quota - result.count,
          resetAt: midnight,
        });
    }
    usage.touchKey(principal.keyId, now);
    if (!hasPermission(principal, access.permission)) {
      throw forbidden(
        `This API key lacks the \`${access.permission}\` permission this route needs.`,
        'missing_permission',
      );
    }
    if (access.entitlement && !plan[access.entitlement]) {
      throw forbidden(`The ${principal.plan} plan does not include this feature.`, 'plan_not_entitled');
    }
  });
});
