// Authentication, per-route permission checks and the limits that apply to each request.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type Clock, nextUtcMidnight, systemClock, utcDate } from './clock.ts';
import { sha256Hex } from './crypto.ts';
import { ApiError, forbidden, unauthorized } from './errors.ts';
import { asArray } from './http.ts';
import type { Plan, PlanName, PlanTable } from './plans.ts';
import type { PubSub } from './pubsub.ts';
import {
  ipLimitKey,
  type LimitState,
  type MaybePromise,
  type QuotaResult,
  type RateLimits,
  then,
} from './ratelimit.ts';
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

/**
 * The row of the user a key belongs to. Users are the accounts module's table: it declares the row's fields by
 * augmenting this interface (modules/accounts/tables.ts); the platform reads none of them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging from the accounts module.
export interface PrincipalUser {}

export interface Principal {
  userId: number;
  email: string;
  plan: PlanName;
  userActive: boolean;
  /** The user's row as of verification (at most the cache lifetime old; cleared when the user changes). */
  user: PrincipalUser;
  keyId: number;
  keyPermissions: Permission[];
  keyExpiresAt: number | null;
  keyRevokedAt: number | null;
  /** The key was rotated to a successor and works only until its grace period ends. */
  keyRotated: boolean;
}

interface KeyLookup {
  findPrincipalByHash(hash: string): Promise<Principal | null>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The route's body may be omitted entirely (it is then `{}`). */
    optionalBody?: boolean;
    /** The route takes no body: one with fields is a 400 (set by input.ts `declareNoInput`). */
    noBody?: boolean;
    /** The route answers the same whatever query or body is sent (upstream capabilities not offered here). */
    ignoresInput?: boolean;
    /**
     * A public route operators watch during an outage (`/status`, `/metrics`): while Redis is unreachable its
     * per-IP limit falls back to this process's own count instead of refusing with 503.
     */
    healthCheck?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** The user and day this request was counted against (its daily quota and usage), if it was. */
    countedAs: { userId: number; date: string } | null;
  }
  interface FastifyInstance {
    /**
     * In-process calls a gateway (the MCP endpoint) makes on a caller's behalf, with the caller's own key: the
     * key, permission and plan are checked as usual, but the burst limit and the daily quota are not charged
     * again, because the gateway metered the call it forwards (`meterCall`).
     */
    forwardHeaders(from: FastifyRequest): Record<string, string>;
    /**
     * Charge one request to the caller's daily quota and usage, as a counted route does; throws 429 when used up.
     * With `burst`, the call also takes one from the key's per-second burst limit first (429 `rate_limited`,
     * nothing charged): for calls beyond the first in one gateway request, which the request's own check covers.
     */
    meterCall(principal: Principal, options?: { burst?: boolean }): MaybePromise<QuotaHeaders | null>;
    /**
     * Checks a long-lived request's key again (a live-stream connection): null while the key, the account,
     * the permission and the plan's entitlement still admit it, else the problem's code (`api_key_revoked`,
     * `account_disabled`, `plan_not_entitled`, …). Nothing is counted.
     */
    recheckAccess(request: FastifyRequest, access: Exclude<Access, 'public'>): Promise<string | null>;
  }
}

/** Marks an in-process forwarded call; its value is a per-process secret, so no client can send it. */
const FORWARD_HEADER = 'x-crestwatch-forwarded';

const CACHE_TTL_MS = 5000;
const INVALIDATE_CHANNEL = 'auth:invalidate';

/** Short-lived cache of verified keys; revocations clear it here at once and elsewhere via pub/sub. */
export class KeyCache {
  private readonly byHash = new Map<string, { principal: Principal; at: number }>();

  constructor(
    private readonly pubsub: PubSub,
    private readonly clock: Clock = systemClock,
  ) {}

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
    if (this.clock.now() - hit.at > CACHE_TTL_MS) {
      this.byHash.delete(hash);
      return null;
    }
    return hit.principal;
  }

  set(hash: string, principal: Principal): void {
    if (this.byHash.size > 50_000) this.byHash.clear();
    this.byHash.set(hash, { principal, at: this.clock.now() });
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

interface AuthOptions {
  lookup: KeyLookup;
  cache: KeyCache;
  limits: RateLimits;
  usage: UsageCounter;
  clock: Clock;
  plans: PlanTable;
}

function extractKey(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.length > 0) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? match[1]! : '';
  }
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string') return apiKey.trim();
  return null;
}

/** A Bearer key and a different X-API-Key: which one the caller meant is unknown, so neither is used. */
function conflictingKeys(request: FastifyRequest, bearer: string): boolean {
  const apiKey = request.headers['x-api-key'];
  return (
    typeof request.headers.authorization === 'string' &&
    typeof apiKey === 'string' &&
    apiKey.trim() !== '' &&
    apiKey.trim() !== bearer
  );
}

