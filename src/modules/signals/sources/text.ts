// Helpers shared by the source adapters: turning provider text into the SourceSignal contract, a
// time-ordered cursor, and a bounded HTTP GET.
import { createHash } from 'node:crypto';
import { type SourceContext, SourceError, type SourceSignal } from './types.ts';

export const LIMITS = {
  text: 10_000,
  title: 500,
  author: 200,
  url: 2048,
  externalId: 256,
  keyword: 100,
  keywords: 50,
} as const;

export const USER_AGENT = 'crestwatch/0.10 (trend intelligence)';
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 8 * 1024 * 1024;

// Named references beyond the XML five: Latin-1 (U+00A0..U+00FF, in code point order) and common typography.
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute ' +
  'micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring ' +
  'AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml ' +
  'times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil ' +
  'egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ' +
  'ugrave uacute ucirc uuml yacute thorn yuml';
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  ...Object.fromEntries(LATIN1.split(' ').map((name, i) => [name, String.fromCodePoint(0xa0 + i)])),
  ...Object.fromEntries(
    Object.entries({
      OElig: 338,
      oelig: 339,
      Scaron: 352,
      scaron: 353,
      Yuml: 376,
      fnof: 402,
      circ: 710,
      tilde: 732,
      ensp: 8194,
      emsp: 8195,
      thinsp: 8201,
      zwnj: 8204,
      zwj: 8205,
      lrm: 8206,
      rlm: 8207,
      ndash: 8211,
      mdash: 8212,
      lsquo: 8216,
      rsquo: 8217,
      sbquo: 8218,
      ldquo: 8220,
      rdquo: 8221,
      bdquo: 8222,
      dagger: 8224,
      Dagger: 8225,
      bull: 8226,
      hellip: 8230,
      permil: 8240,
      prime: 8242,
      Prime: 8243,
      lsaquo: 8249,
      rsaquo: 8250,
      euro: 8364,
      trade: 8482,
      larr: 8592,
      uarr: 8593,
      rarr: 8594,
      darr: 8595,
      harr: 8596,
      minus: 8722,
      infin: 8734,
      ne: 8800,
      le: 8804,
      ge: 8805,
      hearts: 9829,
    }).map(([name, cp]) => [name, String.fromCodePoint(cp)]),
  ),
};
const XML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function fromCodePoint(cp: number): string {
  const valid = Number.isInteger(cp) && cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
  return valid ? String.fromCodePoint(cp) : '\uFFFD';
}

function decodeWith(text: string, named: Record<string, string>): string {
  return text.replace(
    /&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g,
    (all, dec, hex, name) => {
      if (dec !== undefined) return fromCodePoint(Number(dec));
      if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
      return Object.hasOwn(named, name) ? named[name] : all;
    },
  );
}

/** Decodes HTML character references (numeric, and the common named ones); unknown names stay as written. */
function decodeEntities(text: string): string {
  return decodeWith(text, NAMED);
}

/** Decodes only what XML itself defines: the five predefined entities and numeric references. */
export function decodeXmlEntities(text: string): string {
  return decodeWith(text, XML_NAMED);
}

// Elements whose boundaries separate words; other tags (b, a, span…) are removed without a space.
const BLOCK_TAGS = new Set(
  'address article aside blockquote br dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr img li main nav ol p pre section table td th tr ul'.split(
    ' ',
  ),
);

/** HTML → plain text: drops comments, script/style and tags, decodes references, collapses whitespace. */
export function htmlToText(html: string): string {
  const withoutTags = html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
    .replace(/<\/?([A-Za-z][A-Za-z0-9-]*)\b[^>]*>/g, (_tag, name: string) =>
      BLOCK_TAGS.has(name.toLowerCase()) ? ' ' : '',
    );
  return collapse(decodeEntities(withoutTags));
}

// Control characters other than whitespace (PostgreSQL refuses NUL in text).
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** Whitespace runs → one space, control characters removed, trimmed. */
export function collapse(text: string): string {
  return text.replace(CONTROL, '').replace(/\s+/g, ' ').trim();
}

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Collapsed and truncated, or null when nothing is left. */
export function shortText(raw: unknown, max: number): string | null {
  if (typeof raw !== 'string') return null;
  const text = truncate(collapse(raw), max).trim();
  return text === '' ? null : text;
}

/** Signal text from parts (e.g. title and body): each collapsed, joined by a blank line, truncated; null if empty. */
export function signalText(...parts: (string | null | undefined)[]): string | null {
  const text = parts
    .map((part) => (part ? collapse(part) : ''))
    .filter(Boolean)
    .join('\n\n');
  return text === '' ? null : truncate(text, LIMITS.text).trim();
}

/** An absolute http(s) URL of acceptable length, normalised, or null. */
export function httpUrl(raw: unknown, base?: string): string | null {
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.href.length <= LIMITS.url ? url.href : null;
}

/** Epoch ms that is never later than `now`; a missing or unparsable time becomes `now`. */
export function clampTime(ms: number | null | undefined, now: number): number {
  return typeof ms === 'number' && Number.isFinite(ms) ? Math.min(Math.round(ms), now) : now;
}

