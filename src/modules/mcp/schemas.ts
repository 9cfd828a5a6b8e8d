// Tool input schemas, derived from the schemas of the routes the tools wrap: one object schema holding the route's
// path parameters, query parameters and body fields, so a tool accepts exactly what its route accepts.
import Type from 'typebox';
import { isUpstreamAlias } from '../../platform/query.ts';
import { StrictObject } from '../../platform/schemas.ts';

export interface JsonObjectSchema {
  type: 'object';
  properties: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
  [key: string]: unknown;
}

interface RouteInputSchemas {
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
}

type Part = 'params' | 'query' | 'body';

export interface ToolInput {
  schema: JsonObjectSchema;
  /** Which part of the request each argument goes to. */
  parts: Record<string, Part>;
}

/** A plain-JSON copy (TypeBox marks its schemas with symbols, which a JSON document cannot carry). */
function plain(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

function objectParts(
  schema: unknown,
  what: string,
): { properties: Record<string, unknown>; required: string[] } {
  if (schema === undefined) return { properties: {}, required: [] };
  const json = plain(schema);
  if (JSON.stringify(json).includes('"$ref"')) {
    throw new Error(`A tool input cannot use a $ref (${what}); inline the schema in the route.`);
  }
  if (json.type !== 'object' || typeof json.properties !== 'object' || json.properties === null) {
    throw new Error(`A tool input needs an object schema for the route's ${what}.`);
  }
  return {
    properties: json.properties as Record<string, unknown>,
    required: Array.isArray(json.required) ? (json.required as string[]) : [],
  };
}

/**
 * The tool's input: the route's params, querystring and body properties side by side (a name used twice is an
 * error), required where the route requires them, nothing else accepted; `extra` adds tool-only arguments.
 */
export function toolInputFromRoute(
  route: RouteInputSchemas,
  extra: JsonObjectSchema | null = null,
): ToolInput {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const parts: Record<string, Part> = {};
  const add = (part: Part, schema: unknown, what: string) => {
    const found = objectParts(schema, what);
    for (const [name, property] of Object.entries(found.properties)) {
      if (part === 'query' && isUpstreamAlias(name, found.properties)) continue;
      if (name in properties)
        throw new Error(`Tool argument "${name}" appears in more than one part of the route.`);
      properties[name] = property;
      parts[name] = part;
    }
    required.push(...found.required);
  };
  add('params', route.params, 'params');
  add('query', route.querystring, 'querystring');
  add('body', route.body, 'body');
  const schema: JsonObjectSchema = { type: 'object', properties, additionalProperties: false };
  if (extra) {
    for (const [name, property] of Object.entries(extra.properties)) {
      if (name in properties) throw new Error(`Tool argument "${name}" clashes with a route field.`);
      properties[name] = property;
    }
    required.push(...(extra.required ?? []));
  }
  if (required.length > 0) schema.required = required;
  return { schema, parts };
}

/** Splits a tool's arguments into the route's path parameters, query and body. */
export function splitArguments(
  input: ToolInput,
  args: Record<string, unknown>,
): {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
} {
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  let body: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(args)) {
    const part = input.parts[name];
    if (part === 'params') params[name] = value;
    else if (part === 'query') query[name] = value;
    else if (part === 'body') {
      body ??= {};
      body[name] = value;
    }
  }
  return { params, query, body };
}

/** Fills `:name` segments of a route URL with the arguments, encoded. */
export function fillPath(url: string, params: Record<string, unknown>): string {
  return url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name}.`);
    return encodeURIComponent(String(value));
  });
}

/** Arguments of `generate_ai_insight` beyond the route's: how long to wait for the task. */
export const GenerateWait = plain(
  StrictObject({
    wait_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 60,
        description:
          'How long to wait for the generation to finish (default 30). 0 returns the queued task at once.',
      }),
    ),
  }),
) as unknown as JsonObjectSchema;

/** `crisis_gate`: a trend id or a free-text topic. */
export const CrisisGateInput = plain(
  StrictObject(
    {
      trend_id: Type.Optional(Type.Integer({ minimum: 1, description: 'A trend id (`GET /api/trends`).' })),
      topic: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'What you want to post about, as free text (e.g. a brand or a campaign name).',
        }),
      ),
    },
    { description: 'Give `trend_id` or `topic` (or both: the trend is checked under its own title).' },
  ),
) as unknown as JsonObjectSchema;
