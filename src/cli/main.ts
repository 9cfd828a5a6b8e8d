// `crestwatch` CLI: migrate, users create, keys create|list|revoke.
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { isPlanName, PLAN_NAMES } from '../modules/accounts/plans.ts';
import { AccountsService, type Actor, ALL_PERMISSIONS } from '../modules/accounts/service.ts';
import { AccountsStore } from '../modules/accounts/store.ts';
import { KeyCache, type Permission } from '../platform/auth.ts';
import { systemClock } from '../platform/clock.ts';
import { migrateToLatest, openDatabase } from '../platform/db/index.ts';
import { LocalPubSub, type PubSub, RedisPubSub } from '../platform/pubsub.ts';
import { RateLimits } from '../platform/ratelimit.ts';
import { connectRedis } from '../platform/redis.ts';
import { UsageCounter } from '../platform/usage.ts';

const USAGE = `Usage: crestwatch <command> [options]

Commands:
  migrate                                   apply database migrations
  users create --email E --plan P [--name N]
  keys create (--user ID | --email E) --name N [--permissions read,write,ingest,admin] [--expires-at ISO]
  keys list (--user ID | --email E)
  keys revoke --id KEY_ID

Plans: ${PLAN_NAMES.join(', ')}. Configuration comes from the environment (see .env.example).`;

class UsageError extends Error {}

// The CLI acts as the operator: it may grant any permission.
const OPERATOR: Actor = { userId: 0, permissions: ALL_PERMISSIONS, requestId: 'cli' };

async function withAccounts<T>(
  config: Config,
  work: (accounts: AccountsService, store: AccountsStore) => Promise<T>,
) {
  const handle = openDatabase(config.database);
  let pubsub: PubSub = new LocalPubSub();
  const closers: (() => void)[] = [];
  try {
    await migrateToLatest(handle);
    const redis = config.redisUrl ? await connectRedis(config.redisUrl, 'cli') : undefined;
    if (redis && config.redisUrl) {
      const subscriber = await connectRedis(config.redisUrl, 'cli-sub');
      pubsub = new RedisPubSub(redis, subscriber, config.redisKeyPrefix);
      closers.push(() => redis.disconnect());
    }
    const store = new AccountsStore(handle.db);
    const usage = new UsageCounter(handle.db);
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
    });
    return await work(accounts, store);
  } finally {
    await pubsub.close();
    for (const close of closers) close();
    await handle.close();
  }
}

async function resolveUser(store: AccountsStore, values: { user?: string; email?: string }): Promise<number> {
  if (values.user) {
    if (!/^\d+$/.test(values.user)) throw new UsageError('--user must be a numeric user id');
    const user = await store.findUserById(Number(values.user));
    if (!user) throw new UsageError(`no user with id ${values.user}`);
    return user.id;
  }
  if (values.email) {
    const user = await store.findUserByEmail(values.email.toLowerCase());
    if (!user) throw new UsageError(`no user with email ${values.email}`);
    return user.id;
  }
  throw new UsageError('name the user with --user ID or --email E');
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      plan: { type: 'string' },
      name: { type: 'string' },
      user: { type: 'string' },
      permissions: { type: 'string' },
      'expires-at': { type: 'string' },
      id: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();

  if (command === 'migrate') {
    const handle = openDatabase(config.database);
    try {
      const applied = await migrateToLatest(handle);
      console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
    } finally {
      await handle.close();
    }
    return;
  }

  if (command === 'users' && sub === 'create') {
    if (!values.email) throw new UsageError('users create needs --email');
    const plan = values.plan ?? 'developer';
    if (!isPlanName(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
    const user = await withAccounts(config, (accounts) =>
      accounts.createUser({ email: values.email!, full_name: values.name ?? null, plan }, null),
    );
    console.log(`Created user ${user.id} <${user.email}> on the ${user.plan} plan.`);
    return;
  }

  if (command === 'keys' && sub === 'create') {
    if (!values.name) throw new UsageError('keys create needs --name');
    const permissions = values.permissions?.split(',').map((p) => p.trim()) as Permission[] | undefined;
    for (const p of permissions ?? []) {
      if (!ALL_PERMISSIONS.includes(p))
        throw new UsageError(`unknown permission ${p} (use ${ALL_PERMISSIONS.join(', ')})`);
    }
    const created = await withAccounts(config, async (accounts, store) => {
      const userId = await resolveUser(store, values);
      return accounts.createKey(
        userId,
        { name: values.name!, permissions, expires_at: values['expires-at'] },
        { ...OPERATOR, userId },
      );
    });
    console.log(`Created key ${created.id} (${created.permissions.join(', ')}). It is shown only now:`);
    console.log(created.api_key);
    return;
  }

  if (command === 'keys' && sub === 'list') {
    const keys = await withAccounts(config, async (accounts, store) =>
      accounts.listKeys(await resolveUser(store, values)),
    );
    if (keys.length === 0) console.log('No keys.');
    for (const key of keys) {
      console.log(
        [
          key.id,
          key.prefix,
          key.name,
          key.permissions.join(','),
          key.is_active ? 'active' : 'inactive',
          key.last_used_at ?? 'never used',
        ].join('\t'),
      );
    }
    return;
  }

  if (command === 'keys' && sub === 'revoke') {
    if (!values.id || !/^\d+$/.test(values.id)) throw new UsageError('keys revoke needs --id KEY_ID');
    await withAccounts(config, async (accounts, store) => {
      const row = await store.db
        .selectFrom('api_keys')
        .select('user_id')
        .where('id', '=', Number(values.id))
        .executeTakeFirst();
      if (!row) throw new UsageError(`no key with id ${values.id}`);
      await accounts.revokeKey(row.user_id, Number(values.id), { ...OPERATOR, userId: row.user_id });
    });
    console.log(`Revoked key ${values.id}.`);
    return;
  }

  throw new UsageError(`unknown command: ${positionals.join(' ')}`);
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(78);
  }
  if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    process.stderr.write(`crestwatch: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  const detail = (error as { detail?: string }).detail ?? (error as Error).message;
  process.stderr.write(`crestwatch: ${detail}\n`);
  process.exit(1);
}
