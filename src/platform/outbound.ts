// Outbound HTTP to user-given URLs (webhook destinations, the workflow tool) behind an SSRF guard.
// A destination is checked when it is saved and again on every request: the address a name resolves to is
// checked at connect time (inside undici's lookup), so DNS that changes after the check cannot slip a private
// address through. Loopback, private, link-local, unique-local, CGNAT, multicast and unspecified addresses are
// refused unless OUTBOUND_ALLOWLIST covers them; cloud metadata addresses are refused always. Redirects are
// never followed and answers are read only up to a bound, so nothing a destination says is echoed beyond its
// status code.
// Connections are kept alive in one pool per origin (scheme, host, port), and at most `perOriginLimit` requests
// are in flight to one origin: a slow destination holds that many connections, never everyone's.
import dns from 'node:dns';
import net from 'node:net';
import { Agent, type Dispatcher, request } from 'undici';
import { badRequest } from './errors.ts';

const ALWAYS_REFUSED = ['169.254.169.254', 'fd00:ec2::254'];

// [address, prefix] ranges that are not the public internet.
const NON_PUBLIC_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const NON_PUBLIC_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local, deprecated (RFC 3879) but still routed inside some networks.
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
];

/** `busy`: the destination already had its limit of requests in flight (only with `queueTimeoutMs`). */
type OutboundFailure = 'refused' | 'timeout' | 'network' | 'busy';

/** Requests in flight to one origin at once, unless the client is built with another limit. */
export const DEFAULT_PER_ORIGIN_LIMIT = 16;

/** A request that did not get an HTTP answer; `message` is safe to show (no provider text). */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
    /** `busy` only: about how long until the destination has a free slot. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** At most `maxBodyBytes` of the answer, as text: for parsing, never for echoing to a user. */
  body: string;
  durationMs: number;
}

interface OutboundRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Whole-request timeout (default 10 s). */
  timeoutMs?: number;
  /** How much of the answer to keep (default 64 KiB); the rest is discarded. */
  maxBodyBytes?: number;
  /**
   * How long a request may wait for one of the origin's slots when the origin has its limit in flight. When a
   * slot is not expected that soon, or none came in time, it fails at once with an OutboundError of kind
   * `busy` (nothing was sent) carrying the expected wait. Without it the request waits within its timeout.
   */
  queueTimeoutMs?: number;
}

/** One origin's requests in flight (their start times) and those waiting for a slot, first come first served. */
interface OriginGate {
  started: number[];
  waiting: Array<(startedAt: number) => void>;
  /** Moving average of how long a request held its slot, ms; undefined until one finished. */
  averageMs: number | undefined;
}

/** Parses CIDR strings (`127.0.0.0/8`, `::1/128`) into a BlockList. */
function blockList(cidrs: [string, number][] | string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of cidrs) {
    const [address, prefix] = typeof entry === 'string' ? entry.split('/') : [entry[0], String(entry[1])];
    const family = net.isIPv6(address!) ? 'ipv6' : 'ipv4';
    list.addSubnet(address!, Number(prefix), family);
  }
  return list;
}

const nonPublicV4 = blockList(NON_PUBLIC_V4);
const nonPublicV6 = blockList(NON_PUBLIC_V6);
// A list, not string equality, so other spellings of the same address (`fd00:0ec2:0::254`) match too.
const alwaysRefused = blockList(ALWAYS_REFUSED.map((a) => `${a}/${net.isIPv6(a) ? 128 : 32}`));

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<number>(Math.max(fill, 0)).fill(0), ...tail];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

