// Per-key burst limits, the per-user daily quota and per-IP limits, on rate-limiter-flexible: in memory when
// embedded, in Redis when REDIS_URL is set so every process shares one budget.
//
// Measured under load, every promise hop on the request path costs tens of microseconds of server CPU, so the
// in-memory limiters answer synchronously (`Sync<T>` = T) and only Redis and first-of-day seeding return
// promises. Callers handle both with `settled()`.
import net from 'node:net';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { isRedisUnavailable } from './redis.ts';

export interface LimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms when the window resets. */
  resetAt: number;
}

export interface QuotaResult {
  allowed: boolean;
  count: number;
}

/** A value now (memory store) or later (Redis). */
export type MaybePromise<T> = T | Promise<T>;

const UNLIMITED = Number.MAX_SAFE_INTEGER;
const QUOTA_TTL_SECONDS = 2 * 86_400;

/**
 * KEYS[1] the counter, ARGV[1] the quota (-1 = unlimited) → nil when the counter is missing (seed it first),
 * else {allowed 1|0, count}: one request counted, or given back at once when it would exceed the quota.
 */
const QUOTA_CONSUME_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
local count = redis.call('INCR', KEYS[1])
local quota = tonumber(ARGV[1])
if quota >= 0 and count > quota then
  redis.call('DECR', KEYS[1])
  return {0, count - 1}
end
return {1, count}`;

/** KEYS[1] the counter: one request given back, only if the counter still exists. */
const QUOTA_REFUND_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end
return nil`;

interface MemoryStorage {
  incrby(key: string, value: number, durationSec: number): RateLimiterRes;
  get(key: string): RateLimiterRes | null;
}

/**
 * RateLimiterMemory's own arithmetic, without the promise around it. The memory store is synchronous inside
 * `consume()`; this reaches it directly (no blockDuration or execEvenly is used here, so nothing else applies).
 */
class SyncMemoryLimiter extends RateLimiterMemory {
  private get storage(): MemoryStorage {
    return (this as unknown as { _memoryStorage: MemoryStorage })._memoryStorage;
  }

  add(key: string, points: number): RateLimiterRes {
    // remainingPoints is not read here: callers compare consumedPoints with their own limits.
    return this.storage.incrby(this.getKey(key), points, this.duration);
  }

  peek(key: string): RateLimiterRes | null {
    return this.storage.get(this.getKey(key));
  }
}

type Limiter = SyncMemoryLimiter | RateLimiterRedis;

export class RateLimits {
  private readonly burstLimiters = new Map<number, Limiter>();
  private readonly quota: Limiter;
  private readonly ipLimiters = new Map<string, Limiter>();
  /** Per-process stand-ins for the Redis per-IP budgets, used by `consumeIpOrLocal` during an outage. */
  private readonly localIpLimiters = new Map<string, SyncMemoryLimiter>();
  /** Memory only: counters seeded from the database in this process (they live as long as it does). */
  private readonly seeded = new Set<string>();

  constructor(
    private readonly options: {
      redis?: Redis;
      prefix: string;
      ipPerMinute: number;
      /** What the database holds for a user and day, to start the counter from. */
      seed: (userId: number, date: string) => Promise<number>;
    },
  ) {
    this.quota = this.make('quota', UNLIMITED, QUOTA_TTL_SECONDS);
  }

  private make(name: string, points: number, duration: number): Limiter {
    const keyPrefix = `${this.options.prefix}rl:${name}`;
    return this.options.redis
      ? new RateLimiterRedis({ storeClient: this.options.redis, keyPrefix, points, duration })
      : new SyncMemoryLimiter({ keyPrefix, points, duration });
  }

  /** Adds points to a key; refusals come back as a state, not an error. */
  private add(limiter: Limiter, key: string, points: number): MaybePromise<RateLimiterRes> {
    if (limiter instanceof SyncMemoryLimiter) return limiter.add(key, points);
    return (points >= 0 ? limiter.consume(key, points) : limiter.reward(key, -points)).catch(
      (error: unknown) => {
        if (error instanceof RateLimiterRes) return error;
        throw error;
      },
    );
  }

