import { randomBytes } from 'node:crypto';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
// A random per-process part and a counter: unique across processes, and cheap on every request.
const PROCESS_PART = randomBytes(6).toString('hex');
let counter = 0;

/** Keeps a caller's X-Request-Id when it is sane, otherwise makes one. */
export function requestId(incoming: string | string[] | undefined): string {
  if (typeof incoming === 'string' && REQUEST_ID.test(incoming)) return incoming;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `req_${PROCESS_PART}${counter.toString(36).padStart(8, '0')}`;
}
