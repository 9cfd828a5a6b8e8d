import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${error}`);
    return error;
  }
  assert.fail('expected loadConfig to throw');
}

describe('configuration', () => {
  test('defaults give embedded mode', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.database.kind, 'sqlite');
    assert.equal(config.publicBaseUrl, 'http://localhost:3000');
    // Unset, the public address follows PORT; set, it is used as given.
    assert.equal(loadConfig({ PORT: '4100' }).publicBaseUrl, 'http://localhost:4100');
    assert.equal(
      loadConfig({ PORT: '4100', PUBLIC_BASE_URL: 'https://api.example.com' }).publicBaseUrl,
      'https://api.example.com',
    );
    assert.deepEqual(config.sources, ['demo']);
    assert.equal(config.plans.developer.daily_quota, 100);
    assert.equal(config.plans.enterprise.daily_quota, null);
    // NLP threads leave the API thread a core of its own.
    assert.equal(config.nlpWorkerThreads, Math.max(1, os.availableParallelism() - 1));
    assert.equal(loadConfig({ NLP_WORKER_THREADS: '0' }).nlpWorkerThreads, 0);
    // A crashed process's jobs run again after a minute unless the operator says otherwise.
    assert.equal(config.jobLeaseMs, 60_000);
    assert.equal(loadConfig({ JOB_LEASE_MS: '15000' }).jobLeaseMs, 15_000);
    // A phrase is a trend once two independent posts name it; 50,000 candidates are held meanwhile.
    assert.deepEqual(config.trendCandidates, { minPosts: 2, maxCandidates: 50_000 });
    assert.equal(loadConfig({ TREND_MIN_POSTS: '1' }).trendCandidates.minPosts, 1);
  });

  test('a data folder without DATABASE_URL holds the embedded database too', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/crestwatch-elsewhere' });
    assert.deepEqual(config.database, { kind: 'sqlite', path: '/tmp/crestwatch-elsewhere/crestwatch.db' });
    assert.equal(config.dataDir, '/tmp/crestwatch-elsewhere');
    const explicit = loadConfig({ DATA_DIR: '/tmp/keys', DATABASE_URL: 'sqlite:/tmp/db/x.db' });
    assert.equal(explicit.database.kind === 'sqlite' && explicit.database.path, '/tmp/db/x.db');
    assert.equal(explicit.dataDir, '/tmp/keys');
  });

  test('each bad value names its variable', () => {
    const cases: [Record<string, string>, string][] = [
      [{ PORT: 'abc' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      [{ DATABASE_URL: 'postgres://u@h/db' }, 'SECRET_KEY'],
      [{ SECRET_KEY: 'short' }, 'SECRET_KEY'],
      [{ REDIS_URL: 'http://localhost' }, 'REDIS_URL'],
      [{ BOOTSTRAP_API_KEY: 'nope' }, 'BOOTSTRAP_API_KEY'],
      [{ PUBLIC_BASE_URL: 'not a url' }, 'PUBLIC_BASE_URL'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      [{ PLANS: '{bad' }, 'PLANS'],
      [{ PLANS: '{"gold":{}}' }, 'PLANS'],
      [{ PLANS: '{"developer":{"daily_quota":-1}}' }, 'PLANS'],
      [{ SOURCES: 'demo,myspace' }, 'SOURCES'],
      [{ OUTBOUND_ALLOWLIST: '127.0.0.0/99' }, 'OUTBOUND_ALLOWLIST'],
      [{ CORS_ORIGINS: 'example.com' }, 'CORS_ORIGINS'],
      [{ LLM_BASE_URL: 'ftp://x' }, 'LLM_BASE_URL'],
      [{ RELEASE_FEEDS: 'x=notaurl' }, 'RELEASE_FEEDS'],
      [{ SOURCES: 'rss' }, 'RSS_FEEDS'],
      [{ SOURCES: 'demo,usgs,quakes' }, 'SOURCES'],
      [{ REDDIT_SUBREDDITS: 'r/all' }, 'REDDIT_SUBREDDITS'],
      [{ SOURCE_POLL_INTERVAL_SECONDS: '0' }, 'SOURCE_POLL_INTERVAL_SECONDS'],
      [{ DEMO_SPEED: 'fast' }, 'DEMO_SPEED'],
      [{ SIGNAL_RETENTION_DAYS: '0' }, 'SIGNAL_RETENTION_DAYS'],
      [{ BUCKET_RETENTION_DAYS: '-5' }, 'BUCKET_RETENTION_DAYS'],
      [{ DEFAULT_COUNTRY: 'XX' }, 'DEFAULT_COUNTRY'],
      [{ DEFAULT_COUNTRY: 'USA' }, 'DEFAULT_COUNTRY'],
      [{ JOB_LEASE_MS: '500' }, 'JOB_LEASE_MS'],
      [{ JOB_LEASE_MS: 'a minute' }, 'JOB_LEASE_MS'],
      [{ TREND_MIN_POSTS: '0' }, 'TREND_MIN_POSTS'],
      [{ TREND_CANDIDATES_MAX: '10' }, 'TREND_CANDIDATES_MAX'],
    ];
    for (const [env, variable] of cases) {
      const error = configError(env);
      assert.equal(error.variable, variable, JSON.stringify(env));
      assert.ok(error.message.startsWith(variable), error.message);
    }
  });

  test('source settings: named feed lists, subreddits, retention', () => {
    const config = loadConfig({
      SOURCES: 'demo, rss ,reddit',
      RSS_FEEDS: 'tech=https://example.com/feed.xml, https://example.org/atom',
      REDDIT_SUBREDDITS: 'technology,worldnews',
      SIGNAL_RETENTION_DAYS: '7',
    });
    assert.deepEqual(config.sources, ['demo', 'rss', 'reddit']);
    assert.deepEqual(config.feeds.rssFeeds, [
      { name: 'tech', url: 'https://example.com/feed.xml' },
      { name: null, url: 'https://example.org/atom' },
    ]);
    assert.deepEqual(config.feeds.redditSubreddits, ['technology', 'worldnews']);
    assert.deepEqual(config.retention, { signalDays: 7, bucketDays: 400 });
    assert.deepEqual(loadConfig({}).demo, { seed: 42, speed: 1 });
    assert.deepEqual(loadConfig({ SOURCES: 'none' }).sources, []);
  });

  test('DEFAULT_COUNTRY is an ISO 3166-1 alpha-2 code, US by default', () => {
    assert.equal(loadConfig({}).defaultCountry, 'US');
    assert.equal(loadConfig({ DEFAULT_COUNTRY: 'GB' }).defaultCountry, 'GB');
    assert.equal(loadConfig({ DEFAULT_COUNTRY: ' de ' }).defaultCountry, 'DE', 'trimmed and upper-cased');
    assert.equal(loadConfig({ DEFAULT_COUNTRY: '' }).defaultCountry, 'US', 'empty is unset');
    const uk = configError({ DEFAULT_COUNTRY: 'UK' });
    assert.equal(
      uk.message,
      'DEFAULT_COUNTRY must be an ISO 3166-1 alpha-2 country code such as US, GB or DE (got "UK") ' +
        '(the United Kingdom is GB)',
    );
    for (const code of ['EU', 'ZZ', '1A', 'U'])
      assert.equal(configError({ DEFAULT_COUNTRY: code }).variable, 'DEFAULT_COUNTRY');
  });

  test('TRUST_PROXY: off by default, a hop count or a CIDR list; anything else names the variable', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '0' }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, fd00::/8,192.0.2.7' }).trustProxy, [
      '10.0.0.0/8',
      'fd00::/8',
      '192.0.2.7/32',
    ]);
    for (const bad of ['true', 'loadbalancer', '10.0.0.0/33', '-1', '99']) {
      const error = configError({ TRUST_PROXY: bad });
      assert.equal(error.variable, 'TRUST_PROXY');
      assert.match(error.message, /hop|CIDR/);
    }
  });

  test('PLANS is merged over the plan table', () => {
    const config = loadConfig({
      PLANS: '{"enterprise":{"burst_per_second":100000},"developer":{"daily_quota":null}}',
    });
    assert.equal(config.plans.enterprise.burst_per_second, 100_000);
    assert.equal(config.plans.enterprise.price_per_1k_requests, 0.3);
    assert.equal(config.plans.developer.daily_quota, null);
    assert.equal(config.plans.developer.burst_per_second, 10);
  });

  test('a bad value stops the process with one readable line and a non-zero exit code', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: 'eighty' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.notEqual(result.status, 0);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0]!, /^Configuration error: PORT must be an integer/);
    assert.ok(!result.stderr.includes('    at '), 'no stack trace');
  });
});
