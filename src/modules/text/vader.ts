/**
 * A fast reimplementation of the `vader-sentiment` package's `polarity_scores(text).compound`, returning the
 * exact same number for every input (bit for bit, including every quirk of the port), several times faster.
 *
 * Why the port is slow: for every text it builds a dictionary of every word × 17 punctuation strings × 2,
 * copies the 59-word negation list on every negation check, splices arrays, and so on. The equivalences used
 * here instead (checked by test/modules/text/vader.test.ts against the package itself):
 *  - Tokens: `text.split(/\s/)` without singletons (UTF-16 length ≤ 1). The port replaces a token by the
 *    bare word `w` when the token is `P + w` or `w + P`, P one of PUNC_LIST and `w` a word (length > 1) of
 *    the text with all ASCII punctuation removed. Removing punctuation never touches whitespace, so the
 *    token's own stripped form is always such a word; the rule is therefore local to the token: exactly one
 *    leading (or trailing) run of ASCII punctuation, that run one of PUNC_LIST, and at least 2 characters
 *    with no ASCII punctuation left.
 *  - Valences: tokens that are boosters (or `kind` before `of`) and tokens not in the lexicon score 0; the
 *    rest follow `sentiment_valence` (caps emphasis, boosters up to 3 back, never/so/this, idioms, least).
 *    Zero valences are skipped in the sum: adding ±0 never changes a sum that starts at +0.
 *  - `but_check` scales by the position of the first `but` (else the first `BUT`): ×0.5 before, ×1.5 after.
 *  - `idioms_check` is only reached at index ≥ 3, so its backward n-grams never contain `undefined`.
 *  - `is_cap_diff` (some but not all tokens ALL CAPS) is only computed when an ALL-CAPS word needs it.
 *
 * The lexicon is the package's own (`src/vader_lexicon.js`, loaded once into a Map). The package's main
 * entry exports only the analyzer, and its `src/vaderSentiment.js` (with the constants) mixes `export` and
 * `require`, so it cannot be loaded under every loader this project uses (it fails under the
 * `tsx/esm/api` registration of bin/crestwatch.mjs); its numeric constants are therefore repeated below and
 * its word tables in data/sentiment/vader-tables.json, and the tests assert they equal the package's.
 */
import { createRequire } from 'node:module';
import Type from 'typebox';
import { loadJson } from '../../platform/data-files.ts';

const require = createRequire(import.meta.url);
const { lexicon } = require('vader-sentiment/src/vader_lexicon.js') as { lexicon: Record<string, number> };

// ---------- constants of vader-sentiment 1.1.3 (src/vaderSentiment.js), asserted equal in the tests

/** Mean intensity increase of a booster word. */
export const B_INCR = 0.293;
export const B_DECR = -0.293;
/** Mean intensity increase of an ALL-CAPS word among mixed-case words. */
export const C_INCR = 0.733;
export const N_SCALAR = -0.74;

/** The port's word tables in a data folder laid out as data/sentiment/ is (the package's own; README.md there). */
export function readVaderTables(dir: URL) {
  return loadJson(
    new URL('vader-tables.json', dir),
    Type.Object(
      {
        punctuation: Type.Array(Type.String({ minLength: 1 })),
        negations: Type.Array(Type.String({ minLength: 1 })),
        boosters: Type.Object(
          {
            increase: Type.Array(Type.String({ minLength: 1 })),
            decrease: Type.Array(Type.String({ minLength: 1 })),
          },
          { additionalProperties: false },
        ),
        idioms: Type.Record(Type.String({ minLength: 1 }), Type.Number()),
      },
      { additionalProperties: false },
    ),
  );
}
const TABLES = readVaderTables(new URL('./data/sentiment/', import.meta.url));

export const PUNC_LIST: readonly string[] = TABLES.punctuation;
export const NEGATE: readonly string[] = TABLES.negations;

/** Booster/dampener words ("degree adverbs") and their scalar; a few keys are two words. */
export const BOOSTER_DICT: Readonly<Record<string, number>> = Object.fromEntries([
  ...TABLES.boosters.increase.map((w) => [w, B_INCR] as const),
  ...TABLES.boosters.decrease.map((w) => [w, B_DECR] as const),
]);

/** Idioms that override the valence of a sentiment-laden word they contain. */
export const SPECIAL_CASE_IDIOMS: Readonly<Record<string, number>> = TABLES.idioms;

// ---------- lookup tables, built once

/** What a lower-cased token is: its lexicon valence and/or its booster scalar. */
interface Entry {
  lex: number | undefined;
  boost: number | undefined;
}

