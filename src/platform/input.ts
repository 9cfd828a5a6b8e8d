// What reaches a handler: JSON bodies only (anything else is a 415), NUL refused in bodies, queries and paths
// (PostgreSQL cannot store it, and no field has a use for it), an omitted optional body seen as `{}`.
import type { FastifyInstance, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import sjson from 'secure-json-parse';
import { ApiError, badRequest } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The body field holding items the route validates one by one: a NUL in an item refuses that item (the
     * handler checks when `request.bodyHasNul`), not the whole request. A NUL elsewhere is a 400 as usual.
     */
    nulRejectsItem?: string;
  }
  interface FastifyRequest {
    /** The body held a NUL and the route (`config.nulRejectsItem`) refuses the items that hold one. */
    bodyHasNul: boolean;
  }
}

/** A query string that takes no parameters: any parameter is a 400 that names it. */
const NO_QUERY = { type: 'object', properties: {}, additionalProperties: false } as const;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Makes an API route without declared query parameters refuse any (unknown parameters are a 400, never
 * ignored), and marks one that takes no body (`config.noBody`) so that `guardInput` refuses fields sent to it.
 * Routes hidden from the document (the live stream's upgrade reads its own query) and routes that ignore their
 * input (`config.ignoresInput`) are left alone.
 */
export function declareNoInput(route: RouteOptions): void {
  const access = route.config?.access;
  const schema = route.schema as (FastifySchema & { hide?: boolean }) | undefined;
  if (access === undefined || schema === undefined || schema.hide || route.config?.ignoresInput) return;
  schema.querystring ??= NO_QUERY;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (schema.body === undefined && methods.some((m) => BODY_METHODS.has(m))) {
    route.config = { ...route.config, noBody: true };
  }
}

/**
 * Optional bodies become `{}`; a body sent to a route that takes none must be empty (`{}`), else it is a 400
 * naming its first field; NUL in query or path strings is refused. Added to routes by an onRoute hook.
 */
export function guardInput(request: FastifyRequest, _reply: unknown, done: (error?: Error) => void): void {
  const config = request.routeOptions.config;
  if (request.body === undefined && config.optionalBody) request.body = {};
  if (config.noBody && request.body !== undefined) {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      done(badRequest('This route takes no request body; send none, or {}.', 'body', 'validation_failed'));
      return;
    }
    const [field] = Object.keys(body);
    if (field !== undefined) {
      done(
        badRequest(
          `The request body is invalid: body.${field} is not an accepted field (this route takes no body).`,
          `body.${field}`,
          'validation_failed',
        ),
      );
      return;
    }
  }
  for (const [part, values] of [
    ['query', request.query],
    ['path', request.params],
  ] as const) {
    for (const [name, value] of Object.entries((values ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'string' && value.includes('\u0000')) {
        done(badRequest(`${part}.${name} must not contain NUL characters.`, `${part}.${name}`));
        return;
      }
    }
  }
  done();
}

/**
 * The path (`body.signals[3].text`) of the first string or field name in `value` holding a NUL, or null. A NUL
 * in a field name is shown escaped, so the path can be read.
 */
export function nulPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}.${key.replaceAll('\u0000', '\\u0000')}`;
    if (key.includes('\u0000')) return at;
    const found = nulPath(item, at);
    if (found !== null) return found;
  }
  return null;
}

/** The 400 for a NUL at `path`. */
const nulRefused = (path: string): ApiError =>
  badRequest(`${path} must not contain NUL (\\u0000) characters.`, path);

/** Arrays and objects inside one another deeper than this make a body a 400 (no field needs more than a few). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `text` opens more than `max` arrays or objects inside one another (strings skipped). Checked before
 * parsing, so no handler, validator or serialiser ever walks a value deep enough to exhaust the stack.
 */
function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Skip the string to its closing quote: the next quote not escaped by an odd run of backslashes.
      for (;;) {
        const close = text.indexOf('"', i + 1);
        if (close === -1) return false; // unterminated: JSON.parse refuses it
        let backslashes = 0;
        while (text.charCodeAt(close - 1 - backslashes) === 92 /* \ */) backslashes++;
        i = close;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/** JSON (and `application/*+json`) is the only body parser; an empty body is "no body". */
export function registerJsonBodies(app: FastifyInstance): void {
  app.decorateRequest('bodyHasNul', false);
  app.removeAllContentTypeParsers();
  const parseJson = (
    req: FastifyRequest,
    body: string | Buffer,
    done: (err: Error | null, body?: unknown) => void,
  ) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(
        new ApiError(
          400,
          'invalid_json',
          `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
        ),
        undefined,
      );
    }
    try {
      // secure-json-parse scans the text twice for `__proto__` and `constructor` keys, literal or escaped; a text
      // holding neither word nor any \u escape (nor a byte-order mark) cannot hold one, and is parsed directly.
      const suspect =
        text.charCodeAt(0) === 0xfeff ||
        text.includes('\\u') ||
        text.includes('proto') ||
        text.includes('constructor');
      const value = suspect
        ? sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
        : JSON.parse(text);
      // A NUL can only reach a string through the escape `\u0000` (raw control characters are not valid JSON),
      // so a body without that escape is not searched. A route that validates items one by one
      // (`config.nulRejectsItem`) refuses only the items holding one.
      if (text.includes('\\u0000')) {
        const field = req.routeOptions.config.nulRejectsItem;
        const items =
          field && typeof value === 'object' && value !== null
            ? (value as Record<string, unknown>)[field]
            : undefined;
        // Outside the items (a top-level field, or its name) a NUL is refused as on every route.
        const outside = Array.isArray(items) ? { ...(value as object), [field!]: [] } : value;
        const at = nulPath(outside, 'body');
        if (at !== null) return done(nulRefused(at), undefined);
        if (Array.isArray(items)) req.bodyHasNul = true;
      }
      done(null, value);
    } catch (error) {
      if (error instanceof ApiError) return done(error, undefined);
      const reason = error instanceof SyntaxError ? ` (${error.message.slice(0, 200)})` : '';
      done(new ApiError(400, 'invalid_json', `The request body is not valid JSON${reason}.`), undefined);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  app.addContentTypeParser(/^application\/[\w.+-]+\+json$/, { parseAs: 'string' }, parseJson);
}
