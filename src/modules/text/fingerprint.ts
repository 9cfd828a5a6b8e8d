// Text fingerprints: a post as copy-paste sees it (lower case, without URLs, @handles, a leading "RT", digits
// and punctuation), and its 32-bit hash. Trend evidence folds copies by it (trends/evidence.ts).

const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S*|\bwww\.\S+/g;
const HANDLE = /(?<![\p{L}\p{N}_])@[\p{L}\p{N}_]+/gu;
const RETWEET = /^\s*rt\b[\s:]*/;
const NOT_LETTERS = /[^\p{L}\p{M}]+/gu;

/**
 * A text as copy-paste sees it: lower case, without URLs, @handles, a leading "RT", digits and punctuation,
 * words separated by single spaces. Two posts with the same fingerprint are one text, whatever their links,
 * mentions, counters or punctuation.
 */
export function textFingerprint(text: string): string {
  // NFKC leaves ASCII as it is; skipping it there saves a copy of most texts.
  return (isAscii(text) ? text : text.normalize('NFKC'))
    .toLowerCase()
    .replace(URL, ' ')
    .replace(HANDLE, ' ')
    .replace(RETWEET, '')
    .replace(NOT_LETTERS, ' ')
    .trim();
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** FNV-1a over UTF-16 code units, as an unsigned 32-bit integer (a small integer for V8's sets). */
export function hash32(text: string, seed = FNV_OFFSET): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h >>> 0;
}

/** The fingerprint of a signal's title and text, hashed. */
export function signalFingerprint(text: string, title?: string | null): number {
  const full = title ? `${title} ${text}` : text;
  // ASCII (most posts): the same hash in one pass over the text, without the copies the regular expressions make.
  return isAscii(full) ? asciiFingerprintHash(full) : hash32(textFingerprint(full));
}

const FNV_OFFSET = 0x811c9dc5;
/** Gap marks of the text being fingerprinted (reused: one text at a time per thread). */
let gaps = new Uint8Array(1024);
/** Spans the fingerprint's patterns replace by a space. */
const URL_GAP = 1;
const HANDLE_GAP = 2;
const FNV_PRIME = 0x01000193;

/** ASCII classes of the fingerprint's patterns: letters, `\w` characters, URL scheme characters, `\s`. */
const LETTER = 1;
const WORD = 2;
const SCHEME = 4;
const SPACE = 8;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const digit = c >= 0x30 && c <= 0x39;
  if (letter) ASCII_CLASS[c]! |= LETTER;
  if (letter || digit || c === 0x5f) ASCII_CLASS[c]! |= WORD;
  if (letter || digit || c === 0x2b || c === 0x2e || c === 0x2d) ASCII_CLASS[c]! |= SCHEME;
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) ASCII_CLASS[c]! |= SPACE;
}

/**
 * `hash32(textFingerprint(text))` for an ASCII text, read once. The spans the URL and handle patterns would
 * replace are found as those patterns find them (left to right; a handle's look-behind reads the text with URLs
 * already replaced by a space); what is left is the text's letter runs, lower-cased and joined by single spaces,
 * less a leading "rt" that RETWEET would drop.
 */
function asciiFingerprintHash(text: string): number {
  const n = text.length;
  // Gaps only where a URL or a handle can be (most posts have neither).
  const urls = text.includes('://') || WWW.test(text);
  const handles = text.includes('@');
  const gap = urls || handles ? gapsFor(n) : null;
  if (gap !== null && urls) markUrls(text, gap);
  if (gap !== null && handles) markHandles(text, gap);
  const open = (p: number) => gap === null || gap[p] === 0;
  // A leading "rt" (after spaces and gaps) that ends a word is dropped.
  let from = 0;
  while (from < n && (!open(from) || (ASCII_CLASS[text.charCodeAt(from)]! & SPACE) !== 0)) from++;
  if (
    from + 1 < n &&
    (text.charCodeAt(from) | 0x20) === 0x72 &&
    (text.charCodeAt(from + 1) | 0x20) === 0x74 &&
    open(from + 1) &&
    (from + 2 >= n || !open(from + 2) || (ASCII_CLASS[text.charCodeAt(from + 2)]! & WORD) === 0)
  ) {
    from += 2;
  }
  // Letter runs outside the gaps, lower-cased, one space between runs.
  let h = FNV_OFFSET;
  let inRun = false;
  let runs = 0;
  for (let p = from; p < n; p++) {
    const c = text.charCodeAt(p);
    if ((ASCII_CLASS[c]! & LETTER) !== 0 && (gap === null || gap[p] === 0)) {
      if (!inRun) {
        if (runs++ > 0) h = Math.imul(h ^ 0x20, FNV_PRIME);
        inRun = true;
      }
      h = Math.imul(h ^ (c | 0x20), FNV_PRIME);
    } else inRun = false;
  }
  return h >>> 0;
}

const WWW = /www\./i;

/** The reused gap marks, cleared for a text of `n` code units. */
function gapsFor(n: number): Uint8Array {
  if (gaps.length < n) gaps = new Uint8Array(Math.max(n, 2 * gaps.length));
  gaps.fill(0, 0, n);
  return gaps;
}

/** The class of the code unit at `i` (0 outside the text). */
function classAt(text: string, i: number): number {
  return i >= 0 && i < text.length ? ASCII_CLASS[text.charCodeAt(i)]! : 0;
}

/**
 * URL_GAP over what URL (\b[a-z][a-z0-9+.-]*:\/\/\S* | \bwww\.\S+, case-folded) replaces: left to right, the
 * first alternative before the second at each place.
 */
function markUrls(text: string, gap: Uint8Array): void {
  const n = text.length;
  let failedRunEnd = -1; // a scheme run from here on ends there and is not followed by "://"
  for (let p = 0; p < n; p++) {
    if ((classAt(text, p) & LETTER) === 0 || (classAt(text, p - 1) & WORD) !== 0) continue;
    let end = -1;
    if (p >= failedRunEnd) {
      let r = p + 1;
      while (r < n && (classAt(text, r) & SCHEME) !== 0) r++;
      if (text.startsWith('://', r)) end = r + 3;
      else failedRunEnd = r;
    }
    if (end === -1 && (text.charCodeAt(p) | 0x20) === 0x77 && isWww(text, p) && p + 4 < n) {
      if ((classAt(text, p + 4) & SPACE) === 0) end = p + 5;
    }
    if (end === -1) continue;
    while (end < n && (classAt(text, end) & SPACE) === 0) end++;
    gap.fill(URL_GAP, p, end);
    p = end - 1;
  }
}

/**
 * HANDLE_GAP over what HANDLE replaces once URLs are a space: @ not after a letter, digit or _ (a handle before
 * it is not yet replaced), then letters, digits or _.
 */
function markHandles(text: string, gap: Uint8Array): void {
  const n = text.length;
  for (let p = 0; p < n; p++) {
    if (gap[p] !== 0 || text.charCodeAt(p) !== 0x40) continue;
    if (p > 0 && gap[p - 1] !== URL_GAP && (classAt(text, p - 1) & WORD) !== 0) continue;
    let end = p + 1;
    while (end < n && gap[end] === 0 && (classAt(text, end) & WORD) !== 0) end++;
    if (end === p + 1) continue;
    gap.fill(HANDLE_GAP, p, end);
    p = end - 1;
  }
}

/** `www.` at `p`, in any case. */
function isWww(text: string, p: number): boolean {
  return (
    (text.charCodeAt(p + 1) | 0x20) === 0x77 &&
    (text.charCodeAt(p + 2) | 0x20) === 0x77 &&
    text.charCodeAt(p + 3) === 0x2e
  );
}
