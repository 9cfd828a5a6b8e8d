// Builds the real app against a fresh database (SQLite, or PostgreSQL + Redis when TEST_* are set).

import type { TestContext as NodeTestContext } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type ServiceOverrides } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { generateApiKey } from '../../src/modules/accounts/index.ts';
import type { Clock } from '../../src/platform/clock.ts';
import type { App } from '../../src/platform/http.ts';
import { createTestDatabase, type TestDatabase, testRedisPrefix, testRedisUrl } from './db.ts';

export const TEST_SECRET_KEY = 'test-secret-key-0123456789abcdef0123456789';

export interface TestContext {
  app: App;
  config: Config;
  database: TestDatabase;
  operatorKey: string;
  close(): Promise<void>;
}

interface TestAppOptions {
  env?: Record<string, string>;
  clock?: Clock;
  background?: boolean;
  /** Reuse a database (a second instance, or a restart); it is then not dropped on close. */
  database?: TestDatabase;
  redisPrefix?: string;
  operatorKey?: string;
  /** Stand-ins for services the test replaces (buildApp's front door for them). */
  overrides?: ServiceOverrides;
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const database = options.database ?? (await createTestDatabase());
  const operatorKey = options.operatorKey ?? generateApiKey().key;
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    SECRET_KEY: TEST_SECRET_KEY,
    BOOTSTRAP_API_KEY: operatorKey,
    LOG_LEVEL: 'silent',
    // Many apps run at once in the suite; keep PostgreSQL well under its connection limit.
    DATABASE_POOL_SIZE: '3',
    PLANS: JSON.stringify({ enterprise: { burst_per_second: 100_000 } }),
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
    // Test files share 2 cores with each other; a busy machine is not what these tests are about.
    OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
    // No background ingestion unless a test asks for a source.
    SOURCES: 'none',
    // Analysis in the test's own thread (test/modules/text/nlp-pool.test.ts covers the worker threads).
    NLP_WORKER_THREADS: '0',
    ...(testRedisUrl
      ? { REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: options.redisPrefix ?? testRedisPrefix() }
      : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  const app = await buildApp(config, {
    clock: options.clock,
    logger: false,
    background: options.background ?? false,
    // One tick processes every pending signal, however busy the machine (the budget has its own tests).
    overrides: { drainBudgetMs: Number.POSITIVE_INFINITY, ...options.overrides },
  });
  return {
    app,
    config,
    database,
    operatorKey,
    async close() {
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}

/**
 * `buildTestApp` whose app and database are closed when the test `t` (or suite) ends, whatever its outcome:
 * `const ctx = await build(t)`.
 */
export async function build(
  t: Pick<NodeTestContext, 'after'>,
  options: TestAppOptions = {},
): Promise<TestContext> {
  const ctx = await buildTestApp(options);
  t.after(() => ctx.close());
  return ctx;
}

export interface Json {
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected loosely
  [key: string]: any;
}

export async function call(
  app: App,
  method: InjectOptions['method'],
  url: string,
  options: {
    key?: string;
    body?: unknown;
    headers?: Record<string, string>;
    header?: 'bearer' | 'x-api-key';
  } = {},
): Promise<LightMyRequestResponse & { data: Json }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) {
    if (options.header === 'x-api-key') headers['x-api-key'] = options.key;
    else headers.authorization = `Bearer ${options.key}`;
  }
  const res = await app.inject({
    method,
    url,
    headers,
    ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
  });
  let data: Json = {};
  try {
    data = res.body ? JSON.parse(res.body) : {};
  } catch {
    data = {};
  }
  return Object.assign(res, { data });
}

/** Creates a user on `plan` through the operator routes and returns a read+write key for them. */
export async function createUser(
  ctx: TestContext,
  plan = 'developer',
  permissions: string[] = ['read', 'write'],
): Promise<{ userId: number; key: string; keyId: number; email: string }> {
  const email = `user-${Math.random().toString(36).slice(2)}@example.com`;
  const user = await call(ctx.app, 'POST', '/api/admin/users', {
    key: ctx.operatorKey,
    body: { email, plan },
  });
  if (user.statusCode !== 201) throw new Error(`create user failed: ${user.statusCode} ${user.body}`);
  const key = await call(ctx.app, 'POST', `/api/admin/users/${user.data.id}/api-keys`, {
    key: ctx.operatorKey,
    body: { name: 'test', permissions },
  });
  if (key.statusCode !== 201) throw new Error(`create key failed: ${key.statusCode} ${key.body}`);
  return { userId: user.data.id, key: key.data.api_key, keyId: key.data.id, email };
}

export function assertProblem(
  res: { statusCode: number; headers: Record<string, unknown>; data: Json },
  status: number,
): void {
  if (res.statusCode !== status) {
    throw new Error(`expected ${status}, got ${res.statusCode}: ${JSON.stringify(res.data)}`);
  }
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json')) throw new Error(`expected problem+json, got ${type}`);
  for (const field of ['type', 'title', 'status', 'detail', 'code', 'request_id']) {
    if (!(field in res.data)) throw new Error(`problem lacks ${field}: ${JSON.stringify(res.data)}`);
  }
  if (res.data.status !== status) throw new Error(`problem.status ${res.data.status} != ${status}`);
}