const quadOf = (high: number, low: number): string => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * IPv4 addresses in IPv6 disguise: mapped `::ffff:a.b.c.d` (which the URL parser writes as `::ffff:7f00:1`),
 * translated `::ffff:0:a.b.c.d` and the deprecated compatible `::a.b.c.d` are checked as the IPv4 address.
 */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const lower = address.toLowerCase();
  if (!net.isIPv6(lower)) return { address: lower, family: 'ipv4' };
  const g = ipv6Groups(lower);
  if (g && g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0) {
    const mapped = g[4] === 0 && g[5] === 0xffff;
    const translated = g[4] === 0xffff && g[5] === 0;
    // `::` and `::1` are IPv6's own unspecified and loopback addresses, not compatible IPv4 ones.
    const compatible = g[4] === 0 && g[5] === 0 && (g[6] !== 0 || g[7]! > 1);
    if (mapped || translated || compatible) return { address: quadOf(g[6]!, g[7]!), family: 'ipv4' };
  }
  return { address: lower, family: 'ipv6' };
}

/**
 * IPv4 addresses that tunnelling prefixes carry inside an IPv6 address, which a relay would forward to:
 * 6to4 `2002:AABB:CCDD::/48` (a.b.c.d in groups 1–2) and Teredo `2001:0::/32` (the server in groups 2–3, the
 * client inverted in groups 6–7).
 */
