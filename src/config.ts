// The one place environment variables are read and validated. Defaults give embedded mode.
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PER_ORIGIN_LIMIT } from './platform/outbound.ts';
import { DEFAULT_PLANS, PLAN_NAMES, type PlanName, type PlanTable } from './platform/plans.ts';

export const API_VERSION = '0.10.0';
const KEY_PATTERN = /^cw_[0-9A-Za-z]{40}$/;
export const SOURCE_IDS = [
  'demo',
  'rss',
  'hackernews',
  'reddit',
  'bluesky',
  'usgs',
  'environment_agency',
] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export type DatabaseConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; poolSize?: number };

export interface ProviderConfig {
  clientId?: string;
  clientSecret?: string;
  authBaseUrl: string;
  apiBaseUrl: string;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  dataDir: string;
  redisUrl?: string;
  redisKeyPrefix: string;
  secretKey?: string;
  bootstrapApiKey?: string;
  publicBaseUrl: string;
  stagingBaseUrl?: string;
  logLevel: (typeof LOG_LEVELS)[number];
  plans: PlanTable;
  sources: string[];
  llm: { baseUrl?: string; apiKey?: string; model?: string };
  outboundAllowlist: string[];
  corsOrigins: string[];
  /**
   * Which proxies' `X-Forwarded-For` to believe for the client address (`TRUST_PROXY`): `false` (default: the
   * peer address is the client), a number of proxy hops in front of the service, or the proxies' CIDRs.
   */
  trustProxy: false | number | string[];
  metricsToken?: string;
  publicRateLimitPerMinute: number;
  usageFlushIntervalMs: number;
  statusCheckIntervalSeconds: number;
  /** Event-loop delay (ms) past which requests get 503 `overloaded`; 0 turns the check off. */
  overloadEventLoopDelayMs: number;
  /** Signals stored but not yet processed past which POST /api/signals answers 503 (0: no limit). */
  ingestMaxPending: number;
  forumAds: ProviderConfig;
  socialAds: ProviderConfig;
  chat: ProviderConfig;
  feeds: {
    usgsFeedUrl: string;
    environmentAgencyBaseUrl: string;
    rssFeeds: NamedUrl[];
    hackernewsBaseUrl: string;
    redditBaseUrl: string;
    blueskyJetstreamUrl: string;
    releaseFeeds: NamedUrl[];
    /** Subreddits read by the reddit source (`REDDIT_SUBREDDITS`, default `all`). */
    redditSubreddits: string[];
  };
  /** How often polling sources are asked (`SOURCE_POLL_INTERVAL_SECONDS`; the demo source ticks faster). */
  sourcePollIntervalSeconds: number;
  /** The demo simulator: `DEMO_SEED` (default 42) and `DEMO_SPEED` (simulated seconds per second, default 1). */
  demo: { seed: number; speed: number };
  /**
   * Worker threads for signal NLP (`NLP_WORKER_THREADS`, default one less than the CPU count, at least 1, so the
   * API thread keeps a core; 0 = in the main thread).
   */
  nlpWorkerThreads: number;
  /**
   * Jobs one process runs at once (`JOB_CONCURRENCY`, default 16): deliveries wait on the network, so a few
   * slow receivers must not hold up every other job.
   */
  jobConcurrency: number;
  /**
   * How long a claimed job stays with the process that claimed it (`JOB_LEASE_MS`, default 60 s): a job whose
   * process died runs again, elsewhere, once its lease has expired. Longer than the slowest job should take.
   */
  jobLeaseMs: number;
  /**
   * Requests in flight from this process to one destination (scheme, host, port) at once
   * (`OUTBOUND_CONCURRENCY_PER_DESTINATION`, default 16). A webhook delivery waiting for its receiver's answer
   * holds no job slot, and one to a destination at its limit goes back to the queue for a moment: a slow
   * receiver delays its own deliveries, not the others'.
   */
  outboundConcurrencyPerDestination: number;
  /** Raw signals are deleted after `SIGNAL_RETENTION_DAYS` (14); trend buckets after `BUCKET_RETENTION_DAYS` (400). */
  retention: { signalDays: number; bucketDays: number };
  /**
   * Trend candidates (docs/metrics.md, "Candidates and promotion"): a phrase becomes a trend once `minPosts`
   * independent posts name it within 24 h (`TREND_MIN_POSTS`, default 2; 1 = every phrase at once); at most
   * `maxCandidates` phrases are held meanwhile (`TREND_CANDIDATES_MAX`, default 50,000).
   */
  trendCandidates: { minPosts: number; maxCandidates: number };
  /**
   * The country `GET /api/user/session-info` reports (`DEFAULT_COUNTRY`, an ISO 3166-1 alpha-2 code, default
   * `US`): Crestwatch does no geo-IP lookups.
   */
  defaultCountry: string;
}