/** Keywords within the contract: trimmed, 1–100 chars, unique (case-insensitively), at most 50; null if none. */
export function cleanKeywords(raw: Iterable<unknown>): string[] | null {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    const keyword = shortText(item, LIMITS.keyword);
    if (keyword === null || seen.has(keyword.toLowerCase())) continue;
    seen.add(keyword.toLowerCase());
    out.push(keyword);
    if (out.length === LIMITS.keywords) break;
  }
  return out.length > 0 ? out : null;
}

/** A non-negative integer count, or undefined. */
export function count(raw: unknown): number | undefined {
  return typeof raw === 'number' && Number.isFinite(raw) ? Math.max(0, Math.trunc(raw)) : undefined;
}

/** Engagement with only the counts that are known, or null. */
export function engagement(counts: {
  likes?: number;
  shares?: number;
  comments?: number;
  views?: number;
}): { likes?: number; shares?: number; comments?: number; views?: number } | null {
  const known = Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== undefined));
  return Object.keys(known).length > 0 ? known : null;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** An external id within 256 chars: longer ids are replaced by their hash so they stay unique. */
export function externalId(raw: string): string {
  return raw.length <= LIMITS.externalId ? raw : sha256(raw);
}

/**
 * Where a time-ordered listing stopped: the newest item time, and short hashes of the ids seen at exactly
 * that time (several items can share a timestamp; the ones not yet seen must still come through).
 */
export interface SeenUpTo {
  newest: number;
  ids: string[];
}

const idHash = (id: string) => sha256(id).slice(0, 16);

export function parseSeen(raw: unknown): SeenUpTo | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { newest, ids } = raw as { newest?: unknown; ids?: unknown };
  if (typeof newest !== 'number' || !Number.isFinite(newest)) return null;
  return { newest, ids: Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [] };
}

function isUnseen(seen: SeenUpTo | null, time: number, id: string): boolean {
  if (seen === null || time > seen.newest) return true;
  return time === seen.newest && !seen.ids.includes(idHash(id));
}

function advance(seen: SeenUpTo | null, time: number, id: string): SeenUpTo {
  if (seen === null || time > seen.newest) return { newest: time, ids: [idHash(id)] };
  if (time < seen.newest || seen.ids.length >= 50 || seen.ids.includes(idHash(id))) return seen;
  return { newest: time, ids: [...seen.ids, idHash(id)] };
}

/**
 * The signals not handed over before `seen`, and where the listing now stops. `time` is the item's own
 * time (epoch ms); items without one, or dated after `now`, cannot be placed: they always pass and do not
 * move the cursor (storage deduplicates them).
 */
export function unseenSince(
  seen: SeenUpTo | null,
  items: { signal: SourceSignal; time: number | null }[],
  now: number,
): { signals: SourceSignal[]; seen: SeenUpTo | null } {
  const signals: SourceSignal[] = [];
  let next = seen;
  for (const { signal, time } of items) {
    if (time === null || time > now) {
      signals.push(signal);
    } else if (isUnseen(seen, time, signal.external_id)) {
      signals.push(signal);
      next = advance(next, time, signal.external_id);
    }
  }
  return { signals, seen: next };
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the source';
  }
}

interface HttpAnswer {
  status: number;
  headers: Headers;
  /** The body for 2xx answers ('' otherwise: error bodies are never read or shown). */
  body: string;
}

function requestFailure(context: SourceContext, url: string, error: unknown): unknown {
  if (context.signal.aborted) return error;
  const timedOut = error instanceof Error && error.name === 'TimeoutError';
  const message = timedOut
    ? `${hostOf(url)} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`
    : `${hostOf(url)} could not be reached`;
  return Object.assign(new SourceError(message), { cause: error });
}

async function readBody(response: Response, url: string, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw new SourceError(`${hostOf(url)} sent more than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** GET with a 10 s timeout (on top of the service's signal) and a bounded body; network failures → SourceError. */
export async function httpGet(
  context: SourceContext,
  url: string,
  headers: Record<string, string>,
  maxBytes = MAX_BODY_BYTES,
): Promise<HttpAnswer> {
  // Not AbortSignal.timeout(): on Node 20 a timeout signal held only by AbortSignal.any can be garbage
  // collected and never fire. The timer keeps this controller alive.
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new DOMException('request timed out', 'TimeoutError')),
    REQUEST_TIMEOUT_MS,
  );
  const signal = AbortSignal.any([context.signal, timeout.signal]);
  try {
    const merged = new Headers({ 'user-agent': USER_AGENT });
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    const response = await context.fetch(url, { signal, headers: merged });
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => {});
      return { status: response.status, headers: response.headers, body: '' };
    }
    return {
      status: response.status,
      headers: response.headers,
      body: await readBody(response, url, maxBytes),
    };
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw requestFailure(context, url, error);
  } finally {
    clearTimeout(timer);
  }
}

/** Throws `<host> answered <status>` for anything but 2xx. */
export function ensureOk(answer: HttpAnswer, url: string): void {
  if (answer.status < 200 || answer.status > 299) {
    throw new SourceError(`${hostOf(url)} answered ${answer.status}`, answer.status);
  }
}

export function parseJson(answer: HttpAnswer, url: string): unknown {
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new SourceError(`${hostOf(url)} sent a body that is not JSON`);
  }
}