/** The daily quota's rate-limit headers as a metered call leaves them. */
interface QuotaHeaders {
  'X-RateLimit-Limit': number;
  'X-RateLimit-Remaining': number;
  'X-RateLimit-Reset': number;
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

function hasPermission(principal: Principal, permission: Permission): boolean {
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
  conflicting: [
    'conflicting_api_keys',
    'Authorization and X-API-Key carry different keys; send one key (the same key in both is fine).',
  ],
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

/**
 * The per-IP limit of public routes (and of unknown ones). Limits fail closed: while Redis is unreachable the
 * request is refused with 503 and Retry-After, except on health routes (`local`), which count in this process.
 */
export function publicLimiter(limits: RateLimits, clock: Clock, fallback: 'refuse' | 'local' = 'refuse') {
  return (request: FastifyRequest): MaybePromise<void> => {
    const now = clock.now();
    const state =
      fallback === 'local'
        ? limits.consumeIpOrLocal('public', request.ip, now)
        : limits.consumeIp('public', request.ip, now);
    return then(state, (state) => {
      if (!state.allowed) {
        throw tooMany(
          'rate_limited',
          'Too many requests from this address; retry after the reset time.',
          state,
          now,
        );
      }
    });
  };
}

/** A callback-style hook around a step that answers now or later (no promise when it answers now). */
export function hookFor(step: (request: FastifyRequest, reply: FastifyReply) => MaybePromise<unknown>) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    let result: MaybePromise<unknown>;
    try {
      result = step(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (result instanceof Promise) result.then(() => done(), done);
    else done();
  };
}

export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => {
  const { lookup, cache, limits, usage, clock, plans } = options;
  const day = new UtcDay();
  app.decorateRequest('principal', null);
  app.decorateRequest('countedAs', null);
  // A request refused by a limit is not counted: one a handler refuses with 429 (the monthly insight limit)
  // gives back the count it took when admitted.
  app.addHook('onResponse', (request, reply, done) => {
    const counted = request.countedAs;
    if (counted === null || reply.statusCode !== 429) return done();
    request.countedAs = null;
    usage.unrecord(counted.userId, counted.date);
    const refund = limits.refundQuota(counted.userId, counted.date);
    if (refund instanceof Promise) refund.then(() => done(), done);
    else done();
  });

  // Synchronous on a cache hit: this runs on every authenticated request.
  function verify(
    request: FastifyRequest,
    now: number,
  ): Principal | keyof typeof FAILURES | Promise<Principal | keyof typeof FAILURES> {
    const key = extractKey(request);
    if (key === null) return 'missing';
    if (key === '' || key.length > 200) return 'malformed';
    if (conflictingKeys(request, key)) return 'conflicting';
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
  const limitHealth = publicLimiter(limits, clock, 'local');

  const forwardToken = randomBytes(24).toString('hex');
  const forwardBytes = Buffer.from(forwardToken);
  function isForwarded(request: FastifyRequest): boolean {
    const value = request.headers[FORWARD_HEADER];
    if (typeof value !== 'string' || value.length !== forwardToken.length) return false;
    return timingSafeEqual(Buffer.from(value), forwardBytes);
  }
  app.decorate('forwardHeaders', (from: FastifyRequest): Record<string, string> => {
    const headers: Record<string, string> = { [FORWARD_HEADER]: forwardToken };
    if (typeof from.headers.authorization === 'string') headers.authorization = from.headers.authorization;
    else if (typeof from.headers['x-api-key'] === 'string') headers['x-api-key'] = from.headers['x-api-key'];
    return headers;
  });
  app.decorate(
    'meterCall',
    (principal: Principal, options: { burst?: boolean } = {}): MaybePromise<QuotaHeaders | null> => {
      const now = clock.now();
      const plan = plans[principal.plan];
      const { date, midnight } = day.at(now);
      const burst = options.burst ? limits.consumeBurst(principal.keyId, plan.burst_per_second, now) : null;
      return then(burst, (burstState) => {
        if (burstState && !burstState.allowed) {
          throw tooMany(
            'rate_limited',
            `This key is limited to ${plan.burst_per_second} requests per second.`,
            burstState,
            now,
          );
        }
        return then(limits.consumeQuota(principal.userId, date, plan.daily_quota), (result) => {
          if (!result.allowed) throw quotaExceeded(principal, plan.daily_quota, midnight, now);
          usage.record(principal.userId, date);
          // The daily quota's headers after this call, for the gateway's answer (none without a quota).
          if (plan.daily_quota === null) return null;
          return {
            'X-RateLimit-Limit': plan.daily_quota,
            'X-RateLimit-Remaining': Math.max(0, plan.daily_quota - result.count),
            'X-RateLimit-Reset': Math.ceil(midnight / 1000),
          };
        });
      });
    },
  );

  app.decorate(
    'recheckAccess',
    async (request: FastifyRequest, access: Exclude<Access, 'public'>): Promise<string | null> => {
      const verified = await verify(request, clock.now());
      if (typeof verified === 'string') return FAILURES[verified][0];
      if (!verified.userActive) return 'account_disabled';
      try {
        entitle(verified, access, plans[verified.plan]);
      } catch (error) {
        return error instanceof ApiError ? error.code : 'forbidden';
      }
      return null;
    },
  );

  // Each route gets its own hook, built from its declared access, so no per-request lookup of route options.
  app.addHook('onRoute', (route) => {
    const config = route.config as { access?: Access; healthCheck?: boolean } | undefined;
    const access = config?.access;
    const hook =
      access === undefined || access === 'public'
        ? hookFor(config?.healthCheck ? limitHealth : limitPublic)
        : hookFor((request, reply) => authorise(request, reply, access));
    route.onRequest = [hook, ...asArray(route.onRequest)];
  });

  // Synchronous from start to end when the key is cached and the limits live in memory: every promise hop here
  // costs measurable CPU under load. Redis-backed limits and database lookups continue asynchronously.
  function authorise(
    request: FastifyRequest,
    reply: FastifyReply,
    access: Exclude<Access, 'public'>,
  ): MaybePromise<void> {
    const now = clock.now();
    // Keyed as the per-IP limits are (an IPv6 client by its /64).
    const ip = ipLimitKey(request.ip);
    // An address that keeps failing is refused before its next guess is even checked.
    const blocked = failedRecently(ip, now) ? limits.ipExhausted('auth', ip, now) : null;
    return then(blocked, (state) => {
      if (state) {
        throw tooMany(
          'too_many_failed_authentications',
          'Too many failed authentications from this address; retry later.',
          state,
          now,
        );
      }
      return then(verify(request, now), (verified) => {
        if (typeof verified !== 'string') return admit(request, reply, access, verified, now);
        if (recentFailures.size > 100_000) recentFailures.clear();
        recentFailures.set(ip, now + 60_000);
        return then(limits.consumeIp('auth', ip, now), () => {
          const [code, detail] = FAILURES[verified];
          throw unauthorized(detail, code);
        });
      });
    });
  }

  function admit(
    request: FastifyRequest,
    reply: FastifyReply,
    access: Exclude<Access, 'public'>,
    principal: Principal,
    now: number,
  ): MaybePromise<void> {
    request.principal = principal;
    if (!principal.userActive) {
      throw forbidden('This account is disabled; ask an operator to re-enable it.', 'account_disabled');
    }
    const plan = plans[principal.plan];
    if (isForwarded(request)) return entitle(principal, access, plan);
    const { date, midnight } = day.at(now);
    const quota = plan.daily_quota;
    const counted = access.quota !== 'exempt';
    // Both limits are asked at once (one round trip to Redis, not two); a burst refusal gives the count back.
    const burst = limits.consumeBurst(principal.keyId, plan.burst_per_second, now);
    const daily: MaybePromise<QuotaResult | null> = counted
      ? limits.consumeQuota(principal.userId, date, quota)
      : quota === null
        ? null
        : then(limits.peekQuota(principal.userId, date), (count) => ({ allowed: true, count }));
    const both =
      burst instanceof Promise || daily instanceof Promise
        ? Promise.all([burst, daily])
        : ([burst, daily] as const);
    return then(both, ([burstState, dailyResult]) => {
      if (!burstState.allowed) {
        const refund = counted && dailyResult?.allowed ? limits.refundQuota(principal.userId, date) : null;
        return then(refund, () => {
          throw tooMany(
            'rate_limited',
            `This key is limited to ${plan.burst_per_second} requests per second.`,
            burstState,
            now,
          );
        });
      }
      if (dailyResult && !dailyResult.allowed) throw quotaExceeded(principal, quota, midnight, now);
      if (counted) {
        usage.record(principal.userId, date);
        request.countedAs = { userId: principal.userId, date };
      }
      const count = dailyResult?.count ?? 0;
      if (quota === null) setLimitHeaders(reply, burstState);
      else setLimitHeaders(reply, { limit: quota, remaining: quota - count, resetAt: midnight });
      usage.touchKey(principal.keyId, now);
      entitle(principal, access, plan);
    });
  }
});

function entitle(principal: Principal, access: Exclude<Access, 'public'>, plan: Plan): void {
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

function quotaExceeded(principal: Principal, quota: number | null, midnight: number, now: number): ApiError {
  return tooMany(
    'quota_exceeded',
    `The daily quota of ${quota} requests for the ${principal.plan} plan is used up; it resets at 00:00 UTC.`,
    { allowed: false, limit: quota ?? 0, remaining: 0, resetAt: midnight },
    now,
  );
}
