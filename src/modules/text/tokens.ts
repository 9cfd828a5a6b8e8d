/**
 * wink-nlp's tokens of a text (value, type, preceding spaces), read chunk by chunk: chunks of a simple shape by
 * hand, the others through wink and a memo.
 *
 * wink splits a text at runs of spaces and at runs of line breaks and tabs, then tokenises each
 * whitespace-free chunk on its own: a chunk's tokens depend on nothing around it, and the run of spaces before a
 * chunk is the preceding spacing of its first token (its later tokens have none).
 *
 * Fast path. Most chunks are a word, mention or hashtag of ASCII letters, with quotes, brackets or marks before
 * or after it (`Japan`, `said,`, `"help!"`, `(Reuters)`, `end...`, `@user:`, `#flood.`), or a t.co link.
 * `pushSimple` reads those by a scan of their characters, as wink does (wink costs ~20 µs a chunk): a
 * punctuation token for each mark before the core, the core as one token, a punctuation token for each mark
 * after it (a run of periods is one); a link is one `url`. It leaves to wink what wink reads otherwise: the
 * contractions it expands (`cannot`, `dont`: data/tokens/wink-expansions.tsv), abbreviations it keeps whole with
 * their period (`Mr.`, `A.`: data/tokens/wink-abbreviations.tsv), emoticons (`:)`, `);`), periods its recursive
 * tokenizer splits (`(end...`), and every other character (apostrophes, hyphens, digits, accents). Numbers go to
 * wink too: an instance that met `h.287` reads `287` as a word from then on, and the memo keeps what it read.
 * Each shape was checked against wink on every chunk of the shared real posts and the demo signals;
 * test/modules/text/tokens.test.ts checks each shape and exclusion.
 *
 * wink reads the rest, each chunk once while it is in the memo: words repeat (a vocabulary is small beside the
 * texts written in it). wink also remembers every out-of-vocabulary token it meets, for the life of its
 * instance, and that memory never shrinks (about 120 bytes a token). Both memories are bounded here: the memo
 * is emptied when it holds MEMO_LIMIT chunks, and wink's instance is replaced after WINK_RECYCLE_CHUNKS chunks
 * it read (chunks of the fast path count towards neither).
 */
import Type from 'typebox';
import type { WinkMethods } from 'wink-nlp';
import { loadTsv } from '../../platform/data-files.ts';
import { newWink } from './wink.ts';

/** wink's token types (`its.type`): word, number, punctuation, hashtag, url, tabCRLF, … */
interface Tokens {
  values: string[];
  types: string[];
  /** The spacing before each token as wink reconstructs it: '' (none), spaces, or the non-breaking run itself. */
  spaces: string[];
}

interface ChunkTokens {
  values: string[];
  types: string[];
}

export const MEMO_LIMIT = 100_000;
/** Chunks wink reads before its instance (and the out-of-vocabulary tokens it has grown) is replaced. */
export const WINK_RECYCLE_CHUNKS = 200_000;
/** wink caps a count of preceding spaces below this (reconstruct-spaces: 0xFFFF means "non-breaking"). */
const MAX_SPACES = 0xfffe;

// wink's splitter (wink-eng-lite-web-model's trex.helpers.splitter) is
// /([ \u00a0\u2002-\u2005\u2009\u200a\u202f\u205f]+|[\n\r\t]+)/: `separator` reads the same classes.
const NON_BREAKING = /[\u00a0\u2002-\u2005\u2009\u200a\u202f\u205f]/;

// Loaded on first use, not at import: importers that do not extract should not pay for the model.
let wink: WinkMethods | null = null;
let chunksRead = 0;
const memo = new Map<string, ChunkTokens>();

function winkInstance(): WinkMethods {
  if (wink === null || chunksRead >= WINK_RECYCLE_CHUNKS) {
    // Tokens only: no sentence boundaries, part-of-speech tags or entities (they cost more than the tokenizer).
    wink = newWink([]);
    chunksRead = 0;
  }
  return wink;
}

/** What the memo holds and how many chunks the current wink instance has read (both bounded). */
export function tokenizerMemory(): { memoChunks: number; winkChunks: number } {
  return { memoChunks: memo.size, winkChunks: chunksRead };
}

