// The complaint layer's tokenizer: one pass over a text gives its lower-cased ASCII words with their clause,
// case, handles, tags, names and short quotations, each word looked up once in the token table.
import {
  CORRECTED,
  F_BUT,
  F_NUMBER,
  F_RESOLVED,
  F_VADER_NEGATOR,
  INFO,
  MILD_NEGATIVE,
  type TokenInfo,
} from './complaint-words.ts';

/** A text's tokens: lower-cased words (ASCII letters, digits, inner apostrophes), with their clause. */
export interface Tokens {
  words: string[];
  infos: (TokenInfo | undefined)[];
  clause: number[];
  /** Whether the word follows "@" or "#" (a handle or a tag). */
  handle: boolean[];
  /** Whether the word follows "#" (a tag). */
  hashtag: boolean[];
  /** Whether the word is a name: written with a capital then lower case, not first in its clause ("Zipline"). */
  name: boolean[];
  /** Offset of the word in the text. */
  start: number[];
  /** How each clause ended, by clause number: the class of its end character, or C_OPEN at the text's end. */
  clauseEnd: number[];
  /** The original text, and whether its offsets match the lower-cased text's. */
  text: string;
  aligned: boolean;
  /** Whether the word was written in lower case (VADER's negators are case-sensitive: "Not" negates nothing). */
  lowerCase: boolean[];
  /** Number of tokens (the arrays are scratch space and may be longer). */
  length: number;
  /** Index of the first token VADER reads as "but" (exactly `but` or `BUT`), −1 when none. */
  butIndex: number;
  exclamations: number;
  questions: number;
  /** Whether any token can start a phrase or be corrected: without one the layer changes nothing. */
  relevant: boolean;
  /** Closed quotations of at most QUOTED_REACH words, as [from, to) token pairs. */
  quotes: number[];
  /** Token where an open double or single quotation starts, −1 when none is open. */
  openDouble: number;
  openSingle: number;
  /** Whether a word has a negative VADER valence (the question rule may then apply). */
  negative: boolean;
  /** The sentences of the text while `readSentences` reads it, else null. */
  sentences: SentenceTrack | null;
}

/**
 * Set while `readSentences` reads a text: which sentence each token is in, each sentence's first "but", and
 * what the reading credits to each sentence.
 */
export interface SentenceTrack {
  /** Token → sentence. */
  of: Int32Array;
  /** Sentence → its first token VADER reads as "but", −1 when none. */
  but: Int32Array;
  /** Sentence → the part of Δ from its tokens. */
  delta: Float64Array;
  /** Sentence → the sum of its phrase weights. */
  phrases: Float64Array;
  /** Sentence → whether it holds a VADER word of valence ≤ −1.5 that counts as a complaint. */
  strongWord: Uint8Array;
}

/** Praise words inside a quotation of at most this many words are the company's words, not the writer's. */
export const QUOTED_REACH = 8;

/** Character classes of the lower-cased ASCII range: what the tokenizer does with each code unit. */
const C_OTHER = 0;
const C_LETTER = 1;
const C_DIGIT = 2;
const C_APOSTROPHE = 3;
const C_CLAUSE_END = 4; // . ; : and line breaks
const C_EXCLAMATION = 5;
export const C_QUESTION = 6;
/** A clause that runs to the end of the text without a closing mark. */
export const C_OPEN = 7;
const CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CLASS[c] = C_LETTER;
for (let c = 48; c <= 57; c++) CLASS[c] = C_DIGIT;
CLASS[39] = C_APOSTROPHE;
for (const c of '.;:\n') CLASS[c.charCodeAt(0)] = C_CLAUSE_END;
CLASS[33] = C_EXCLAMATION;
CLASS[63] = C_QUESTION;

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

// Scratch token arrays, reused by every call (scoring is synchronous and never re-entered).
const SCRATCH: Tokens = {
  words: [],
  infos: [],
  clause: [],
  handle: [],
  hashtag: [],
  name: [],
  start: [],
  clauseEnd: [],
  text: '',
  aligned: true,
  lowerCase: [],
  length: 0,
  butIndex: -1,
  exclamations: 0,
  questions: 0,
  relevant: false,
  quotes: [],
  openDouble: -1,
  openSingle: -1,
  negative: false,
  sentences: null,
};

/** Closes the quotation that opened at token `from` after the last token pushed. */
function closeQuote(t: Tokens, from: number): void {
  const to = t.length;
  if (to <= from || to - from > QUOTED_REACH) return;
  t.quotes.push(from, to);
  t.relevant = true;
}