const ENTRIES = new Map<string, Entry>();
for (const [word, valence] of Object.entries(lexicon)) ENTRIES.set(word, { lex: valence, boost: undefined });
for (const [word, scalar] of Object.entries(BOOSTER_DICT)) {
  // Two-word keys can never equal a token (tokens hold no whitespace); they only matter in idioms_check.
  if (/\s/.test(word)) continue;
  const entry = ENTRIES.get(word);
  if (entry) entry.boost = scalar;
  else ENTRIES.set(word, { lex: undefined, boost: scalar });
}

const NEGATE_SET = new Set(NEGATE);
const PUNC_SET = new Set(PUNC_LIST);
const IDIOMS = new Map(Object.entries(SPECIAL_CASE_IDIOMS));
/** Every word of an idiom or two-word booster: an n-gram with any other token cannot match. */
const NGRAM_WORDS = new Set(
  [...Object.keys(SPECIAL_CASE_IDIOMS), ...Object.keys(BOOSTER_DICT)].flatMap((key) => key.split(' ')),
);

/** The characters REGEX_REMOVE_PUNCTUATION removes: all of ASCII punctuation. */
const IS_PUNCT = new Uint8Array(128);
for (const ch of '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') IS_PUNCT[ch.charCodeAt(0)] = 1;

/** JavaScript's `\s`, one UTF-16 code unit. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isPunct(c: number): boolean {
  return c < 128 && IS_PUNCT[c] === 1;
}

/** Python's `str.isupper` as the port does it: some ASCII capital and no ASCII small letter. */
function isUpper(word: string): boolean {
  let upper = false;
  for (let k = 0; k < word.length; k++) {
    const c = word.charCodeAt(k);
    if (c >= 97 && c <= 122) return false;
    if (c >= 65 && c <= 90) upper = true;
  }
  return upper;
}

/** The port's `negated([word])`. */
function negatedWord(word: string): boolean {
  return NEGATE_SET.has(word) || word.includes("n't");
}

/** The token text[start, end) (length ≥ 2) as the port's words_and_emoticons holds it. */
function token(text: string, start: number, end: number): string {
  const first = text.charCodeAt(start);
  const last = text.charCodeAt(end - 1);
  const leading = isPunct(first);
  if (leading === isPunct(last)) return text.slice(start, end); // no punctuation run, or one at each end
  let a = start;
  let b = end;
  if (leading) while (a < end && isPunct(text.charCodeAt(a))) a++;
  else while (b > start && isPunct(text.charCodeAt(b - 1))) b--;
  if (b - a < 2) return text.slice(start, end);
  for (let k = a; k < b; k++) if (isPunct(text.charCodeAt(k))) return text.slice(start, end);
  const run = leading ? text.slice(start, a) : text.slice(b, end);
  return PUNC_SET.has(run) ? text.slice(a, b) : text.slice(start, end);
}

function idiom2(a: string, b: string): number | undefined {
  return NGRAM_WORDS.has(a) && NGRAM_WORDS.has(b) ? IDIOMS.get(a + ' ' + b) : undefined;
}

function idiom3(a: string, b: string, c: string): number | undefined {
  return NGRAM_WORDS.has(a) && NGRAM_WORDS.has(b) && NGRAM_WORDS.has(c)
    ? IDIOMS.get(a + ' ' + b + ' ' + c)
    : undefined;
}

function boosterBigram(a: string, b: string): boolean {
  return NGRAM_WORDS.has(a) && NGRAM_WORDS.has(b) && Object.hasOwn(BOOSTER_DICT, a + ' ' + b);
}

/** The port's idioms_check for the word at `i` (always ≥ 3). */
function idiomsCheck(valence: number, words: string[], i: number): number {
  const w3 = words[i - 3];
  const w2 = words[i - 2];
  const w1 = words[i - 1];
  const w0 = words[i];
  const found =
    idiom2(w1, w0) ?? idiom3(w2, w1, w0) ?? idiom2(w2, w1) ?? idiom3(w3, w2, w1) ?? idiom2(w3, w2);
  if (found !== undefined) valence = found;
  const n = words.length;
  if (n - 1 > i) {
    const v = idiom2(w0, words[i + 1]);
    if (v !== undefined) valence = v;
  }
  if (n - 1 > i + 1) {
    const v = idiom3(w0, words[i + 1], words[i + 2]);
    if (v !== undefined) valence = v;
  }
  if (boosterBigram(w3, w2) || boosterBigram(w2, w1)) valence = valence + B_DECR;
  return valence;
}

/**
 * VADER compound score of `text`, exactly `polarity_scores(text).compound` of vader-sentiment 1.1.3
 * (rounded to 4 decimals as the package does; 0 when the text has no token longer than one character).
 */
