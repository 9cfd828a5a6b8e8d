// `crestwatch` CLI: migrate, users create, keys create|list|revoke, ingest, seed, blog import.
import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { isPlanName, PLAN_NAMES } from '../modules/accounts/plans.ts';
import { AccountsService, type Actor, ALL_PERMISSIONS } from '../modules/accounts/service.ts';
import { AccountsStore } from '../modules/accounts/store.ts';
import { importPosts, markdownFiles } from '../modules/content/blog/import.ts';
import { BlogService } from '../modules/content/blog/service.ts';
import { BlogStore } from '../modules/content/blog/store.ts';
import { SignalsService } from '../modules/signals/service.ts';
import { demoSignals } from '../modules/signals/sources/demo.ts';
import type { SourceSignal } from '../modules/signals/sources/types.ts';
import { SignalsStore } from '../modules/signals/store.ts';
import { createNlpPool } from '../modules/trends/nlp-pool.ts';
import { TrendProcessor } from '../modules/trends/processor.ts';
import { TrendsStore } from '../modules/trends/store.ts';
import { KeyCache, type Permission } from '../platform/auth.ts';
import { systemClock } from '../platform/clock.ts';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../platform/db/index.ts';
import { LocalPubSub, type PubSub, RedisPubSub } from '../platform/pubsub.ts';
import { RateLimits } from '../platform/ratelimit.ts';
import { connectRedis } from '../platform/redis.ts';
import { UsageCounter } from '../platform/usage.ts';
import { Progress } from './progress.ts';

const USAGE = `Usage: crestwatch <command> [options]

Commands:
  migrate                                   apply database migrations
  users create --email E --plan P [--name N]
  keys create (--user ID | --email E) --name N [--permissions read,write,ingest,admin] [--expires-at ISO]
  keys list (--user ID | --email E)
  keys revoke --id KEY_ID
  ingest FILE.jsonl [--batch 1000] [--process]
                                            store signals from a JSON Lines file (one POST /api/signals
                                            item per line); --process also turns them into trends
  seed --demo [--hours 72] [--seed N]       store the demo simulator's signals for the last 1–720 hours
                                            and process them into trends (safe to re-run)
  blog import DIR                           load DIR/*.md (front matter + Markdown) as blog posts; a post
                                            whose slug exists is updated (safe to re-run)

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

// ---------------------------------------------------------------------------------------------------------
// ingest and seed: signals in, trends out

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
// The processor keeps two hours of minute buckets; prune as it does while working through history.
const MINUTES_KEPT = 120;
const PROCESS_BATCH = 1000;
const SEED_CHUNK_MS = 10 * MINUTE_MS;
const SEED_INGEST_BATCH = 1000;
const SHOWN_REJECTIONS = 20;

interface SignalTools {
  handle: DatabaseHandle;
  signals: SignalsService;
  trends: TrendsStore;
  processor: TrendProcessor;
}

async function withSignals<T>(config: Config, work: (tools: SignalTools) => Promise<T>): Promise<T> {
  const handle = openDatabase(config.database);
  // Analysis in worker threads, as in the service: the CLI's own thread writes to the database.
  const nlp = createNlpPool(config.nlpWorkerThreads);
  try {
    await migrateToLatest(handle);
    const trends = new TrendsStore(handle.db, handle.dialect);
    return await work({
      handle,
      signals: new SignalsService(new SignalsStore(handle.db), systemClock),
      trends,
      processor: new TrendProcessor(trends, systemClock, nlp),
    });
  } finally {
    await nlp.close();
    await handle.close();
  }
}

function integerOption(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max} (got ${value})`);
  }
  return Number(value);
}

