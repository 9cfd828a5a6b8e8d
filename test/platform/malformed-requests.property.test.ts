// Property test: malformed requests to every route in the app's own OpenAPI document never produce a 5xx or a
// hang, and every 4xx is RFC 9457 problem+json ({type, title, status, detail, code, request_id}, status equal
// to the HTTP status, request_id equal to X-Request-Id). Routes are discovered at runtime from
// GET /api/openapi.json, so routes added later are covered without touching this file.
//
// Each generated request breaks one thing (body text, body types, missing or extra fields, huge strings,
// oversized bodies, Content-Type, auth headers, query string, path, method) and keeps the rest valid, so where
// the contract leaves no choice the exact status is asserted too (400, 401, 403, 405, 413, 415); an oracle built
// from the document's own schemas (Ajv, no coercion for bodies, string parsing for query and path) decides
// whether a mutated body, query or path value must be refused with 400.
//
// Seeds are fixed (one per route, derived from "METHOD /path", so adding a route does not reshuffle the
// requests sent to the others); a failure names the exact request (fast-check's counterexample, keys redacted)
// and the response. Requests never target the ids of the keys and users the test relies on, so a request that
// turns out valid cannot revoke, rotate, downgrade or disable them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Ajv, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import sjson from 'secure-json-parse';
import { buildTestApp, call, createUser, type TestContext } from '../helpers/app.ts';

const BASE_SEED = 20_261_121;
/** Requests spread over the routes of the document (each route gets at least MIN_RUNS_PER_ROUTE). */
const TOTAL_ROUTE_RUNS = 1500;
const MIN_RUNS_PER_ROUTE = 40;
const ODD_PATH_RUNS = 250;
const MIN_TOTAL_REQUESTS = 1000;
const REQUEST_TIMEOUT_MS = 10_000;
const MIB = 1024 * 1024;
/** Routes the contract gives a larger body limit than the default 1 MiB. */
const BODY_LIMITS: Record<string, number> = { 'POST /api/signals': 10 * MIB };

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const STANDARD_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const EXOTIC_METHODS = ['TRACE', 'PROPFIND', 'SEARCH', 'MKCOL', 'COPY', 'LOCK', 'PURGE', 'REPORT'];
const DOC_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

// ---------------------------------------------------------------- types

type JsonSchema = Record<string, unknown>;
type Headers = Record<string, string>;

interface OpenApiDoc {
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
}

interface Param {
  name: string;
  schema: JsonSchema;
  required: boolean;
  /** Whether the raw string value passes the parameter's schema (parsed from a string, as the server does). */
  accepts(value: string): boolean | undefined;
  /** Values that look valid (existing-looking ids, enum members, samples). */
  plausible: string[];
}

interface Field {
  path: string[];
  required: boolean;
  schema: JsonSchema;
}

interface BodyInfo {
  /** Media types the document lists for the request body. */
  mediaTypes: string[];
  acceptsJson: boolean;
  accepts?: (value: unknown) => boolean | undefined;
  sample: unknown;
  fields: Field[];
}

interface Route {
  key: string;
  method: string;
  template: string;
  isPublic: boolean;
  pathParams: Param[];
  queryParams: Param[];
  queryAccepts(query: Record<string, string>): boolean | undefined;
  body: BodyInfo | null;
  bodyLimit: number;
}

type AuthKind = 'operator' | 'developer' | 'anonymous' | 'invalid' | 'disabled' | 'ambiguous';

interface Auth {
  name: string;
  kind: AuthKind;
  headers: Headers;
}

interface Case {
  kind: string;
  route: string;
  method: string;
  url: string;
  headers: Headers;
  payload?: string | Buffer;
  auth: Auth;
  /** The statuses the contract allows for this request, when it leaves no choice. */
  expect?: number[];
}

class RawJson {
  constructor(readonly text: string) {}
}

// ---------------------------------------------------------------- shared state

let ctx: TestContext;
let doc: OpenApiDoc;
let routes: Route[] = [];
let templates: { regex: RegExp; methods: Set<string> }[] = [];
let secrets: [string, string][] = [];
let auths: {
  operator: Auth;
  operatorHeader: Auth;
  developer: Auth;
  anonymous: Auth;
  revokedKey: string;
  disabledKey: string;
};
let idPool: string[] = [];
const stats = {
  sent: 0,
  byStatus: new Map<number, number>(),
  byRoute: new Map<string, number>(),
  developer429: 0,
  developerSent: 0,
};

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;
const ajvOptions: Options = { allErrors: false, strict: false, useDefaults: true, removeAdditional: false };
const bodyAjv = addFormats(new Ajv({ ...ajvOptions, coerceTypes: false }));
const stringAjv = addFormats(new Ajv({ ...ajvOptions, coerceTypes: 'array' }));

// ---------------------------------------------------------------- schema helpers

function resolveRef(schema: unknown): JsonSchema {
  let current = (schema ?? {}) as JsonSchema;
  for (let i = 0; i < 20 && typeof current.$ref === 'string'; i++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#/')) break;
    let target: unknown = doc;
    for (const part of ref.slice(2).split('/')) {
      target = (target as Record<string, unknown> | undefined)?.[
        part.replaceAll('~1', '/').replaceAll('~0', '~')
      ];
    }
    current = (target ?? {}) as JsonSchema;
  }
  return current;
}

/**
 * Compiles `schema` with the document's components in reach of its `#/components/...` references. The
 * validator answers undefined when it cannot decide (a value nested too deeply for the stack).
 */
function compile(ajv: Ajv, schema: JsonSchema): (value: unknown) => boolean | undefined {
  const validate = ajv.compile({ ...schema, components: doc.components ?? {} });
  return (value) => {
    try {
      return validate(value) === true;
    } catch {
      return undefined;
    }
  };
}

function schemaType(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return (type.find((t) => t !== 'null') as string | undefined) ?? 'null';
  if (typeof type === 'string') return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function sampleString(schema: JsonSchema): string {
  const formats: Record<string, string> = {
    email: 'malformed-requests@example.com',
    'date-time': '2031-01-01T00:00:00Z',
    date: '2026-01-01',
    time: '10:00:00Z',
    uri: 'http://127.0.0.1:9/malformed-requests',
    url: 'http://127.0.0.1:9/malformed-requests',
    uuid: '00000000-0000-4000-8000-000000000000',
    hostname: 'example.com',
    ipv4: '127.0.0.1',
  };
  let value = formats[String(schema.format)] ?? 'sample';
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    const candidates = [value, '0'.repeat(32), 'a', 'abc', 'sample-value', '1', 'A1'];
    value = candidates.find((c) => pattern.test(c)) ?? value;
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  if (value.length < min) value = value.padEnd(min, 'x');
  if (value.length > max) value = value.slice(0, max);
  return value;
}

/** A value the schema (probably) accepts; optional properties included when `full`. */
function sample(schema0: unknown, full: boolean, depth = 0): unknown {
  const schema = resolveRef(schema0);
  if (depth > 6) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(variants) && variants.length > 0) {
    const pick = variants.find((v) => schemaType(resolveRef(v)) !== 'null') ?? variants[0];
    return sample(pick, full, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((s) => sample(s, full, depth + 1)));
  }
  switch (schemaType(schema)) {
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number': {
      let n = 1;
      if (typeof schema.minimum === 'number') n = Math.max(schema.minimum, 1);
      if (typeof schema.exclusiveMinimum === 'number') n = Math.max(n, schema.exclusiveMinimum + 1);
      if (typeof schema.maximum === 'number') n = Math.min(n, schema.maximum);
      return schemaType(schema) === 'integer' ? Math.ceil(n) : n;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const items = resolveRef(schema.items);
      const count = Math.min(
        Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, 1),
        typeof schema.maxItems === 'number' ? schema.maxItems : 1,
      );
      if (Array.isArray(items.enum)) return items.enum.slice(0, count);
      return Array.from({ length: count }, () => sample(items, full, depth + 1));
    }
    case 'object': {
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
        if (full || required.has(name)) out[name] = sample(prop, full, depth + 1);
      }
      return out;
    }
    default:
      return 'sample';
  }
}

