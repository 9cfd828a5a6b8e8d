// Signatures on outbound deliveries (webhooks, workflow pushes), verifiable with stock libraries:
// - Standard Webhooks: `webhook-id`, `webhook-timestamp` (Unix s) and `webhook-signature`:
//   `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, one per secret, space-separated;
// - `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, one per secret, comma-separated.
// Both are keyed with the secret's decoded bytes: a secret is `whsec_` + base64 of 32 random bytes.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** The HMAC key: the bytes the secret encodes. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** `v1,<base64>` over `{id}.{timestamp}.{body}`. */
function standardSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** `sha256=<hex>` over the raw body. */
export function bodySignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secretKey(secret)).update(body).digest('hex')}`;
}

/**
 * Every signature header of one attempt. Pass the current secret first and, during a rotation's grace
 * period, the previous one after it: receivers holding either secret can verify.
 */
export function signatureHeaders(
  secrets: string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => standardSignature(s, id, timestampSeconds, body)).join(' '),
    'x-webhook-signature': secrets.map((s) => bodySignature(s, body)).join(','),
  };
}
