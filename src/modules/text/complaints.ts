/**
 * The complaint layer: what VADER misses in customer complaints, as a correction to a text's VADER sum.
 *
 * VADER is a general social-media lexicon. In posts written to or about a company it misreads three things:
 *  1. complaint phrases with no lexicon weight ("never answers", "ripoff", "on hold", "lost my bag",
 *     "still waiting", "cancelled", "refund"), including implicit complaints that name a disruption or a
 *     failure without any sentiment word ("been on hold 45 min", "where is my bag", "gate changed 3 times",
 *     "your website is down", "why do you keep changing my itinerary");
 *  2. service and courtesy words it scores positive ("support", "help", "please", "thanks", "like") although
 *     they name the service or are politeness, not praise;
 *  3. praise words used sarcastically ("great, another delay", "love waiting on hold", "thanks for nothing");
 *  4. complaints told as a story, where what went wrong is reported rather than judged ("I was told someone
 *     would call back. Nobody did.", "it was supposed to arrive on Monday; three weeks later …").
 *
 * The layer reads a text in one tokenising pass (lower-cased ASCII words, clause ends at . ! ? ; : and line
 * breaks, not inside a time or a decimal: "6:10", "3.5") and one pass over the tokens with precompiled tables (a word → facts map and a phrase trie), and
 * returns Δ, a correction in VADER's own units (word valences, −4 … +4, summed before VADER normalises).
 * `mentionScore` in sentiment.ts adds Δ to the VADER sum. The rules (docs/metrics.md, "Complaint layer"):
 *
 *  - **Phrases.** Each phrase has a weight w (a valence on VADER's scale). At each token the longest phrase
 *    starting there matches; matches do not overlap. A match replaces the valences VADER gave its own words
 *    by w: Δ += w·b − Σ v(word), where v(word) is the word's lexicon valence as VADER applies it (× −0.74 when a
 *    lower-case negator is among the 3 words before it; × 0.5 before the first "but", × 1.5 after it) and b
 *    is the same "but" factor at the phrase's start. NEUTRAL_PHRASES have w = 0 ("noise cancellation", "no
 *    delays", "help desk"). ABSENCE_PHRASES ("no problems", "never had an issue") are praise (version 9),
 *    weighing 0 when hypothetical, asked about or followed by "until" in their clause.
 *  - **Negation and hypotheticals.** A COMPLAINT_PHRASES match with a negator ("not", "no", "never", "any",
 *    "without", any "n't" word, …) among the 3 words before it in its clause is not a complaint and is left to
 *    VADER ("wasn't delayed", "no delays"); with a hypothetical marker ("if", "whether", "avoid", "may",
 *    "in case", "expect", …) among the 4 words before it in its clause its weight is 0 ("if my flight is
 *    cancelled"). SELF_CONTAINED_PHRASES carry their own negation or are sarcasm ("never answers", "no
 *    response", "still waiting", "thanks for nothing"), and REQUEST_PHRASES ask for money back ("refund"):
 *    neither is ever cancelled.
 *  - **Information questions.** A COMPLAINT_PHRASES or REQUEST_PHRASES match in a clause that opens with an
 *    asking word (the `asking` list, after @handles and greetings) and ends with "?" or the text weighs 0
 *    ("is my flight delayed?", "can I get a refund if I cancel?"), unless "my"/"our" stands right before it
 *    ("a refund for my cancelled flight?") or the clause has a reproach word ("why", "again", "another", "yet",
 *    "always").
 *  - **Solved problems.** A COMPLAINT_PHRASES match, or a VADER word of valence ≤ −1.5, within 3 words after
 *    a resolution word (the `resolution` list) of its clause ("found my lost bag", "fixed my problem") weighs
 *    0 and makes no complaint, unless that word is negated ("haven't fixed") or is "found out".
 *  - **Emphasis.** A phrase written in capitals in a text that is not all capitals gets VADER's capitals
 *    increment (0.733) on its weight ("DELAYED AGAIN"). A hashtag containing a complaint stem (`hashtag-stem`:
 *    "#fail", "#neveragain", "#worstairline") weighs −2 (VADER reads hashtags as unknown words).
 *  - **Complaint.** A text is a complaint when its phrase weights sum to ≤ −1.5, or it holds a VADER word of
 *    valence ≤ −1.5 that is not negated. It is a request when it has a "?" or a REQUEST_WORDS word.
 *  - **Narrative cues** (NARRATIVE_PHRASES: "was told", "supposed to", "three days later", "the same reply",
 *    "instead of", "had to drive", …) weigh NARRATIVE_WEIGHT (−1) each, but only when corroborated: by a
 *    second cue, a phrase of negative weight or a VADER word of valence ≤ −1.5 in the text. Alone, a cue
 *    changes nothing (neutral updates and praise stories use them too: "two days later they called me").
 *    Negators do not cancel a cue ("I was not told" still reports a failure); an information question makes
 *    it no cue. A cue never hides a phrase inside it, and one that overlaps a phrase is not counted twice.
 *    Corroborated cues count towards the complaint sum above.
 *  - **Never scored:** REQUEST_WORDS ("please", "kindly") and DESK_WORDS ("support"): Δ −= v.
 *  - **In a complaint or a request:** SERVICE_WORDS lose their valence (Δ −= v), and so do gratitude words
 *    ("thanks", "appreciate", …) unless "for" follows within 3 words of the clause ("thanks for rebooking me"
 *    is gratitude, "please help, thanks" is courtesy).
 *  - **A story that ends well:** from the clause holding the last resolution word (not negated, not
 *    "found out", not inside a complaint phrase) with no complaint evidence after it, the two rules above and
 *    the sarcasm rule below do not apply: praise after the problem was solved is praise ("My card was
 *    declined. The bank sorted it out within minutes. Really grateful.").
 *  - **Sarcasm, in a complaint:** a praise word (SARCASM_WORDS) is read as negated (its valence × −0.74,
 *    VADER's negation scalar: Δ += (−0.74 − 1)·v) when a phrase of weight ≤ −1.5 starts within the 5 words
 *    after it in its clause with no contrast word ("but", "though", …) between ("love waiting on hold",
 *    "thanks for the 3 hour delay", "great, another delay"), or when it stands as a clause of its own (only
 *    fillers such as "oh", "just", "job", handles and names — a capital then lower case, not first in the
 *    clause: "Thanks Zipline, great job." — beside it) with no contrast word between it and some such phrase
 *    ("Delayed again. Great.", but not "Delayed, but the crew kept us informed. Great job.").
 *    Words VADER already negated are left alone.
 *
 *  - **Short posts** (version 5). A waiting word ("waiting", "sat", "stuck", …) with a duration anywhere in
 *    its clause weighs −2 at the duration unless negated, hypothetical or asked about ("waiting for my bags
 *    for over an hour"). A negative VADER word in a question clause loses its valence and makes no complaint
 *    when a hypothetical marker stands before it, or, if milder than −1.5, when the clause is an information
 *    question ("what happens if I miss my first leg?", "what time do drivers stop delivering?"); a clause that
 *    opens with "if" and ends with "?" is an information question. A quotation of at most 3 words is a
 *    narrative cue (a scare quote: 'my parcel is "out for delivery"'); in a text that opens with an @handle,
 *    one of at most 8 words is a complaint of its own (QUOTED_WEIGHT, version 11) unless all its words are
 *    names, it is asked about, or the writer praises outside it; in a complaint or request, praise
 *    words inside a quotation of at most 8 words lose their valence. A contrast word ("but", "however",
 *    "though", "although") after the last complaint evidence settles the text from there, like a resolution
 *    word ("delayed an hour but the captain kept us informed. Appreciated."); "care" after "take" is a
 *    resolution word. PRAISE_PHRASES ("shout out to", "spot on") carry a positive weight and never count
 *    towards a complaint.
 *
 * A text the layer read (any phrase, even at weight 0, a hashtag, a corrected word) is `matched`: the
 * insight classifier then trusts the corrected VADER score alone. `readSentences` reads a text the same way
 * and credits Δ to its sentences (each with its own "but"), for insights' sentence-by-sentence reading.
 *
 * The phrase list was written from general knowledge of customer-complaint language (support, billing,
 * delivery, product failures, travel disruption), not derived from any evaluation data; the narrative cues
 * and phrases added with them were checked against the team-written `dev-narratives` posts, and the
 * short-post rules against `development-3` (scripts/eval/customer-posts.ts), never against the held-out sets.
 */
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
import { C_INCR, N_SCALAR, NEGATE } from './vader.ts';

