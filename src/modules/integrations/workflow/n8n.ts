// The workflow tool's wire format (n8n): the public REST API at `{base}/api/v1` with `X-N8N-API-KEY`, and the
// Webhook trigger node whose production URL is `{base}/webhook/{path}`. Every request goes through the
// SSRF-guarded outbound client; nothing the tool answers is echoed beyond its status code.
import { ApiError, badRequest, unavailable } from '../../../platform/errors.ts';
import { type OutboundClient, OutboundError, type OutboundResponse } from '../../../platform/outbound.ts';

const WEBHOOK_NODE_TYPE = 'n8n-nodes-base.webhook';
const API_TIMEOUT_MS = 10_000;
/** Pages of 100 read at most when listing (n8n pages with `nextCursor`). */
const MAX_PAGES = 10;

interface ToolWorkflow {
  id: string;
  name: string;
  active: boolean;
}

interface WebhookTrigger {
  path: string;
  methods: string[];
}

/**
 * `https://n8n.example.com/base/` → `https://n8n.example.com/base` (what connect stores and compares); the API's
 * own address (`…/api/v1`) is taken as the instance's.
 */
export function normaliseBaseUrl(url: URL): string {
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/i, '');
  return `${url.origin}${path}`;
}

/** The tool answered something that is not its API's shape. */
function badAnswer(what: string): ApiError {
  return new ApiError(
    400,
    'workflow_bad_response',
    `The workflow tool's answer to ${what} is not what its public API returns; check api_base_url points at an n8n instance with the public API enabled.`,
  );
}

/**
 * A failed request to the tool as problem+json: its status code only, never its body. `field`: the request field
 * holding the address (connecting); null when the address is the one saved with the connection.
 */
export function providerFailure(error: unknown, what: string, field: string | null = null): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof OutboundError) {
    if (error.kind === 'refused') {
      if (field === null) {
        return new ApiError(
          400,
          'destination_not_allowed',
          `The connection's api_base_url is no longer an allowed destination: ${error.message} Connect again ` +
            'with an allowed address.',
        );
      }
      return badRequest(
        `${field} is not an allowed destination: ${error.message}`,
        field,
        'destination_not_allowed',
      );
    }
    return unavailable(
      `The workflow tool could not be reached for ${what}: ${error.message}`,
      30,
      'workflow_unreachable',
    );
  }
  throw error;
}

function statusFailure(response: OutboundResponse, what: string): ApiError {
  const status = response.status;
  if (status === 401 || status === 403) {
    return new ApiError(
      400,
      'workflow_key_refused',
      `The workflow tool refused the API key for ${what} (HTTP ${status}).`,
      { errors: [{ path: 'api_key', message: `refused by the workflow tool (HTTP ${status})` }] },
    );
  }
  if (status >= 500 || status === 429) {
    return unavailable(
      `The workflow tool failed to answer ${what} (HTTP ${status}); retry later.`,
      30,
      'workflow_unavailable',
    );
  }
  return new ApiError(
    400,
    'workflow_request_failed',
    `The workflow tool answered ${what} with HTTP ${status}.`,
  );
}

function parseJson(response: OutboundResponse, what: string): unknown {
  try {
    return JSON.parse(response.body);
  } catch {
    throw badAnswer(what);
  }
}

function toWorkflow(raw: unknown): ToolWorkflow | null {
  if (!raw || typeof raw !== 'object') return null;
  const item = raw as Record<string, unknown>;
  if (typeof item.id !== 'string' && typeof item.id !== 'number') return null;
  return {
    id: String(item.id),
    name: typeof item.name === 'string' ? item.name : '',
    active: item.active === true,
  };
}

