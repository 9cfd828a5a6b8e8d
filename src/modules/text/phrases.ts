/**
 * Phrase matching: whether a post mentions a key (an interest, a keyword) as whole words, whatever its
 * punctuation, case, accents or hashtag spelling. Words normalise as trend keys' words do
 * (`normaliseTokens`), so a phrase is `normaliseKey(keyword).split(' ')`.
 *
 * A post's tokens (`phraseTokens`): its words, and before the words of each hashtag of two words or more a
 * marker, `#` and its words glued (`#WestTexas` → `#westtexas`, `west`, `texas`). A hashtag is split at every
 * case change, more finely than keys are (`#COfire` → `co fire`, `#RescuePH` → `rescue ph`, `#iPhone` →
 * `i phone`, `#2024Election` → `2024 election`); a run of capitals before lower case ends before its last
 * capital when it has three or more (`#AIArt` → `ai art`), after itself when it has two (`#COfire`), except
 * `I` (`#IStand` → `i stand`).
 *
 * A phrase matches (`containsPhrase`, `PhraseIndex`) when
 *  1. its words are consecutive words of the post (markers skipped): `West, Texas`, `WEST TEXAS!`,
 *     `#WestTexas`;
 *  2. or its words glued, normalised as one word, equal one word of the post (`west texas` ~ `#westtexas`,
 *     `Westtexas`: both `westtexa`, as keys fold them), or equal consecutive words of one hashtag glued and
 *     normalised the same way (the key `rescueph` ~ `#RescuePH`, `lebron james` ~ `#LeBronJames`).
 * Words outside a hashtag are never glued: the key `westtexas` does not match "West Texas", since prose glued
 * invents words ("the rapist" → therapist, "is land" → island); the key `west texas` matches every spelling.
 * Whole words only: `ny` matches neither "Sunny" nor `#SunnyDay`. Plurals fold only as keys fold them.
 */
import { normaliseTokens } from './keys.ts';

/** Consecutive hashtag words glued at most (keys have at most 8 words). */
const MAX_GLUED = 8;

// keys.ts's: URLs go before hashtags are read (a URL's `#fragment` is no hashtag).
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/\S*|\bwww\.\S+/gi;
// A `#` inside a word (`C#`, `a#b`) starts no hashtag.
const HASHTAG = /(?<![\p{L}\p{M}\p{N}_&])#([\p{L}\p{M}\p{N}_]+)/gu;
const UPPER = /[\p{Lu}\p{Lt}]/u;
const LOWER = /\p{Ll}/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;
const MARK = /\p{M}/u;

// Character classes of a hashtag body.
const U = 1; // upper or title case
const L = 2; // lower case
const O = 3; // a letter without case (CJK, Arabic…)
const D = 4; // digit
const S = 5; // `_`

function classOf(c: string): number {
  if (c === '_') return S;
  if (UPPER.test(c)) return U;
  if (LOWER.test(c)) return L;
  if (LETTER.test(c)) return O;
  return DIGIT.test(c) ? D : L;
}

/** A hashtag body with spaces at its word boundaries (`COfire` → `CO fire`); see the module comment. */
function splitHashtag(body: string): string {
  const chars = Array.from(body);
  const classes: number[] = [];
  for (const c of chars) {
    // A combining mark belongs to its letter.
    classes.push(MARK.test(c) && classes.length > 0 ? classes[classes.length - 1] : classOf(c));
  }
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    if (classes[i] === S) out += ' ';
    else out += i > 0 && boundaryBefore(chars, classes, i) ? ` ${chars[i]}` : chars[i];
  }
  return out;
}