/** The object properties a mutation can target, nested objects included. */
function collectFields(schema0: unknown, value: unknown, path: string[] = [], out: Field[] = []): Field[] {
  const schema = resolveRef(schema0);
  if (value === null || typeof value !== 'object' || Array.isArray(value) || path.length > 3) return out;
  const variants = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  const objectSchema = Array.isArray(variants)
    ? (variants.map(resolveRef).find((v) => schemaType(v) === 'object') ?? schema)
    : schema;
  const props = (objectSchema.properties ?? {}) as Record<string, unknown>;
  const required = new Set((objectSchema.required as string[] | undefined) ?? []);
  for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
    out.push({ path: [...path, name], required: required.has(name), schema: resolveRef(props[name]) });
    collectFields(props[name], child, [...path, name], out);
  }
  return out;
}

// ---------------------------------------------------------------- JSON helpers

/** JSON.stringify that also writes RawJson values verbatim (1e309, deep nesting, ...). */
function serialize(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `@@RAW${raws.length - 1}@@`;
    }
    return v;
  });
  return (text ?? 'null').replace(/"@@RAW(\d+)@@"/g, (_m, i: string) => raws[Number(i)]!);
}

function setAt(target: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const root = structuredClone(target) as Record<string, unknown>;
  let node = root;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[path[path.length - 1]!] = value;
  return root;
}

function getAt(target: unknown, path: string[]): unknown {
  let node = target;
  for (const part of path) node = (node as Record<string, unknown> | null)?.[part];
  return node;
}

/** Gives email-format fields a value unique to `n`, so a create is not refused as a duplicate first. */
function freshen(body: unknown, fields: Field[], n: number): unknown {
  let out = body;
  for (const field of fields) {
    if (field.schema.format === 'email') out = setAt(out, field.path, `malformed-${n}@example.com`);
  }
  return out;
}

function deleteAt(target: unknown, paths: string[][]): unknown {
  const root = structuredClone(target) as Record<string, unknown>;
  for (const path of paths) {
    let node: Record<string, unknown> | undefined = root;
    for (const part of path.slice(0, -1)) node = node?.[part] as Record<string, unknown> | undefined;
    if (node && typeof node === 'object') delete node[path[path.length - 1]!];
  }
  return root;
}

/** Adds an own enumerable property (even `__proto__`) to the object at `path`. */
function addField(target: unknown, path: string[], name: string, value: unknown): unknown {
  const root = structuredClone(target);
  let node = root as Record<string, unknown>;
  for (const part of path) node = node[part] as Record<string, unknown>;
  if (node === null || typeof node !== 'object') return root;
  Object.defineProperty(node, name, { value, enumerable: true, writable: true, configurable: true });
  return root;
}

type Parsed = { kind: 'empty' } | { kind: 'invalid' } | { kind: 'json'; value: unknown };

/** How the server reads a JSON body: blank is "no body", then secure JSON parsing. */
function parseLikeServer(payload: string | Buffer): Parsed {
  const text = typeof payload === 'string' ? payload : payload.toString('utf8');
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return {
      kind: 'json',
      value: sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }),
    };
  } catch {
    return { kind: 'invalid' };
  }
}

function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

// ---------------------------------------------------------------- routes from the OpenAPI document

function templateRegex(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

/** The methods the app serves on a concrete path, per the document (HEAD comes with GET). */
function methodsServing(path: string): Set<string> {
  const methods = new Set<string>();
  for (const t of templates) if (t.regex.test(path)) for (const m of t.methods) methods.add(m);
  if (methods.has('GET')) methods.add('HEAD');
  return methods;
}

function makeParam(raw: Record<string, unknown>, kind: 'path' | 'query'): Param {
  const schema = resolveRef(raw.schema ?? { type: 'string' });
  const name = String(raw.name);
  const check = compile(stringAjv, { type: 'object', properties: { v: schema }, required: ['v'] });
  const accepts = (value: string) => check({ v: value });
  const type = schemaType(schema);
  let plausible: string[];
  if (Array.isArray(schema.enum)) plausible = schema.enum.map(String);
  else if (type === 'integer' || type === 'number') plausible = kind === 'path' ? idPool : ['1', '5', '20'];
  else plausible = [String(sample(schema, false)), 'example', 'social_ads', 'task_0123456789abcdef', 'ai'];
  plausible = plausible.filter((v) => accepts(v) === true);
  if (plausible.length === 0) plausible = [String(sample(schema, false))];
  return { name, schema, required: raw.required === true || kind === 'path', accepts, plausible };
}

function buildRoutes(): Route[] {
  const out: Route[] = [];
  templates = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const methods = new Set<string>();
    for (const method of DOC_METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      methods.add(method.toUpperCase());
      // Upstream capabilities a self-hosted service lacks always answer 503 (test/modules/unavailable); their
      // methods still count for 405s.
      if (op['x-capability-unavailable'] === true) continue;
      const params = [
        ...((item.parameters as Record<string, unknown>[] | undefined) ?? []),
        ...((op.parameters as Record<string, unknown>[] | undefined) ?? []),
      ].map((p) => resolveRef(p));
      const pathParams = params.filter((p) => p.in === 'path').map((p) => makeParam(p, 'path'));
      const queryParams = params.filter((p) => p.in === 'query').map((p) => makeParam(p, 'query'));
      const queryCheck = compile(stringAjv, {
        type: 'object',
        properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
        required: queryParams.filter((p) => p.required).map((p) => p.name),
      });
      let body: BodyInfo | null = null;
      const requestBody = op.requestBody ? resolveRef(op.requestBody) : undefined;
      if (requestBody) {
        const content = (requestBody.content ?? {}) as Record<string, { schema?: unknown }>;
        const mediaTypes = Object.keys(content).map(mediaType);
        const jsonType = Object.keys(content).find((t) =>
          /^application\/([\w.+-]+\+)?json$/.test(mediaType(t)),
        );
        const schema = jsonType ? resolveRef(content[jsonType]?.schema) : undefined;
        let accepts: ((value: unknown) => boolean | undefined) | undefined;
        let bodySample: unknown = {};
        if (schema) {
          accepts = compile(bodyAjv, schema);
          bodySample = sample(schema, true);
          if (!accepts(bodySample) && accepts(sample(schema, false))) bodySample = sample(schema, false);
        }
        body = {
          mediaTypes,
          acceptsJson: jsonType !== undefined,
          accepts,
          sample: bodySample,
          fields: schema ? collectFields(schema, bodySample) : [],
        };
      }
      const key = `${method.toUpperCase()} ${template}`;
      out.push({
        key,
        method: method.toUpperCase(),
        template,
        isPublic: !(Array.isArray(op.security) && op.security.length > 0),
        pathParams,
        queryParams,
        queryAccepts: (query) => queryCheck(query),
        body,
        bodyLimit: BODY_LIMITS[key] ?? MIB,
      });
    }
    templates.push({ regex: templateRegex(template), methods });
  }
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

// ---------------------------------------------------------------- arbitraries

const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      '5',
      '1',
      '0',
      '-1',
      'true',
      'false',
      'null',
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\ud800',
      '\udfff\ud800',
      '😀'.repeat(8),
      '\u202eA',
      'x'.repeat(101),
      'x'.repeat(4097),
      '<script>alert(1)</script>',
      "' OR '1'='1",
      '../../etc/passwd',
      '2026-13-45T25:61:61Z',
      '2026-02-30',
      'not-an-email',
      'a@',
      'http://169.254.169.254/latest/meta-data/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'read,write',
      'ADMIN',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      0,
      -1,
      1,
      1.5,
      -0.5,
      1e308,
      -1e308,
      2 ** 53,
      2 ** 53 + 2,
      -(2 ** 53),
      2 ** 31,
      2 ** 32,
      Number.MIN_VALUE,
      true,
      false,
      null,
      [],
      {},
      [null],
      [1, 'a'],
      [[]],
      { a: { b: { c: {} } } },
      { $gt: '' },
      { '': '' },
      ['read', 'read'],
      ['admin'],
      ['read', 'write', 'ingest', 'admin', 'admin'],
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '1e309',
        '-1e309',
        '-0',
        '1e-400',
        '123456789012345678901234567890',
        '1.0',
        '1E2',
        '0.0000001',
      )
      .map((t) => new RawJson(t)),
  },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  {
    weight: 1,
    arbitrary: fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), {
      maxLength: 4,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.string({ maxLength: 6 }),
      fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.boolean()),
      {
        maxKeys: 3,
      },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Functions of the field's maxLength, so most of these pass the schema and reach storage. */
