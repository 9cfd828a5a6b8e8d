// What the MCP endpoint does for a caller: run a tool, read a resource, build the `brief_me_on` prompt. Every
// answer comes from the API's own routes, called in process with the caller's key (`Forward`), so permissions,
// tenant walls, validation and response shapes are the routes'; each tool call, resource list or read, or prompt is
// charged as one request (`meter`), and the forwarded calls are not charged again.
import type { Clock } from '../../platform/clock.ts';
import type { RouteCatalogue } from '../../platform/route-catalogue.ts';
import { compileBodyValidator, fieldErrors } from '../../platform/validation.ts';
import {
  CrisisGateInput,
  fillPath,
  GenerateWait,
  type JsonObjectSchema,
  splitArguments,
  type ToolInput,
  toolInputFromRoute,
} from './schemas.ts';
import { TOOLS, type ToolAnnotations, type ToolSpec } from './tools.ts';

export interface ForwardCall {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface Forwarded {
  status: number;
  body: unknown;
}

/** The caller: their user id, a way to call a route with their key, and the meter for one request. */
export interface Caller {
  userId: number;
  /** The key's permissions: a call its key may not make is refused as the route refuses it, before its arguments are read. */
  permissions: readonly string[];
  forward: (call: ForwardCall) => Promise<Forwarded>;
  meter: () => Promise<void> | void;
}

interface CrisisGate {
  blockingEventFor(
    userId: number,
    trend: { id: number; title: string },
  ): Promise<{ id: number; title: string; severity: string } | null>;
}

/** A tool's answer: `ok` false is a tool error (the problem's detail), never a protocol error. */
interface ToolOutcome {
  ok: boolean;
  structured: Record<string, unknown>;
  text: string;
}

interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObjectSchema;
  annotations: ToolAnnotations & { title: string };
}

interface PreparedTool {
  spec: ToolSpec;
  input: ToolInput;
  /** Checks arguments against `input.schema` as a body is checked (no coercion); compiled on first call. */
  validate?: ReturnType<typeof compileBodyValidator>;
}

/** A route's problem+json answer, or a limit refused before the call, carried to the tool result. */
export class CallRefused extends Error {
  constructor(
    readonly status: number,
    readonly problem: Record<string, unknown>,
  ) {
    super(String(problem.detail ?? problem.title ?? `HTTP ${status}`));
  }
}

const POLL_MS = 250;
const DEFAULT_WAIT_SECONDS = 30;

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'crestwatch://trends/{id}',
    name: 'trend',
    title: 'A trend',
    description: 'A trend with its metrics (`GET /api/trends/{id}`).',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'crestwatch://crisis-events/{id}',
    name: 'crisis-event',
    title: 'A crisis event',
    description: 'One of your crisis events (`GET /api/intelligence/crisis-events/{id}`).',
    mimeType: 'application/json',
  },
] as const;

/** How many trends, and how many crisis events, `resources/list` names. */
const RESOURCES_LISTED = 20;

interface ListedResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

export const BRIEF_PROMPT = {
  name: 'brief_me_on',
  title: 'Brief me on a topic',
  description:
    'Gathers what Crestwatch knows about a topic (matching trends, the AI insight on the leading one, open crisis ' +
    'events and the social-response gate) and asks for a short briefing.',
  arguments: [{ name: 'topic', description: 'A brand, product, person or theme.', required: true }],
};

/** structuredContent must be an object: a list becomes `{items}`, anything else (a null insight) `{result}`. */
function wrap(body: unknown): Record<string, unknown> {
  if (body !== null && typeof body === 'object' && !Array.isArray(body))
    return body as Record<string, unknown>;
  return Array.isArray(body) ? { items: body } : { result: body };
}

function problemOf(outcome: Forwarded): Record<string, unknown> {
  const body = outcome.body as Record<string, unknown> | null;
  if (body && typeof body === 'object' && ('detail' in body || 'title' in body)) return body;
  return {
    status: outcome.status,
    title: `HTTP ${outcome.status}`,
    detail: `The route answered ${outcome.status}.`,
  };
}

export class McpTools {
  private readonly tools = new Map<string, PreparedTool>();

  constructor(
    private readonly deps: {
      routes: RouteCatalogue;
      crisis: CrisisGate;
      clock: Clock;
      sleep?: (ms: number) => Promise<void>;
    },
  ) {
    for (const spec of TOOLS) this.tools.set(spec.name, { spec, input: this.inputOf(spec) });
  }

