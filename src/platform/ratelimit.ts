// Per-key burst limits, the per-user daily quota and per-IP limits, on rate-limiter-flexible: in memory when
// embedded, in Redis when REDIS_URL is set so every process shares one budget.
//
// Measured under load, every promise hop on the request path costs tens of microseconds of server CPU, so the
// in-memory limiters answer synchronously (`Sync<T>` = T) and only Redis and first-of-day seeding return
// promises. Callers handle both with `settled()`.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

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
    if (!this.seeded.has(key)) {
      return this.seed(key, userId, date).then(() => this.consumeQuota(userId, date, quota));
    }
    return then(this.add(this.quota, key, 1), (res) => {
      const count = res.consumedPoints;
      if (quota === null || count <= quota) return { allowed: true, count };
      return then(this.add(this.quota, key, -1), () => ({ allowed: false, count: count - 1 }));
    });
  }

  /** Gives back one counted request (it was refused by another limit). */
  refundQuota(userId: number, date: string): MaybePromise<unknown> {
    return this.add(this.quota, `${userId}:${date}`, -1);
  }

  /** The user's counted requests for `date` without counting this one. */
  peekQuota(userId: number, date: string): MaybePromise<number> {
    const key = `${userId}:${date}`;
    if (!this.seeded.has(key)) return this.seed(key, userId, date).then(() => this.peekQuota(userId, date));
    return then(this.peek(this.quota, key), (res) => res?.consumedPoints ?? 0);
  }

  /** One point from a per-IP budget (`public` routes, failed `auth`). */
  consumeIp(kind: string, ip: string, now: number): MaybePromise<LimitState> {
    return then(this.add(this.ipLimiter(kind), ip, 1), (res) => toState(res, this.options.ipPerMinute, now));
  }

  /** Whether the IP's budget of `kind` is already spent (without spending). */
  ipExhausted(kind: string, ip: string, now: number): MaybePromise<LimitState | null> {
    return then(this.peek(this.ipLimiter(kind), ip), (res) => {
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

  // The counter starts from what the database already holds for that day, so a restart loses nothing.
  private async seed(key: string, userId: number, date: string): Promise<void> {
    const stored = await this.options.seed(userId, date);
    if (this.options.redis) {
      await this.options.redis.set(this.quota.getKey(key), stored, 'EX', QUOTA_TTL_SECONDS, 'NX');
    } else if (this.quota instanceof SyncMemoryLimiter && this.quota.peek(key) === null) {
      await this.quota.set(key, stored, QUOTA_TTL_SECONDS);
    }
    this.seeded.add(key);
    if (this.seeded.size > 100_000) this.seeded.clear();
  }
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
