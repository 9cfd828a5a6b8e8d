import { randomUUID } from 'node:crypto';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's X-Request-Id when it is sane, otherwise makes one. */
export function requestId(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && REQUEST_ID.test(incoming)
    ? incoming
    : `req_${randomUUID().replaceAll('-', '')}`;
}