function boundaryBefore(chars: readonly string[], classes: readonly number[], i: number): boolean {
  const prev = classes[i - 1];
  const cls = classes[i];
  if (prev === S) return false;
  if (prev === O || cls === O) return prev !== cls;
  // `2024Election`, but `3DPrinting` and `5g` keep the letter with the number.
  if (prev === D) return cls === U && classes[i + 1] === L;
  // Letters then digits: normaliseTokens splits them as keys do (`covid19` → covid 19, `g7` kept).
  if (cls === D) return false;
  if (prev === L) return cls === U;
  // After capitals: `start` is the first of them; a capital right after digits belongs to the number.
  let start = i - 1;
  while (start > 0 && classes[start - 1] === U) start--;
  const afterDigit = start > 0 && classes[start - 1] === D;
  const run = i - start;
  if (cls === U) {
    if (classes[i + 1] !== L) return false;
    // The capital that begins a word: `AIArt`, `3DPrinting`, `IStand`.
    return afterDigit || run >= 2 || chars[start] === 'I';
  }
  // Two capitals then lower case: an acronym then a word (`COfire`), except `I` (`IStand`, split above).
  return run === 2 && !afterDigit && chars[start] !== 'I';
}

/** Hashtag markers start with `#`; words never do (normalisation drops it). */
const isMarker = (token: string) => token.charCodeAt(0) === 35;

/** Chunks and glued runs seen lately, normalised (bounded; emptied when full): words repeat across posts. */
const MEMO_LIMIT = 50_000;
const chunkMemo = new Map<string, readonly string[]>();
const glueMemo = new Map<string, string | null>();
const WHITESPACE = /\s+/;

function remember<V>(memo: Map<string, V>, key: string, value: V): V {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}

/**
 * A post's tokens: its words normalised as trend keys' words (case- and accent-folded, split at
 * punctuation, `U.S.` → `us`), each hashtag split into its words, and a marker (`#` + the words glued) before
 * the words of a hashtag of two words or more. URLs are dropped.
 */
export function phraseTokens(text: string): string[] {
  if (typeof text !== 'string' || text.length === 0) return [];
  const out: string[] = [];
  // Normalisation never joins across whitespace, so each chunk's tokens can be remembered.
  for (const chunk of text.split(WHITESPACE)) {
    if (chunk === '') continue;
    const tokens = chunkMemo.get(chunk) ?? remember(chunkMemo, chunk, chunkTokens(chunk));
    for (const token of tokens) out.push(token);
  }
  return out;
}

function chunkTokens(chunk: string): string[] {
  const prepared = chunk.normalize('NFKC').replace(URL_IN_TEXT, ' ');
  if (!prepared.includes('#')) return normaliseTokens(prepared);
  const out: string[] = [];
  let from = 0;
  for (const match of prepared.matchAll(HASHTAG)) {
    const at = match.index;
    if (at > from) out.push(...normaliseTokens(prepared.slice(from, at)));
    from = at + match[0].length;
    const words = normaliseTokens(splitHashtag(match[1]));
    if (words.length > 1) out.push(`#${words.join('')}`);
    out.push(...words);
  }
  if (from < prepared.length) out.push(...normaliseTokens(prepared.slice(from)));
  return out;
}

/** Words glued, normalised as one word (`west`, `texas` → `westtexa`, as `normaliseKey('westtexas')`). */
function glue(glued: string): string | null {
  const known = glueMemo.get(glued);
  if (known !== undefined) return known;
  const words = normaliseTokens(glued);
  return remember(glueMemo, glued, words.length === 1 ? words[0] : null);
}

/** A post's words without markers, and its hashtags of two words or more as [start, end) over the words. */
interface Read {
  words: string[];
  hashtags: number[];
}

function read(tokens: readonly string[]): Read {
  const words: string[] = [];
  const hashtags: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!isMarker(token)) {
      words.push(token);
      continue;
    }
    // The words that spell the marker follow it.
    const body = token.slice(1);
    let glued = '';
    let j = i + 1;
    while (j < tokens.length && glued.length < body.length && !isMarker(tokens[j])) glued += tokens[j++];
    if (glued !== body) continue;
    hashtags.push(words.length, words.length + (j - i - 1));
    for (let k = i + 1; k < j; k++) words.push(tokens[k]);
    i = j - 1;
  }
  return { words, hashtags };
}