// The tables, for tests and explanations.
export {
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
};

const require = createRequire(import.meta.url);
const { lexicon } = require('vader-sentiment/src/vader_lexicon.js') as { lexicon: Record<string, number> };

// ---------------------------------------------------------------------------------------------------------
// The lexicon: phrase tables and word lists in data/sentiment/ (complaint-lexicon.ts reads them; the README
// there gives the pattern syntax and each file's source). The rules' numeric constants stay here.

/** The weight of a corroborated narrative cue: below the complaint threshold alone, a complaint with another. */
const NARRATIVE_WEIGHT = -1;
/** Negators that cancel a COMPLAINT_PHRASES match (VADER's list plus a few of its gaps). */
const EXTRA_NEGATORS = WORDS.negator;
/** Markers that make a following complaint phrase hypothetical. */
const HYPOTHETICAL = WORDS.hypothetical;
/** Words that end the reach of sarcasm within a clause. */
const CONTRAST = WORDS.contrast;
/** Words that may stand beside a praise word in a clause of its own ("Oh great.", "Great job!"). */
const CLAUSE_FILLERS = WORDS['clause-filler'];
const NUMBER_WORDS = WORDS.number;

/** Phrase weight at or below which a match is a complaint on its own (context, sarcasm trigger). */
const STRONG_PHRASE = -1.5;
/** A VADER word at or below this valence (not negated) makes a text a complaint. */
const NEGATIVE_WORD = -1.5;
const SARCASM_REACH = 5;
/** Positive words below this valence are mild: in an information question they name, not praise. */
const MILD_PRAISE = 1.5;
/** At most this many other words beside a praise word make a short verdict clause ("great packaging"). */
const SHORT_VERDICT = 2;
const NEGATION_REACH = 3;
const HYPOTHETICAL_REACH = 4;
const GRATITUDE_REACH = 3;

/** Words that say a problem was solved (see `resolved`). */
const RESOLUTION_WORDS = WORDS.resolution;
/**
 * Waiting words: with a duration anywhere in their clause ("waiting for my bags for over an hour") they make
 * a complaint phrase of weight WAIT_WEIGHT at the duration, unless negated, hypothetical or asked about.
 */
const WAIT_WORDS = WORDS.wait;
const DURATION_UNITS = new Set(WORDS['duration-unit']);
const WAIT_WEIGHT = -2;
/** "care" says a problem was solved after one of these ("took care of my lost bag"). */
const TAKE = new Set(WORDS.take);
/** Contrast words that turn a text: praise after the last complaint evidence and one of them is praise. */
const TURNS = WORDS.turn;
const RESOLUTION_REACH = 3;
/** Words after an absent problem that say it has come now ("no issues until today"), and how far they reach. */
const UNTIL_WORDS = WORDS.until;
const UNTIL_REACH = 4;

/** Words that open an information question (see `asking`). */
const ASKING_WORDS = WORDS.asking;
/** Words skipped before a question's opening word. */
const GREETINGS = WORDS.greeting;
/** After "how": asks for a measure. */
const HOW_MEASURES = new Set(WORDS['how-measure']);
/** After "how": an auxiliary, then a first-person word ("how do I …"). */
const HOW_AUXILIARIES = new Set(WORDS['how-auxiliary']);
const FIRST_PERSON = new Set(WORDS['first-person']);
const POSSESSIVES = new Set(WORDS.possessive);
/** Words that make a question a reproach, not a request for information ("is it delayed AGAIN?"). */
const REPROACH_WORDS = WORDS.reproach;

/** Stems of hashtags that name a complaint in one word ("#fail", "#neveragain", "#worstairline"). */
const HASHTAG_STEMS = WORDS['hashtag-stem'];
/** The weight of such a hashtag, as a complaint phrase. */
const HASHTAG_WEIGHT = -2;

// ---------------------------------------------------------------------------------------------------------
// Compiled tables

interface PhraseEntry {
  pattern: string;
  weight: number;
  negatable: boolean;
  /** Whether an information question makes the phrase neutral. */
  askable: boolean;
  /** A narrative cue: counts only when corroborated (NARRATIVE_PHRASES). */
  narrative: boolean;
  /** Weighs 0 after a hypothetical marker or before "until" in its clause (ABSENCE_PHRASES). */
  conditional: boolean;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  /** Edge for `#` (any number). */
  num: TrieNode | undefined;
  /** Edge for `*` (any word). */
  any: TrieNode | undefined;
  entry: PhraseEntry | undefined;
}