  private inputOf(spec: ToolSpec): ToolInput {
    if (spec.route === null) return { schema: CrisisGateInput, parts: {} };
    const entry = this.deps.routes.find(spec.route.method, spec.route.url);
    if (!entry)
      throw new Error(
        `MCP tool ${spec.name} wraps ${spec.route.method} ${spec.route.url}, which is no route.`,
      );
    const extra = spec.name === 'generate_ai_insight' ? GenerateWait : null;
    const input = toolInputFromRoute(entry.schema, extra);
    if (spec.required)
      input.schema.required = [...new Set([...(input.schema.required ?? []), ...spec.required])];
    return input;
  }

  list(): ToolListing[] {
    return [...this.tools.values()].map(({ spec, input }) => ({
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: input.schema,
      annotations: { title: spec.title, ...spec.annotations },
    }));
  }

  /** The permission a tool's route needs (crisis_gate reads). */
  permissionOf(name: string): string | null {
    const tool = this.tools.get(name);
    if (!tool) return null;
    if (!tool.spec.route) return 'read';
    const access = this.deps.routes.find(tool.spec.route.method, tool.spec.route.url)?.access;
    return access && access !== 'public' ? access.permission : null;
  }

  async call(caller: Caller, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    const tool = this.tools.get(name);
    // A protocol error, as the MCP specification lists an unknown tool (routes.ts turns it into -32602).
    if (!tool) {
      throw new CallRefused(404, {
        status: 404,
        code: 'unknown_tool',
        detail: `No tool is named ${name}; tools/list names them.`,
      });
    }
    try {
      const unknown = Object.keys(args).filter((key) => !(key in tool.input.schema.properties));
      if (unknown.length > 0) {
        throw new CallRefused(400, {
          status: 400,
          code: 'validation_failed',
          title: 'Bad Request',
          detail: `Unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} for ${name}.`,
          errors: unknown.map((key) => ({ path: key, message: 'is not an argument of this tool' })),
        });
      }
      // A missing required argument (or a null one) is the caller's mistake, answered like a route's 400.
      const missing = (tool.input.schema.required ?? []).filter(
        (key) => args[key] === undefined || args[key] === null,
      );
      if (missing.length > 0) {
        throw new CallRefused(400, {
          status: 400,
          code: 'validation_failed',
          title: 'Bad Request',
          detail: `Missing required argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')} for ${name}.`,
          errors: missing.map((key) => ({ path: key, message: 'is required' })),
        });
      }
      // Values are taken as typed, as a body's are: `"5"` is not the integer 5. (A copy is checked: the
      // validator fills in defaults, which would send aliases the caller did not give.)
      tool.validate ??= compileBodyValidator(tool.input.schema);
      const permission = this.permissionOf(name);
      const permitted = permission === null || caller.permissions.includes(permission);
      if (permitted && !tool.validate(structuredClone(args))) {
        const errors = fieldErrors(tool.validate.errors ?? [], 'arguments').map((e) => ({
          path: e.path.replace(/^arguments\./, ''),
          message: e.message,
        }));
        throw new CallRefused(400, {
          status: 400,
          code: 'validation_failed',
          title: 'Bad Request',
          detail: `Invalid arguments for ${name}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}.`,
          errors,
        });
      }
      if (this.countsAsRequest(tool.spec)) await caller.meter();
      const structured = await this.run(caller, tool, args);
      return { ok: true, structured, text: tool.spec.summarize(structured) };
    } catch (error) {
      if (!(error instanceof CallRefused)) throw error;
      const code = typeof error.problem.code === 'string' ? ` (${error.problem.code})` : '';
      return { ok: false, structured: error.problem, text: `${error.message}${code}` };
    }
  }

  /** Routes exempt from the quota (usage) stay exempt as tools. */
  private countsAsRequest(spec: ToolSpec): boolean {
    if (!spec.route) return true;
    const access = this.deps.routes.find(spec.route.method, spec.route.url)?.access;
    return !(access && access !== 'public' && access.quota === 'exempt');
  }

