// `/mcp`: the Model Context Protocol over Streamable HTTP, stateless (a server and transport per request, JSON
// answers, no session). The route's own access hook authenticates the key first, so a missing or bad key is an
// HTTP 401 before any MCP message; each tool call, resource list or read, or prompt is then charged as one request.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { requirePrincipal } from '../../platform/auth.ts';
import { ApiError, problem } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { FreeForm } from '../../platform/schemas.ts';
import { BRIEF_PROMPT, type Caller, CallRefused, type McpTools, RESOURCE_TEMPLATES } from './service.ts';

const INSTRUCTIONS =
  'Crestwatch finds what is trending and how fast, writes insights and detects crisis events with evidence. ' +
  'Start with list_trends (sort_by=velocity) or list_crisis_events; crisis_gate says whether posting about a ' +
  'topic is advisable now. Every number comes with its explanation; quote it rather than guessing.';

/** One JSON-RPC 2.0 message: a request or notification (`method`) or a response (`result` or `error`). */
const JsonRpcMessage = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Integer()])),
    method: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    params: Type.Optional(FreeForm()),
    result: Type.Optional(FreeForm()),
    error: Type.Optional(FreeForm()),
  },
  { additionalProperties: false },
);

export async function mcpRoutes(
  app: App,
  { tools, version }: { tools: McpTools; version: string },
): Promise<void> {
  function callerFor(request: FastifyRequest, reply: FastifyReply): Caller {
    const principal = requirePrincipal(request);
    const headers = app.forwardHeaders(request);
    // The POST took one from the key's burst limit; each further call in a batch takes its own.
    let metered = 0;
    return {
      userId: principal.userId,
      permissions: principal.keyPermissions,
      meter: async () => {
        try {
          const headers = await app.meterCall(principal, { burst: metered++ > 0 });
          // The answer is written after the calls: its quota headers say what they left.
          if (headers && !reply.raw.headersSent) {
            for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value);
          }
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const retryAfter = error.extra.headers?.['Retry-After'];
          throw new CallRefused(error.status, {
            ...problem(error.status, error.code, error.detail, String(request.id)),
            ...(retryAfter === undefined ? {} : { retry_after: Number(retryAfter) }),
          });
        }
      },
      forward: async ({ method, path, query, body }) => {
        const response = await app.inject({
          method,
          url: path,
          query: query as Record<string, string> | undefined,
          headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
          payload: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = response.body;
        return { status: response.statusCode, body: text.length > 0 ? JSON.parse(text) : null };
      },
    };
  }

  function serverFor(caller: Caller): Server {
    const server = new Server(
      { name: 'crestwatch', title: 'Crestwatch', version },
      { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.list() }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const outcome = await tools
        .call(caller, request.params.name, request.params.arguments ?? {})
        .catch((error: unknown) => {
          throw asMcpError(error);
        });
      return {
        content: [{ type: 'text' as const, text: outcome.text }],
        structuredContent: outcome.structured,
        ...(outcome.ok ? {} : { isError: true }),
      };
    });
    server.setRequestHandler(ListResourcesRequestSchema, async () => {
      try {
        return { resources: await tools.listResources(caller) };
      } catch (error) {
        throw asMcpError(error);
      }
    });
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: [...RESOURCE_TEMPLATES],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      try {
        return { contents: [await tools.readResource(caller, request.params.uri)] };
      } catch (error) {
        // The MCP specification's code for a resource that is not there.
        if (error instanceof CallRefused && error.status === 404) {
          throw new McpError(RESOURCE_NOT_FOUND, error.message, error.problem);
        }
        throw asMcpError(error);
      }
    });
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [BRIEF_PROMPT] }));
    server.setRequestHandler(GetPromptRequestSchema, async (request) => {
      if (request.params.name !== BRIEF_PROMPT.name) {
        throw new McpError(ErrorCode.InvalidParams, `No prompt is named ${request.params.name}.`);
      }
      try {
        const brief = await tools.brief(caller, request.params.arguments ?? {});
        return {
          description: brief.description,
          messages: [{ role: 'user' as const, content: { type: 'text' as const, text: brief.text } }],
        };
      } catch (error) {
        throw asMcpError(error);
      }
    });
    return server;
  }

  app.post(
    '/mcp',
    {
      // The envelope is not counted: the tool calls inside it are (app.meterCall).
      config: { access: { permission: 'read', quota: 'exempt' }, problemStatuses: [406] },
      schema: {
        tags: ['mcp'],
        summary: 'Model Context Protocol (Streamable HTTP, stateless)',
        description:
          'JSON-RPC 2.0 messages of the Model Context Protocol (`initialize`, `tools/list`, `tools/call`, ' +
          '`resources/list`, `resources/read`, `prompts/get`, …), answered as JSON. Authenticated with the same ' +
          'API keys as every route (a missing or bad key is a 401 before any MCP message); each tool call, ' +
          'resource list or read, or prompt ' +
          'counts as one request against the daily quota, with the permission of the route it wraps (tools that ' +
          'change state need `write`); in a batch, each counted call after the first also takes one from the ' +
          "key's per-second burst limit (refused with `rate_limited`). Stateless: GET and DELETE answer 405. " +
          'See docs/mcp.md.',
        body: Type.Union([JsonRpcMessage, Type.Array(JsonRpcMessage, { minItems: 1, maxItems: 50 })], {
          description: 'A JSON-RPC 2.0 message (or batch).',
        }),
        response: {
          200: FreeForm({ description: 'The JSON-RPC response(s).' }),
          202: Type.Null({ description: 'Accepted: the request held only notifications or responses.' }),
        },
      },
    },
    async (request, reply) => {
      // The transport would refuse these itself, but as JSON-RPC: every HTTP error here is problem+json.
      const accept = request.headers.accept ?? '';
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
        throw new ApiError(
          406,
          'not_acceptable',
          'The MCP endpoint needs `Accept: application/json, text/event-stream` (Streamable HTTP).',
        );
      }
      const server = serverFor(callerFor(request, reply));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      // The transport writes the answer itself; the headers already set (request id, nosniff) go with it.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string);
      }
      reply.hijack();
      reply.raw.on('close', () => {
        // Nothing awaits these: a rejection must not go unhandled.
        transport.close().catch(() => undefined);
        server.close().catch(() => undefined);
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );
}

/** JSON-RPC error code the MCP specification gives a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

function asMcpError(error: unknown): unknown {
  if (!(error instanceof CallRefused)) return error;
  const code =
    error.status === 400 || error.status === 404 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpError(code, error.message, error.problem);
}
