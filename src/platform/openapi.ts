// OpenAPI 3.1 generated from the route schemas; every route gets its security and error responses here.
import { STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { API_VERSION, type Config } from '../config.ts';
import type { Access } from './auth.ts';

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input; `errors` lists the failing fields.',
  401: 'Missing, unknown, revoked or expired API key.',
  403: 'The key lacks the permission or the plan lacks the entitlement.',
  404: 'No such resource, or it belongs to another user.',
  405: 'Method not allowed on this path.',
  406: 'The Accept header names no media type this route answers with.',
  409: 'Conflicts with the current state (or an Idempotency-Key request still running).',
  413: 'Request body too large.',
  415: 'Request body is not JSON.',
  422: 'Idempotency-Key reused with a different request.',
  429: 'Rate limit or quota exceeded; see `Retry-After` and the `X-RateLimit-*` headers.',
  500: 'Unexpected error; the body carries the request id.',
  503: 'A dependency is unavailable or the service is overloaded; retry after `Retry-After`.',
};

const REQUEST_ID_HEADER = {
  'X-Request-Id': {
    type: 'string',
    description: 'Identifies the request (also `request_id` in problem bodies).',
  },
};
const RETRY_AFTER_HEADER = {
  'Retry-After': { type: 'integer', description: 'Seconds to wait before retrying.' },
};

const problemResponse = (status: number) => ({
  description: ERROR_TEXT[status],
  headers: {
    ...REQUEST_ID_HEADER,
    ...(status === 429 || status === 503 ? RETRY_AFTER_HEADER : {}),
    // A 429 describes the limit that was exceeded.
    ...(status === 429 ? RATE_LIMIT_HEADERS : {}),
  },
  content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } },
});

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    type: 'integer',
    description: 'The daily quota (the burst limit on plans without one).',
  },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the window.' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Unix epoch seconds when the window resets.' },
};

function errorStatuses(route: RouteOptions, access: Access | undefined): number[] {
  const schema = route.schema as FastifySchema | undefined;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const statuses = new Set([404, 429, 500, 503]);
  if (schema?.body || schema?.querystring || schema?.params) statuses.add(400);
  if (access !== undefined && access !== 'public') {
    statuses.add(401);
    statuses.add(403);
  }
  if (methods.some((m) => ['POST', 'PUT', 'PATCH'].includes(m))) {
    for (const s of [400, 409, 413, 415]) statuses.add(s);
  }
  // A delete can conflict with the current state too (the last owner, an accepted invite).
  if (methods.includes('DELETE')) statuses.add(409);
  if (methods.includes('POST') && access !== 'public') statuses.add(422);
  for (const status of (route.config as { problemStatuses?: number[] } | undefined)?.problemStatuses ?? []) {
    statuses.add(status);
  }
  return [...statuses].sort();
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Problem statuses a route answers beyond the ones its method and access imply (documented for it). */
    problemStatuses?: number[];
  }
}

/** Called from onRoute: fills in what every route's OpenAPI entry must carry. */
export function decorateRouteSchema(route: RouteOptions): void {
  if (route.url.startsWith('/docs') || route.schema?.hide) return;
  const access = (route.config as { access?: Access } | undefined)?.access;
  if (route.url.startsWith('/api') && access === undefined) {
    throw new Error(`Route ${route.method} ${route.url} must declare config.access`);
  }
  route.schema ??= {};
  const schema = route.schema as FastifySchema & Record<string, unknown>;
  if (!schema.response) throw new Error(`Route ${route.method} ${route.url} must declare a response schema`);
  schema.security =
    access === undefined || access === 'public' ? [] : [{ bearerAuth: [] }, { apiKeyHeader: [] }];
  const response = schema.response as Record<string, unknown>;
  for (const status of errorStatuses(route, access)) {
    response[String(status)] ??= problemResponse(status);
  }
  // Shallow copies: response schemas are shared between routes and must not be changed in place.
  for (const [status, value] of Object.entries(response)) {
    if (!status.startsWith('2') || typeof value !== 'object' || value === null) continue;
    const entry = value as Record<string, unknown>;
    response[status] = {
      ...entry,
      description: entry.description ?? STATUS_CODES[Number(status)],
      headers: {
        ...REQUEST_ID_HEADER,
        ...(access !== undefined && access !== 'public' ? RATE_LIMIT_HEADERS : {}),
      },
    };
  }
  if (route.config && (route.config as { optionalBody?: boolean }).optionalBody) {
    optionalBodies.add(`${route.url}`);
  }
}

// Routes whose body may be omitted: their requestBody is marked not required in the document.
const optionalBodies = new Set<string>();