const F_NEGATOR = 1; // cancels a complaint phrase
const F_VADER_NEGATOR = 2; // negates for VADER
const F_HYPOTHETICAL = 4;
const F_CONTRAST = 8;
const F_SERVICE = 16;
const F_GRATITUDE = 32;
const F_SARCASM = 64;
const F_FILLER = 128;
const F_NUMBER = 256;
const F_FOR = 512;
const F_REQUEST = 1024;
const F_BUT = 2048;
const F_DESK = 4096;
const F_RESOLVED = 8192;
const F_ASKING = 16384;
const F_GREETING = 32768;
const F_REPROACH = 65536;
const F_WAIT = 131072;
const F_TURN = 262144;
const F_UNTIL = 524288; // ends the praise of an absent problem ("never had an issue until today")
/** Words the layer may correct. */
const CORRECTED = F_SERVICE | F_GRATITUDE | F_SARCASM | F_REQUEST | F_DESK;

interface TokenInfo {
  flags: number;
  /** VADER lexicon valence (0 when the word is not in the lexicon). */
  valence: number;
  /** Phrases starting with this word. */
  root: TrieNode | undefined;
}

const newNode = (): TrieNode => ({ next: new Map(), num: undefined, any: undefined, entry: undefined });
/** Phrases starting with a number (`# hours on hold`). */
const NUMBER_ROOT = newNode();
/** Phrases starting with a number written in digits (`$ fee`: "$40 fee", not "a fee"). */
const DIGIT_ROOT = newNode();

/** Every word sequence a pattern stands for (`#` and `*` kept as slots). */
export function expandPattern(pattern: string): string[][] {
  let out: string[][] = [[]];
  for (const slot of pattern.split(' ')) {
    const optional = slot.startsWith('[') && slot.endsWith(']');
    const words = (optional ? slot.slice(1, -1) : slot).split('|');
    const next: string[][] = [];
    for (const seq of out) {
      if (optional) next.push(seq);
      for (const w of words) next.push([...seq, w]);
    }
    out = next;
  }
  return out;
}

const INFO = new Map<string, TokenInfo>();
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
function lexiconValence(word: string): number {
  const v = Object.hasOwn(lexicon, word) ? lexicon[word] : undefined;
  return typeof v === 'number' ? v : 0;
}
/** The milder negative words (above NEGATIVE_WORD, so not in the token table unless a phrase holds them). */
const MILD_NEGATIVE = new Map<string, number>();
for (const [word, valence] of Object.entries(lexicon))
  if (valence < 0 && valence > NEGATIVE_WORD) MILD_NEGATIVE.set(word, valence);
flag(NEGATE, F_NEGATOR | F_VADER_NEGATOR);
flag(EXTRA_NEGATORS, F_NEGATOR);
flag(HYPOTHETICAL, F_HYPOTHETICAL);
flag(CONTRAST, F_CONTRAST);
flag(SERVICE_WORDS, F_SERVICE);
flag(GRATITUDE_WORDS, F_GRATITUDE);
flag(SARCASM_WORDS, F_SARCASM);
flag(CLAUSE_FILLERS, F_FILLER);
flag(NUMBER_WORDS, F_NUMBER);
flag(['for'], F_FOR);
flag(REQUEST_WORDS, F_REQUEST);
flag(DESK_WORDS, F_DESK);
flag(['but'], F_BUT);
flag(RESOLUTION_WORDS, F_RESOLVED);
flag(ASKING_WORDS, F_ASKING);
flag(GREETINGS, F_GREETING);
flag(REPROACH_WORDS, F_REPROACH);
flag(WAIT_WORDS, F_WAIT);
flag(TURNS, F_TURN);
flag(UNTIL_WORDS, F_UNTIL);
// The "how" rules read the word after "how".
flag(['how'], F_ASKING);

function addPhrases(
  list: readonly (readonly [string, number])[],
  negatable: boolean,
  askable: boolean,
  narrative = false,
  conditional = false,
): void {
  for (const [pattern, weight] of list) {
    const entry: PhraseEntry = { pattern, weight, negatable, askable, narrative, conditional };
    for (const seq of expandPattern(pattern)) {
      const [first, ...rest] = seq;
      if (first === undefined || first === '*') throw new Error(`A phrase cannot start with *: ${pattern}`);
      let node: TrieNode;
      if (first === '#') node = NUMBER_ROOT;
      else if (first === '$') node = DIGIT_ROOT;
      else {
        const start = info(first);
        start.root ??= newNode();
        node = start.root;
      }
      for (const w of rest) {
        if (w === '#') node = node.num ??= newNode();
        else if (w === '*') node = node.any ??= newNode();
        else {
          let child = node.next.get(w);
          if (child === undefined) {
            child = newNode();
            node.next.set(w, child);
            info(w); // so the word's valence is known when it is replaced
          }
          node = child;
        }
      }
      // The first pattern to claim a sequence keeps it; listing order is the tie-break.
      node.entry ??= entry;
    }
  }
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

// ---------------------------------------------------------------------------------------------------------
// Scanning

/** A text's tokens: lower-cased words (ASCII letters, digits, inner apostrophes), with their clause. */
interface Tokens {
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
}

/** A quotation of at most this many words is a scare quote ("the 'priority' line", 'my "upgrade"'). */
const SCARE_QUOTE = 3;
/** Praise words inside a quotation of at most this many words are the company's words, not the writer's. */
const QUOTED_REACH = 8;
/** The weight of a quotation in a post addressed to a company: a complaint on its own (STRONG_PHRASE). */
const QUOTED_WEIGHT = -1.5;

/** Whether every word of the quotation [from, to) is a name ("Delta One", "Wanna Get Away"): a title. */
function quotedName(t: Tokens, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!t.name[k]) return false;
  return true;
}

/**
 * Whether a praise word stands outside the quotations starting at `quoted` and is not sarcasm with them as the
 * complaint ('the crew sang "happy birthday" to my daughter, thank you!!' is praise; '… the "freshly cleaned"
 * shower. nice' is not). Requests, desk and service words do not count: they are courtesy or the service's name.
 */
function praiseOutside(
  t: Tokens,
  quoted: readonly number[],
  strong: readonly number[],
  strongWords: readonly number[],
): boolean {
  const inside = new Uint8Array(t.length);
  for (let q = 0; q < t.quotes.length; q += 2) {
    if (!quoted.includes(t.quotes[q]!)) continue;
    for (let k = t.quotes[q]!; k < t.quotes[q + 1]!; k++) inside[k] = 1;
  }
  const evidence = [...strong, ...quoted].sort((a, b) => a - b);
  for (let k = 0; k < t.length; k++) {
    if (inside[k] === 1 || (flagsAt(t, k) & (F_REQUEST | F_DESK | F_SERVICE)) !== 0) continue;
    const v = t.infos[k]?.valence ?? lexiconValence(t.words[k]!);
    if (v <= 0 || vaderNegated(t, k)) continue;
    if (!sarcastic(t, k, evidence, strongWords)) return true;
  }
  return false;
}