const DATA = new URL('./data/tokens/', import.meta.url);
const expansionRows = loadTsv(
  new URL('wink-expansions.tsv', DATA),
  Type.Object({ word: Type.String({ pattern: '^[a-z]+$' }), kind: Type.Enum(['expansion', 'currency']) }),
);
/** Lower-case words wink does not read as themselves, one `word` (contractions it expands, currency codes). */
const NOT_ONE_WORD = new Set(expansionRows.map((row) => row.word));
/** Its recursive tokenizer finds these inside a chunk (`AUDIO` holds `AUD`), so they send a chunk to wink. */
const CURRENCY_CODES = expansionRows.filter((r) => r.kind === 'currency').map((r) => r.word.toUpperCase());
/** Lower-case abbreviations without their period (`mr`, `jan`): wink keeps them whole with it. */
const ABBREVIATIONS = new Set(
  loadTsv(
    new URL('wink-abbreviations.tsv', DATA),
    Type.Object({ abbreviation: Type.String({ pattern: '^[a-z]+\\.$' }) }),
  ).map((row) => row.abbreviation.slice(0, -1)),
);

const PERIOD = 0x2e;
const CLOSE_PAREN = 0x29;

/** Marks wink splits off the front of a word: ( [ { " ‘ “ */
function isLeadMark(c: number): boolean {
  return c === 0x28 || c === 0x5b || c === 0x7b || c === 0x22 || c === 0x2018 || c === 0x201c;
}

/** Marks wink splits off the end of a word: . , ! ? ; : ) ] } " / ’ ” … */
function isTailMark(c: number): boolean {
  switch (c) {
    case 0x2e:
    case 0x2c:
    case 0x21:
    case 0x3f:
    case 0x3b:
    case 0x3a:
    case 0x29:
    case 0x5d:
    case 0x7d:
    case 0x22:
    case 0x2f:
    case 0x2019:
    case 0x201d:
    case 0x2026:
      return true;
    default:
      return false;
  }
}

const isLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isLetterOrDigit = (c: number) => isLetter(c) || (c >= 0x30 && c <= 0x39);

/** The end of the word, mention or hashtag at `start` (as wink's patterns read them), or `start` if none. */
function coreEnd(chunk: string, start: number): number {
  const n = chunk.length;
  const first = chunk.charCodeAt(start);
  let i = start + 1;
  if (isLetter(first)) {
    while (i < n && isLetter(chunk.charCodeAt(i))) i++;
  } else if (first === 0x40) {
    // A mention: `@` and word characters (letters, digits, `_`).
    while (i < n && (isLetterOrDigit(chunk.charCodeAt(i)) || chunk.charCodeAt(i) === 0x5f)) i++;
    if (i === start + 1) return start;
  } else if (first === 0x23) {
    // A hashtag: `#`, a letter, then letters and digits.
    if (i === n || !isLetter(chunk.charCodeAt(i))) return start;
    while (i < n && isLetterOrDigit(chunk.charCodeAt(i))) i++;
  } else return start;
  return i;
}

/** A t.co link (`http://t.co/…`) of printable ASCII (or ending in `…`): wink's url pattern takes all of it. */
function isShortLink(chunk: string): boolean {
  const host = chunk.startsWith('http://t.co') ? 11 : chunk.startsWith('https://t.co') ? 12 : 0;
  if (host === 0) return false;
  if (host === chunk.length) return true;
  if (chunk.charCodeAt(host) !== 0x2f) return false;
  for (let i = host + 1; i < chunk.length; i++) {
    const c = chunk.charCodeAt(i);
    if ((c < 0x21 || c > 0x7e) && !(c === 0x2026 && i === chunk.length - 1)) return false;
  }
  return true;
}

/**
 * Pushes wink's tokens of a chunk of marks, a word (mention, hashtag) and marks, or of a t.co link (see the
 * header), and returns true; returns false, pushing nothing, for a chunk of another shape or one wink reads
 * otherwise.
 */