  private async run(
    caller: Caller,
    tool: PreparedTool,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const { spec, input } = tool;
    if (spec.name === 'crisis_gate') return this.gate(caller, args);
    if (!spec.route) throw new Error(`Tool ${spec.name} has no route.`);
    const { wait_seconds: wait, ...routeArgs } = args;
    if (wait !== undefined && !(Number.isInteger(wait) && Number(wait) >= 0 && Number(wait) <= 60)) {
      throw invalid('wait_seconds', 'wait_seconds must be an integer from 0 to 60.');
    }
    const parts = splitArguments(input, routeArgs);
    const path = fillPath(spec.route.url, parts.params);
    const body = spec.route.method === 'POST' ? (parts.body ?? {}) : undefined;
    const answer = await ok(caller.forward({ method: spec.route.method, path, query: parts.query, body }));
    if (spec.name !== 'generate_ai_insight') return wrap(answer);
    const seconds = typeof wait === 'number' ? wait : DEFAULT_WAIT_SECONDS;
    return this.awaitInsight(caller, answer as Record<string, unknown>, parts.params.trend_id, seconds);
  }

  private async awaitInsight(
    caller: Caller,
    task: Record<string, unknown>,
    trendId: unknown,
    seconds: number,
  ): Promise<Record<string, unknown>> {
    const sleep = this.deps.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
    const deadline = this.deps.clock.now() + seconds * 1000;
    let status = String(task.status);
    while (status === 'queued' || status === 'running') {
      if (this.deps.clock.now() >= deadline) return { ...task, status, insight: null };
      await sleep(POLL_MS);
      const now = (await ok(
        caller.forward({
          method: 'GET',
          path: `/api/trends/ai-insights/status/${encodeURIComponent(String(task.task_id))}`,
        }),
      )) as Record<string, unknown>;
      status = String(now.status);
      if (status === 'failed') return { ...task, ...now, insight: null };
    }
    const insight = await ok(caller.forward({ method: 'GET', path: `/api/trends/${trendId}/ai-insights` }));
    return { ...task, status, insight };
  }

  private async gate(caller: Caller, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (args.trend_id !== undefined && !(Number.isSafeInteger(args.trend_id) && Number(args.trend_id) >= 1)) {
      throw invalid('trend_id', 'trend_id must be a positive integer.');
    }
    if (args.topic !== undefined && (typeof args.topic !== 'string' || args.topic.length > 200)) {
      throw invalid('topic', 'topic must be a string of at most 200 characters.');
    }
    const trendId = args.trend_id === undefined ? null : Number(args.trend_id);
    const topic = typeof args.topic === 'string' ? args.topic.trim() : '';
    if (trendId === null && topic === '') {
      throw invalid('topic', 'Give trend_id or topic: what you want to post about.');
    }
    let title = topic;
    if (trendId !== null) {
      const trend = (await ok(caller.forward({ method: 'GET', path: `/api/trends/${trendId}` }))) as Record<
        string,
        unknown
      >;
      title = String(trend.title);
    }
    const blocking = await this.deps.crisis.blockingEventFor(caller.userId, { id: trendId ?? 0, title });
    const subject = trendId !== null ? `trend #${trendId} "${title}"` : `"${title}"`;
    return {
      may_post: blocking === null,
      topic: title,
      trend_id: trendId,
      blocking_event: blocking && {
        ...blocking,
        link: `/api/intelligence/crisis-events/${blocking.id}`,
      },
      reason: blocking
        ? `Hold: your ${blocking.severity} crisis event #${blocking.id} "${blocking.title}" is active and concerns ${subject}.`
        : `Clear: no active high or critical crisis event of yours concerns ${subject}.`,
      rule: 'Blocked while one of your active crisis events of severity high or critical concerns it: the event is about the trend, or one of its keywords appears in the title as whole words.',
    };
  }

  /** `crestwatch://trends/{id}` and `crestwatch://crisis-events/{id}`: the route's JSON, charged as one request. */
  async readResource(caller: Caller, uri: string): Promise<{ uri: string; mimeType: string; text: string }> {
    const match = /^crestwatch:\/\/(trends|crisis-events)\/([1-9][0-9]{0,15})$/.exec(uri);
    if (!match) {
      throw new CallRefused(404, {
        status: 404,
        code: 'not_found',
        detail: `Unknown resource ${uri}: use crestwatch://trends/{id} or crestwatch://crisis-events/{id}.`,
      });
    }
    await caller.meter();
    const path =
      match[1] === 'trends' ? `/api/trends/${match[2]}` : `/api/intelligence/crisis-events/${match[2]}`;
    const body = await ok(caller.forward({ method: 'GET', path }));
    return { uri, mimeType: 'application/json', text: JSON.stringify(body) };
  }