/** The enabled Webhook trigger nodes of a workflow, with the HTTP methods each accepts. */
export function webhookTriggers(nodes: unknown): WebhookTrigger[] {
  if (!Array.isArray(nodes)) return [];
  const triggers: WebhookTrigger[] = [];
  for (const raw of nodes) {
    if (!raw || typeof raw !== 'object') continue;
    const node = raw as Record<string, unknown>;
    if (node.type !== WEBHOOK_NODE_TYPE || node.disabled === true) continue;
    const parameters = (node.parameters ?? {}) as Record<string, unknown>;
    const rawPath =
      typeof parameters.path === 'string' && parameters.path.trim() !== ''
        ? parameters.path
        : typeof node.webhookId === 'string'
          ? node.webhookId
          : '';
    const path = rawPath.trim().replace(/^\/+/, '');
    if (path === '') continue;
    // n8n's default method is GET; "Allow Multiple HTTP Methods" makes httpMethod a list.
    const method = parameters.httpMethod;
    const methods = Array.isArray(method)
      ? method.filter((m): m is string => typeof m === 'string').map((m) => m.toUpperCase())
      : [typeof method === 'string' ? method.toUpperCase() : 'GET'];
    triggers.push({ path, methods });
  }
  return triggers;
}

/** `{base}/webhook/{path}`, each path segment percent-encoded. */
export function productionWebhookUrl(base: string, path: string): string {
  return `${base}/webhook/${path.split('/').map(encodeURIComponent).join('/')}`;
}

export class N8nClient {
  constructor(
    private readonly outbound: OutboundClient,
    private readonly userAgent: string,
  ) {}

  private async get(
    base: string,
    key: string,
    path: string,
    what: string,
    field: string | null = null,
  ): Promise<OutboundResponse> {
    try {
      return await this.outbound.request(`${base}/api/v1${path}`, {
        method: 'GET',
        headers: { 'x-n8n-api-key': key, accept: 'application/json', 'user-agent': this.userAgent },
        timeoutMs: API_TIMEOUT_MS,
        maxBodyBytes: 4 * 1024 * 1024,
      });
    } catch (error) {
      throw providerFailure(error, what, field);
    }
  }

  /** Checks the key with the cheapest authenticated call; throws the problem to answer when refused. */
  async verify(base: string, key: string): Promise<void> {
    const what = 'the key check';
    const response = await this.get(base, key, '/workflows?limit=1', what, 'api_base_url');
    if (response.status < 200 || response.status >= 300) throw statusFailure(response, what);
    const body = parseJson(response, what) as { data?: unknown } | null;
    if (!body || !Array.isArray(body.data)) throw badAnswer(what);
  }

  async listWorkflows(base: string, key: string): Promise<ToolWorkflow[]> {
    const what = 'the workflow list';
    const workflows: ToolWorkflow[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const response = await this.get(base, key, `/workflows?limit=100${query}`, what);
      if (response.status < 200 || response.status >= 300) throw statusFailure(response, what);
      const body = parseJson(response, what) as { data?: unknown; nextCursor?: unknown } | null;
      if (!body || !Array.isArray(body.data)) throw badAnswer(what);
      for (const raw of body.data) {
        const workflow = toWorkflow(raw);
        if (workflow) workflows.push(workflow);
      }
      cursor = typeof body.nextCursor === 'string' && body.nextCursor !== '' ? body.nextCursor : null;
      if (!cursor) break;
    }
    return workflows;
  }

  /** The workflow with its nodes; null when the tool does not know the id. */
  async getWorkflow(
    base: string,
    key: string,
    id: string,
  ): Promise<(ToolWorkflow & { nodes: unknown }) | null> {
    const what = `workflow ${id}`;
    const response = await this.get(base, key, `/workflows/${encodeURIComponent(id)}`, what);
    if (response.status === 404) return null;
    if (response.status < 200 || response.status >= 300) throw statusFailure(response, what);
    const body = parseJson(response, what) as Record<string, unknown> | null;
    const workflow = toWorkflow(body);
    if (!workflow || !body) throw badAnswer(what);
    return { ...workflow, nodes: body.nodes };
  }

  /** POSTs a signed push to a Webhook trigger; OutboundError when there is no HTTP answer. */
  async push(url: string, body: string, headers: Record<string, string>): Promise<OutboundResponse> {
    return this.outbound.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': this.userAgent, ...headers },
      body,
      timeoutMs: API_TIMEOUT_MS,
      maxBodyBytes: 16 * 1024,
    });
  }
}