function tunnelled(address: string): string[] {
  const g = ipv6Groups(address);
  if (!g) return [];
  if (g[0] === 0x2002) return [quadOf(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [quadOf(g[2]!, g[3]!), quadOf(~g[6]! & 0xffff, ~g[7]! & 0xffff)];
  return [];
}

export class OutboundPolicy {
  private readonly allowed: net.BlockList;

  constructor(allowlist: string[]) {
    this.allowed = blockList(allowlist);
  }

  /** Why an address may not be reached, or null when it may. */
  refusal(rawAddress: string): string | null {
    const { address, family } = unmapped(rawAddress.replace(/^\[|\]$/g, ''));
    if (alwaysRefused.check(address, family)) return 'it is a cloud metadata address';
    if (this.allowed.check(address, family)) return null;
    const nonPublic = family === 'ipv4' ? nonPublicV4 : nonPublicV6;
    if (nonPublic.check(address, family)) return 'it is a private, loopback or link-local address';
    if (family === 'ipv6') {
      for (const inner of tunnelled(address)) {
        if (alwaysRefused.check(inner, 'ipv4')) return 'it is a cloud metadata address';
        if (nonPublicV4.check(inner, 'ipv4') && !this.allowed.check(inner, 'ipv4'))
          return 'it is a private, loopback or link-local address';
      }
    }
    return null;
  }

  /**
   * Syntax of a destination URL: absolute http(s), no credentials, no fragment tricks. Throws a 400 naming
   * `field`.
   */
  parse(raw: string, field: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw badRequest(`${field} must be an absolute http(s) URL.`, field);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw badRequest(`${field} must use http or https (got ${url.protocol.replace(':', '')}).`, field);
    }
    if (url.username || url.password) throw badRequest(`${field} must not contain credentials.`, field);
    if (!url.hostname) throw badRequest(`${field} must name a host.`, field);
    return url;
  }

  /** Resolves the URL's host and refuses it (400 naming `field`) when any address is not allowed. */
  async assertAllowed(raw: string, field: string): Promise<URL> {
    const url = this.parse(raw, field);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (net.isIP(host)) addresses = [host];
    else {
      try {
        addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
      } catch {
        throw badRequest(
          `${field} names a host that does not resolve (${host}).`,
          field,
          'destination_unresolvable',
        );
      }
    }
    for (const address of addresses) {
      const why = this.refusal(address);
      if (why) {
        throw badRequest(
          `${field} is not an allowed destination: ${host} resolves to ${address} and ${why}.`,
          field,
          'destination_not_allowed',
        );
      }
    }
    return url;
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for sockets and agents that a library opens itself (an S3 client's HTTP agents, an SMTP
 * connection): the name is resolved and refused (an OutboundError of kind `refused`) when any address it
 * resolves to is not allowed, so DNS that changes after a check cannot slip a private address through.
 * Literal addresses never reach a lookup: check those with `policy.refusal`.
 */
export function guardedLookup(
  policy: OutboundPolicy,
): (hostname: string, opts: dns.LookupOptions, callback: LookupCallback) => void {
  return (hostname, opts, callback) => {
    dns.lookup(hostname, { ...opts, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as dns.LookupAddress[];
      for (const entry of list) {
        const why = policy.refusal(entry.address);
        if (why) {
          const refused = new OutboundError('refused', `${hostname} resolves to ${entry.address}: ${why}.`);
          return callback(refused as NodeJS.ErrnoException, []);
        }
      }
      if (opts.all) return callback(null, list);
      const first = list[0];
      if (!first)
        return callback(Object.assign(new Error(`${hostname} did not resolve`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** HTTP client for user-given URLs: every connection's address is checked against the policy. */
export class OutboundClient {
  readonly policy: OutboundPolicy;
  readonly perOriginLimit: number;
  private readonly dispatcher: Dispatcher;
  private readonly gates = new Map<string, OriginGate>();
  private readonly literalVerdicts = new Map<string, string | null>();

  constructor(options: { allowlist: string[]; userAgent?: string; perOriginLimit?: number }) {
    this.policy = new OutboundPolicy(options.allowlist);
    this.perOriginLimit = Math.max(1, Math.floor(options.perOriginLimit ?? DEFAULT_PER_ORIGIN_LIMIT));
    const lookup = guardedLookup(this.policy);
    // An Agent keeps one keep-alive pool per origin; the lookup runs (and refuses) at every new connection.
    this.dispatcher = new Agent({
      connect: { lookup: lookup as never, timeout: 10_000 },
      keepAliveTimeout: 4_000,
      connections: this.perOriginLimit,
    });
  }

  /** One request, no redirects; throws OutboundError when there is no HTTP answer. */
  async request(raw: string, init: OutboundRequest = {}): Promise<OutboundResponse> {
    let url: URL;
    try {
      url = this.policy.parse(raw, 'url');
    } catch {
      throw new OutboundError('refused', 'The destination is not an absolute http(s) URL.');
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host)) {
      // Literal addresses never reach the lookup hook.
      const why = this.literalRefusal(host);
      if (why) throw new OutboundError('refused', `${host}: ${why}.`);
    }
    const timeoutMs = init.timeoutMs ?? 10_000;
    const maxBody = init.maxBodyBytes ?? 65_536;
    const started = performance.now();
    // The whole request's deadline. A plain timer: AbortSignal.timeout costs several times more per request.
    const controller = new AbortController();
    const signal = controller.signal;
    const deadline = setTimeout(() => controller.abort(), timeoutMs);
    deadline.unref();
    const origin = url.origin;
    try {
      const slot = await this.acquire(origin, init.queueTimeoutMs, signal, timeoutMs);
      try {
        const response = await request(url, {
          method: init.method ?? 'GET',
          headers: init.headers,
          body: init.body,
          dispatcher: this.dispatcher,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of response.body) {
          const buffer = chunk as Buffer;
          if (size < maxBody) chunks.push(buffer.subarray(0, maxBody - size));
          size += buffer.length;
          if (size >= maxBody) {
            response.body.destroy();
            break;
          }
        }
        return {
          status: response.statusCode,
          headers: response.headers as Record<string, string | string[] | undefined>,
          body: Buffer.concat(chunks).toString('utf8'),
          durationMs: Math.round(performance.now() - started),
        };
      } catch (error) {
        throw toOutboundError(error, signal, timeoutMs);
      } finally {
        this.releaseSlot(origin, slot);
      }
    } finally {
      clearTimeout(deadline);
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** The policy's verdict on a literal address; the policy never changes, so verdicts are kept. */
  private literalRefusal(address: string): string | null {
    let why = this.literalVerdicts.get(address);
    if (why === undefined) {
      why = this.policy.refusal(address);
      if (this.literalVerdicts.size >= 1000) this.literalVerdicts.clear();
      this.literalVerdicts.set(address, why);
    }
    return why;
  }

  /**
   * Takes one of the origin's slots, waiting (in order) when all are taken; resolves to the slot's start
   * time, which identifies it on release.
   */
  private acquire(
    origin: string,
    queueTimeoutMs: number | undefined,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<number> {
    let gate = this.gates.get(origin);
    if (!gate) {
      gate = { started: [], waiting: [], averageMs: undefined };
      this.gates.set(origin, gate);
    }
    const now = performance.now();
    if (gate.started.length < this.perOriginLimit && gate.waiting.length === 0) {
      gate.started.push(now);
      return Promise.resolve(now);
    }
    const waitingGate = gate;
    const busy = () =>
      new OutboundError(
        'busy',
        `The destination already has ${this.perOriginLimit} requests in flight.`,
        expectedWaitMs(waitingGate, this.perOriginLimit, performance.now()),
      );
    // A slot is not expected within the caller's patience (the destination is slow): do not wait at all.
    if (queueTimeoutMs !== undefined && expectedWaitMs(gate, this.perOriginLimit, now) > queueTimeoutMs)
      return Promise.reject(busy());
    return new Promise<number>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const give = (startedAt: number) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(startedAt);
      };
      const leave = (error: OutboundError) => {
        const at = waitingGate.waiting.indexOf(give);
        if (at >= 0) waitingGate.waiting.splice(at, 1);
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.forgetIfIdle(origin, waitingGate);
        reject(error);
      };
      const onAbort = () =>
        leave(new OutboundError('timeout', `No answer within ${Math.round(timeoutMs / 1000)} s.`));
      waitingGate.waiting.push(give);
      signal.addEventListener('abort', onAbort, { once: true });
      if (queueTimeoutMs !== undefined) timer = setTimeout(() => leave(busy()), Math.max(0, queueTimeoutMs));
    });
  }

  /** Hands the slot to the next waiter, or frees it; the time it was held feeds the origin's average. */
  private releaseSlot(origin: string, startedAt: number): void {
    const gate = this.gates.get(origin);
    if (!gate) return;
    const now = performance.now();
    const held = now - startedAt;
    gate.averageMs = gate.averageMs === undefined ? held : gate.averageMs * 0.8 + held * 0.2;
    const at = gate.started.indexOf(startedAt);
    if (at >= 0) gate.started.splice(at, 1);
    const next = gate.waiting.shift();
    if (next) {
      gate.started.push(now);
      next(now);
    } else this.forgetIfIdle(origin, gate);
  }

  private forgetIfIdle(origin: string, gate: OriginGate): void {
    if (gate.started.length === 0 && gate.waiting.length === 0 && this.gates.get(origin) === gate)
      this.gates.delete(origin);
  }
}

/**
 * About how long a new request to a full origin waits for a slot: the requests ahead of it (in flight and
 * waiting) divided among the slots, each taking what a request there usually takes — or at least as long as
 * the oldest in-flight request has been running, so a destination that has stopped answering counts as slow
 * before anything finished.
 */
function expectedWaitMs(gate: OriginGate, limit: number, now: number): number {
  const oldest = gate.started.length > 0 ? now - Math.min(...gate.started) : 0;
  const perRequest = Math.max(gate.averageMs ?? 0, oldest);
  return Math.ceil((gate.waiting.length + 1) / limit) * perRequest;
}

function toOutboundError(error: unknown, signal: AbortSignal, timeoutMs: number): OutboundError {
  if (error instanceof OutboundError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof OutboundError) return cause;
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  if (
    signal.aborted ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return new OutboundError('timeout', `No answer within ${Math.round(timeoutMs / 1000)} s.`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new OutboundError('network', 'The host does not resolve.');
  if (code === 'ECONNREFUSED') return new OutboundError('network', 'The connection was refused.');
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return new OutboundError('network', 'The connection was reset.');
  return new OutboundError('network', `The request failed (${code ?? 'network error'}).`);
}