async function countPending(handle: DatabaseHandle): Promise<number> {
  const row = await handle.db
    .selectFrom('signals')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('processed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function countTrends(handle: DatabaseHandle): Promise<number> {
  const row = await handle.db
    .selectFrom('trends')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Turns every pending signal into trend counts, showing progress. */
async function processPending(tools: SignalTools): Promise<{ signals: number; mentions: number }> {
  const progress = new Progress({
    label: 'process',
    total: await countPending(tools.handle),
    unit: 'signals',
  });
  let signals = 0;
  let mentions = 0;
  for (let batches = 1; ; batches++) {
    const result = await tools.processor.processBatch(PROCESS_BATCH);
    signals += result.signals;
    mentions += result.mentions;
    progress.update(signals, signals);
    if (result.signals < PROCESS_BATCH) break;
    if (batches % 20 === 0) {
      await tools.trends.pruneMinutesBefore(Math.floor(systemClock.now() / MINUTE_MS) - MINUTES_KEPT);
    }
  }
  // Whatever arrived meanwhile; drain also prunes the minute buckets.
  const rest = await tools.processor.drain(PROCESS_BATCH);
  signals += rest.signals;
  mentions += rest.mentions;
  progress.finish(`${mentions.toLocaleString('en-US')} mentions`);
  return { signals, mentions };
}

interface RejectedLine {
  line: number;
  reason: string;
}

interface IngestSummary {
  lines: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  /** The first rejections by line number. */
  shown: RejectedLine[];
}

/** `signals[3].text is required` (an item of a batch) → `text is required`. */
function itemReason(detail: string, index: number): string {
  return detail.replaceAll(`signals[${index}].`, '').replaceAll(`signals[${index}]`, 'item');
}

/** Streams a JSON Lines file into SignalsService in batches; never holds more than a batch in memory. */
async function ingestFile(tools: SignalTools, file: string, batchSize: number): Promise<IngestSummary> {
  const size = (await fs.promises.stat(file)).size;
  const input = fs.createReadStream(file);
  const lines = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let inputError: Error | undefined;
  input.on('error', (error) => {
    inputError = error;
    lines.close();
  });
  const progress = new Progress({ label: 'ingest', total: size, unit: 'lines' });
  const summary: IngestSummary = { lines: 0, accepted: 0, duplicates: 0, rejected: 0, shown: [] };
  let batch: unknown[] = [];
  let batchLines: number[] = [];
  // Rejections not yet reported, kept in line order together with their batch.
  let pending: RejectedLine[] = [];
  let bytes = 0;

  const flush = async () => {
    if (batch.length > 0) {
      const result = await tools.signals.ingest(batch);
      summary.accepted += result.accepted;
      summary.duplicates += result.duplicates;
      summary.rejected += result.rejected.length;
      for (const r of result.rejected) {
        pending.push({ line: batchLines[r.index]!, reason: itemReason(r.detail, r.index) });
      }
    }
    pending.sort((a, b) => a.line - b.line);
    for (const r of pending) if (summary.shown.length < SHOWN_REJECTIONS) summary.shown.push(r);
    pending = [];
    batch = [];
    batchLines = [];
  };

  for await (const line of lines) {
    summary.lines++;
    bytes += Buffer.byteLength(line) + 1;
    if (line.trim() !== '') {
      let item: unknown;
      let parsed = true;
      try {
        item = JSON.parse(line);
      } catch (error) {
        parsed = false;
        summary.rejected++;
        pending.push({ line: summary.lines, reason: `not valid JSON (${(error as Error).message})` });
      }
      if (parsed) {
        batch.push(item);
        batchLines.push(summary.lines);
        if (batch.length >= batchSize) await flush();
      }
    }
    progress.update(Math.min(bytes, size), summary.lines);
  }
  if (inputError) throw inputError;
  await flush();
  progress.finish();
  return summary;
}

/** A simulated signal as an item of POST /api/signals: absent fields left out, observed_at as ISO 8601. */
function toSignalItem(signal: SourceSignal): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(signal)) {
    if (value !== null && value !== undefined) item[field] = value;
  }
  item.observed_at = new Date(signal.observed_at).toISOString();
  return item;
}

interface SeedSummary {
  generated: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  /** The first rejection reasons (none expected: the simulator only makes valid signals). */
  reasons: string[];
}

