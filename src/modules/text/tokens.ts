/**
 * wink-nlp's tokens of a text (value, type, preceding spaces), read chunk by chunk through a memo.
 *
 * wink splits a text at runs of spaces and at runs of line breaks and tabs, then tokenises each
 * whitespace-free chunk on its own: a chunk's tokens depend on nothing around it, and the run of spaces before a
 * chunk is the preceding spacing of its first token (its later tokens have none). So the tokens of a chunk seen
 * before are those wink gave it then, and wink reads only the chunks this thread has not seen lately. Words
 * repeat (a vocabulary is small beside the texts written in it): on the shared real crisis posts most chunks are
 * repeats, on the demo signals nearly all are.
 *
 * wink also remembers every out-of-vocabulary token it meets, for the life of its instance, and that memory never
 * shrinks (about 120 bytes a token). Both memories are bounded here: the memo is emptied when it holds
 * MEMO_LIMIT chunks, and wink's instance is replaced after WINK_RECYCLE_CHUNKS chunks it read.
 */
import type { WinkMethods } from 'wink-nlp';
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
    const chunk = chunkTokens(part);
    for (let k = 0; k < chunk.values.length; k++) {
      values.push(chunk.values[k]!);
      types.push(chunk.types[k]!);
      spaces.push(k === 0 ? before : '');
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