  private peek(limiter: Limiter, key: string): MaybePromise<RateLimiterRes | null> {
    return limiter instanceof SyncMemoryLimiter ? limiter.peek(key) : limiter.get(key);
  }

  /** One point from the key's per-second burst budget. */
  consumeBurst(keyId: number, perSecond: number, now: number): MaybePromise<LimitState> {
    let limiter = this.burstLimiters.get(perSecond);
    if (!limiter) {
      limiter = this.make(`burst${perSecond}`, perSecond, 1);
      this.burstLimiters.set(perSecond, limiter);
    }
    return then(this.add(limiter, String(keyId), 1), (res) => toState(res, perSecond, now));
  }

  /** Counts one request against the user's quota for `date`; a refused request is given back. */
  consumeQuota(userId: number, date: string, quota: number | null): MaybePromise<QuotaResult> {
    const key = `${userId}:${date}`;
    if (this.options.redis) return this.consumeRedisQuota(this.options.redis, key, userId, date, quota);
    if (!this.seeded.has(key)) {
      return this.seed(key, userId, date).then(() => this.consumeQuota(userId, date, quota));
    }
    return then(this.add(this.quota, key, 1), (res) => {
      const count = res.consumedPoints;
      if (quota === null || count <= quota) return { allowed: true, count };
      return then(this.add(this.quota, key, -1), () => ({ allowed: false, count: count - 1 }));
    });
  }

  /**
   * Redis may lose a counter at any time (FLUSHALL, eviction, a restart without persistence): every call checks
   * in the same atomic step that the counter exists, and a missing one is seeded from the database before it
   * counts anything, so a lost counter never restarts the day from zero.
   */
  private async consumeRedisQuota(
    redis: Redis,
    key: string,
    userId: number,
    date: string,
    quota: number | null,
  ): Promise<QuotaResult> {
    const redisKey = this.quota.getKey(key);
    const limit = quota === null ? -1 : quota;
    for (let attempt = 0; ; attempt++) {
      const answer = (await redis.eval(QUOTA_CONSUME_SCRIPT, 1, redisKey, limit)) as [number, number] | null;
      if (answer !== null) return { allowed: answer[0] === 1, count: answer[1] };
      if (attempt >= 2) throw new Error('quota counter could not be seeded in Redis');
      await this.seed(key, userId, date);
    }
  }

  /** Gives back one counted request (it was refused by another limit). */
  refundQuota(userId: number, date: string): MaybePromise<unknown> {
    const key = `${userId}:${date}`;
    // A counter lost meanwhile is left missing (it is seeded from the database when next used), not made -1.
    if (this.options.redis) return this.options.redis.eval(QUOTA_REFUND_SCRIPT, 1, this.quota.getKey(key));
    return this.add(this.quota, key, -1);
  }

  /** The user's counted requests for `date` without counting this one. */
  peekQuota(userId: number, date: string): MaybePromise<number> {
    const key = `${userId}:${date}`;
    if (this.options.redis) return this.peekRedisQuota(this.options.redis, key, userId, date);
    if (!this.seeded.has(key)) return this.seed(key, userId, date).then(() => this.peekQuota(userId, date));
    return then(this.peek(this.quota, key), (res) => res?.consumedPoints ?? 0);
  }

  private async peekRedisQuota(redis: Redis, key: string, userId: number, date: string): Promise<number> {
    const redisKey = this.quota.getKey(key);
    const stored = await redis.get(redisKey);
    if (stored !== null) return Number(stored);
    await this.seed(key, userId, date);
    return Number((await redis.get(redisKey)) ?? 0);
  }

