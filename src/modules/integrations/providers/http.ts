// Outbound calls to the operator-configured provider endpoints (chat, forum ads, social ads). These URLs come
// from configuration, not from users, so they skip the SSRF guard; they still get timeouts, a bounded answer,
// and errors that never carry a token: an unreachable provider is a 503, a refusal a 400 with its short reason.
import { request } from 'undici';
import { API_VERSION } from '../../../config.ts';
import { ApiError } from '../../../platform/errors.ts';
import { retryAfterMs } from '../../../platform/retry.ts';

const TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;
const USER_AGENT = `Crestwatch/${API_VERSION} (integrations)`;

export interface ProviderAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
}

interface ProviderCall {
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent form-encoded. */
  form?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
}

/** The provider could not be reached (network error, timeout) or answered 5xx. */
export function providerUnavailable(label: string, retryAfterSeconds = 30): ApiError {
  return new ApiError(
    503,
    'provider_unavailable',
    `The ${label} could not be reached or failed; retry later.`,
    { headers: { 'Retry-After': retryAfterSeconds } },
  );
}

/** The provider refused the request; `reason` is its short error code or message (never a token). */
export function providerRefused(label: string, reason: string, secrets: (string | null | undefined)[] = []) {
  return new ApiError(
    400,
    'provider_error',
    `The ${label} refused the request: ${cleanReason(reason, secrets)}.`,
  );
}

/** A provider's reason, shortened, on one line, with any secret we sent it replaced. */
export function cleanReason(reason: string, secrets: (string | null | undefined)[] = []): string {
  let text = String(reason).replace(/\s+/g, ' ').trim();
  for (const secret of secrets)
    if (secret && secret.length >= 4) text = text.split(secret).join('[redacted]');
  // Anything that looks like a bearer token or long opaque credential is cut out as well.
  text = text.replace(/\b(xox[a-z]-|EAA)[\w-]+/g, '[redacted]');
  if (text.length > 200) text = `${text.slice(0, 199)}…`;
  return text || 'unknown error';
}

export async function callProvider(
  label: string,
  url: string,
  call: ProviderCall = {},
): Promise<ProviderAnswer> {
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: 'application/json',
    ...call.headers,
  };
  let body: string | undefined;
  if (call.form) {
    body = new URLSearchParams(call.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (call.json !== undefined) {
    body = JSON.stringify(call.json);
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(url, {
      method: call.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
      signal: AbortSignal.timeout(TIMEOUT_MS * 2),
    });
  } catch {
    throw providerUnavailable(label);
  }
  let text = '';
  try {
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) break;
      chunks.push(chunk as Buffer);
    }
    text = Buffer.concat(chunks).toString('utf8');
  } catch {
    throw providerUnavailable(label);
  } finally {
    res.body.destroy();
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** Seconds from a Retry-After header, bounded to [1, 3600]; `fallback` when it is absent or unreadable. */
export function retryAfterSeconds(headers: ProviderAnswer['headers'], now: number, fallback = 30): number {
  const ms = retryAfterMs(headers['retry-after'], now);
  if (ms === undefined) return fallback;
  return Math.min(3600, Math.max(1, Math.ceil(ms / 1000)));
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
