// Stand-ins on 127.0.0.1 for export destinations: an S3-compatible object store that checks every request's
// AWS Signature Version 4 against its credentials (written from the AWS specification, independently of the
// SDK) and keeps the objects, and an SMTP server (smtp-server) that checks the login and keeps the messages.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** Text the store puts in its error answers: it must never reach a history row, a response or a log. */
export const PROVIDER_MARKER = 'provider-said-this-7Qx';

export interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
}

interface S3Options {
  accessKeyId: string;
  secretAccessKey: string;
  /** The region the credential scope must name (`auto` for Cloud Storage). */
  region: string;
  buckets: string[];
}

export interface S3StandIn {
  url: string;
  /** `bucket/key` → object. */
  objects: Map<string, StoredObject>;
  /** Every request, with whether its signature held. */
  requests: { method: string; path: string; signed: boolean; status: number }[];
  /** The next `count` signed PUTs are answered with `status` (S3's XML error `code`). */
  failNext(count: number, status: number, code: string): void;
  close(): Promise<void>;
}

/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

function canonicalQuery(search: string): string {
  if (!search) return '';
  return search
    .slice(1)
    .split('&')
    .filter((p) => p.length > 0)
    .map((pair) => {
      const [k = '', v = ''] = pair.split(/=(.*)/s);
      return [uriEncode(decodeURIComponent(k)), uriEncode(decodeURIComponent(v))] as const;
    })
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** Null when the request is signed with the stand-in's credentials; otherwise S3's error code. */
function verifySignature(req: IncomingMessage, body: Buffer, options: S3Options): string | null {
  const header = req.headers.authorization ?? '';
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      header,
    );
  if (!match) return 'AccessDenied';
  const [, accessKeyId, day, region, signedHeaders, signature] = match as unknown as string[];
  if (accessKeyId !== options.accessKeyId) return 'InvalidAccessKeyId';
  if (region !== options.region) return 'AuthorizationHeaderMalformed';
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(day!)) return 'AccessDenied';
  const names = signedHeaders!.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) return 'AccessDenied';
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) return 'XAmzContentSHA256Mismatch';
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const canonicalHeaders = names
    .map((name) => {
      const raw = req.headers[name];
      const value = Array.isArray(raw) ? raw.join(',') : String(raw ?? '');
      return `${name}:${value.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [
    req.method,
    (req.url ?? '/').split('?')[0],
    canonicalQuery(url.search),
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${options.secretAccessKey}`, day!), region!), 's3'), 'aws4_request');
  const expected = createHmac('sha256', key).update(stringToSign).digest();
  const given = Buffer.from(signature!, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? null
    : 'SignatureDoesNotMatch';
}

function xmlError(res: ServerResponse, status: number, code: string): void {
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${code}</Code><Message>${PROVIDER_MARKER}: the request was refused</Message>` +
    '<RequestId>4442587FB7D0A2F9</RequestId></Error>';
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** An S3-compatible store addressed path-style (`/bucket/key`): PUT stores, GET reads back. */
export async function s3StandIn(options: S3Options): Promise<S3StandIn> {
  const objects = new Map<string, StoredObject>();
  const requests: S3StandIn['requests'] = [];
  let failures: { count: number; status: number; code: string } = { count: 0, status: 0, code: '' };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '/').split('?')[0]!;
      const refused = verifySignature(req, body, options);
      const answer = (status: number, code?: string) => {
        requests.push({ method: req.method ?? '', path, signed: refused === null, status });
        if (code) xmlError(res, status, code);
        else {
          res.writeHead(status, {
            etag: `"${createHash('md5').update(body).digest('hex')}"`,
            'content-length': 0,
          });
          res.end();
        }
      };
      if (refused) return answer(403, refused);
      const [, bucket = '', ...rest] = path.split('/');
      const key = rest.map(decodeURIComponent).join('/');
      if (!options.buckets.includes(bucket)) return answer(404, 'NoSuchBucket');
      if (req.method === 'PUT') {
        if (failures.count > 0) {
          failures.count--;
          return answer(failures.status, failures.code);
        }
        const type = req.headers['content-type'];
        objects.set(`${bucket}/${key}`, { body, contentType: Array.isArray(type) ? type[0] : type });
        return answer(200);
      }
      return answer(405, 'MethodNotAllowed');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    requests,
    failNext(count, status, code) {
      failures = { count, status, code };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  user: string | undefined;
  raw: string;
}

export interface SmtpStandIn {
  port: number;
  messages: ReceivedMail[];
  logins: { user: string; ok: boolean }[];
  close(): Promise<void>;
}

/**
 * An SMTP server that requires a login (`user`/`password`). `tls: false` offers no STARTTLS (the client must
 * use `security: none`); `tls: true` offers STARTTLS with smtp-server's own self-signed certificate.
 */
export async function smtpStandIn(options: {
  user: string;
  password: string;
  tls: boolean;
}): Promise<SmtpStandIn> {
  const messages: ReceivedMail[] = [];
  const logins: SmtpStandIn['logins'] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: options.tls ? [] : ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = auth.username === options.user && auth.password === options.password;
      logins.push({ user: auth.username ?? '', ok });
      if (!ok) return callback(new Error(`${PROVIDER_MARKER} invalid login`));
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    messages,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The decoded attachment of a MIME message (the base64 part marked `attachment`), or null. */
export function attachmentOf(raw: string): { filename: string; content: string; headers: string } | null {
  const boundary = /boundary="?([^"\r\n;]+)"?/i.exec(raw)?.[1];
  if (!boundary) return null;
  for (const part of raw.split(`--${boundary}`)) {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    // Unfold continued header lines, then read RFC 2231 `filename*0=`… pieces or a plain `filename=`.
    const headers = part.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
    if (!/Content-Disposition:\s*attachment/i.test(headers)) continue;
    const pieces = [...headers.matchAll(/filename\*(\d+)\*?="?([^";\r\n]*)"?/gi)]
      .sort((a, b) => Number(a[1]) - Number(b[1]))
      .map((m) => m[2]);
    const filename =
      pieces.length > 0 ? pieces.join('') : (/filename="?([^";\r\n]+)"?/i.exec(headers)?.[1] ?? '');
    const body = part.slice(split).replace(/\s+/g, '');
    return { filename, content: Buffer.from(body, 'base64').toString('utf8'), headers };
  }
  return null;
}

/** RFC 4180 parser for the tests: records of fields (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