  /** One point from a per-IP budget (`public` routes, failed `auth`). */
  consumeIp(kind: string, ip: string, now: number): MaybePromise<LimitState> {
    return then(this.add(this.ipLimiter(kind), ipLimitKey(ip), 1), (res) =>
      toState(res, this.options.ipPerMinute, now),
    );
  }

  /**
   * As `consumeIp`, but while Redis is unreachable the point is taken from this process's own budget (each
   * instance then allows the full rate), for the few routes that must answer during an outage.
   */
  consumeIpOrLocal(kind: string, ip: string, now: number): MaybePromise<LimitState> {
    const shared = this.consumeIp(kind, ip, now);
    if (!(shared instanceof Promise)) return shared;
    return shared.catch((error: unknown) => {
      if (!isRedisUnavailable(error)) throw error;
      let local = this.localIpLimiters.get(kind);
      if (!local) {
        local = new SyncMemoryLimiter({
          keyPrefix: `local-ip-${kind}`,
          points: this.options.ipPerMinute,
          duration: 60,
        });
        this.localIpLimiters.set(kind, local);
      }
      return toState(local.add(ipLimitKey(ip), 1), this.options.ipPerMinute, now);
    });
  }

  /** Whether the IP's budget of `kind` is already spent (without spending). */
  ipExhausted(kind: string, ip: string, now: number): MaybePromise<LimitState | null> {
    return then(this.peek(this.ipLimiter(kind), ipLimitKey(ip)), (res) => {
      if (!res || res.consumedPoints < this.options.ipPerMinute) return null;
      return {
        allowed: false,
        limit: this.options.ipPerMinute,
        remaining: 0,
        resetAt: now + res.msBeforeNext,
      };
    });
  }

  private ipLimiter(kind: string): Limiter {
    let limiter = this.ipLimiters.get(kind);
    if (!limiter) {
      limiter = this.make(`ip-${kind}`, this.options.ipPerMinute, 60);
      this.ipLimiters.set(kind, limiter);
    }
    return limiter;
  }

  // The counter starts from what the database already holds for that day, so a restart loses nothing. In
  // Redis, NX: of several processes seeding a lost counter at once, the first wins and none adds twice.
  private async seed(key: string, userId: number, date: string): Promise<void> {
    const stored = await this.options.seed(userId, date);
    if (this.options.redis) {
      await this.options.redis.set(this.quota.getKey(key), stored, 'EX', QUOTA_TTL_SECONDS, 'NX');
      return;
    }
    if (this.quota instanceof SyncMemoryLimiter && this.quota.peek(key) === null) {
      await this.quota.set(key, stored, QUOTA_TTL_SECONDS);
    }
    this.seeded.add(key);
    if (this.seeded.size > 100_000) this.seeded.clear();
  }
}

/** IPv6 addresses a single client may hold: providers hand out a /64 (or more) per subscriber. */
const IPV6_CLIENT_PREFIX_GROUPS = 4;

/**
 * The per-IP budget an address spends: an IPv4 address as is (also when written IPv4-mapped, `::ffff:a.b.c.d`),
 * an IPv6 address by its /64, so one client cannot get a fresh budget per address of its own prefix.
 */
export function ipLimitKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (net.isIPv6(ip)) return `${expandIpv6(ip).slice(0, IPV6_CLIENT_PREFIX_GROUPS).join(':')}::/64`;
  return ip;
}

/** The eight groups of an IPv6 address, lower-case without leading zeros (a zone id is dropped). */
function expandIpv6(ip: string): string[] {
  let address = ip.split('%')[0]!.toLowerCase();
  // An embedded IPv4 tail (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) becomes two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}

/** Applies `fn` now to a plain value, or later to a promise. */
export function then<T, U>(value: MaybePromise<T>, fn: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}

function toState(res: RateLimiterRes, limit: number, now: number): LimitState {
  return {
    allowed: res.consumedPoints <= limit,
    limit,
    remaining: Math.max(0, limit - res.consumedPoints),
    resetAt: now + Math.max(res.msBeforeNext, 0),
  };
}
