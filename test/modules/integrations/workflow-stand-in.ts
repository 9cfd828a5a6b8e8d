// A stand-in for the workflow tool (n8n) on 127.0.0.1 speaking its wire format: the public API at /api/v1 with
// `X-N8N-API-KEY` (401 `{message: "unauthorized"}`), cursor paging on GET /api/v1/workflows, workflows with
// nodes, and Webhook triggers at /webhook/{path}. Plus an app builder whose logs land in memory.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { Insertable } from 'kysely';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { generateApiKey } from '../../../src/modules/accounts/index.ts';
import type { CrisisEventsTable } from '../../../src/modules/crisis/tables.ts';
import type { Clock } from '../../../src/platform/clock.ts';
import { TEST_SECRET_KEY, type TestContext } from '../../helpers/app.ts';
import { createTestDatabase, testRedisPrefix, testRedisUrl } from '../../helpers/db.ts';
import { drainJobs } from '../../helpers/jobs.ts';

export const N8N_KEY = 'n8n_api_0f3c9d2e7b41a85fcafe1234567890abcdefSECRET';
/** Put in the stand-in's error bodies: must never reach a Crestwatch response. */
export const BODY_MARKER = 'STAND-IN-PRIVATE-BODY-7731';

interface ToolNode {
  type: string;
  parameters?: Record<string, unknown>;
  webhookId?: string;
  disabled?: boolean;
}