export function vaderCompound(text: string): number {
  const words: string[] = [];
  const lowers: string[] = [];
  const entries: (Entry | undefined)[] = [];
  let exclamations = 0;
  let questions = 0;
  let butIndex = -1;
  let butCapsIndex = -1;

  const len = text.length;
  let start = 0;
  for (let p = 0; p <= len; p++) {
    const c = p < len ? text.charCodeAt(p) : 32;
    if (c === 33) exclamations++;
    else if (c === 63) questions++;
    else if (isSpace(c)) {
      if (p - start > 1) {
        const word = token(text, start, p);
        const lower = word.toLowerCase();
        if (word === 'but') {
          if (butIndex === -1) butIndex = words.length;
        } else if (word === 'BUT' && butCapsIndex === -1) butCapsIndex = words.length;
        words.push(word);
        lowers.push(lower);
        entries.push(ENTRIES.get(lower));
      }
      start = p + 1;
    }
  }

  const n = words.length;
  if (n === 0) return 0;
  if (butIndex === -1) butIndex = butCapsIndex;

  // is_cap_diff, computed on first use: -1 unknown, 0 false, 1 true.
  let capDiffState = -1;
  const capDiff = (): boolean => {
    if (capDiffState === -1) {
      let upper = 0;
      for (let k = 0; k < n; k++) if (isUpper(words[k])) upper++;
      capDiffState = upper > 0 && upper < n ? 1 : 0;
    }
    return capDiffState === 1;
  };

  let sum = 0;
  for (let i = 0; i < n; i++) {
    const entry = entries[i];
    if (entry === undefined || entry.boost !== undefined || entry.lex === undefined) continue; // valence 0
    if (i < n - 1 && lowers[i] === 'kind' && lowers[i + 1] === 'of') continue;

    let valence = entry.lex;
    if (isUpper(words[i]) && capDiff()) {
      if (valence > 0) valence += C_INCR;
      else valence -= C_INCR;
    }

    for (let s = 0; s < 3 && s < i; s++) {
      const j = i - (s + 1);
      const prev = entries[j];
      if (prev !== undefined && prev.lex !== undefined) continue;
      // scalar_inc_dec
      let scalar = 0;
      if (prev !== undefined && prev.boost !== undefined) {
        scalar = prev.boost;
        if (valence < 0) scalar *= -1;
        if (isUpper(words[j]) && capDiff()) {
          if (valence > 0) scalar += C_INCR;
          else scalar -= C_INCR;
        }
      }
      if (s === 1 && scalar !== 0) scalar = scalar * 0.95;
      else if (s === 2 && scalar !== 0) scalar = scalar * 0.9;
      valence = valence + scalar;
      // never_check
      if (s === 0) {
        if (negatedWord(words[i - 1])) valence = valence * N_SCALAR;
      } else if (s === 1) {
        if (words[i - 2] === 'never' && (words[i - 1] === 'so' || words[i - 1] === 'this')) {
          valence = valence * 1.5;
        } else if (negatedWord(words[i - 2])) valence = valence * N_SCALAR;
      } else {
        if (
          (words[i - 3] === 'never' && (words[i - 2] === 'so' || words[i - 2] === 'this')) ||
          words[i - 1] === 'so' ||
          words[i - 1] === 'this'
        ) {
          valence = valence * 1.25;
        } else if (negatedWord(words[i - 3])) valence = valence * N_SCALAR;
        valence = idiomsCheck(valence, words, i);
      }
    }

    // least_check
    if (i > 0 && lowers[i - 1] === 'least' && entries[i - 1]?.lex === undefined) {
      if (i === 1 || (lowers[i - 2] !== 'at' && lowers[i - 2] !== 'very')) valence = valence * N_SCALAR;
    }

    // but_check
    if (butIndex !== -1) {
      if (i < butIndex) valence = valence * 0.5;
      else if (i > butIndex) valence = valence * 1.5;
    }
    sum += valence;
  }

  // punctuation_emphasis over the whole text
  const epAmplifier = Math.min(exclamations, 4) * 0.292;
  const qmAmplifier = questions > 1 ? (questions <= 3 ? questions * 0.18 : 0.96) : 0;
  const amplifier = epAmplifier + qmAmplifier;
  if (sum > 0) sum += amplifier;
  else if (sum < 0) sum -= amplifier;

  let compound = sum / Math.sqrt(sum * sum + 15);
  if (compound < -1) compound = -1;
  else if (compound > 1) compound = 1;
  return Number.parseFloat(compound.toFixed(4));
}
