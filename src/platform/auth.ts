// Authentication, per-route permission checks and the limits that apply to each request.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Plan, PlanName, PlanTable } from '../modules/accounts/plans.ts';
import { type Clock, nextUtcMidnight, utcDate } from './clock.ts';
import { sha256Hex } from './crypto.ts';
import type { UserRow } from './db/schema.ts';
import { ApiError, forbidden, unauthorized } from './errors.ts';
import { asArray } from './http.ts';
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
  /** The user's row as of verification (at most the cache lifetime old; cleared when the user changes). */
  user: UserRow;
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

const FAILURES = {
  missing: [
    'missing_api_key',
    'This route needs an API key: send `Authorization: Bearer <key>` or `X-API-Key: <key>`.',
  ],
  malformed: ['invalid_api_key', 'The Authorization header must be `Bearer <key>`.'],
  unknown: ['invalid_api_key', 'The API key is not valid.'],
  revoked: ['api_key_revoked', 'The API key has been revoked.'],
  expired: ['api_key_expired', 'The API key has expired.'],
} as const;

/** The UTC day containing `now`, recomputed only when the clock leaves it. */
class UtcDay {
  private start = 0;
  private end = 0;
  date = '';

  at(now: number): { date: string; midnight: number } {
    if (now < this.start || now >= this.end) {
      this.end = nextUtcMidnight(now);
      this.start = this.end - 86_400_000;
      this.date = utcDate(now);
    }
    return { date: this.date, midnight: this.end };
  }
}

/** The per-IP limit of public routes (and of unknown ones). */
export function publicLimiter(limits: RateLimits, clock: Clock) {
  return async (request: FastifyRequest): Promise<void> => {
    const now = clock.now();
    const state = await limits.consumeIp('public', request.ip, now);
    if (!state.allowed) {
      throw tooMany(
        'rate_limited',
        'Too many requests from this address; retry after the reset time.',
        state,
        now,
      );
    }
  };
}

export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => {
  const { lookup, cache, limits, usage, clock, plans } = options;
  const day = new UtcDay();
  app.decorateRequest('principal', null);

  // Synchronous on a cache hit: this runs on every authenticated request.
  function verify(
    request: FastifyRequest,
    now: number,
  ): Principal | keyof typeof FAILURES | Promise<Principal | keyof typeof FAILURES> {
    const key = extractKey(request);
    if (key === null) return 'missing';
    if (key === '' || key.length > 200) return 'malformed';
    const hash = sha256Hex(key);
    const cached = cache.get(hash);
    if (cached) return checkKey(cached, now);
    return lookup.findPrincipalByHash(hash).then((found) => {
      if (!found) return 'unknown';
      cache.set(hash, found);
      return checkKey(found, now);
    });
  }

  function checkKey(principal: Principal, now: number): Principal | keyof typeof FAILURES {
    if (principal.keyRevokedAt !== null && principal.keyRevokedAt <= now) return 'revoked';
    if (principal.keyExpiresAt !== null && principal.keyExpiresAt <= now) return 'expired';
    return principal;
  }

  // Addresses that failed authentication here lately; only they pay for a look at the shared failure budget.
  const recentFailures = new Map<string, number>();
  function failedRecently(ip: string, now: number): boolean {
    const until = recentFailures.get(ip);
    if (until === undefined) return false;
    if (until > now) return true;
    recentFailures.delete(ip);
    return false;
  }

  const limitPublic = publicLimiter(limits, clock);

  // Each route gets its own hook, built from its declared access, so no per-request lookup of route options.
  app.addHook('onRoute', (route) => {
    const access = (route.config as { access?: Access } | undefined)?.access;
    const hook =
      access === undefined || access === 'public'
        ? limitPublic
        : (request: FastifyRequest, reply: FastifyReply) => authorise(request, reply, access);
    route.onRequest = [hook, ...asArray(route.onRequest)];
  });

  async function authorise(request: FastifyRequest, reply: FastifyReply, access: Exclude<Access, 'public'>) {
    const now = clock.now();
    // An address that keeps failing is refused before its next guess is even checked.
    const blocked = failedRecently(request.ip, now)
      ? await limits.ipExhausted('auth', request.ip, now)
      : null;
    if (blocked) {
      throw tooMany(
        'too_many_failed_authentications',
        'Too many failed authentications from this address; retry later.',
        blocked,
        now,
      );
    }
    let verified = verify(request, now);
    if (verified instanceof Promise) verified = await verified;
    if (typeof verified === 'string') {
      if (recentFailures.size > 100_000) recentFailures.clear();
      recentFailures.set(request.ip, now + 60_000);
      await limits.consumeIp('auth', request.ip, now);
      const [code, detail] = FAILURES[verified];
      throw unauthorized(detail, code);
    }
    const principal = verified;
    request.principal = principal;
    if (!principal.userActive) {
      throw forbidden('This account is disabled; ask an operator to re-enable it.', 'account_disabled');
    }

    const plan = plans[principal.plan];
    const { date, midnight } = day.at(now);
    const quota = plan.daily_quota;
    const counted = access.quota !== 'exempt';
    // Both limits are asked at once (one round trip to Redis, not two); a burst refusal gives the count back.
    const [burst, daily] = await Promise.all([
      limits.consumeBurst(principal.keyId, plan.burst_per_second, now),
      counted
        ? limits.consumeQuota(principal.userId, date, quota)
        : quota === null
          ? null
          : limits.peekQuota(principal.userId, date).then((count) => ({ allowed: true, count })),
    ]);
    if (!burst.allowed) {
      if (counted && daily?.allowed) await limits.refundQuota(principal.userId, date);
      throw tooMany(
        'rate_limited',
        `This key is limited to ${plan.burst_per_second} requests per second.`,
        burst,
        now,
      );
    }
    if (daily && !daily.allowed) {
      throw tooMany(
        'quota_exceeded',
        `The daily quota of ${quota} requests for the ${principal.plan} plan is used up; it resets at 00:00 UTC.`,
        { allowed: false, limit: quota ?? 0, remaining: 0, resetAt: midnight },
        now,
      );
    }
    if (counted) usage.record(principal.userId, date);
    const count = daily?.count ?? 0;
    if (quota === null) setLimitHeaders(reply, burst);
    else setLimitHeaders(reply, { limit: quota, remaining: quota - count, resetAt: midnight });
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
  }
});