function pushSimple(
  chunk: string,
  before: string,
  values: string[],
  types: string[],
  spaces: string[],
): boolean {
  if (chunk.charCodeAt(0) === 0x68 && isShortLink(chunk)) {
    values.push(chunk);
    types.push('url');
    spaces.push(before);
    return true;
  }
  const n = chunk.length;
  let i = 0;
  while (i < n && isLeadMark(chunk.charCodeAt(i))) i++;
  const start = i;
  if (start === n) return false;
  const end = coreEnd(chunk, start);
  if (end === start) return false;
  for (i = end; i < n; i++) {
    const c = chunk.charCodeAt(i);
    if (!isTailMark(c)) return false;
    // `:` or `;` before another mark, or after `)`, is an emoticon to wink (`:)`, `;/`, `);`).
    if ((c === 0x3a || c === 0x3b) && (i + 1 < n || chunk.charCodeAt(i - 1) === CLOSE_PAREN)) return false;
  }
  const period = end < n && chunk.charCodeAt(end) === PERIOD;
  // Periods right after the core stay one run only when they end the chunk and nothing stands before the core:
  // otherwise wink's recursive tokenizer reads `word.` first (`(word...` is `(` `word` `.` `..`).
  if (period && end + 1 < n && chunk.charCodeAt(end + 1) === PERIOD) {
    let dots = end + 2;
    while (dots < n && chunk.charCodeAt(dots) === PERIOD) dots++;
    if (start > 0 || dots < n) return false;
  }
  const core = start === 0 && end === n ? chunk : chunk.slice(start, end);
  const first = chunk.charCodeAt(start);
  const type = first === 0x40 ? 'mention' : first === 0x23 ? 'hashtag' : 'word';
  if (type === 'word' && !plainWord(core, period)) return false;
  for (let k = 0; k < start; k++) {
    values.push(chunk[k]!);
    types.push('punctuation');
    spaces.push(k === 0 ? before : '');
  }
  values.push(core);
  types.push(type);
  spaces.push(start === 0 ? before : '');
  for (let k = end; k < n; ) {
    let next = k + 1;
    if (chunk.charCodeAt(k) === PERIOD) while (next < n && chunk.charCodeAt(next) === PERIOD) next++;
    values.push(next === k + 1 ? chunk[k]! : chunk.slice(k, next));
    types.push('punctuation');
    spaces.push('');
    k = next;
  }
  return true;
}

/** Whether wink reads an all-letter `word` as itself, one word (`period`: a period follows it). */
function plainWord(word: string, period: boolean): boolean {
  let upper = 0;
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) <= 0x5a) upper++;
  const lower = upper > 0 ? word.toLowerCase() : word;
  if (NOT_ONE_WORD.has(lower)) return false;
  if (upper >= 3 && CURRENCY_CODES.some((code) => word.includes(code))) return false;
  // `A.`, `Mr.`: one word with its period.
  return !(period && (word.length === 1 || ABBREVIATIONS.has(lower)));
}

/** A chunk's tokens as `pushSimple` reads them, or null for a chunk it leaves to wink (for tests). */
export function simpleTokens(chunk: string): ChunkTokens | null {
  const values: string[] = [];
  const types: string[] = [];
  return pushSimple(chunk, '', values, types, []) ? { values, types } : null;
}

/** Loads the English model now (call at worker start so the first signal does not pay for it). */
export function loadTokenizer(): void {
  winkInstance();
}

function chunkTokens(chunk: string): ChunkTokens {
  let tokens = memo.get(chunk);
  if (tokens === undefined) {
    const nlp = winkInstance();
    chunksRead++;
    const read = nlp.readDoc(chunk).tokens();
    tokens = { values: read.out(nlp.its.value) as string[], types: read.out(nlp.its.type) as string[] };
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(chunk, tokens);
  }
  return tokens;
}

/** The same tokens as wink-nlp's `readDoc(text).tokens()` (values, types and preceding spaces). */
export function tokenize(text: string): Tokens {
  const values: string[] = [];
  const types: string[] = [];
  const spaces: string[] = [];
  let before = '';
  const n = text.length;
  // Runs of spaces (wink's splitter: ' ' and the non-breaking spaces) and of line breaks and tabs; a run of line
  // breaks and tabs is a token of its own (`tabCRLF`), the text between runs a chunk.
  for (let i = 0; i < n; ) {
    const kind = separator(text.charCodeAt(i));
    let end = i + 1;
    while (end < n && separator(text.charCodeAt(end)) === kind) end++;
    const part = text.slice(i, end);
    i = end;
    if (kind === SPACE_RUN) {
      // A run of plain spaces is counted (and capped); one holding a non-breaking space is kept as written.
      before = part.length > MAX_SPACES && !NON_BREAKING.test(part) ? ' '.repeat(MAX_SPACES) : part;
      continue;
    }
    if (kind === BREAK_RUN || !pushSimple(part, before, values, types, spaces)) {
      const chunk = chunkTokens(part);
      for (let k = 0; k < chunk.values.length; k++) {
        values.push(chunk.values[k]!);
        types.push(chunk.types[k]!);
        spaces.push(k === 0 ? before : '');
      }
    }
    before = '';
  }
  return { values, types, spaces };
}

const CHUNK = 0;
const SPACE_RUN = 1;
const BREAK_RUN = 2;

/** Which of wink's runs a code unit belongs to. */
function separator(c: number): number {
  if (c === 0x20) return SPACE_RUN;
  if (c === 0x0a || c === 0x0d || c === 0x09) return BREAK_RUN;
  if (c < 0xa0) return CHUNK;
  return c === 0xa0 ||
    (c >= 0x2002 && c <= 0x2005) ||
    c === 0x2009 ||
    c === 0x200a ||
    c === 0x202f ||
    c === 0x205f
    ? SPACE_RUN
    : CHUNK;
}
