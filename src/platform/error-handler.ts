// Turns every failure, including unknown routes and methods, into problem+json.

import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { isDatabaseUnavailable } from './db/index.ts';
import { ApiError, type FieldError, problem } from './errors.ts';
import { requestId } from './ids.ts';
import { isRedisUnavailable } from './redis.ts';
import { fieldErrors } from './validation.ts';

const PART_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};
const PART_WORDS: Record<string, string> = {
  body: 'request body',
  querystring: 'query string',
  params: 'path',
  headers: 'request headers',
};

const PLACES = /^(query|body|path|header)(\.|\[|$)/;

/**
 * Services name the field only (`start_date`, `signals[3].text`); the problem's path says where it was sent:
 * the part of the request that holds that field (query, then body, then path), else the query for requests
 * without a body.
 */
function placed(request: FastifyRequest, path: string): string {
  if (PLACES.test(path)) return path;
  const field = path.split(/[.[]/)[0] ?? path;
  const has = (part: unknown) =>
    typeof part === 'object' && part !== null && Object.hasOwn(part as object, field);
  if (has(request.query)) return `query.${path}`;
  if (has(request.body)) return `body.${path}`;
  if (has(request.params)) return `path.${path}`;
  return request.body === undefined ? `query.${path}` : `body.${path}`;
}

const FASTIFY_CODES: Record<string, { code: string; detail: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    detail: 'Send request bodies as JSON with `Content-Type: application/json`.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    detail: 'The request body is larger than this route accepts.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid_content_length',
    detail: 'The Content-Length header does not match the body.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'invalid_json',
    detail: 'The body is empty although Content-Type says JSON.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', detail: 'The request body is not valid JSON.' },
  FST_ERR_BAD_URL: { code: 'bad_url', detail: 'The request URL is malformed.' },
  FST_ERR_ASYNC_CONSTRAINT: { code: 'bad_request', detail: 'The request could not be routed.' },
  FST_ERR_CTP_INVALID_TYPE: {
    code: 'unsupported_media_type',
    detail: 'The Content-Type header is malformed.',
  },
};

/** What the HTTP parser refuses before any request exists (bad bytes in the URL, oversized headers, timeouts). */
const CLIENT_ERRORS: Record<string, { status: number; code: string; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request_timeout',
    detail: 'The request was not received in time.',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'headers_too_large',
    detail: 'The request headers are larger than the server accepts.',
  },
};
const MALFORMED_REQUEST = {
  status: 400,
  code: 'malformed_request',
  detail: 'The request is not valid HTTP (a URL must be percent-encoded ASCII, headers well formed).',
};

/**
 * Fastify's `clientErrorHandler`: the HTTP parser's refusals are problem+json with a request id like every
 * other answer (Fastify's default is a bare JSON error without one). A reset connection gets nothing.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, code, detail } = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED_REQUEST;
    const id = requestId(undefined);
    const body = JSON.stringify(problem(status, code, detail, id));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nX-Content-Type-Options: nosniff\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export function sendProblem(
  reply: FastifyReply,
  status: number,
  code: string,
  detail: string,
  errors?: FieldError[],
): FastifyReply {
  const body = problem(status, code, detail, String(reply.request.id), errors);
  return reply.code(status).type('application/problem+json').send(JSON.stringify(body));
}

function describeValidation(context: string, errors: FieldError[]): string {
  const where = PART_WORDS[context] ?? context;
  const first = errors.slice(0, 3).map((e) => `${e.path} ${e.message}`);
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return `The ${where} is invalid: ${first.join('; ')}${more}.`;
}

export function registerErrorHandling(app: FastifyInstance): void {
  // Every (method, path) the app serves, to tell 405 from 404.
  const known = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      try {
        known.on(method as 'GET', route.url, () => {});
      } catch {
        // Duplicate shapes are fine: one entry is enough to answer "this path exists".
      }
    }
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter(
      (m) => m !== request.method && known.find(m as 'GET', path) !== null,
    );
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendProblem(
        reply,
        405,
        'method_not_allowed',
        `${request.method} is not allowed here; use ${allowed.join(', ')}.`,
      );
    }
    return sendProblem(reply, 404, 'not_found', `No route matches ${request.method} ${path.slice(0, 200)}.`);
  });

  app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value);
      const errors = error.extra.errors?.map((e) => ({ ...e, path: placed(request, e.path) }));
      return sendProblem(reply, error.status, error.code, error.detail, errors);
    }
    if (error.validation) {
      const context = error.validationContext ?? 'body';
      const errors = fieldErrors(error.validation as never, PART_NAMES[context] ?? context);
      return sendProblem(reply, 400, 'validation_failed', describeValidation(context, errors), errors);
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) {
      const status =
        error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      return sendProblem(reply, status, known.code, known.detail);
    }
    if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return sendProblem(reply, 400, 'invalid_json', 'The request body is not valid JSON.');
    }
    if (isDatabaseUnavailable(error) || isRedisUnavailable(error)) {
      // The process logger writes this once per 10 s while the outage lasts (app.ts `loggerOptions`).
      request.log.warn({ err: error }, 'dependency unavailable');
      reply.header('Retry-After', 5);
      return sendProblem(
        reply,
        503,
        'service_unavailable',
        'A dependency of the service is unavailable; retry shortly.',
      );
    }
    if (error.statusCode === 503) {
      reply.header('Retry-After', 5);
      return sendProblem(reply, 503, 'service_unavailable', 'The service is overloaded; retry shortly.');
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendProblem(
        reply,
        error.statusCode,
        'bad_request',
        'The request could not be processed as sent.',
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(
      reply,
      500,
      'internal_error',
      'Something went wrong on our side; the request id identifies it in our logs.',
    );
  });
}
