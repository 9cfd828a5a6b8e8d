// The complaint layer's token table, compiled once from its lexicon (complaint-lexicon.ts) and VADER's: for each
// word the layer reads, its flags (negator, service word, question opener, …), its VADER valence and the
// phrases starting with it. One map lookup per token then tells the scan all it needs.
import { createRequire } from 'node:module';
import {
  ABSENCE_PHRASES,
  COMPLAINT_PHRASES,
  DESK_WORDS,
  GRATITUDE_WORDS,
  NARRATIVE_PHRASES,
  NEUTRAL_PHRASES,
  PRAISE_PHRASES,
  REQUEST_PHRASES,
  REQUEST_WORDS,
  SARCASM_WORDS,
  SELF_CONTAINED_PHRASES,
  SERVICE_WORDS,
  WORDS,
} from './complaint-lexicon.ts';
import { addPattern, newNode, type TrieNode } from './phrase-trie.ts';
import { NEGATE } from './vader.ts';

const require = createRequire(import.meta.url);
const { lexicon } = require('vader-sentiment/src/vader_lexicon.js') as { lexicon: Record<string, number> };

export const F_NEGATOR = 1; // cancels a complaint phrase
export const F_VADER_NEGATOR = 2; // negates for VADER
export const F_HYPOTHETICAL = 4;
export const F_CONTRAST = 8;
export const F_SERVICE = 16;
export const F_GRATITUDE = 32;
export const F_SARCASM = 64;
export const F_FILLER = 128;
export const F_NUMBER = 256;
export const F_FOR = 512;
export const F_REQUEST = 1024;
export const F_BUT = 2048;
export const F_DESK = 4096;
export const F_RESOLVED = 8192;
export const F_ASKING = 16384;
export const F_GREETING = 32768;
export const F_REPROACH = 65536;
export const F_WAIT = 131072;
export const F_TURN = 262144;
export const F_UNTIL = 524288; // ends the praise of an absent problem ("never had an issue until today")
/** Words the layer may correct. */
export const CORRECTED = F_SERVICE | F_GRATITUDE | F_SARCASM | F_REQUEST | F_DESK;

/** A VADER word at or below this valence (not negated) makes a text a complaint. */
export const NEGATIVE_WORD = -1.5;
/** The weight of a corroborated narrative cue: below the complaint threshold alone, a complaint with another. */
export const NARRATIVE_WEIGHT = -1;

export interface TokenInfo {
  flags: number;
  /** VADER lexicon valence (0 when the word is not in the lexicon). */
  valence: number;
  /** Phrases starting with this word. */
  root: TrieNode | undefined;
}

/** The token table: the words the rules need on every text. */
export const INFO = new Map<string, TokenInfo>();
function info(word: string): TokenInfo {
  let i = INFO.get(word);
  if (i === undefined) {
    i = { flags: 0, valence: lexicon[word] ?? 0, root: undefined };
    INFO.set(word, i);
  }
  return i;
}
function flag(words: readonly string[], f: number): void {
  for (const w of words) info(w).flags |= f;
}

for (const [word, valence] of Object.entries(lexicon)) if (valence <= NEGATIVE_WORD) info(word);

/**
 * VADER's valence of any scored word. The token table above holds only the words the rules need on every
 * text; the question and quotation rules look other words up here, on the few texts they apply to.
 */
export function lexiconValence(word: string): number {
  const v = Object.hasOwn(lexicon, word) ? lexicon[word] : undefined;
  return typeof v === 'number' ? v : 0;
}
/** The milder negative words (above NEGATIVE_WORD, so not in the token table unless a phrase holds them). */
export const MILD_NEGATIVE = new Map<string, number>();
for (const [word, valence] of Object.entries(lexicon))
  if (valence < 0 && valence > NEGATIVE_WORD) MILD_NEGATIVE.set(word, valence);
flag(NEGATE, F_NEGATOR | F_VADER_NEGATOR);
flag(WORDS.negator, F_NEGATOR);
flag(WORDS.hypothetical, F_HYPOTHETICAL);
flag(WORDS.contrast, F_CONTRAST);
flag(SERVICE_WORDS, F_SERVICE);
flag(GRATITUDE_WORDS, F_GRATITUDE);
flag(SARCASM_WORDS, F_SARCASM);
flag(WORDS['clause-filler'], F_FILLER);
flag(WORDS.number, F_NUMBER);
flag(['for'], F_FOR);
flag(REQUEST_WORDS, F_REQUEST);
flag(DESK_WORDS, F_DESK);
flag(['but'], F_BUT);
flag(WORDS.resolution, F_RESOLVED);
flag(WORDS.asking, F_ASKING);
flag(WORDS.greeting, F_GREETING);
flag(WORDS.reproach, F_REPROACH);
flag(WORDS.wait, F_WAIT);
flag(WORDS.turn, F_TURN);
flag(WORDS.until, F_UNTIL);
// The "how" rules read the word after "how".
flag(['how'], F_ASKING);

/** The root of the phrases starting with `word`. */
function wordRoot(word: string): TrieNode {
  const start = info(word);
  start.root ??= newNode();
  return start.root;
}

function addPhrases(
  list: readonly (readonly [string, number])[],
  negatable: boolean,
  askable: boolean,
  narrative = false,
  conditional = false,
): void {
  // Each later word joins the table, so that its valence is known when the phrase replaces it.
  for (const [pattern, weight] of list)
    addPattern({ pattern, weight, negatable, askable, narrative, conditional }, wordRoot, info);
}
addPhrases(COMPLAINT_PHRASES, true, true);
addPhrases(SELF_CONTAINED_PHRASES, false, false);
addPhrases(REQUEST_PHRASES, false, true);
addPhrases(NEUTRAL_PHRASES, false, false);
addPhrases(PRAISE_PHRASES, false, false);
addPhrases(ABSENCE_PHRASES, false, true, false, true);
addPhrases(
  NARRATIVE_PHRASES.map((pattern) => [pattern, NARRATIVE_WEIGHT] as const),
  false,
  true,
  true,
);