  /**
   * `resources/list`: the fastest trends of the last 24 hours and the caller's active crisis events (up to
   * RESOURCES_LISTED of each), as resources of the two templates; charged as one request.
   */
  async listResources(caller: Caller): Promise<ListedResource[]> {
    await caller.meter();
    const trends = (await ok(
      caller.forward({
        method: 'GET',
        path: '/api/trends',
        query: { sort_by: 'velocity', period: '24h', limit: RESOURCES_LISTED },
      }),
    )) as {
      trends?: {
        id: number;
        title: string;
        velocity_score: number;
        velocity_window: string;
        lifecycle_stage: string;
      }[];
    };
    const crises = (await ok(
      caller.forward({
        method: 'GET',
        path: '/api/intelligence/crisis-events',
        query: { status: 'active', limit: RESOURCES_LISTED },
      }),
    )) as { events?: { id: number; title: string; severity: string; detected_at: string }[] };
    return [
      ...(trends.trends ?? []).map((t) => ({
        uri: `crestwatch://trends/${t.id}`,
        name: `trend-${t.id}`,
        title: t.title,
        description: `Trend, velocity_score ${t.velocity_score} over ${t.velocity_window}, ${t.lifecycle_stage}.`,
        mimeType: 'application/json',
      })),
      ...(crises.events ?? []).map((e) => ({
        uri: `crestwatch://crisis-events/${e.id}`,
        name: `crisis-event-${e.id}`,
        title: e.title,
        description: `Active crisis event, ${e.severity} severity, detected ${e.detected_at}.`,
        mimeType: 'application/json',
      })),
    ];
  }

  /** The facts for `brief_me_on(topic)`, charged as one request. */
  async brief(caller: Caller, args: Record<string, unknown>): Promise<{ description: string; text: string }> {
    const known = new Set(BRIEF_PROMPT.arguments.map((a) => a.name));
    const unknown = Object.keys(args).filter((key) => !known.has(key));
    if (unknown.length > 0) {
      throw new CallRefused(400, {
        status: 400,
        code: 'validation_failed',
        detail: `Unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} for ${BRIEF_PROMPT.name}.`,
      });
    }
    const subject = String(args.topic ?? '').trim();
    if (subject === '' || subject.length > 200) {
      throw new CallRefused(400, { status: 400, detail: 'topic must be 1–200 characters.' });
    }
    await caller.meter();
    const trends = (await ok(
      caller.forward({
        method: 'GET',
        path: '/api/trends',
        query: { search: subject, sort_by: 'velocity', limit: 5 },
      }),
    )) as { trends?: Record<string, unknown>[] };
    const top = trends.trends?.[0];
    const insight = top
      ? await ok(caller.forward({ method: 'GET', path: `/api/trends/${top.id}/ai-insights` }))
      : null;
    const crises = (await ok(
      caller.forward({
        method: 'GET',
        path: '/api/intelligence/crisis-events',
        query: { keyword: subject, status: 'active', limit: 10 },
      }),
    )) as { events?: unknown[] };
    const gate = await this.gate(caller, top ? { trend_id: top.id } : { topic: subject });
    const facts = {
      topic: subject,
      trends: trends.trends ?? [],
      insight,
      crisis_events: crises.events ?? [],
      gate,
    };
    return {
      description: `What Crestwatch knows about ${subject}`,
      text:
        `Brief me on "${subject}" in a few short paragraphs for a communications team: what is trending and how ` +
        'fast (quote velocity scores and volumes), the tone and themes from the insight, any open crisis events ' +
        'and whether posting about it now is advisable (the gate), and what to do next. Use only these facts from ' +
        `Crestwatch, and say what is missing:\n\n${JSON.stringify(facts, null, 2)}`,
    };
  }
}

function invalid(field: string, detail: string): CallRefused {
  return new CallRefused(400, {
    status: 400,
    code: 'validation_failed',
    title: 'Bad Request',
    detail,
    errors: [{ path: field, message: detail }],
  });
}

async function ok(pending: Promise<Forwarded>): Promise<unknown> {
  const outcome = await pending;
  if (outcome.status >= 200 && outcome.status < 300) return outcome.body;
  throw new CallRefused(outcome.status, problemOf(outcome));
}