interface ToolWorkflowFixture {
  id: string;
  name: string;
  active: boolean;
  nodes: ToolNode[];
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface N8nStandIn {
  url: string;
  requests: Received[];
  /** Requests to /webhook/*. */
  pushes(): Received[];
  /** Status codes the next webhook calls answer, in order (then 200). */
  webhookAnswers: number[];
  close(): Promise<void>;
}

/** `httpMethod: null` leaves the parameter out, as n8n stores its default (GET). */
function webhookNode(path: string, httpMethod: string | string[] | null = 'POST'): ToolNode {
  return {
    type: 'n8n-nodes-base.webhook',
    parameters: httpMethod === null ? { path } : { httpMethod, path, options: {} },
    webhookId: '5e9a87b1-0559-472c-b707-68acd7718e76',
  };
}

const DEFAULT_WORKFLOWS: ToolWorkflowFixture[] = [
  {
    id: 'wf1',
    name: 'Social response',
    active: true,
    nodes: [webhookNode('crestwatch-alerts'), { type: 'n8n-nodes-base.set', parameters: {} }],
  },
  { id: 'wf2', name: 'Weekly digest', active: false, nodes: [{ type: 'n8n-nodes-base.scheduleTrigger' }] },
  { id: 'wf3', name: 'GET only', active: true, nodes: [webhookNode('get-only', null)] },
];

export async function n8nStandIn(
  options: { key?: string; workflows?: ToolWorkflowFixture[]; pageSize?: number } = {},
): Promise<N8nStandIn> {
  const key = options.key ?? N8N_KEY;
  const workflows = options.workflows ?? DEFAULT_WORKFLOWS;
  const pageSize = options.pageSize ?? 2;
  const requests: Received[] = [];
  const webhookAnswers: number[] = [];
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const url = new URL(received.url, 'http://stand-in');
      if (url.pathname.startsWith('/webhook/')) {
        const path = decodeURIComponent(url.pathname.slice('/webhook/'.length));
        const target = workflows.find((w) =>
          w.nodes.some((n) => n.type === 'n8n-nodes-base.webhook' && n.parameters?.path === path),
        );
        if (!target || req.method !== 'POST') {
          return json(res, 404, { code: 404, message: `The requested webhook "${path}" is not registered.` });
        }
        const status = webhookAnswers.shift() ?? 200;
        return json(
          res,
          status,
          status < 300 ? { message: 'Workflow was started' } : { message: BODY_MARKER },
        );
      }
      if (!url.pathname.startsWith('/api/v1/')) return json(res, 404, { message: 'not found' });
      if (req.headers['x-n8n-api-key'] !== key) {
        return json(res, 401, { message: `unauthorized ${BODY_MARKER}` });
      }
      if (url.pathname === '/api/v1/workflows') {
        const limit = Math.min(Number(url.searchParams.get('limit') ?? 100), pageSize);
        const cursor = url.searchParams.get('cursor');
        const start = cursor ? Number(Buffer.from(cursor, 'base64').toString('utf8')) : 0;
        const page = workflows.slice(start, start + limit);
        const next =
          start + limit < workflows.length ? Buffer.from(String(start + limit)).toString('base64') : null;
        return json(res, 200, {
          data: page.map((w) => ({ ...w, createdAt: '2026-01-01T00:00:00.000Z', tags: [] })),
          nextCursor: next,
        });
      }
      const match = /^\/api\/v1\/workflows\/([^/]+)$/.exec(url.pathname);
      if (match) {
        const workflow = workflows.find((w) => w.id === decodeURIComponent(match[1]!));
        if (!workflow) return json(res, 404, { message: 'Not Found' });
        return json(res, 200, { ...workflow, connections: {}, settings: {} });
      }
      json(res, 404, { message: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    pushes: () => requests.filter((r) => r.url.startsWith('/webhook/')),
    webhookAnswers,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A URL on 127.0.0.1 where nothing listens. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export interface LoggedContext extends TestContext {
  /** Every log line written so far. */
  logs(): string;
}

/** The real app (as buildTestApp builds it) with a debug-level logger writing to memory. */
export async function buildLoggedApp(
  options: { env?: Record<string, string>; clock?: Clock } = {},
): Promise<LoggedContext> {
  const database = await createTestDatabase();
  const operatorKey = generateApiKey().key;
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    SECRET_KEY: TEST_SECRET_KEY,
    BOOTSTRAP_API_KEY: operatorKey,
    LOG_LEVEL: 'debug',
    DATABASE_POOL_SIZE: '3',
    PLANS: JSON.stringify({ enterprise: { burst_per_second: 100_000 } }),
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
    OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
    SOURCES: 'none',
    NLP_WORKER_THREADS: '0',
    ...(testRedisUrl ? { REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: testRedisPrefix() } : {}),
    ...options.env,
  });
  const app = await buildApp(config, {
    clock: options.clock,
    logger: { level: 'debug', stream },
    background: false,
  });
  return {
    app,
    config,
    database,
    operatorKey,
    logs: () => lines.join(''),
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

/** Runs the job worker until nothing is due (domain events, then the pushes they queue). */
export async function runJobs(ctx: TestContext, timeoutMs = 10_000): Promise<void> {
  const { worker } = ctx.app.services;
  worker.start();
  try {
    await drainJobs(ctx, timeoutMs);
  } finally {
    await worker.stop(5000);
  }
}

const HOUR = 3600_000;

/** A trend row, as the trend engine would have created it. */
export async function insertTrend(ctx: TestContext, title: string): Promise<number> {
  const now = ctx.app.services.clock.now();
  const row = await ctx.app.services.db
    .insertInto('trends')
    .values({
      key: title.toLowerCase(),
      title,
      type: 'keyword',
      category: 'Technology',
      first_seen_at: now,
      last_seen_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A crisis event row as the detector writes it (active, high by default). */
export async function insertCrisisEvent(
  ctx: TestContext,
  fields: {
    userId: number;
    title: string;
    severity?: 'low' | 'medium' | 'high' | 'critical';
    status?: string;
    trendId?: number | null;
    keywords?: string[];
  },
): Promise<number> {
  const now = ctx.app.services.clock.now();
  const severity = fields.severity ?? 'high';
  const row: Insertable<CrisisEventsTable> = {
    user_id: fields.userId,
    kind: 'social',
    watch_key: fields.title.toLowerCase(),
    title: fields.title,
    summary: `Negative surge about ${fields.title}`,
    severity,
    severity_rank: { low: 1, medium: 2, high: 3, critical: 4 }[severity],
    status: fields.status ?? 'active',
    review_status: 'needs_review',
    source_state: 'surging',
    impacted_entity: fields.title,
    source_keywords: JSON.stringify(fields.keywords ?? []),
    trend_id: fields.trendId ?? null,
    trend_snapshot_link: null,
    detection_method: 'negative-surge-z',
    method_version: '1.0.0',
    model_version: null,
    provider_severity: null,
    location: null,
    severity_basis: null,
    corroboration: null,
    evidence_completeness: null,
    limitations: '[]',
    analysis_status: null,
    evidence_version: null,
    evidence_as_of: null,
    freshness_window_ms: 6 * HOUR,
    event_seq: 1,
    detected_at: now,
    created_at: now,
    updated_at: now,
  };
  const inserted = await ctx.app.services.db
    .insertInto('crisis_events')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}