const hostileString: fc.Arbitrary<(max: number) => string> = fc.oneof(
  fc
    .constantFrom(
      '\u0000',
      'a\u0000b',
      '\u0000\u0000\u0000',
      '\ud800',
      'x\udc00y',
      '\ufeffname',
      '\u200b',
      '\u202eevil',
      '\u2028\u2029',
      ' ',
      '\t\r\n',
      "'; DROP TABLE users; --",
      '" OR ""="',
      '%00',
      '\\',
      '<img src=x onerror=alert(1)>',
      `\${7*7}{{7*7}}`,
      'NULL',
      'undefined',
      'ＡＢＣ',
      'e\u0301',
    )
    .map((s) => (max: number) => s.slice(0, Math.max(1, max))),
  fc
    .constantFrom('x', 'é', '😀', '𝕏', '\u0000')
    .map((unit) => (max: number) => unit.repeat(Math.max(1, Math.min(max, 10_000)))),
  fc
    .string({ unit: 'binary', minLength: 1, maxLength: 20 })
    .map((s) => (max: number) => s.slice(0, Math.max(1, max))),
);

const hugeString = fc
  .record({
    size: fc.integer({ min: 1_000, max: 200_000 }),
    unit: fc.constantFrom('x', 'é', '😀', '\u0000', ' ', '"', '\\', '\u2028', 'ab\ncd'),
  })
  .map(({ size, unit }) => unit.repeat(Math.max(1, Math.floor(size / unit.length))));

const deepNesting = fc
  .record({ depth: fc.integer({ min: 50, max: 60_000 }), open: fc.constantFrom('[', '{"a":') })
  .map(({ depth, open }) => new RawJson(open.repeat(depth) + (open === '[' ? ']' : '}').repeat(depth)));

const extraFieldName = fc.oneof(
  fc.constantFrom(
    'id',
    'user_id',
    'is_admin',
    'admin',
    'role',
    'plan',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    '',
    ' ',
    '\u0000',
    'NAME',
    'name ',
    '$where',
    'a.b',
    'permissions[]',
    '😀',
  ),
  fc.string({ maxLength: 20 }),
);

const NON_JSON_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/xml',
  'text/xml',
  'multipart/form-data; boundary=----crestwatch',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'text/html; charset=utf-8',
  'application/javascript',
  'image/png',
  'text/json',
  'application/yaml',
];
const ODD_JSON_TYPES = [
  'application/json; charset=',
  'application/json;',
  'application/json;;',
  'application/json; charset=utf-16',
  'application/json; charset="utf-8"',
  'application/json; charset=latin1; foo=bar',
  'APPLICATION/JSON',
  'Application/Json; Charset=UTF-8',
  ' application/json',
  'application/json ',
  'application/jsonx',
  'application/json5',
  'application/ld+json',
  'application/merge-patch+json',
  'application/problem+json',
  'application/vnd.api+json; ext=x',
  'application/',
  '/',
  ';',
  'json',
  '*/*',
  'application/*',
  'application/json, text/plain',
  'application/json\tcharset=utf-8',
  '',
];

const BAD_JSON_TEXTS = [
  '{',
  '}',
  '[',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  'nul',
  'tru',
  'undefined',
  'NaN',
  'Infinity',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":-Infinity}',
  '{"a":01}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":0x10}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"\t"}',
  '{"a":"\n"}',
  '{"a":"\u0000"}',
  '{a:1}',
  '{"a" 1}',
  '{"a":1 "b":2}',
  '{}{}',
  '{}garbage',
  '{"a":1}}',
  '<?xml version="1.0"?><a/>',
  'name=x&plan=developer',
  '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
  '\u0000',
  '\ufffe{}',
  '/* comment */ {}',
  '{"a":1} // comment',
  '{"__proto__":{"admin":true}}',
  '{"a":{"__proto__":{"admin":true}}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '"unterminated',
  `[${'{"a":1},'.repeat(1000)}`,
];

const IDEMPOTENCY_KEYS = ['malformed-1', 'malformed-2', '', ' ', 'k'.repeat(256), 'ключ', 'x'.repeat(255)];

/** Headers that must not change the outcome: request ids, idempotency keys, user agents, proxies. */
const noiseHeaders: fc.Arbitrary<Headers> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          '',
          ' ',
          'a b',
          'x'.repeat(129),
          'x'.repeat(5000),
          '../../etc',
          'req-ok_1:2.3',
          'ключ',
        ),
        fc.string({ maxLength: 40 }),
      )
      .map((id) => ({ 'x-request-id': id })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...IDEMPOTENCY_KEYS).map((k) => ({ 'idempotency-key': k })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Headers>(
      { 'user-agent': '' },
      { 'user-agent': 'x'.repeat(8000) },
      { 'x-forwarded-for': 'not-an-ip, 999.1.1.1' },
      { 'x-forwarded-proto': 'gopher' },
      { cookie: 'session=%%%' },
      { 'accept-language': 'xx;q=abc' },
    ),
  },
);

