// RFC 9457 problem+json for every error the API answers.
import { STATUS_CODES } from 'node:http';

export interface FieldError {
  path: string;
  message: string;
}

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id: string;
  errors?: FieldError[];
}

const TYPE_BASE = 'https://crestwatch.dev/problems/';

/** An error a service or route raises on purpose; the error handler turns it into problem+json. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string | number> } = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export const badRequest = (detail: string, path?: string, code = 'invalid_request') =>
  new ApiError(400, code, detail, path ? { errors: [{ path, message: detail }] } : {});
export const unauthorized = (detail: string, code = 'unauthorized') => new ApiError(401, code, detail);
export const forbidden = (detail: string, code = 'forbidden') => new ApiError(403, code, detail);
export const notFound = (detail: string, code = 'not_found') => new ApiError(404, code, detail);
export const conflict = (detail: string, code = 'conflict') => new ApiError(409, code, detail);
export const unavailable = (detail: string, retryAfterSeconds = 5, code = 'service_unavailable') =>
  new ApiError(503, code, detail, { headers: { 'Retry-After': retryAfterSeconds } });

export function problem(
  status: number,
  code: string,
  detail: string,
  requestId: string,
  errors?: FieldError[],
): Problem {
  const body: Problem = {
    type: `${TYPE_BASE}${code}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code,
    request_id: requestId,
  };
  if (errors && errors.length > 0) body.errors = errors;
  return body;
}
