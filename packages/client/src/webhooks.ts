// Verifies the signatures Crestwatch puts on webhook deliveries, with WebCrypto only (Node 20+, Deno,
// browsers, edge runtimes). Two schemes, both keyed with the secret's decoded bytes (`whsec_` + base64):
// - Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`
//   (space-separated during a rotation); the timestamp must be within the tolerance, which stops replays.
// - `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the body>` (comma-separated during a rotation). It does
//   not cover a timestamp, so a captured delivery verifies forever: prefer Standard Webhooks.
import type { webhooks } from './schema.js';

/** Every body Crestwatch may POST to a webhook (the OpenAPI document's `webhooks` section). */
export type WebhookEvent = {
  [K in keyof webhooks]: webhooks[K] extends {
    post: { requestBody: { content: { 'application/json': infer B } } };
  }
    ? B
    : never;
}[keyof webhooks];

/** Standard Webhooks' default tolerance between the `webhook-timestamp` and the receiver's clock. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

const SECRET_PREFIX = 'whsec_';

export type WebhookScheme = 'standard-webhooks' | 'x-webhook-signature';

export interface VerifyOptions {
  /** The raw request body, exactly as received (parse it only after verifying). */
  payload: string | Uint8Array;
  /** The request headers (a Headers object or a plain record; names in any case). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The subscription's secret; several during your own rotation (any one verifying is enough). */
  secret: string | readonly string[];
  /** Default `standard-webhooks`, which also rejects stale or future timestamps. */
  scheme?: WebhookScheme;
  /** Standard Webhooks only. Default 300 s. */
  toleranceSeconds?: number;
  /** Milliseconds since the epoch; default the system clock. */
  now?: () => number;
}

/** A delivery that did not verify; `reason` says why (never which signature was expected). */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The HMAC key bytes a secret encodes (the base64 after `whsec_`). */
export function secretBytes(secret: string): Uint8Array {
  return base64ToBytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
}

export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Bytes of a hex string; undefined when it is not hex. */
export function hexToBytes(text: string): Uint8Array | undefined {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return undefined;
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Equality whose time depends on the length only, never on where the first difference is. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

async function hmacSha256(key: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    key as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, message as Uint8Array<ArrayBuffer>));
}

function header(headers: VerifyOptions['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(',') : value;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The signatures a header carries, decoded; entries of another version or encoding are skipped. */
export function parseSignatures(scheme: WebhookScheme, value: string): Uint8Array[] {
  if (scheme === 'standard-webhooks') {
    return value
      .split(' ')
      .filter((entry) => entry.startsWith('v1,'))
      .flatMap((entry) => {
        try {
          return [base64ToBytes(entry.slice(3))];
        } catch {
          return [];
        }
      });
  }
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('sha256='))
    .flatMap((entry) => {
      const bytes = hexToBytes(entry.slice('sha256='.length));
      return bytes ? [bytes] : [];
    });
}

/**
 * Checks a delivery's signature and returns its parsed body; throws WebhookVerificationError when it does
 * not verify. Pass the raw body: re-serialised JSON is not the same bytes.
 */
export async function verify(options: VerifyOptions): Promise<WebhookEvent> {
  const scheme = options.scheme ?? 'standard-webhooks';
  const body = typeof options.payload === 'string' ? encoder.encode(options.payload) : options.payload;
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  if (secrets.length === 0) throw new WebhookVerificationError('No webhook secret given.');

  let signed: Uint8Array;
  let value: string | undefined;
  if (scheme === 'standard-webhooks') {
    const id = header(options.headers, 'webhook-id');
    const timestamp = header(options.headers, 'webhook-timestamp');
    value = header(options.headers, 'webhook-signature');
    if (!id || !timestamp || !value) {
      throw new WebhookVerificationError(
        'Missing webhook-id, webhook-timestamp or webhook-signature header.',
      );
    }
    if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('Invalid webhook-timestamp.');
    const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
    if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) {
      throw new WebhookVerificationError(
        'The webhook-timestamp is outside the tolerance (stale or in the future).',
      );
    }
    signed = concat(encoder.encode(`${id}.${timestamp}.`), body);
  } else {
    value = header(options.headers, 'x-webhook-signature');
    if (!value) throw new WebhookVerificationError('Missing X-Webhook-Signature header.');
    signed = body;
  }

  const candidates = parseSignatures(scheme, value);
  if (candidates.length === 0) throw new WebhookVerificationError('No signature of a known version.');
  for (const secret of secrets) {
    const expected = await hmacSha256(secretBytes(secret), signed);
    // Every candidate is compared, so the time taken does not reveal which one matched.
    let match = false;
    for (const candidate of candidates) match = constantTimeEqual(expected, candidate) || match;
    if (match) {
      try {
        return JSON.parse(decoder.decode(body)) as WebhookEvent;
      } catch {
        throw new WebhookVerificationError('The signed body is not JSON.');
      }
    }
  }
  throw new WebhookVerificationError('No signature matches the secret.');
}