/**
 * The document and its routes (`/api/openapi.json`, `/docs`). `webhooks` is the document's section describing
 * outbound event payloads, which the webhooks module owns.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  config: Pick<Config, 'publicBaseUrl' | 'stagingBaseUrl'>,
  webhooks: Record<string, unknown>,
): Promise<void> {
  const servers = [{ url: config.publicBaseUrl, description: 'production' }];
  if (config.stagingBaseUrl) servers.push({ url: config.stagingBaseUrl, description: 'staging' });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Crestwatch API',
        version: API_VERSION,
        description:
          'Trend intelligence: trends with explainable metrics, AI insights, crisis events with verifiable evidence, ' +
          'and alerts pushed into the tools teams use. Errors are RFC 9457 problem+json.',
      },
      servers,
      // Outbound event payloads (see the webhooks module).
      webhooks: webhooks as never,
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <API_KEY>`' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      tags: [
        { name: 'account', description: 'Profile, API keys, usage and audit log' },
        { name: 'operator', description: 'Operator routes (permission `admin`)' },
        { name: 'signals', description: 'Signal ingestion (permission `ingest`)' },
        { name: 'trends', description: 'Trends with explainable metrics, and the category taxonomy' },
        {
          name: 'insights',
          description: 'AI insights per trend: generation tasks, the latest insight, search',
        },
        { name: 'crisis', description: 'Crisis events with evidence, reviews, export; resilience settings' },
        {
          name: 'recommendations',
          description: 'Prioritised next steps with decision briefs (evidence, confidence, urgency)',
        },
        { name: 'reports', description: 'Custom reports over trends and your crisis events' },
        {
          name: 'exports',
          description: 'Scheduled exports to S3-compatible storage or e-mail, with history',
        },
        { name: 'notifications', description: 'Your in-app notification feed' },
        { name: 'dashboard', description: 'A summary of trends, interests and recent alerts' },
        { name: 'organisation', description: 'Members, roles and invites of your organisation' },
        { name: 'content', description: 'Blog posts and releases' },
        { name: 'public', description: 'Public demonstration data' },
        {
          name: 'compatibility',
          description:
            'Upstream capabilities a self-hosted service does not offer (503 CAPABILITY_UNAVAILABLE)',
        },
        { name: 'meta', description: 'Plans, status and the API description' },
        { name: 'mcp', description: 'The Model Context Protocol endpoint for AI agents (docs/mcp.md)' },
        { name: 'webhooks', description: 'Signed outbound alerts: subscriptions, executions, redelivery' },
        {
          name: 'integrations',
          description: 'Team chat, forum ads, ad targeting (OAuth) and workflow automation',
        },
      ],
    },
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: Record<string, unknown> }).openapiObject as {
        paths?: Record<string, Record<string, { requestBody?: { required?: boolean } }>>;
      };
      for (const [path, item] of Object.entries(doc.paths ?? {})) {
        const url = path.replace(/\{(\w+)\}/g, ':$1');
        if (!optionalBodies.has(url)) continue;
        for (const op of Object.values(item)) if (op.requestBody) op.requestBody.required = false;
      }
      return doc;
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // "Try it out" calls the server the page was loaded from, then the configured ones.
    transformSpecificationClone: true,
    transformSpecification: (document, request) => {
      const origin = `${request.protocol}://${request.host}`;
      const listed = (document as { servers?: { url: string }[] }).servers ?? [];
      return {
        ...document,
        servers: [{ url: origin, description: 'this server' }, ...listed.filter((s) => s.url !== origin)],
      };
    },
  });
  app.get(
    '/api/openapi.json',
    {
      config: { access: 'public' },
      schema: {
        tags: ['meta'],
        summary: 'This OpenAPI 3.1 document',
        response: { 200: { description: 'OpenAPI document', type: 'object', additionalProperties: true } },
      },
    },
    async () => app.swagger() as unknown as Record<string, unknown>,
  );
  app.get(
    '/llms.txt',
    {
      config: { access: 'public' },
      schema: {
        tags: ['meta'],
        summary: 'A Markdown index of the API for language models',
        description:
          'The llms.txt convention: what Crestwatch is, where the OpenAPI document, the interactive docs and the MCP ' +
          'endpoint are, and every operation by tag, generated from the OpenAPI document.',
        response: { 200: { description: 'Markdown (text/markdown)', type: 'string' } },
      },
    },
    async (_request, reply) => {
      reply.type('text/markdown; charset=utf-8');
      return llmsTxt(app.swagger() as unknown as OpenApiDocument, config.publicBaseUrl);
    },
  );
}

interface OpenApiDocument {
  info: { title: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, { summary?: string; tags?: string[]; security?: unknown[] }>>;
}

/** llms.txt (https://llmstxt.org): a title, a one-line summary, then link lists, here one section per tag. */
function llmsTxt(document: OpenApiDocument, base: string): string {
  const lines = [
    `# ${document.info.title}`,
    '',
    `> ${document.info.description ?? ''}`,
    '',
    'Authenticate with `Authorization: Bearer <API_KEY>` or `X-API-Key: <API_KEY>`. Errors are RFC 9457 ' +
      'problem+json with a readable `detail`. Lists take `limit`/`offset`; 429 and 503 carry `Retry-After`.',
    '',
    '## Docs',
    '',
    `- [OpenAPI 3.1 document](${base}/api/openapi.json): every route, schema, error and webhook payload`,
    `- [Interactive docs](${base}/docs): try the API in the browser`,
    `- [MCP endpoint](${base}/mcp): Model Context Protocol over Streamable HTTP (stateless), same API keys; tools for trends, insights, recommendations, crisis events and the crisis gate`,
    '',
  ];
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags?.[0] ?? 'other';
      const auth = op.security && op.security.length > 0 ? '' : ' (no key)';
      const entry = `- \`${method.toUpperCase()} ${path}\`${auth}: ${op.summary ?? ''}`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), entry]);
    }
  }
  for (const tag of document.tags ?? []) {
    const entries = byTag.get(tag.name);
    if (!entries) continue;
    lines.push(
      `## ${tag.name[0]!.toUpperCase()}${tag.name.slice(1)}`,
      '',
      `${tag.description ?? ''}`,
      '',
      ...entries,
      '',
    );
    byTag.delete(tag.name);
  }
  for (const [tag, entries] of byTag) lines.push(`## ${tag}`, '', ...entries, '');
  return `${lines.join('\n').trimEnd()}\n`;
}