/** Whether the text opens with an @handle (after white space): a post written to a company. */
const OPENS_WITH_HANDLE = /^\s*@\w/;
function opensWithHandle(text: string): boolean {
  return OPENS_WITH_HANDLE.test(text);
}

/** Character classes of the lower-cased ASCII range: what the tokenizer does with each code unit. */
const C_OTHER = 0;
const C_LETTER = 1;
const C_DIGIT = 2;
const C_APOSTROPHE = 3;
const C_CLAUSE_END = 4; // . ; : and line breaks
const C_EXCLAMATION = 5;
const C_QUESTION = 6;
/** A clause that runs to the end of the text without a closing mark. */
const C_OPEN = 7;
const CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CLASS[c] = C_LETTER;
for (let c = 48; c <= 57; c++) CLASS[c] = C_DIGIT;
CLASS[39] = C_APOSTROPHE;
for (const c of '.;:\n') CLASS[c.charCodeAt(0)] = C_CLAUSE_END;
CLASS[33] = C_EXCLAMATION;
CLASS[63] = C_QUESTION;

function isDigit(c: number): boolean {
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

function tokenize(text: string): Tokens {
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

function flagsAt(t: Tokens, k: number): number {
  return t.infos[k]?.flags ?? 0;
}

function isNumberToken(t: Tokens, k: number): boolean {
  return isDigit(t.words[k]!.charCodeAt(0)) || (flagsAt(t, k) & F_NUMBER) !== 0;
}

/** The longest match found so far by `walk` (module scratch, like the tokens). */
let bestEnd = -1;
let bestEntry: PhraseEntry | undefined;

function walk(t: Tokens, node: TrieNode, j: number): void {
  if (node.entry !== undefined && j > bestEnd) {
    bestEnd = j;
    bestEntry = node.entry;
  }
  if (j >= t.length) return;
  const child = node.next.get(t.words[j]!);
  if (child !== undefined) walk(t, child, j + 1);
  if (node.num !== undefined && isNumberToken(t, j)) walk(t, node.num, j + 1);
  if (node.any !== undefined) walk(t, node.any, j + 1);
}

/** The longest phrase match starting at token `at`: its end (exclusive) and entry, or null. */
function longestMatch(t: Tokens, at: number): { end: number; entry: PhraseEntry } | null {
  const root = t.infos[at]?.root;
  const numeric = isNumberToken(t, at);
  if (root === undefined && !numeric) return null;
  bestEnd = -1;
  bestEntry = undefined;
  if (root !== undefined) walk(t, root, at + 1);
  if (numeric) walk(t, NUMBER_ROOT, at + 1);
  if (isDigit(t.words[at]!.charCodeAt(0))) walk(t, DIGIT_ROOT, at + 1);
  return bestEntry === undefined ? null : { end: bestEnd, entry: bestEntry };
}

/** A word with flag `f` among the `reach` words before `at`, in its clause (F_NEGATOR: any "n't" word too). */
function flaggedBefore(t: Tokens, at: number, reach: number, f: number): boolean {
  for (let k = at - 1; k >= 0 && k >= at - reach && t.clause[k] === t.clause[at]; k--) {
    if ((flagsAt(t, k) & f) !== 0) return true;
    if (f === F_NEGATOR && t.words[k]!.includes("n't")) return true;
  }
  return false;
}

/** Whether a word flagged `f` stands among the `reach` words from `from` on, in the clause of the word before it. */
function flaggedAfter(t: Tokens, from: number, reach: number, f: number): boolean {
  const clause = t.clause[from - 1];
  for (let k = from; k < t.length && k < from + reach && t.clause[k] === clause; k++) {
    if ((flagsAt(t, k) & f) !== 0) return true;
  }
  return false;
}

/** VADER's negation of the word at `at`: a (lower-case) negator among the 3 words before it, any clause. */
function vaderNegated(t: Tokens, at: number): boolean {
  for (let k = at - 1; k >= 0 && k >= at - 3; k--) {
    if ((flagsAt(t, k) & F_VADER_NEGATOR) !== 0 && t.lowerCase[k]) return true;
    if (t.words[k]!.includes("n't")) return true;
  }
  return false;
}

function butFactor(t: Tokens, at: number): number {
  // Read by sentence, each sentence has its own "but", as VADER scoring that sentence alone sees it.
  const but = BY_SENTENCE === null ? t.butIndex : BY_SENTENCE.but[BY_SENTENCE.of[at]!]!;
  if (but === -1 || at === but) return 1;
  return at < but ? 0.5 : 1.5;
}

/** The valence VADER gives the word at `at`: its lexicon valence with negation and "but" applied. */
function applied(t: Tokens, at: number): number {
  const v = t.infos[at]?.valence ?? 0;
  // VADER looks "#fail" up as written and finds nothing: a hashtag has no valence for it.
  if (v === 0 || t.hashtag[at]) return 0;
  return v * (vaderNegated(t, at) ? N_SCALAR : 1) * butFactor(t, at);
}

/** A contrast word strictly between tokens a and b. */
function contrastBetween(t: Tokens, a: number, b: number): boolean {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  for (let k = lo + 1; k < hi; k++) if ((flagsAt(t, k) & F_CONTRAST) !== 0) return true;
  return false;
}

/** "for" among the next GRATITUDE_REACH words of the clause ("thanks @x for …", "thank you so much for"). */
function forFollows(t: Tokens, at: number): boolean {
  for (let k = at + 1; k < t.length && k <= at + GRATITUDE_REACH && t.clause[k] === t.clause[at]; k++) {
    if ((flagsAt(t, k) & F_FOR) !== 0) return true;
  }
  return false;
}

/** A word that may stand beside a praise word in a clause of its own: a filler, a handle or a name. */
function filler(t: Tokens, k: number): boolean {
  return t.handle[k]! || t.name[k]! || (flagsAt(t, k) & F_FILLER) !== 0;
}

/**
 * The sarcasm rule for the praise word at `at`, given the starts of strong complaint phrases (ascending):
 * a phrase starting within SARCASM_REACH words after it in its clause with no contrast word between, or the
 * word standing as a clause of its own (with fillers and handles only) with no contrast word between it and
 * some strong phrase ("Delayed again. Great." but not "Delayed, but the crew were kind. Great job.").
 */
function sarcastic(
  t: Tokens,
  at: number,
  strong: readonly number[],
  strongWords: readonly number[],
): boolean {
  for (const s of strong) {
    if (s > at && s <= at + SARCASM_REACH && t.clause[s] === t.clause[at] && !contrastBetween(t, at, s)) {
      return true;
    }
  }
  if (thanksForHarm(t, at)) return true;
  const c = t.clause[at];
  let others = 0;
  let contrast = false;
  for (let k = at - 1; k >= 0 && t.clause[k] === c; k--) {
    if (!filler(t, k)) others++;
    if ((flagsAt(t, k) & F_CONTRAST) !== 0) contrast = true;
  }
  for (let k = at + 1; k < t.length && t.clause[k] === c; k++) {
    if (!filler(t, k)) others++;
    if ((flagsAt(t, k) & F_CONTRAST) !== 0) contrast = true;
  }
  if (others === 0) {
    for (const s of strong) if (!contrastBetween(t, at, s)) return true;
    return false;
  }
  // A short verdict after the complaint, in a clause of its own ("Box arrived crushed. Great packaging 👏",
  // "lost my bag. really appreciate it"): praise of what just failed. A clause with a contrast word ("Great
  // crew though") or more to say is the writer's praise.
  if (others > SHORT_VERDICT || contrast) return false;
  for (const s of [...strong, ...strongWords]) {
    if (s < at && t.clause[s] !== c && !contrastBetween(t, at, s)) return true;
  }
  return false;
}

/**
 * Thanks for a harm: "thanks for losing my bag", "thank you for wasting my time". The word after "for" (within
 * the clause) has a negative valence.
 */
function thanksForHarm(t: Tokens, at: number): boolean {
  if ((flagsAt(t, at) & F_GRATITUDE) === 0) return false;
  for (let k = at + 1; k < t.length && k <= at + GRATITUDE_REACH && t.clause[k] === t.clause[at]; k++) {
    if ((flagsAt(t, k) & F_FOR) === 0) continue;
    const next = k + 1;
    return next < t.length && t.clause[next] === t.clause[at] && (t.infos[next]?.valence ?? 0) < 0;
  }
  return false;
}

/** Whether the word at `k` says a problem was solved: a resolution word, not "found out"; "care" after "take". */
function resolution(t: Tokens, k: number): boolean {
  if ((flagsAt(t, k) & F_RESOLVED) !== 0) return !(t.words[k] === 'found' && t.words[k + 1] === 'out');
  return t.words[k] === 'care' && k > 0 && TAKE.has(t.words[k - 1]!);
}

/**
 * Whether the phrase at `at` is solved: a resolution word (not negated, not "found out") among the
 * RESOLUTION_REACH words before it in its clause.
 */
function resolved(t: Tokens, at: number): boolean {
  for (let k = at - 1; k >= 0 && k >= at - RESOLUTION_REACH && t.clause[k] === t.clause[at]; k--) {
    if (!resolution(t, k)) continue;
    if (!vaderNegated(t, k) && !flaggedBefore(t, k, NEGATION_REACH, F_NEGATOR)) return true;
  }
  return false;
}

/**
 * Where a told problem ends well: the first token of the clause holding the last resolution word (not negated,
 * not "found out", not inside a complaint phrase) when no complaint evidence comes after it ("I panicked …
 * they blocked the card and refunded the money. Really grateful."). Praise from there on is praise, not
 * courtesy or sarcasm. `n` (no such point) when the text has none or a complaint follows it ("they fixed it,
 * then it went down again").
 */
function settledFrom(t: Tokens, lastEvidence: number): number {
  let from = t.length;
  for (let k = t.length - 1; k > lastEvidence; k--) {
    if (!resolution(t, k)) continue;
    if (vaderNegated(t, k) || flaggedBefore(t, k, NEGATION_REACH, F_NEGATOR)) continue;
    from = k;
    while (from > 0 && t.clause[from - 1] === t.clause[k]) from--;
    break;
  }
  // A turn after the last complaint evidence ("delayed an hour but the captain kept us informed.
  // Appreciated.") also settles it from the turn on.
  for (let k = lastEvidence + 1; k < from; k++) if ((flagsAt(t, k) & F_TURN) !== 0) return k;
  return from;
}

/**
 * Whether the clause of token `at` is an information question that asks about the phrase at `at` in general:
 * opened by an asking word ("is my flight delayed?", "can I get a refund?"; after @handles and greetings) and
 * ended by "?" or by the end of the text; the writer asks about a problem, and has not (yet) said it happened
 * to them. "how" asks only for a measure ("how long") or as "how do I|we|my" ("how do you lose a bag?" is a
 * reproach); "what a|an" exclaims ("what a rip-off"). Not when "my" or "our" stands right before the phrase
 * ("can I get a refund for my cancelled flight?" reports the writer's own cancellation).
 */
function asking(t: Tokens, at: number): boolean {
  if (at > 0 && POSSESSIVES.has(t.words[at - 1]!)) return false;
  const c = t.clause[at]!;
  const end = t.clauseEnd[c];
  if (end !== C_QUESTION && end !== C_OPEN) return false;
  let first = at;
  while (first > 0 && t.clause[first - 1] === c) first--;
  let k = first;
  while (k < t.length && t.clause[k] === c && (t.handle[k] || (flagsAt(t, k) & F_GREETING) !== 0)) k++;
  if (k >= t.length || t.clause[k] !== c) return false;
  // A conditional question asks too ("if the flight is cancelled do I get a refund?").
  const conditional = t.words[k] === 'if' && end === C_QUESTION;
  if (!conditional && (flagsAt(t, k) & F_ASKING) === 0) return false;
  // "what a rip-off" exclaims.
  if (t.words[k] === 'what' && (t.words[k + 1] === 'a' || t.words[k + 1] === 'an')) return false;
  if (t.words[k] === 'how') {
    const next = t.words[k + 1];
    const after = t.words[k + 2];
    const measure = next !== undefined && HOW_MEASURES.has(next);
    const firstPerson =
      next !== undefined && HOW_AUXILIARIES.has(next) && after !== undefined && FIRST_PERSON.has(after);
    if (!measure && !firstPerson) return false;
  }
  for (let j = k; j < t.length && t.clause[j] === c; j++)
    if ((flagsAt(t, j) & F_REPROACH) !== 0) return false;
  return true;
}

/** Whether every word from `a` to `b` (exclusive) is written in capitals, in a text that is not all capitals. */
function shouted(t: Tokens, a: number, b: number): boolean {
  if (!t.aligned) return false;
  let letters = false;
  for (let k = a; k < b; k++) {
    const from = t.start[k]!;
    const original = t.text.slice(from, from + t.words[k]!.length);
    if (original !== original.toUpperCase()) return false;
    if (original !== t.words[k]) letters = true;
  }
  return letters && t.text !== t.text.toUpperCase();
}

/** The weight of a hashtag that names a complaint (HASHTAG_STEMS), else 0. */
function hashtagWeight(t: Tokens, k: number): number {
  if (!t.hashtag[k]) return 0;
  const w = t.words[k]!;
  for (const stem of HASHTAG_STEMS) if (w.includes(stem)) return HASHTAG_WEIGHT;
  return 0;
}

interface ComplaintMatch {
  /** The lexicon pattern that matched. */
  pattern: string;
  /** The words it matched. */
  text: string;
  weight: number;
}

interface ComplaintReading {
  /** Correction to add to VADER's sum of valences (0 when the layer changes nothing). */
  delta: number;
  /** Whether the text reads as a complaint (see the rules above). */
  complaint: boolean;
  /**
   * Whether the layer read anything (a phrase, even of weight 0 such as an asked-about "refund", a complaint
   * hashtag, a corrected word): the text is then one where VADER's lexicon alone is known to misread.
   */
  matched: boolean;
  /** "!" and "?" counts, for VADER's punctuation emphasis. */
  exclamations: number;
  questions: number;
}

/**
 * Set while `readSentences` reads a text: which sentence each token is in, each sentence's first "but", and
 * what the reading credits to each sentence. Null otherwise (scoring is synchronous, so a module variable).
 */
interface SentenceTrack {
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
let BY_SENTENCE: SentenceTrack | null = null;

/** Adds `d` to the Δ of the sentence of token `k` when reading by sentence. */
function credit(k: number, d: number): void {
  if (BY_SENTENCE !== null) BY_SENTENCE.delta[BY_SENTENCE.of[k]!]! += d;
}

function read(text: string, matches: ComplaintMatch[] | null, tokens?: Tokens): ComplaintReading {
  const t = tokens ?? tokenize(text);
  if (!t.relevant)
    return {
      delta: 0,
      complaint: false,
      matched: false,
      exclamations: t.exclamations,
      questions: t.questions,
    };
  const n = t.length;
  let delta = 0;
  let phraseSum = 0;
  /** Tokens whose valence a phrase has replaced. */
  let consumed: Uint8Array | null = null;
  /** Starts of strong phrase matches, ascending. */
  const strong: number[] = [];
  /** Strong negative words read as complaint evidence (outside phrases), ascending. */
  const strongWords: number[] = [];
  let request = t.questions > 0;
  /** Whether the layer read anything in the text (a phrase, a hashtag, a corrected word), even at weight 0. */
  let matched = false;
  /** Narrative cues found, as [start, end) pairs: they count only when corroborated. */
  let narrative: number[] | null = null;
  /** The last token of the last complaint evidence (a negative phrase, hashtag or word), −1 when none. */
  let lastEvidence = -1;

  /** Whether a waiting word stands outside the phrases read (the waiting rule below then looks). */
  let waiting = false;
  for (let i = 0; i < n; ) {
    const f = flagsAt(t, i);
    if ((f & F_REQUEST) !== 0) request = true;
    if ((f & F_WAIT) !== 0) waiting = true;
    const m = longestMatch(t, i);
    if (m === null) {
      const tag = hashtagWeight(t, i);
      if (tag !== 0) {
        delta += tag * butFactor(t, i);
        credit(i, tag * butFactor(t, i));
        if (BY_SENTENCE !== null) BY_SENTENCE.phrases[BY_SENTENCE.of[i]!]! += tag;
        phraseSum += tag;
        if (tag <= STRONG_PHRASE) strong.push(i);
        lastEvidence = i;
        consumed ??= new Uint8Array(n);
        consumed[i] = 1;
        matched = true;
        matches?.push({ pattern: '#tag', text: t.words[i]!, weight: tag });
      }
      i++;
      continue;
    }
    const { end, entry } = m;
    let weight = entry.weight;
    if (entry.narrative) {
      // Held until the whole text is read: it counts only when corroborated. Asked about: not a cue at all.
      // The scan goes on at the next word, so a cue never hides a complaint phrase inside it ("ended up
      // waiting 40 minutes").
      if (!asking(t, i)) {
        narrative ??= [];
        narrative.push(i, end);
      }
      i++;
      continue;
    }
    if (entry.negatable) {
      // Negated: left to VADER ("wasn't delayed"). Hypothetical or solved: no complaint, and no VADER valence
      // either.
      if (flaggedBefore(t, i, NEGATION_REACH, F_NEGATOR)) {
        i++;
        continue;
      }
      if (flaggedBefore(t, i, HYPOTHETICAL_REACH, F_HYPOTHETICAL) || resolved(t, i)) weight = 0;
    }
    if (entry.askable && weight !== 0 && asking(t, i)) weight = 0;
    if (
      entry.conditional &&
      (flaggedBefore(t, i, HYPOTHETICAL_REACH, F_HYPOTHETICAL) || flaggedAfter(t, end, UNTIL_REACH, F_UNTIL))
    )
      weight = 0;
    // Capitals in a text that is not all capitals add VADER's own emphasis (C_INCR) to the phrase.
    if (weight < 0 && shouted(t, i, end)) weight -= C_INCR;
    consumed ??= new Uint8Array(n);
    matched = true;
    let replaced = 0;
    for (let k = i; k < end; k++) {
      consumed[k] = 1;
      replaced += applied(t, k);
    }
    delta += weight * butFactor(t, i) - replaced;
    credit(i, weight * butFactor(t, i) - replaced);
    // Praise phrases never offset a complaint.
    if (BY_SENTENCE !== null) BY_SENTENCE.phrases[BY_SENTENCE.of[i]!]! += Math.min(weight, 0);
    phraseSum += Math.min(weight, 0);
    if (weight <= STRONG_PHRASE) strong.push(i);
    if (weight < 0) lastEvidence = end - 1;
    if (weight !== 0)
      matches?.push({ pattern: entry.pattern, text: t.words.slice(i, end).join(' '), weight });
    i = end;
  }

  // A waiting word with a duration in its clause that no phrase has read ("waiting for my bags for over an
  // hour", "sat at gate 4 for 2 hours").
  for (let k = 0; waiting && k < n; k++) {
    if ((flagsAt(t, k) & F_WAIT) === 0 || consumed?.[k] === 1) continue;
    if (
      flaggedBefore(t, k, NEGATION_REACH, F_NEGATOR) ||
      flaggedBefore(t, k, HYPOTHETICAL_REACH, F_HYPOTHETICAL)
    )
      continue;
    if (asking(t, k)) continue;
    const c = t.clause[k];
    let from = k;
    while (from > 0 && t.clause[from - 1] === c) from--;
    for (let j = from; j + 1 < n && t.clause[j + 1] === c; j++) {
      if (consumed?.[j] === 1 || consumed?.[j + 1] === 1) continue;
      if (!isNumberToken(t, j) || !DURATION_UNITS.has(t.words[j + 1]!)) continue;
      const replaced = applied(t, j) + applied(t, j + 1);
      delta += WAIT_WEIGHT * butFactor(t, j) - replaced;
      credit(j, WAIT_WEIGHT * butFactor(t, j) - replaced);
      if (BY_SENTENCE !== null) BY_SENTENCE.phrases[BY_SENTENCE.of[j]!]! += WAIT_WEIGHT;
      phraseSum += WAIT_WEIGHT;
      strong.push(j);
      if (j + 1 > lastEvidence) lastEvidence = j + 1;
      consumed ??= new Uint8Array(n);
      consumed[j] = 1;
      consumed[j + 1] = 1;
      matched = true;
      matches?.push({
        pattern: 'wait',
        text: `${t.words[k]} … ${t.words[j]} ${t.words[j + 1]}`,
        weight: WAIT_WEIGHT,
      });
      break;
    }
  }

  /** Takes the VADER valence `v` of the word at `k` out of the score (not negated: the "but" factor only). */
  const dropValence = (k: number, v: number): void => {
    const removed = v * butFactor(t, k);
    delta -= removed;
    credit(k, -removed);
    consumed ??= new Uint8Array(n);
    consumed[k] = 1;
    matched = true;
  };

  // A negative word in a question that asks about a case, not one that happened ("what happens if I miss my
  // first leg?", "what time do drivers stop delivering?"): no VADER valence, no complaint. In a conditional
  // clause any such word; in a plain information question only the milder ones (above NEGATIVE_WORD).
  if (t.negative && t.questions > 0) {
    for (let k = 0; k < n; k++) {
      if (consumed?.[k] === 1 || t.clauseEnd[t.clause[k]!] !== C_QUESTION) continue;
      const v = t.infos[k]?.valence ?? MILD_NEGATIVE.get(t.words[k]!) ?? 0;
      if (v >= 0 || vaderNegated(t, k) || t.hashtag[k]) continue;
      if (!flaggedBefore(t, k, HYPOTHETICAL_REACH, F_HYPOTHETICAL) && (v <= NEGATIVE_WORD || !asking(t, k)))
        continue;
      // Not negated (checked above), so VADER applied v with the "but" factor only.
      dropValence(k, v);
    }
  }

  // A mild positive word in an information question names what is asked about, not praise ("is there a way to
  // join the standby list?", "do gift cards expire?", "does flight 112 have entertainment?"): no VADER
  // valence (version 10). Strong praise stays ("is the new lounge nice?" is left to VADER), and so do the words
  // the courtesy rules read.
  if (t.questions > 0) {
    for (let k = 0; k < n; k++) {
      if (t.clauseEnd[t.clause[k]!] !== C_QUESTION) continue;
      // The text is read: a plain question scores as VADER reads it, not averaged with a second lexicon.
      if ((k === 0 || t.clause[k - 1] !== t.clause[k]) && asking(t, k)) matched = true;
      if (consumed?.[k] === 1 || t.hashtag[k]) continue;
      const i = t.infos[k];
      const v = i?.valence ?? lexiconValence(t.words[k]!);
      if (v <= 0 || v >= MILD_PRAISE || ((i?.flags ?? 0) & CORRECTED) !== 0 || vaderNegated(t, k)) continue;
      if (!asking(t, k)) continue;
      dropValence(k, v);
    }
  }

  // Short quotations are scare quotes ("the 'priority' line", 'my parcel is "out for delivery"'): read as
  // narrative cues, counted only when corroborated. In a post addressed to a company (it opens with an
  // @handle), quoting the company back is a protest ('the "premium" meal', 'your chat says "an agent will be
  // with you shortly"'): there a quotation of up to QUOTED_REACH words that is not a name is complaint evidence
  // of its own, unless the writer praises outside it.
  const addressed = opensWithHandle(t.text);
  const reach = addressed ? QUOTED_REACH : SCARE_QUOTE;
  let quoted: number[] | null = null;
  for (let q = 0; q < t.quotes.length; q += 2) {
    if (t.quotes[q + 1]! - t.quotes[q]! > reach || asking(t, t.quotes[q]!)) continue;
    narrative ??= [];
    narrative.push(t.quotes[q]!, t.quotes[q + 1]!);
    if (addressed && !quotedName(t, t.quotes[q]!, t.quotes[q + 1]!)) {
      quoted ??= [];
      quoted.push(t.quotes[q]!);
    }
  }

  let complaint = phraseSum <= STRONG_PHRASE;
  for (let k = 0; k < n; k++) {
    const v = t.infos[k]?.valence ?? 0;
    if (v > NEGATIVE_WORD || consumed?.[k] === 1) continue;
    if (vaderNegated(t, k) || flaggedBefore(t, k, NEGATION_REACH, F_NEGATOR)) continue;
    // A solved problem ("fixed my problem", "sorted out a fraudulent charge") is no complaint, and its word
    // loses VADER's valence as a solved phrase does.
    if (resolved(t, k)) {
      delta -= applied(t, k);
      credit(k, -applied(t, k));
      matched = true;
    } else {
      complaint = true;
      strongWords.push(k);
      if (k > lastEvidence) lastEvidence = k;
      if (BY_SENTENCE !== null) BY_SENTENCE.strongWord[BY_SENTENCE.of[k]!] = 1;
    }
  }
  // Narrative cues, when corroborated by another cue, a complaint phrase or a strong negative word. A cue
  // that overlaps a phrase or an earlier cue is already read.
  if (narrative !== null) {
    const used = consumed ?? new Uint8Array(n);
    const cues: number[] = [];
    for (let c = 0; c < narrative.length; c += 2) {
      const from = narrative[c]!;
      const to = narrative[c + 1]!;
      let free = true;
      for (let k = from; k < to; k++) if (used[k] === 1) free = false;
      if (!free) continue;
      for (let k = from; k < to; k++) used[k] = 1;
      cues.push(from, to);
    }
    const q = quoted;
    const selfEvident =
      q !== null &&
      cues.some((from, c) => c % 2 === 0 && q.includes(from)) &&
      !praiseOutside(t, q, strong, strongWords);
    if (!selfEvident) quoted = null;
    if (cues.length >= 4 || (cues.length > 0 && (phraseSum < 0 || complaint || selfEvident))) {
      consumed = used;
      for (let c = 0; c < cues.length; c += 2) {
        const from = cues[c]!;
        const to = cues[c + 1]!;
        const base = quoted?.includes(from) ? QUOTED_WEIGHT : NARRATIVE_WEIGHT;
        const weight = shouted(t, from, to) ? base - C_INCR : base;
        let replaced = 0;
        for (let k = from; k < to; k++) replaced += applied(t, k);
        delta += weight * butFactor(t, from) - replaced;
        credit(from, weight * butFactor(t, from) - replaced);
        if (BY_SENTENCE !== null) BY_SENTENCE.phrases[BY_SENTENCE.of[from]!]! += weight;
        phraseSum += weight;
        if (to - 1 > lastEvidence) lastEvidence = to - 1;
        matches?.push({ pattern: 'narrative', text: t.words.slice(from, to).join(' '), weight });
        // A quotation that is a complaint on its own is strong evidence for the sarcasm rule ("… the 'freshly
        // cleaned' shower. nice").
        if (base === QUOTED_WEIGHT) {
          strong.push(from);
          strong.sort((a, b) => a - b);
        }
      }
      complaint ||= phraseSum <= STRONG_PHRASE;
    } else if (consumed !== null) {
      // Uncorroborated: the cues' words stay VADER's.
      for (let c = 0; c < cues.length; c += 2) for (let k = cues[c]!; k < cues[c + 1]!; k++) consumed[k] = 0;
    }
  }
  const settled = complaint || request ? settledFrom(t, lastEvidence) : n;
  for (let k = 0; k < n; k++) {
    const i = t.infos[k];
    if (i === undefined || i.valence <= 0 || (i.flags & CORRECTED) === 0 || consumed?.[k] === 1) continue;
    if (vaderNegated(t, k)) continue;
    const f = i.flags;
    const before = delta;
    if ((f & (F_REQUEST | F_DESK)) !== 0) delta -= applied(t, k);
    else if ((!complaint && !request) || k >= settled) continue;
    else if ((f & F_SARCASM) !== 0 && complaint && sarcastic(t, k, strong, strongWords))
      delta += (N_SCALAR - 1) * applied(t, k);
    else if ((f & F_SERVICE) !== 0) delta -= applied(t, k);
    else if ((f & F_GRATITUDE) !== 0 && !forFollows(t, k)) delta -= applied(t, k);
    if (delta !== before) {
      matched = true;
      credit(k, delta - before);
    }
  }
  // In a complaint or a request, a praise word inside a quotation is the company's word, not the writer's
  // ("the lovely email about 'putting members first'"): its valence goes (corrected words were read above).
  if (complaint || request) {
    for (let q = 0; q < t.quotes.length; q += 2) {
      for (let k = t.quotes[q]!; k < t.quotes[q + 1]! && k < settled; k++) {
        if (consumed?.[k] === 1 || ((t.infos[k]?.flags ?? 0) & CORRECTED) !== 0) continue;
        const v = t.infos[k]?.valence ?? lexiconValence(t.words[k]!);
        if (v <= 0 || vaderNegated(t, k)) continue;
        const removed = v * butFactor(t, k);
        delta -= removed;
        credit(k, -removed);
        matched = true;
      }
    }
  }
  return { delta, complaint, matched, exclamations: t.exclamations, questions: t.questions };
}

/** The layer's reading of `text` (see the rules at the top of this file). */
export function readComplaint(text: string): ComplaintReading {
  return read(text, null);
}

/** One sentence of a text as the layer reads it within the whole text (see `readSentences`). */
interface SentenceReading {
  /** The sentence's span in the text: text.slice(from, to). */
  from: number;
  to: number;
  /** The part of the text's Δ that comes from the sentence's words, with the sentence's own "but". */
  delta: number;
  /** Whether the sentence itself holds a complaint: phrase weights ≤ −1.5 or a strong negative word. */
  complaint: boolean;
}

/**
 * Sentence ends: one or more of . ! ? followed by white space or the end of the text, and line breaks. Pieces
 * without a word other than @handles and #tags (a trailing "@Brand") join the sentence before them (or, at the
 * start, the one after them).
 */
function sentenceSpans(text: string, t: Tokens): number[] {
  const spans: number[] = [];
  let from = 0;
  const len = text.length;
  for (let p = 0; p < len; p++) {
    const c = text.charCodeAt(p);
    let end = -1;
    let next = -1;
    if (c === 10) {
      end = p;
      next = p + 1;
    } else if (c === 33 || c === 46 || c === 63) {
      let q = p + 1;
      while (q < len && (text.charCodeAt(q) === 33 || text.charCodeAt(q) === 46 || text.charCodeAt(q) === 63))
        q++;
      if (q === len || /\s/.test(text[q]!)) {
        end = q;
        next = q;
      }
      p = q - 1;
    }
    if (end === -1) continue;
    spans.push(from, end);
    from = next;
  }
  if (from < len) spans.push(from, len);
  // Keep pieces that hold a word (not only handles and tags).
  const kept: number[] = [];
  let k = 0;
  for (let s = 0; s < spans.length; s += 2) {
    let words = false;
    while (k < t.length && t.start[k]! < spans[s + 1]!) {
      if (!t.handle[k]) words = true;
      k++;
    }
    if (words) kept.push(spans[s]!, spans[s + 1]!);
    else if (kept.length > 0) kept[kept.length - 1] = spans[s + 1]!;
    else if (s + 2 < spans.length) spans[s + 2] = spans[s]!;
  }
  return kept;
}

/**
 * The text read as a whole (its complaint, sarcasm, courtesy and resolution rules see every sentence) and
 * credited to its sentences: for each sentence, its span, the part of Δ from its words and whether it holds a
 * complaint itself. For the narrative reading of long texts (insights' classifier); `[]` for an empty text.
 */
export function readSentences(text: string): SentenceReading[] {
  const t = tokenize(text);
  const spans = sentenceSpans(text, t);
  const count = spans.length / 2;
  if (count === 0) return [];
  const track: SentenceTrack = {
    of: new Int32Array(t.length),
    but: new Int32Array(count).fill(-1),
    delta: new Float64Array(count),
    phrases: new Float64Array(count),
    strongWord: new Uint8Array(count),
  };
  let s = 0;
  for (let k = 0; k < t.length; k++) {
    while (s < count - 1 && t.start[k]! >= spans[2 * s + 2]!) s++;
    track.of[k] = s;
    if (track.but[s] === -1 && (flagsAt(t, k) & F_BUT) !== 0) {
      const original = t.aligned ? t.text.slice(t.start[k]!, t.start[k]! + 3) : '';
      if (original === 'but' || original === 'BUT') track.but[s] = k;
    }
  }
  BY_SENTENCE = track;
  try {
    read(text, null, t);
  } finally {
    BY_SENTENCE = null;
  }
  const out: SentenceReading[] = [];
  for (let i = 0; i < count; i++) {
    out.push({
      from: spans[2 * i]!,
      to: spans[2 * i + 1]!,
      delta: track.delta[i]!,
      complaint: track.phrases[i]! <= STRONG_PHRASE || track.strongWord[i] === 1,
    });
  }
  return out;
}

/** The complaint phrases found in `text`, for explanations and tests. */
export function complaintPhrases(text: string): ComplaintMatch[] {
  const matches: ComplaintMatch[] = [];
  read(text, matches);
  return matches;
}