/** A URL from a list variable; entries may be written `name=url`. */
export interface NamedUrl {
  name: string | null;
  url: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable} ${message}`);
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function shown(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got ${shown(raw)})`);
  }
  return Number(raw);
}

function httpUrl(
  env: Env,
  name: string,
  fallback?: string,
  schemes = ['http:', 'https:'],
): string | undefined {
  const raw = read(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute URL (got ${shown(raw)})`);
  }
  if (!schemes.includes(url.protocol)) {
    throw new ConfigError(name, `must use ${schemes.join(' or ')} (got ${shown(raw)})`);
  }
  return raw.replace(/\/+$/, '');
}

function urlList(env: Env, name: string): NamedUrl[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      // RSS_FEEDS / RELEASE_FEEDS entries may be `name=url`.
      const eq = part.indexOf('=');
      const url = eq > 0 && !part.slice(0, eq).includes(':') ? part.slice(eq + 1) : part;
      try {
        const parsed = new URL(url);
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
      } catch {
        throw new ConfigError(
          name,
          `must be a comma-separated list of http(s) URLs (bad entry ${shown(part)})`,
        );
      }
      return { name: eq > 0 && url !== part ? part.slice(0, eq).trim() : null, url };
    });
}

function subreddits(env: Env): string[] {
  const raw = read(env, 'REDDIT_SUBREDDITS') ?? 'all';
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!/^[A-Za-z0-9_]{2,21}$/.test(name)) {
      throw new ConfigError('REDDIT_SUBREDDITS', `must list subreddit names (bad entry ${shown(name)})`);
    }
  }
  if (names.length === 0) throw new ConfigError('REDDIT_SUBREDDITS', 'must name at least one subreddit');
  return names;
}

// ISO 3166-1 alpha-2: the 249 officially assigned codes.
const COUNTRY_CODES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY ' +
    'BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK ' +
    'FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR ' +
    'IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ' +
    'ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
    'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF ' +
    'TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

function country(env: Env): string {
  const raw = read(env, 'DEFAULT_COUNTRY');
  if (raw === undefined) return 'US';
  const code = raw.toUpperCase();
  if (!COUNTRY_CODES.has(code)) {
    const hint = code === 'UK' ? ' (the United Kingdom is GB)' : '';
    throw new ConfigError(
      'DEFAULT_COUNTRY',
      `must be an ISO 3166-1 alpha-2 country code such as US, GB or DE (got ${shown(raw)})${hint}`,
    );
  }
  return code;
}

function parseDatabase(env: Env): { database: DatabaseConfig; dataDir: string } {
  // Without DATABASE_URL the embedded database lives in the data folder, with the keys.
  const raw =
    read(env, 'DATABASE_URL') ?? `sqlite:${path.join(read(env, 'DATA_DIR') ?? './data', 'crestwatch.db')}`;
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return {
      database: { kind: 'postgres', url: raw, poolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000) },
      dataDir: path.resolve(read(env, 'DATA_DIR') ?? './data'),
    };
  }
  if (raw.startsWith('sqlite:')) {
    const file = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '')
      throw new ConfigError(
        'DATABASE_URL',
        'must name a file after sqlite: (e.g. sqlite:./data/crestwatch.db)',
      );
    if (file === ':memory:') {
      return {
        database: { kind: 'sqlite', path: ':memory:' },
        dataDir: path.resolve(read(env, 'DATA_DIR') ?? './data'),
      };
    }
    const resolved = path.resolve(file);
    return {
      database: { kind: 'sqlite', path: resolved },
      dataDir: path.resolve(read(env, 'DATA_DIR') ?? path.dirname(resolved)),
    };
  }
  throw new ConfigError('DATABASE_URL', `must start with sqlite: or postgres:// (got ${shown(raw)})`);
}

function parsePlans(env: Env): PlanTable {
  const raw = read(env, 'PLANS');
  const plans: PlanTable = structuredClone(DEFAULT_PLANS);
  if (raw === undefined) return plans;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('PLANS', 'must be a JSON object (it does not parse as JSON)');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError('PLANS', 'must be a JSON object keyed by plan name');
  }
  for (const [name, override] of Object.entries(parsed)) {
    if (!PLAN_NAMES.includes(name as PlanName)) {
      throw new ConfigError(
        'PLANS',
        `names an unknown plan ${shown(name)} (plans: ${PLAN_NAMES.join(', ')})`,
      );
    }
    if (typeof override !== 'object' || override === null || Array.isArray(override)) {
      throw new ConfigError('PLANS', `entry ${name} must be an object`);
    }
    const plan = plans[name as PlanName];
    for (const [field, value] of Object.entries(override as Record<string, unknown>)) {
      const where = `${name}.${field}`;
      const nonNegInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
      switch (field) {
        case 'daily_quota':
        case 'insight_generations_per_month':
          if (value !== null && !nonNegInt(value)) {
            throw new ConfigError('PLANS', `${where} must be a non-negative integer or null (unlimited)`);
          }
          plan[field] = value as number | null;
          break;
        case 'burst_per_second':
          if (!nonNegInt(value) || (value as number) < 1) {
            throw new ConfigError('PLANS', `${where} must be a positive integer`);
          }
          plan.burst_per_second = value as number;
          break;
        case 'live_stream':
          if (typeof value !== 'boolean') throw new ConfigError('PLANS', `${where} must be true or false`);
          plan.live_stream = value;
          break;
        case 'price_per_1k_requests':
          if (typeof value !== 'number' || !(value >= 0)) {
            throw new ConfigError('PLANS', `${where} must be a non-negative number`);
          }
          plan.price_per_1k_requests = value;
          break;
        default:
          throw new ConfigError('PLANS', `${where} is not a plan setting`);
      }
    }
  }
  return plans;
}

