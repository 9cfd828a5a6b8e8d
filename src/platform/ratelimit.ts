// Per-key burst limits, the per-user daily quota and per-IP limits, on rate-limiter-flexible: in memory when
// embedded, in Redis when REDIS_URL is set so every process shares one budget.
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';

export interface LimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms when the window resets. */
  resetAt: number;
}

const UNLIMITED = Number.MAX_SAFE_INTEGER;
const QUOTA_TTL_SECONDS = 2 * 86_400;

export class RateLimits {
  private readonly burstLimiters = new Map<number, RateLimiterAbstract>();
  private readonly quota: RateLimiterAbstract;
  private readonly ipLimiters = new Map<string, RateLimiterAbstract>();
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

  private make(name: string, points: number, duration: number): RateLimiterAbstract {
    const keyPrefix = `${this.options.prefix}rl:${name}`;
    return this.options.redis
      ? new RateLimiterRedis({ storeClient: this.options.redis, keyPrefix, points, duration })
      : new RateLimiterMemory({ keyPrefix, points, duration });
  }

  // The two methods below run on every authenticated request: plain promise chains, no async frames.

  /** One point from the key's per-second burst budget. */
  consumeBurst(keyId: number, perSecond: number, now: number): Promise<LimitState> {
    let limiter = this.burstLimiters.get(perSecond);
    if (!limiter) {
      limiter = this.make(`burst${perSecond}`, perSecond, 1);
      this.burstLimiters.set(perSecond, limiter);
    }
    return settle(limiter.consume(String(keyId))).then((res) => toState(res, perSecond, now));
  }

  /** Counts one request against the user's quota for `date`; a refused request is given back. */
  consumeQuota(
    userId: number,
    date: string,
    quota: number | null,
  ): Promise<{ allowed: boolean; count: number }> {
    const key = `${userId}:${date}`;
    if (!this.seeded.has(key)) {
      return this.seed(key, userId, date).then(() => this.consumeQuota(userId, date, quota));
    }
    return settle(this.quota.consume(key, 1)).then((res) => {
      const count = res.consumedPoints;
      if (quota === null || count <= quota) return { allowed: true, count };
      return this.quota.reward(key, 1).then(() => ({ allowed: false, count: count - 1 }));
    });
  }

  /** Gives back one counted request (it was refused by another limit). */
  async refundQuota(userId: number, date: string): Promise<void> {
    await this.quota.reward(`${userId}:${date}`, 1);
  }

  /** The user's counted requests for `date` without counting this one. */
  async peekQuota(userId: number, date: string): Promise<number> {
    const key = `${userId}:${date}`;
    if (!this.seeded.has(key)) await this.seed(key, userId, date);
    const res = await this.quota.get(key);
    return res?.consumedPoints ?? 0;
  }

  /** One point from a per-IP budget (`public` routes, failed `auth`). */
  async consumeIp(kind: string, ip: string, now: number): Promise<LimitState> {
    const limiter = this.ipLimiter(kind);
    return toState(await settle(limiter.consume(ip)), this.options.ipPerMinute, now);
  }

  /** Whether the IP's budget of `kind` is already spent (without spending). */
  async ipExhausted(kind: string, ip: string, now: number): Promise<LimitState | null> {
    const res = await this.ipLimiter(kind).get(ip);
    if (!res || res.consumedPoints < this.options.ipPerMinute) return null;
    return { allowed: false, limit: this.options.ipPerMinute, remaining: 0, resetAt: now + res.msBeforeNext };
  }

  private ipLimiter(kind: string): RateLimiterAbstract {
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
    } else if ((await this.quota.get(key)) === null) {
      await this.quota.set(key, stored, QUOTA_TTL_SECONDS);
    }
    this.seeded.add(key);
    if (this.seeded.size > 100_000) this.seeded.clear();
  }
}

/** rate-limiter-flexible rejects with the state when a limit is hit; both outcomes are a state here. */
function settle(promise: Promise<RateLimiterRes>): Promise<RateLimiterRes> {
  return promise.catch((error: unknown) => {
    if (error instanceof RateLimiterRes) return error;
    throw error;
  });
}

function toState(res: RateLimiterRes, limit: number, now: number): LimitState {
  return {
    allowed: res.consumedPoints <= limit,
    limit,
    remaining: Math.max(0, limit - res.consumedPoints),
    resetAt: now + Math.max(res.msBeforeNext, 0),
  };
}
