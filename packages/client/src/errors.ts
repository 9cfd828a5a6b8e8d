// Typed errors: every Crestwatch error answer is RFC 9457 problem+json; CrestwatchError carries its fields.
import type { components } from './schema.js';

/** The problem+json body of an error answer, as the OpenAPI document describes it. */
export type Problem = components['schemas']['Problem'];

/** One failing field of a validation error (`path` like `query.limit` or `body.permissions[0]`). */
export interface FieldError {
  path: string;
  message: string;
}

/** A non-2xx answer from the API (or from something in front of it that did not answer problem+json). */
export class CrestwatchError extends Error {
  override readonly name = 'CrestwatchError';
  /** HTTP status. */
  readonly status: number;
  /** Problem type URI (`about:blank` when the answer was not problem+json). */
  readonly type: string;
  readonly title: string;
  readonly detail: string | undefined;
  /** Crestwatch's machine-readable code, e.g. `quota_exceeded`, `validation_error`. */
  readonly code: string | undefined;
  /** Validation failures, when the request was invalid. */
  readonly errors: FieldError[] | undefined;
  /** The request id (also the `X-Request-Id` header): quote it when asking an operator. */
  readonly requestId: string | undefined;
  /** The whole problem body, including fields this class does not name. */
  readonly problem: Record<string, unknown>;
  readonly response: Response | undefined;

  constructor(status: number, problem: Record<string, unknown>, response?: Response) {
    const title = stringField(problem, 'title') ?? `HTTP ${status}`;
    const detail = stringField(problem, 'detail');
    super(detail ? `${title}: ${detail}` : title);
    this.status = status;
    this.type = stringField(problem, 'type') ?? 'about:blank';
    this.title = title;
    this.detail = detail;
    this.code = stringField(problem, 'code');
    this.errors = Array.isArray(problem.errors) ? (problem.errors as FieldError[]) : undefined;
    this.requestId = stringField(problem, 'request_id') ?? response?.headers.get('x-request-id') ?? undefined;
    this.problem = problem;
    this.response = response;
  }
}

function stringField(value: Record<string, unknown>, key: string): string | undefined {
  const field = value[key];
  return typeof field === 'string' ? field : undefined;
}

/**
 * The error for a non-2xx answer: `body` is what openapi-fetch parsed (the problem object, or text when the
 * answer was not JSON).
 */
export function errorFromResponse(response: Response, body: unknown): CrestwatchError {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    return new CrestwatchError(response.status, body as Record<string, unknown>, response);
  }
  const detail = typeof body === 'string' && body.length > 0 ? body.slice(0, 500) : undefined;
  return new CrestwatchError(
    response.status,
    { title: response.statusText || `HTTP ${response.status}`, status: response.status, detail },
    response,
  );
}

/** What openapi-fetch's methods resolve to: either `data` or `error`, always the `response`. */
interface ApiResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The success branch's `data` of an openapi-fetch result type. */
export type DataOf<R> = R extends { data: infer D; error?: never } ? D : never;

/**
 * Resolves to the data of a successful call, or rejects with a CrestwatchError:
 * `const { trends } = await unwrap(client.GET('/api/trends'))`.
 */
export async function unwrap<R extends ApiResult>(call: Promise<R> | R): Promise<DataOf<R>> {
  const result = await call;
  if (!result.response.ok) throw errorFromResponse(result.response, result.error);
  return result.data as DataOf<R>;
}