function parseCidrs(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((cidr) => {
      const [address, bits, extra] = cidr.split('/');
      const family = net.isIP(address ?? '');
      const max = family === 6 ? 128 : 32;
      if (
        family === 0 ||
        extra !== undefined ||
        (bits !== undefined && !/^\d+$/.test(bits)) ||
        Number(bits ?? max) > max
      ) {
        throw new ConfigError(
          name,
          `must be a comma-separated list of CIDRs such as 127.0.0.0/8 (bad entry ${shown(cidr)})`,
        );
      }
      return bits === undefined ? `${address}/${max}` : cidr;
    });
}

/** More proxies than this in front of one service is a mistake (a port number, say), not a topology. */
const MAX_PROXY_HOPS = 16;

function trustProxy(env: Env): Config['trustProxy'] {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > MAX_PROXY_HOPS) {
      throw new ConfigError(
        'TRUST_PROXY',
        `must be a hop count from 0 to ${MAX_PROXY_HOPS} (got ${shown(raw)})`,
      );
    }
    return hops === 0 ? false : hops;
  }
  try {
    return parseCidrs(env, 'TRUST_PROXY');
  } catch {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be a number of proxy hops (e.g. 1) or a comma-separated list of the proxies' CIDRs such as ` +
        `10.0.0.0/8 (got ${shown(raw)})`,
    );
  }
}

function provider(
  env: Env,
  prefix: string,
  idName: string,
  secretName: string,
  auth: string,
  api: string,
): ProviderConfig {
  return {
    clientId: read(env, `${prefix}_${idName}`),
    clientSecret: read(env, `${prefix}_${secretName}`),
    authBaseUrl: httpUrl(env, `${prefix}_AUTH_BASE_URL`, auth)!,
    apiBaseUrl: httpUrl(env, `${prefix}_API_BASE_URL`, api)!,
  };
}