/** Appends the word lower[a, b) (apostrophes at its ends dropped: they are quotes). */
function pushWord(
  t: Tokens,
  text: string,
  lower: string,
  aligned: boolean,
  from: number,
  to: number,
  clause: number,
) {
  let a = from;
  let b = to;
  while (a < b && lower.charCodeAt(a) === 39) a++;
  while (b > a && lower.charCodeAt(b - 1) === 39) b--;
  if (b <= a) return;
  const word = lower.slice(a, b);
  const info = INFO.get(word);
  const k = t.length++;
  t.words[k] = word;
  t.infos[k] = info;
  t.clause[k] = clause;
  const before = a > 0 ? lower.charCodeAt(a - 1) : 0;
  t.handle[k] = before === 64 || before === 35;
  t.hashtag[k] = before === 35;
  const c0 = text.charCodeAt(a);
  const c1 = text.charCodeAt(a + 1);
  t.name[k] = aligned && c0 >= 65 && c0 <= 90 && c1 >= 97 && c1 <= 122 && k > 0 && t.clause[k - 1] === clause;
  t.start[k] = a;
  // Apostrophes around words are single quotes ("the 'priority' line"); a closing one alone is a possessive.
  if (a > from && t.openSingle === -1) t.openSingle = k;
  if (b < to && t.openSingle !== -1) {
    closeQuote(t, t.openSingle);
    t.openSingle = -1;
  }
  if (before === 35) t.relevant = true;
  let lowerCase = true;
  if (info !== undefined) {
    if ((info.flags & (F_VADER_NEGATOR | F_BUT)) !== 0 && aligned) {
      const original = text.slice(a, b);
      lowerCase = original === word;
      if (t.butIndex === -1 && (info.flags & F_BUT) !== 0 && (lowerCase || original === 'BUT'))
        t.butIndex = k;
    }
    if (info.root !== undefined || (info.flags & (CORRECTED | F_NUMBER | F_RESOLVED)) !== 0)
      t.relevant = true;
  } else if (isDigit(word.charCodeAt(0))) t.relevant = true;
  t.lowerCase[k] = lowerCase;
}

export function tokenize(text: string): Tokens {
  let lower = text.toLowerCase();
  if (lower.includes('\u2019')) lower = lower.replaceAll('\u2019', "'");
  // Lower-casing can change the length of a few non-ASCII strings; then the original case is not consulted.
  const aligned = lower.length === text.length;
  const t = SCRATCH;
  t.length = 0;
  t.text = text;
  t.aligned = aligned;
  t.butIndex = -1;
  t.exclamations = 0;
  t.questions = 0;
  t.relevant = false;
  t.quotes.length = 0;
  t.openDouble = -1;
  t.openSingle = -1;
  t.negative = false;
  t.sentences = null;
  let clauseNo = 0;
  let start = -1;
  const len = lower.length;
  for (let p = 0; p <= len; p++) {
    const c = p < len ? lower.charCodeAt(p) : 32;
    const cls = c < 128 ? CLASS[c]! : C_OTHER;
    if (cls >= C_LETTER && cls <= C_APOSTROPHE) {
      if (start === -1) start = p;
      else if (cls === C_LETTER && CLASS[lower.charCodeAt(p - 1)] === C_DIGIT) {
        // "3hrs" → "3" "hrs"; ordinals ("3rd") stay whole.
        let q = p;
        while (q < len && isLetter(lower.charCodeAt(q))) q++;
        const suffix = lower.slice(p, q);
        if (suffix !== 'st' && suffix !== 'nd' && suffix !== 'rd' && suffix !== 'th') {
          pushWord(t, text, lower, aligned, start, p, clauseNo);
          start = p;
        }
      }
      continue;
    }
    if (start !== -1) {
      pushWord(t, text, lower, aligned, start, p, clauseNo);
      start = -1;
    }
    if (c === 34 || c === 0x201c || c === 0x201d) {
      if (t.openDouble === -1) t.openDouble = t.length;
      else {
        closeQuote(t, t.openDouble);
        t.openDouble = -1;
      }
    }
    if (cls < C_CLAUSE_END) continue;
    // A time or a decimal ("6:10", "3.5 hours") is not a clause end.
    if (
      (c === 58 || c === 46) &&
      p > 0 &&
      isDigit(lower.charCodeAt(p - 1)) &&
      isDigit(lower.charCodeAt(p + 1))
    )
      continue;
    if (cls === C_EXCLAMATION) t.exclamations++;
    else if (cls === C_QUESTION) t.questions++;
    // Clause ends: . ! ? ; : and line breaks.
    if (t.length > 0 && t.clause[t.length - 1] === clauseNo) t.clauseEnd[clauseNo++] = cls;
  }
  if (t.length > 0 && t.clause[t.length - 1] === clauseNo) t.clauseEnd[clauseNo] = C_OPEN;
  if (t.questions > 0) {
    for (let k = 0; k < t.length && !t.negative; k++)
      if ((t.infos[k]?.valence ?? MILD_NEGATIVE.get(t.words[k]!) ?? 0) < 0) t.negative = true;
    if (t.negative) t.relevant = true;
  }
  return t;
}

export function flagsAt(t: Tokens, k: number): number {
  return t.infos[k]?.flags ?? 0;
}

export function isNumberToken(t: Tokens, k: number): boolean {
  return isDigit(t.words[k]!.charCodeAt(0)) || (flagsAt(t, k) & F_NUMBER) !== 0;
}
