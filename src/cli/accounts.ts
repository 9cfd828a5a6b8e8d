// The accounts service as the CLI uses it: on its own database handle (and Redis, when configured, so
// revoked keys drop out of the running servers' caches).

import type { Config } from '../config.ts';
import type { Database } from '../database.ts';
import { migrateAppToLatest } from '../migrations.ts';
import { AccountsService, AccountsStore, ALL_PERMISSIONS } from '../modules/accounts/index.ts';
import { organisationMemberships } from '../modules/organisations/index.ts';
import { type Actor, AuditLog } from '../platform/audit.ts';
import { KeyCache } from '../platform/auth.ts';
import { systemClock } from '../platform/clock.ts';
import { openDatabase, platformTables } from '../platform/db/index.ts';
import { LocalPubSub, type PubSub, RedisPubSub } from '../platform/pubsub.ts';
import { RateLimits } from '../platform/ratelimit.ts';
import { connectRedis } from '../platform/redis.ts';
import { UsageCounter } from '../platform/usage.ts';

// The CLI acts as the operator: it may grant any permission.
export const OPERATOR: Actor = { userId: 0, permissions: ALL_PERMISSIONS, requestId: 'cli' };

export async function withAccounts<T>(
  config: Config,
  work: (accounts: AccountsService, store: AccountsStore) => Promise<T>,
) {
  const handle = openDatabase<Database>(config.database);
  let pubsub: PubSub = new LocalPubSub();
  const closers: (() => void)[] = [];
  try {
    await migrateAppToLatest(handle);
    const redis = config.redisUrl ? await connectRedis(config.redisUrl, 'cli') : undefined;
    if (redis && config.redisUrl) {
      const subscriber = await connectRedis(config.redisUrl, 'cli-sub');
      pubsub = new RedisPubSub(redis, subscriber, config.redisKeyPrefix);
      closers.push(() => redis.disconnect());
    }
    const store = new AccountsStore(handle.db, handle.dialect);
    const platformDb = platformTables(handle.db);
    const usage = new UsageCounter(platformDb, store);
    const limits = new RateLimits({
      redis,
      prefix: config.redisKeyPrefix,
      ipPerMinute: config.publicRateLimitPerMinute,
      seed: (userId, date) => usage.storedCount(userId, date),
    });
    const accounts = new AccountsService(store, {
      clock: systemClock,
      plans: config.plans,
      cache: new KeyCache(pubsub),
      limits,
      usage,
      audit: new AuditLog(platformDb, systemClock),
      memberships: organisationMemberships(handle.db, handle.dialect),
    });
    return await work(accounts, store);
  } finally {
    await pubsub.close();
    for (const close of closers) close();
    await handle.close();
  }
}