export function loadConfig(env: Env = process.env): Config {
  const { database, dataDir } = parseDatabase(env);
  const secretKey = read(env, 'SECRET_KEY');
  if (secretKey !== undefined && secretKey.length < 32) {
    throw new ConfigError('SECRET_KEY', 'must be at least 32 characters (e.g. `openssl rand -base64 32`)');
  }
  if (database.kind === 'postgres' && secretKey === undefined) {
    throw new ConfigError('SECRET_KEY', 'is required when DATABASE_URL points at PostgreSQL');
  }
  const bootstrapApiKey = read(env, 'BOOTSTRAP_API_KEY');
  if (bootstrapApiKey !== undefined && !KEY_PATTERN.test(bootstrapApiKey)) {
    throw new ConfigError('BOOTSTRAP_API_KEY', 'must be `cw_` followed by 40 letters or digits');
  }
  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got ${shown(logLevel)})`);
  }
  const sourcesRaw = (read(env, 'SOURCES') ?? 'demo')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let sources: string[] = sourcesRaw;
  if (sourcesRaw.length === 1 && sourcesRaw[0] === 'none') sources = [];
  else {
    for (const source of sourcesRaw) {
      if (!SOURCE_IDS.includes(source as (typeof SOURCE_IDS)[number])) {
        throw new ConfigError(
          'SOURCES',
          `names an unknown source ${shown(source)} (known: ${SOURCE_IDS.join(', ')}, or none)`,
        );
      }
    }
  }
  if (sources.includes('rss') && urlList(env, 'RSS_FEEDS').length === 0) {
    throw new ConfigError('RSS_FEEDS', 'must list at least one feed URL when SOURCES includes rss');
  }
  const redisUrl = httpUrl(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']);
  const corsOrigins = (read(env, 'CORS_ORIGINS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(
        'CORS_ORIGINS',
        `must list origins such as https://app.example.com (bad entry ${shown(origin)})`,
      );
    }
  }
  const port = integer(env, 'PORT', 3000, 0, 65535);
  return {
    port,
    host: read(env, 'HOST') ?? '127.0.0.1',
    database,
    dataDir,
    redisUrl,
    redisKeyPrefix: read(env, 'REDIS_KEY_PREFIX') ?? 'crestwatch:',
    secretKey,
    bootstrapApiKey,
    // Unset, it is this process's own address, so links and the OpenAPI servers work on any PORT.
    publicBaseUrl: httpUrl(env, 'PUBLIC_BASE_URL', `http://localhost:${port || 3000}`)!,
    stagingBaseUrl: httpUrl(env, 'STAGING_BASE_URL'),
    logLevel,
    plans: parsePlans(env),
    sources,
    llm: {
      baseUrl: httpUrl(env, 'LLM_BASE_URL'),
      apiKey: read(env, 'LLM_API_KEY'),
      model: read(env, 'LLM_MODEL'),
    },
    outboundAllowlist: parseCidrs(env, 'OUTBOUND_ALLOWLIST'),
    corsOrigins,
    trustProxy: trustProxy(env),
    metricsToken: read(env, 'METRICS_TOKEN'),
    publicRateLimitPerMinute: integer(env, 'PUBLIC_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    usageFlushIntervalMs: integer(env, 'USAGE_FLUSH_INTERVAL_MS', 5000, 100, 600_000),
    statusCheckIntervalSeconds: integer(env, 'STATUS_CHECK_INTERVAL_SECONDS', 60, 1, 86_400),
    overloadEventLoopDelayMs: integer(env, 'OVERLOAD_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    ingestMaxPending: integer(env, 'INGEST_MAX_PENDING', 200_000, 0, 100_000_000),
    forumAds: provider(
      env,
      'FORUM_ADS',
      'CLIENT_ID',
      'CLIENT_SECRET',
      'https://www.reddit.com',
      'https://ads-api.reddit.com',
    ),
    socialAds: provider(
      env,
      'SOCIAL_ADS',
      'APP_ID',
      'APP_SECRET',
      'https://www.facebook.com',
      'https://graph.facebook.com',
    ),
    chat: provider(env, 'CHAT', 'CLIENT_ID', 'CLIENT_SECRET', 'https://slack.com', 'https://slack.com/api'),
    feeds: {
      usgsFeedUrl: httpUrl(
        env,
        'USGS_FEED_URL',
        'https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_hour.geojson',
      )!,
      environmentAgencyBaseUrl: httpUrl(
        env,
        'ENVIRONMENT_AGENCY_BASE_URL',
        'https://environment.data.gov.uk/flood-monitoring',
      )!,
      rssFeeds: urlList(env, 'RSS_FEEDS'),
      hackernewsBaseUrl: httpUrl(env, 'HACKERNEWS_BASE_URL', 'https://hacker-news.firebaseio.com/v0')!,
      redditBaseUrl: httpUrl(env, 'REDDIT_BASE_URL', 'https://www.reddit.com')!,
      blueskyJetstreamUrl: httpUrl(
        env,
        'BLUESKY_JETSTREAM_URL',
        'wss://jetstream2.us-east.bsky.network/subscribe',
        ['ws:', 'wss:'],
      )!,
      releaseFeeds: urlList(env, 'RELEASE_FEEDS'),
      redditSubreddits: subreddits(env),
    },
    sourcePollIntervalSeconds: integer(env, 'SOURCE_POLL_INTERVAL_SECONDS', 60, 1, 86_400),
    demo: {
      seed: integer(env, 'DEMO_SEED', 42, 0, 2_147_483_647),
      speed: integer(env, 'DEMO_SPEED', 1, 1, 3600),
    },
    nlpWorkerThreads: integer(env, 'NLP_WORKER_THREADS', Math.max(1, os.availableParallelism() - 1), 0, 64),
    jobConcurrency: integer(env, 'JOB_CONCURRENCY', 16, 1, 256),
    jobLeaseMs: integer(env, 'JOB_LEASE_MS', 60_000, 1_000, 3_600_000),
    outboundConcurrencyPerDestination: integer(
      env,
      'OUTBOUND_CONCURRENCY_PER_DESTINATION',
      DEFAULT_PER_ORIGIN_LIMIT,
      1,
      256,
    ),
    retention: {
      signalDays: integer(env, 'SIGNAL_RETENTION_DAYS', 14, 1, 3650),
      bucketDays: integer(env, 'BUCKET_RETENTION_DAYS', 400, 1, 3650),
    },
    trendCandidates: {
      minPosts: integer(env, 'TREND_MIN_POSTS', 2, 1, 100),
      maxCandidates: integer(env, 'TREND_CANDIDATES_MAX', 50_000, 100, 10_000_000),
    },
    defaultCountry: country(env),
  };
}