/** Whether `visit` is true for the glued form of a run of 2+ consecutive words inside one hashtag. */
function someGluedRun(r: Read, visit: (glued: string) => boolean): boolean {
  for (let h = 0; h < r.hashtags.length; h += 2) {
    const end = r.hashtags[h + 1];
    for (let a = r.hashtags[h]; a < end - 1; a++) {
      let raw = r.words[a];
      for (let b = a + 1; b < Math.min(end, a + MAX_GLUED); b++) {
        raw += r.words[b];
        const glued = glue(raw);
        if (glued !== null && visit(glued)) return true;
      }
    }
  }
  return false;
}

/** Whether `phrase` (a key's words) occurs in `tokens` (`phraseTokens`), by the module comment's rules. */
export function containsPhrase(tokens: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0 || tokens.length === 0) return false;
  const r = read(tokens);
  const { words } = r;
  for (let i = 0; i + phrase.length <= words.length; i++) {
    let k = 0;
    while (k < phrase.length && words[i + k] === phrase[k]) k++;
    if (k === phrase.length) return true;
  }
  const glued = glue(phrase.join(''));
  if (glued === null) return false;
  if (phrase.length > 1 && words.includes(glued)) return true;
  return someGluedRun(r, (g) => g === glued);
}

interface TrieNode {
  next: Map<string, TrieNode> | undefined;
  /** Ids of the phrases ending here. */
  ends: number[] | undefined;
}

function add<K>(map: Map<K, number[]>, key: K, id: number): void {
  const ids = map.get(key);
  if (ids === undefined) map.set(key, [id]);
  else ids.push(id);
}

/**
 * Many phrases matched at once, in time linear in a post's tokens: phrases are a trie by their words (each
 * post word starts one walk), and are looked up by their glued form (each word, each glued run of hashtag
 * words). Built from keys (`normaliseKey` results); `matches` gives those a post mentions, in the keys'
 * order.
 */
export class PhraseIndex {
  readonly keys: readonly string[];
  private readonly root = new Map<string, TrieNode>();
  /** Glued forms of phrases of two words or more, which may be one word of a post. */
  private readonly gluedWords = new Map<string, number[]>();
  /** Glued forms of every phrase, which may be a glued run of hashtag words. */
  private readonly gluedRuns = new Map<string, number[]>();

  constructor(keys: Iterable<string>) {
    this.keys = [...new Set(keys)].filter((key) => key.trim() !== '');
    this.keys.forEach((key, id) => {
      const words = key.split(' ').filter((w) => w !== '');
      let node: TrieNode | undefined;
      for (const word of words) {
        if (node !== undefined) node.next ??= new Map();
        const level = node?.next ?? this.root;
        let child = level.get(word);
        if (child === undefined) {
          child = { next: undefined, ends: undefined };
          level.set(word, child);
        }
        node = child;
      }
      if (node === undefined) return;
      node.ends ??= [];
      node.ends.push(id);
      const glued = glue(words.join(''));
      if (glued === null) return;
      if (words.length > 1) add(this.gluedWords, glued, id);
      add(this.gluedRuns, glued, id);
    });
  }

  /** The keys `tokens` (`phraseTokens`) mention, each once, in the order the index was given them. */
  matches(tokens: readonly string[]): string[] {
    if (this.keys.length === 0 || tokens.length === 0) return [];
    const r = read(tokens);
    const { words } = r;
    const found = new Set<number>();
    const addAll = (ids: number[] | undefined) => {
      if (ids !== undefined) for (const id of ids) found.add(id);
    };
    for (let i = 0; i < words.length; i++) {
      let node = this.root.get(words[i]);
      for (let j = i + 1; node !== undefined; j++) {
        addAll(node.ends);
        node = j < words.length ? node.next?.get(words[j]) : undefined;
      }
      addAll(this.gluedWords.get(words[i]));
    }
    if (this.gluedRuns.size > 0) {
      someGluedRun(r, (g) => {
        addAll(this.gluedRuns.get(g));
        return false;
      });
    }
    return [...found].sort((a, b) => a - b).map((id) => this.keys[id]);
  }
}