/** Generates the demo simulator's signals for [from, to) chunk by chunk and stores them. */
async function seedDemo(tools: SignalTools, seed: number, from: number, to: number): Promise<SeedSummary> {
  const progress = new Progress({ label: 'generate', total: to - from, unit: 'signals' });
  const summary: SeedSummary = { generated: 0, accepted: 0, duplicates: 0, rejected: 0, reasons: [] };
  for (let start = from; start < to; start += SEED_CHUNK_MS) {
    const items = demoSignals({ seed, from: start, to: Math.min(to, start + SEED_CHUNK_MS) }).map(
      toSignalItem,
    );
    for (let i = 0; i < items.length; i += SEED_INGEST_BATCH) {
      const result = await tools.signals.ingest(items.slice(i, i + SEED_INGEST_BATCH));
      summary.accepted += result.accepted;
      summary.duplicates += result.duplicates;
      summary.rejected += result.rejected.length;
      for (const r of result.rejected)
        if (summary.reasons.length < SHOWN_REJECTIONS) summary.reasons.push(r.detail);
    }
    summary.generated += items.length;
    progress.update(Math.min(to, start + SEED_CHUNK_MS) - from, summary.generated);
  }
  progress.finish(`${summary.accepted.toLocaleString('en-US')} new`);
  return summary;
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
      batch: { type: 'string' },
      process: { type: 'boolean' },
      demo: { type: 'boolean' },
      hours: { type: 'string' },
      seed: { type: 'string' },
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
    // As in the API, an empty list means the defaults.
    const permissions = values.permissions
      ?.split(',')
      .map((p) => p.trim())
      .filter((p) => p.length > 0) as Permission[] | undefined;
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

  if (command === 'ingest') {
    const file = positionals[1];
    if (!file || positionals.length > 2) throw new UsageError('ingest needs one FILE.jsonl');
    const batchSize = integerOption(values.batch, '--batch', 1, 10_000, 1000);
    await withSignals(config, async (tools) => {
      const summary = await ingestFile(tools, file, batchSize);
      console.log(
        `accepted ${summary.accepted}, duplicates ${summary.duplicates}, rejected ${summary.rejected}`,
      );
      if (summary.rejected > 0) {
        const more = summary.rejected > summary.shown.length ? ` (first ${summary.shown.length})` : '';
        console.log(`Rejected lines${more}:`);
        for (const r of summary.shown) console.log(`  line ${r.line}: ${r.reason}`);
      }
      if (values.process) {
        const processed = await processPending(tools);
        console.log(
          `processed ${processed.signals} signals, ${processed.mentions} mentions; ` +
            `${await countTrends(tools.handle)} trends stored`,
        );
      }
    });
    return;
  }

  if (command === 'seed') {
    if (!values.demo) throw new UsageError('seed needs --demo (the demo simulator is the only generator)');
    if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
    const hours = integerOption(values.hours, '--hours', 1, 720, 72);
    const seed = integerOption(values.seed, '--seed', 0, 2_147_483_647, config.demo.seed);
    const started = Date.now();
    await withSignals(config, async (tools) => {
      const to = systemClock.now();
      const seeded = await seedDemo(tools, seed, to - hours * HOUR_MS, to);
      const processed = await processPending(tools);
      const trends = await countTrends(tools.handle);
      console.log(
        `Seeded ${hours} h of demo signals (seed ${seed}): generated ${seeded.generated}, ` +
          `accepted ${seeded.accepted}, duplicates ${seeded.duplicates}, rejected ${seeded.rejected}`,
      );
      for (const detail of seeded.reasons) console.log(`  rejected: ${detail}`);
      console.log(
        `Processed ${processed.signals} signals (${processed.mentions} mentions); ${trends} trends stored. ` +
          `Took ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
    });
    return;
  }

  if (command === 'blog' && sub === 'import') {
    const dir = positionals[2];
    if (!dir || positionals.length > 3) throw new UsageError('blog import needs one DIR');
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      throw new UsageError(`${dir} is not a directory`);
    }
    const handle = openDatabase(config.database);
    try {
      await migrateToLatest(handle);
      const blog = new BlogService(new BlogStore(handle.db), systemClock);
      const progress = new Progress({
        label: 'import',
        total: markdownFiles(dir).length,
        unit: 'files',
        everyItems: 100,
      });
      const summary = await importPosts(blog, dir, (done) => progress.update(done, done));
      progress.finish();
      for (const failure of summary.failed) console.log(`  ${failure.file}: ${failure.reason}`);
      console.log(
        `${summary.files} files: created ${summary.created}, updated ${summary.updated}, ` +
          `failed ${summary.failed.length}`,
      );
      if (summary.failed.length > 0) process.exitCode = 1;
    } finally {
      await handle.close();
    }
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