function goodAuth(): fc.Arbitrary<Auth> {
  return fc.oneof(
    { weight: 14, arbitrary: fc.constant(auths.operator) },
    { weight: 2, arbitrary: fc.constant(auths.operatorHeader) },
    { weight: 3, arbitrary: fc.constant(auths.developer) },
    { weight: 1, arbitrary: fc.constant(auths.anonymous) },
  );
}

function badAuth(): fc.Arbitrary<Auth> {
  const op = ctx.operatorKey;
  const invalid = (name: string, headers: Headers): Auth => ({ name, kind: 'invalid', headers });
  const swapCase = (s: string) =>
    [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  return fc.oneof(
    fc.constantFrom<Auth>(
      invalid('Basic x', { authorization: 'Basic x' }),
      invalid('Basic credentials', {
        authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`,
      }),
      invalid('Bearer without key', { authorization: 'Bearer' }),
      invalid('Bearer and a space', { authorization: 'Bearer ' }),
      invalid('empty Authorization', { authorization: '' }),
      invalid('Token scheme', { authorization: `Token ${op}` }),
      invalid('key plus junk', { authorization: `Bearer ${op} junk` }),
      invalid('Bearer twice', { authorization: `Bearer Bearer ${op}` }),
      invalid('key without scheme', { authorization: op }),
      invalid('revoked key', { authorization: `Bearer ${auths.revokedKey}` }),
      invalid('truncated key', { authorization: `Bearer ${op.slice(0, -1)}` }),
      invalid('key with swapped case', { authorization: `Bearer ${swapCase(op)}` }),
      invalid('X-API-Key of spaces', { 'x-api-key': '   ' }),
      invalid('X-API-Key with an inner space', { 'x-api-key': `${op.slice(0, 10)} ${op.slice(10)}` }),
      invalid('X-API-Key unicode', { 'x-api-key': 'cw_ключ🔑' }),
      invalid('X-API-Key mojibake', { 'x-api-key': Buffer.from('cw_ключ🔑').toString('latin1') }),
      invalid('empty X-API-Key', { 'x-api-key': '' }),
      invalid('no key', {}),
      {
        name: 'disabled account key',
        kind: 'disabled',
        headers: { authorization: `Bearer ${auths.disabledKey}` },
      },
      {
        name: 'Basic + valid X-API-Key',
        kind: 'ambiguous',
        headers: { authorization: 'Basic x', 'x-api-key': op },
      },
      {
        name: 'valid Bearer + junk X-API-Key',
        kind: 'ambiguous',
        headers: { authorization: `Bearer ${op}`, 'x-api-key': 'junk' },
      },
    ),
    fc.string({ maxLength: 120 }).map((s) => invalid('Bearer garbage', { authorization: `Bearer ${s}` })),
    fc
      .stringMatching(/^[A-Za-z0-9]{40}$/)
      .map((s) => invalid('unknown well-formed key', { authorization: `Bearer cw_${s}` })),
    fc
      .integer({ min: 201, max: 16_000 })
      .map((n) =>
        invalid(`overlong Bearer key (${n + 3} chars)`, { authorization: `Bearer cw_${'A'.repeat(n)}` }),
      ),
    fc
      .integer({ min: 201, max: 16_000 })
      .map((n) => invalid(`overlong X-API-Key (${n + 3} chars)`, { 'x-api-key': `cw_${'b'.repeat(n)}` })),
    fc
      .string({ unit: 'grapheme', maxLength: 60 })
      .map((s) => invalid('X-API-Key unicode garbage', { 'x-api-key': s })),
  );
}

/** Path values that are not plausible ids/names: `clean` ones are sent URL-encoded, the others verbatim. */
const oddPathValue = fc.oneof(
  fc
    .constantFrom(
      '0',
      '-1',
      'abc',
      '1.5',
      '1e3',
      '1e309',
      '0x10',
      ' 1',
      '1 ',
      '+1',
      '99999999999999999999',
      '9007199254740992',
      '-0',
      'null',
      'true',
      '[]',
      '{}',
      '😀',
      "1' OR '1'='1",
      '\u0000',
      'a/b',
      '%00',
      '١٢',
      '...',
      'x'.repeat(300),
    )
    .map((value) => ({ value, clean: true })),
  fc.string({ minLength: 1, maxLength: 30 }).map((value) => ({ value, clean: true })),
  fc
    .constantFrom('%E0%A4%A', '%', '%%', '%zz', '..', '.', '%2e%2e', '%2F', '%00', '1%00', '%u0041', '%C0%AE')
    .map((value) => ({ value, clean: false })),
  fc.integer({ min: 501, max: 5_000 }).map((n) => ({ value: '7'.repeat(n), clean: false })),
);

const JUNK_QUERIES = [
  'limit=-1',
  'limit=abc',
  'offset=1e309',
  'limit=1&limit=2',
  'limit=1&limit=1',
  'offset=-0',
  'limit=1;offset=2',
  'limit=%31',
  'limit=1%00',
  'limit[]=1',
  'limit[a]=1',
  'foo=bar',
  'unknown=1&another=2',
  '__proto__=1',
  '__proto__[admin]=1',
  'constructor[prototype][admin]=1',
  'hasOwnProperty=1',
  'toString=x',
  '%E0%A4%A',
  'a=%E0%A4%A',
  '%E0%A4%A=1',
  '%',
  '=',
  '=&=&',
  '&&&',
  '?',
  '??limit=1',
  'limit',
  'limit=',
  '=1',
  '+=+',
  'limit=%2B1',
  'a=%00',
  'search=%00',
  'search=%27%20OR%201%3D1--',
  'order=sideways&sort_by=nothing',
  'period=99y',
  'start_date=2026-02-30&end_date=2025-01-01',
  'limit=١',
];

function routeCase(route: Route): fc.Arbitrary<Case> {
  const hasBody = WITH_BODY.has(route.method);
  const jsonBody = route.body === null || route.body.acceptsJson;
  const sampleText = route.body?.acceptsJson ? serialize(route.body.sample) : undefined;
  const fields = route.body?.fields ?? [];
  const requiredFields = fields.filter((f) => f.required && f.path.length === 1);
  const objectPaths = [[], ...fields.map((f) => f.path)].filter((p) => {
    let node: unknown = route.body?.sample;
    for (const part of p) node = (node as Record<string, unknown>)[part];
    return node !== null && typeof node === 'object' && !Array.isArray(node);
  });

  // Every part of a request, valid by default; each kind below breaks one of them.
  const pathValues = fc.record(
    Object.fromEntries(
      route.pathParams.map((p) => [p.name, fc.constantFrom(...p.plausible).map(encodeURIComponent)]),
    ) as Record<string, fc.Arbitrary<string>>,
  );
  const baseQuery = Object.fromEntries(
    route.queryParams.filter((p) => p.required).map((p) => [p.name, p.plausible[0]!]),
  );
  const defaultBody =
    hasBody && sampleText !== undefined
      ? { payload: sampleText, contentType: 'application/json' }
      : undefined;
  const authOk = (auth: Auth) => route.isPublic || auth.kind === 'operator';

  const assemble = (
    kind: string,
    parts: {
      auth: Auth;
      path: Record<string, string>;
      query?: Record<string, string> | string;
      method?: string;
      payload?: string | Buffer;
      contentType?: string | null;
      headers?: Headers;
      noise: Headers;
      expect?: number[];
    },
  ): Case => {
    const path = route.template.replace(/\{([^}]+)\}/g, (_m, name: string) => parts.path[name] ?? 'x');
    const query =
      typeof parts.query === 'string'
        ? parts.query
        : Object.entries(parts.query ?? baseQuery)
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
            .join('&');
    const headers: Headers = { ...parts.noise, ...parts.auth.headers, ...parts.headers };
    if (parts.contentType !== undefined && parts.contentType !== null)
      headers['content-type'] = parts.contentType;
    return {
      kind,
      route: route.key,
      method: parts.method ?? route.method,
      url: query ? `${path}?${query}` : path,
      headers,
      payload: parts.payload,
      auth: parts.auth,
      expect: parts.expect,
    };
  };

  /** What a JSON body with otherwise valid parts must get: 413, 400, or (valid) anything. */
  const bodyExpectation = (auth: Auth, payload: string | Buffer): number[] | undefined => {
    if (!authOk(auth)) return undefined;
    if (Buffer.byteLength(payload) > route.bodyLimit) return [413];
    if (!jsonBody) return undefined;
    const parsed = parseLikeServer(payload);
    if (parsed.kind === 'invalid') return [400];
    if (parsed.kind === 'json' && route.body?.accepts?.(parsed.value) === false) return [400];
    return undefined;
  };

  const jsonCase = (kind: string, payloadArb: fc.Arbitrary<string | Buffer>) =>
    fc
      .record({
        auth: goodAuth(),
        path: pathValues,
        payload: payloadArb,
        charset: fc.boolean(),
        noise: noiseHeaders,
      })
      .map(({ auth, path, payload, charset, noise }) =>
        assemble(kind, {
          auth,
          path,
          payload,
          contentType: charset ? 'application/json; charset=utf-8' : 'application/json',
          noise,
          expect: bodyExpectation(auth, payload),
        }),
      );

  const kinds: { weight: number; arbitrary: fc.Arbitrary<Case> }[] = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<Case>) => kinds.push({ weight, arbitrary });

  if (hasBody) {
    // Text that is not JSON (or JSON the parser refuses).
    const truncated =
      sampleText && sampleText.length > 1
        ? fc.nat().map((n) => sampleText.slice(0, 1 + (n % (sampleText.length - 1))))
        : fc.constant('{');
    add(
      6,
      jsonCase(
        'invalid JSON text',
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...BAD_JSON_TEXTS) },
          { weight: 2, arbitrary: truncated },
          { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }) },
          {
            weight: 1,
            arbitrary: fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
          },
          {
            weight: 1,
            arbitrary: fc
              .uint8Array({ minLength: 1, maxLength: 8 })
              .map((bytes) =>
                Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')]),
              ),
          },
        ),
      ),
    );
    // Valid JSON of the wrong shape at the root.
    add(
      4,
      jsonCase(
        'wrong JSON type at the root',
        fc
          .oneof(
            fc.constantFrom<unknown>(
              [],
              5,
              'str',
              null,
              true,
              false,
              0,
              -1,
              '5',
              [route.body?.sample ?? {}],
              [[]],
            ),
            weirdValue,
          )
          .map(serialize),
      ),
    );
    if (fields.length > 0 && route.body?.sample !== undefined) {
      const bodySample = route.body.sample;
      add(
        8,
        jsonCase(
          'wrong type in a field',
          fc
            .record({ field: fc.constantFrom(...fields), value: weirdValue })
            .map(({ field, value }) => serialize(setAt(bodySample, field.path, value))),
        ),
      );
      // Strings the schema may well accept but storage or rendering might not: NUL, lone surrogates,
      // maximum length in multi-byte characters, invisible and bidi characters, injection attempts.
      const stringFields = fields.filter(
        (f) =>
          typeof getAt(bodySample, f.path) === 'string' &&
          !['enum', 'const', 'format', 'pattern'].some((keyword) => keyword in f.schema),
      );
      if (stringFields.length > 0) {
        add(
          6,
          jsonCase(
            'hostile string in a field',
            fc
              .record({ field: fc.constantFrom(...stringFields), value: hostileString, n: fc.nat() })
              .map(({ field, value, n }) => {
                const max = typeof field.schema.maxLength === 'number' ? field.schema.maxLength : 100;
                // Fresh values for fields that must be unique (emails), so the write is really attempted.
                const fresh = freshen(bodySample, fields, n);
                return serialize(setAt(fresh, field.path, value(max)));
              }),
          ),
        );
      }
      add(
        3,
        jsonCase(
          'huge string in a field',
          fc
            .record({ field: fc.constantFrom(...fields), value: hugeString })
            .map(({ field, value }) => serialize(setAt(bodySample, field.path, value))),
        ),
      );
      add(
        2,
        jsonCase(
          'deep nesting in a field',
          fc
            .record({ field: fc.constantFrom(...fields), value: deepNesting })
            .map(({ field, value }) => serialize(setAt(bodySample, field.path, value))),
        ),
      );
      add(
        4,
        jsonCase(
          'missing fields',
          fc.subarray(requiredFields.length > 0 ? requiredFields : fields, { minLength: 1 }).map((missing) =>
            serialize(
              deleteAt(
                bodySample,
                missing.map((f) => f.path),
              ),
            ),
          ),
        ),
      );
      add(
        1,
        jsonCase(
          'duplicate key',
          fc
            .record({
              field: fc.constantFrom(...fields.filter((f) => f.path.length === 1)),
              value: weirdValue,
            })
            .map(({ field, value }) =>
              // The duplicate comes first, so JSON.parse keeps the valid value: the body is valid.
              (sampleText ?? '{}').replace(/^\{/, `{${JSON.stringify(field.path[0])}:${serialize(value)},`),
            ),
        ),
      );
    } else {
      add(2, jsonCase('deep nesting at the root', deepNesting.map(serialize)));
      add(
        2,
        jsonCase(
          'huge string at the root',
          hugeString.map((s) => serialize({ value: s })),
        ),
      );
    }
    if (objectPaths.length > 0) {
      const bodySample = route.body?.sample ?? {};
      add(
        5,
        jsonCase(
          'unknown extra field',
          fc
            .record({ at: fc.constantFrom(...objectPaths), name: extraFieldName, value: weirdValue })
            .map(({ at, name, value }) => serialize(addField(bodySample, at, name, value))),
        ),
      );
    }
    // Bodies around and over the limit: 413 when over, whatever the content.
    add(
      3,
      jsonCase(
        'body over the size limit',
        fc
          .record({ extra: fc.integer({ min: -64, max: 65_536 }), unit: fc.constantFrom('x', 'é') })
          .map(({ extra, unit }) => {
            const filler = unit.repeat(
              Math.max(0, Math.floor((route.bodyLimit + extra - 12) / Buffer.byteLength(unit))),
            );
            return `{"padding":"${filler}"}`;
          }),
      ),
    );
    // The valid body under a Content-Type that is not JSON (415), odd but JSON-ish, or missing.
    add(
      5,
      fc
        .record({
          auth: goodAuth(),
          path: pathValues,
          contentType: fc.oneof(
            fc.constantFrom(...NON_JSON_TYPES),
            fc.constantFrom(...ODD_JSON_TYPES),
            fc.constant(null),
            fc.string({ maxLength: 40 }),
          ),
          payload: fc.oneof(fc.constant(sampleText ?? '{}'), fc.constant('a=1&b=2'), fc.constant('<a/>')),
          noise: noiseHeaders,
        })
        .map(({ auth, path, contentType, payload, noise }) => {
          let expect: number[] | undefined;
          const listed = (route.body?.mediaTypes ?? []).includes(mediaType(contentType ?? ''));
          if (authOk(auth) && !listed && (contentType === null || NON_JSON_TYPES.includes(contentType))) {
            expect = [415];
          }
          return assemble('non-JSON or odd Content-Type', {
            auth,
            path,
            payload,
            contentType,
            noise,
            expect,
          });
        }),
    );
    // A Content-Length that does not match the body.
    add(
      1,
      fc
        .record({
          auth: goodAuth(),
          path: pathValues,
          length: fc.oneof(
            fc.integer({ min: -3, max: 3 }).map((d) => String(Buffer.byteLength(sampleText ?? '{}') + d)),
            fc.constantFrom('abc', '-1', '1.5', '', '0', '99999999999999999999', '2, 3'),
          ),
          noise: noiseHeaders,
        })
        .map(({ auth, path, length, noise }) =>
          assemble('mismatched Content-Length', {
            auth,
            path,
            payload: sampleText ?? '{}',
            contentType: 'application/json',
            headers: { 'content-length': length },
            noise,
          }),
        ),
    );
  } else {
    // Bodies on bodyless methods are ignored; they must not break anything either.
    add(
      2,
      fc
        .record({
          auth: goodAuth(),
          path: pathValues,
          payload: fc.oneof(
            fc.constantFrom(...BAD_JSON_TEXTS),
            fc.integer({ min: MIB, max: MIB + 1024 }).map((n) => 'x'.repeat(n)),
          ),
          contentType: fc.constantFrom('application/json', 'text/plain', 'application/json; charset='),
          noise: noiseHeaders,
        })
        .map((p) => assemble(`body on ${route.method}`, p)),
    );
  }

  // Bad credentials on otherwise valid requests: 401 (403 for a disabled account) on non-public routes.
  add(
    5,
    fc.record({ auth: badAuth(), path: pathValues, noise: noiseHeaders }).map(({ auth, path, noise }) => {
      let expect: number[] | undefined;
      if (!route.isPublic && auth.kind === 'invalid') expect = [401];
      if (!route.isPublic && auth.kind === 'disabled') expect = [403];
      return assemble(`bad credentials: ${auth.name}`, {
        auth,
        path,
        payload: defaultBody?.payload,
        contentType: defaultBody?.contentType,
        noise,
        expect,
      });
    }),
  );

  // Query strings: an invalid value for a known parameter (400 when the schema refuses it), or junk.
  if (route.queryParams.length > 0) {
    add(
      5,
      fc
        .record({
          auth: goodAuth(),
          path: pathValues,
          param: fc.constantFrom(...route.queryParams),
          value: fc.oneof(
            fc.constantFrom(
              '-1',
              '0',
              'abc',
              '1.5',
              '1e309',
              '-1e309',
              '',
              '  5',
              '0x10',
              'NaN',
              'Infinity',
              'null',
              'true',
              '9'.repeat(25),
              '101',
              '1e3',
              '+1',
              '\u0000',
              '😀',
              'a'.repeat(1000),
              '2026-02-30',
              '2026-13-01',
              '2026-01-01T00:00:00',
              '1h',
              '24h',
              '99y',
              'bogus',
              'DESC',
              ' ',
              "' OR 1=1--",
            ),
            fc.string({ maxLength: 30 }),
          ),
          noise: noiseHeaders,
        })
        .map(({ auth, path, param, value, noise }) => {
          const query = { ...baseQuery, [param.name]: value };
          const expect = authOk(auth) && route.queryAccepts(query) === false ? [400] : undefined;
          return assemble(`invalid query value for ${param.name}`, {
            auth,
            path,
            query,
            payload: defaultBody?.payload,
            contentType: defaultBody?.contentType,
            noise,
            expect,
          });
        }),
    );
  }
  add(
    3,
    fc
      .record({
        auth: goodAuth(),
        path: pathValues,
        query: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...JUNK_QUERIES) },
          { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 60_000 }).map((n) => `${'q'.repeat(n)}=1`) },
          { weight: 1, arbitrary: fc.integer({ min: 100, max: 5_000 }).map((n) => 'x=1&'.repeat(n)) },
          {
            weight: 2,
            arbitrary: fc
              .array(fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })), { maxLength: 4 })
              .map((pairs) =>
                pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'),
              ),
          },
        ),
        noise: noiseHeaders,
      })
      .map(({ auth, path, query, noise }) =>
        assemble('junk query string', {
          auth,
          path,
          query: [Object.entries(baseQuery).map(([k, v]) => `${k}=${encodeURIComponent(v)}`), query]
            .flat()
            .filter(Boolean)
            .join('&'),
          payload: defaultBody?.payload,
          contentType: defaultBody?.contentType,
          noise,
        }),
      ),
  );

  // Path parameters: implausible ids (400 when the schema refuses the clean value), broken encodings, overlong.
  if (route.pathParams.length > 0) {
    add(
      5,
      fc
        .record({
          auth: goodAuth(),
          path: pathValues,
          param: fc.constantFrom(...route.pathParams),
          odd: oddPathValue,
          noise: noiseHeaders,
        })
        .map(({ auth, path, param, odd, noise }) => {
          const encoded = odd.clean ? encodeURIComponent(odd.value) : odd.value;
          let expect: number[] | undefined;
          if (authOk(auth) && odd.clean && encoded.length <= 400 && param.accepts(odd.value) === false) {
            expect = [400];
          }
          return assemble(`odd path value for ${param.name}`, {
            auth,
            path: { ...path, [param.name]: encoded },
            payload: defaultBody?.payload,
            contentType: defaultBody?.contentType,
            noise,
            expect,
          });
        }),
    );
  }

  // Wrong methods on the route's own (valid) path: 405 for the standard ones.
  add(
    3,
    fc
      .record({
        auth: goodAuth(),
        path: pathValues,
        method: fc.constantFrom(...STANDARD_METHODS, 'HEAD', ...EXOTIC_METHODS),
        withBody: fc.boolean(),
        noise: noiseHeaders,
      })
      .filter(({ path, method }) => {
        const concrete = route.template.replace(/\{([^}]+)\}/g, (_m, name: string) =>
          decodeURIComponent(path[name] ?? 'x'),
        );
        return !methodsServing(concrete).has(method);
      })
      .map(({ auth, path, method, withBody, noise }) =>
        assemble(`wrong method ${method}`, {
          auth,
          path,
          method,
          payload: withBody && method !== 'HEAD' ? (sampleText ?? '{}') : undefined,
          contentType: withBody && method !== 'HEAD' ? 'application/json' : undefined,
          noise,
          expect: STANDARD_METHODS.includes(method) || method === 'HEAD' ? [405] : undefined,
        }),
      ),
  );

  return fc.oneof(...kinds).map((c) => withToString(c));
}

/** Paths no route template produces cleanly: traversal, doubled slashes, encodings, unicode, length. */
function oddPathCase(): fc.Arbitrary<Case> {
  const templatesList = routes.map((r) => r.template);
  const fixed = [
    '/api/user/api-keys/../../x',
    '//api//plans',
    '/api//plans',
    '/api/plans/',
    '/API/PLANS',
    '/api/plans%2F',
    '/api/%2e%2e/api/plans',
    '/api/plans;jsessionid=1',
    '/api/plans/..',
    '/api/plans/.',
    '/api/user/api-keys/99999999999999999999',
    '/api/user/api-keys/1e3',
    '/api/user/api-keys/-1/rotate',
    '/api/admin/users/0x10',
    '/api/%E0%A4%A',
    '/%',
    '/%%',
    '/api/ünïcödé',
    '/api/🦄',
    '/api/%F0%9F%A6%84',
    '/api/user/api-keys/%00',
    '/api/user/api-keys/%2e%2e%2f',
    '/api/plans?%',
    '/api/plans?a=%E0%A4%A',
    '/api/plans#fragment',
    '/*',
    '/api/*',
    '/status/../api/plans',
    '/.env',
    '/api/openapi.json/..',
    '/docs/../../etc/passwd',
    '/api',
    '/api/',
    '/',
    '/metrics/',
    '/status//history',
    '/api/user/profile/',
    '/api/user/api-keys/1/rotate/',
    '/api/user/api-keys/ 1',
    '/api/user/api-keys/1%20',
    '/api/user/api-keys/%2F1',
    '/ws/trends-live',
    '/api/user/api-keys/1/rotate/extra/segments',
  ];
  const generated = fc
    .record({
      template: fc.constantFrom(...templatesList),
      filler: fc.oneof(
        fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).map(encodeURIComponent),
        fc.constantFrom('..', '.', '%2e%2e', '%E0%A4%A', '%00', '%2F', '~', '*', ':id', '{id}'),
      ),
      shape: fc.constantFrom('param', 'suffix', 'double-slash', 'upper', 'trailing-slash', 'prefix'),
    })
    .map(({ template, filler, shape }) => {
      const path = template.replace(/\{[^}]+\}/g, filler);
      switch (shape) {
        case 'suffix':
          return `${path}/${filler}`;
        case 'double-slash':
          return path.replaceAll('/', '//');
        case 'upper':
          return path.toUpperCase();
        case 'trailing-slash':
          return `${path}/`;
        case 'prefix':
          return `/${filler}${path}`;
        default:
          return path;
      }
    });
  const long = fc
    .record({
      n: fc.integer({ min: 1_000, max: 100_000 }),
      unit: fc.constantFrom('a', 'a/', '%41', 'é', '../'),
    })
    .map(({ n, unit }) => `/api/${unit.repeat(Math.ceil(n / unit.length))}`);
  return fc
    .record({
      path: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...fixed) },
        { weight: 4, arbitrary: generated },
        { weight: 1, arbitrary: long },
      ),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'),
      auth: fc.oneof(goodAuth(), badAuth()),
      payload: fc.option(fc.constantFrom('{}', '{', '{"name":"x"}', 'x=1'), { nil: undefined }),
      noise: noiseHeaders,
    })
    .map(({ path, method, auth, payload, noise }) => {
      const headers: Headers = { ...noise, ...auth.headers };
      const send = payload !== undefined && method !== 'HEAD' && method !== 'GET';
      if (send) headers['content-type'] = 'application/json';
      return withToString({
        kind: 'odd path',
        route: '(odd paths)',
        method,
        url: path,
        headers,
        payload: send ? payload : undefined,
        auth,
      });
    });
}

// ---------------------------------------------------------------- sending and checking

function redact(text: string): string {
  let out = text;
  for (const [secret, label] of secrets) out = out.split(secret).join(label);
  return out;
}

function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

function describe(c: Case): string {
  const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, clip(v, 120)]));
  const payload =
    c.payload === undefined
      ? 'no body'
      : Buffer.isBuffer(c.payload)
        ? `body (${c.payload.length} bytes, hex) ${clip(c.payload.toString('hex'), 200)}`
        : `body (${Buffer.byteLength(c.payload)} bytes) ${clip(JSON.stringify(c.payload), 300)}`;
  return redact(
    `[${c.kind}] ${c.method} ${clip(c.url, 300)} auth=${c.auth.name} headers=${JSON.stringify(headers)} ${payload}` +
      (c.expect ? ` expecting ${c.expect.join('/')}` : ''),
  );
}

function withToString(c: Case): Case {
  return Object.defineProperty(c, fc.toStringMethod, { value: () => describe(c), enumerable: false });
}

async function send(c: Case): Promise<LightMyRequestResponse> {
  const options: InjectOptions = {
    method: c.method as InjectOptions['method'],
    url: c.url,
    headers: c.headers,
    ...(c.payload !== undefined ? { payload: c.payload } : {}),
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      ctx.app.inject(options),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no response within ${REQUEST_TIMEOUT_MS} ms (hang): ${describe(c)}`)),
          REQUEST_TIMEOUT_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Everything wrong with the response, or an empty list. */
function problemsWith(c: Case, res: LightMyRequestResponse): string[] {
  const found: string[] = [];
  const status = res.statusCode;
  const header = (name: string) => {
    const value = res.headers[name];
    return Array.isArray(value) ? value.join(', ') : value === undefined ? undefined : String(value);
  };
  if (status >= 500) found.push(`server error ${status}`);
  const requestId = header('x-request-id');
  if (!requestId) found.push('no X-Request-Id header');
  if (status >= 400 && status < 500) {
    const type = header('content-type') ?? '';
    if (!type.startsWith('application/problem+json'))
      found.push(`Content-Type is "${type}", not problem+json`);
    if (c.method !== 'HEAD') {
      let body: Record<string, unknown> | null = null;
      try {
        const parsed = JSON.parse(res.body) as unknown;
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
          body = parsed as Record<string, unknown>;
        }
      } catch {
        // reported below
      }
      if (!body) found.push('body is not a JSON object');
      else {
        const missing = ['type', 'title', 'detail', 'code', 'request_id'].filter(
          (field) => typeof body[field] !== 'string' || (body[field] as string).length === 0,
        );
        if (missing.length > 0) found.push(`problem lacks ${missing.join(', ')}`);
        if (body.status !== status) found.push(`problem.status ${String(body.status)} != HTTP ${status}`);
        if (requestId && body.request_id !== undefined && body.request_id !== requestId) {
          found.push('problem.request_id != X-Request-Id');
        }
      }
    }
    if (status === 405 && !header('allow')) found.push('405 without an Allow header');
    if (status === 429 && !header('retry-after')) found.push('429 without Retry-After');
  }
  if (c.expect && !c.expect.includes(status)) found.push(`expected ${c.expect.join(' or ')}, got ${status}`);
  return found;
}

async function check(c: Case): Promise<void> {
  const res = await send(c);
  stats.sent++;
  stats.byStatus.set(res.statusCode, (stats.byStatus.get(res.statusCode) ?? 0) + 1);
  stats.byRoute.set(c.route, (stats.byRoute.get(c.route) ?? 0) + 1);
  if (c.auth.kind === 'developer' && !routes.find((r) => r.key === c.route)?.isPublic) {
    stats.developerSent++;
    if (res.statusCode === 429) stats.developer429++;
  }
  const found = problemsWith(c, res);
  if (found.length > 0) {
    const contentType = String(res.headers['content-type'] ?? '');
    // fast-check prints the request (the counterexample) right above this message.
    throw new Error(
      `${found.join('; ')}\n  response: ${res.statusCode} ${contentType} ${redact(clip(res.body, 500))}`,
    );
  }
}

function seedFor(name: string): number {
  let hash = 0x811c9dc5;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return (hash ^ BASE_SEED) | 0;
}

// ---------------------------------------------------------------- the test

before(async () => {
  // OAuth apps configured (pointing nowhere) so `auth` routes answer, rather than 503 integration_not_configured.
  const oauthApp = (prefix: string, id: string, secret: string) => ({
    [`${prefix}_${id}`]: `${prefix.toLowerCase()}-client`,
    [`${prefix}_${secret}`]: `${prefix.toLowerCase()}-secret`,
    [`${prefix}_AUTH_BASE_URL`]: 'http://127.0.0.1:9',
    [`${prefix}_API_BASE_URL`]: 'http://127.0.0.1:9',
  });
  ctx = await buildTestApp({
    env: {
      ...oauthApp('CHAT', 'CLIENT_ID', 'CLIENT_SECRET'),
      ...oauthApp('FORUM_ADS', 'CLIENT_ID', 'CLIENT_SECRET'),
      ...oauthApp('SOCIAL_ADS', 'APP_ID', 'APP_SECRET'),
    },
  });
  const openapi = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
  assert.equal(openapi.statusCode, 200, openapi.body);
  doc = JSON.parse(openapi.body) as OpenApiDoc;

  const op = ctx.operatorKey;
  const profile = await call(ctx.app, 'GET', '/api/user/profile', { key: op });
  const keys = await call(ctx.app, 'GET', '/api/user/api-keys', { key: op });
  const opKeyId = (keys.data.keys as { id: number; prefix: string | null }[]).find(
    (k) => k.prefix === op.slice(0, 11),
  )?.id;
  const developer = await createUser(ctx, 'developer');
  const victim = await createUser(ctx, 'developer');
  const disabled = await createUser(ctx, 'developer');
  const disable = await call(ctx.app, 'PATCH', `/api/admin/users/${disabled.userId}`, {
    key: op,
    body: { is_active: false },
  });
  assert.equal(disable.statusCode, 200, disable.body);
  const revoked = await call(ctx.app, 'POST', '/api/user/api-keys', { key: op, body: { name: 'revoked' } });
  assert.equal(revoked.statusCode, 201, revoked.body);
  const revoke = await call(ctx.app, 'DELETE', `/api/user/api-keys/${revoked.data.id}`, { key: op });
  assert.equal(revoke.statusCode, 204, revoke.body);

  // Ids the generated requests may use: never the ones the test itself relies on (a valid PATCH or rotate
  // on them would disable or downgrade the operator, or re-enable the disabled account).
  const protectedIds = new Set(
    [
      profile.data.id,
      opKeyId,
      developer.userId,
      developer.keyId,
      disabled.userId,
      disabled.keyId,
      revoked.data.id,
    ].map(String),
  );
  // The victim's ids come up often so that requests reach existing rows, not only 404s.
  idPool = [
    ...Array.from({ length: 10 }, () => [String(victim.userId), String(victim.keyId)]).flat(),
    ...Array.from({ length: 30 }, (_, i) => String(i + 1)),
    '999999',
    '2147483647',
    '9007199254740991',
  ].filter((id) => !protectedIds.has(id));

  auths = {
    operator: { name: 'operator (Bearer)', kind: 'operator', headers: { authorization: `Bearer ${op}` } },
    operatorHeader: { name: 'operator (X-API-Key)', kind: 'operator', headers: { 'x-api-key': op } },
    developer: {
      name: 'developer plan (Bearer)',
      kind: 'developer',
      headers: { authorization: `Bearer ${developer.key}` },
    },
    anonymous: { name: 'no key', kind: 'anonymous', headers: {} },
    revokedKey: revoked.data.api_key as string,
    disabledKey: disabled.key,
  };
  secrets = [
    [op, '<operator-key>'],
    [developer.key, '<developer-key>'],
    [auths.revokedKey, '<revoked-key>'],
    [disabled.key, '<disabled-account-key>'],
  ];
  routes = buildRoutes();
});

after(async () => {
  await ctx?.close();
});

test('malformed requests to every documented route: no 5xx, every 4xx is problem+json', async (t) => {
  assert.ok(routes.length > 0, 'the OpenAPI document lists no routes');
  const runsPerRoute = Math.max(MIN_RUNS_PER_ROUTE, Math.ceil(TOTAL_ROUTE_RUNS / routes.length));

  for (const route of routes) {
    await t.test(route.key, async () => {
      await fc.assert(fc.asyncProperty(routeCase(route), check), {
        seed: seedFor(route.key),
        numRuns: runsPerRoute,
        endOnFailure: true,
        includeErrorInReport: true,
      });
    });
  }

  await t.test('odd paths and methods', async () => {
    await fc.assert(fc.asyncProperty(oddPathCase(), check), {
      seed: seedFor('odd paths'),
      numRuns: ODD_PATH_RUNS,
      endOnFailure: true,
      includeErrorInReport: true,
    });
  });

  const histogram = [...stats.byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
  t.diagnostic(`${stats.sent} requests over ${routes.length} routes; statuses: ${histogram}`);
  t.diagnostic(
    `developer key: ${stats.developerSent} requests to keyed routes, ${stats.developer429} answered 429`,
  );

  assert.ok(stats.sent >= MIN_TOTAL_REQUESTS, `only ${stats.sent} requests were sent`);
  for (const route of routes) assert.ok(stats.byRoute.get(route.key), `${route.key} was never exercised`);
  // The developer key spends its daily quota of 100 early on; after that it must get 429s, not errors.
  if (stats.developerSent > 120) assert.ok(stats.developer429 > 0, 'the developer key never got a 429');

  // The run did not damage the keys it relies on, and the app still answers normally.
  const profile = await call(ctx.app, 'GET', '/api/user/profile', { key: ctx.operatorKey });
  assert.equal(profile.statusCode, 200, profile.body);
  const plans = await call(ctx.app, 'GET', '/api/plans');
  assert.equal(plans.statusCode, 200, plans.body);
});
