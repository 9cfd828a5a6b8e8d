// The complaint layer's context rules: what the words around a token say about it (negated, hypothetical,
// solved, asked about, sarcastic, shouted, in VADER's "but" reach). complaints.ts states each rule.
import { WORDS } from './complaint-lexicon.ts';
import { C_OPEN, C_QUESTION, flagsAt, type Tokens } from './complaint-tokens.ts';
import {
  F_ASKING,
  F_CONTRAST,
  F_DESK,
  F_FILLER,
  F_FOR,
  F_GRATITUDE,
  F_GREETING,
  F_NEGATOR,
  F_REPROACH,
  F_REQUEST,
  F_RESOLVED,
  F_SERVICE,
  F_TURN,
  F_VADER_NEGATOR,
  lexiconValence,
} from './complaint-words.ts';
import { N_SCALAR } from './vader.ts';

const SARCASM_REACH = 5;
/** At most this many other words beside a praise word make a short verdict clause ("great packaging"). */
const SHORT_VERDICT = 2;
export const NEGATION_REACH = 3;
export const HYPOTHETICAL_REACH = 4;
const GRATITUDE_REACH = 3;
/** How far before a complaint phrase a resolution word solves it ("found my lost bag"). */
const RESOLUTION_REACH = 3;
/** The weight of a hashtag that names a complaint, as a complaint phrase. */
const HASHTAG_WEIGHT = -2;

/** "care" says a problem was solved after one of these ("took care of my lost bag"). */
const TAKE = new Set(WORDS.take);
/** After "how": asks for a measure. */
const HOW_MEASURES = new Set(WORDS['how-measure']);
/** After "how": an auxiliary, then a first-person word ("how do I …"). */
const HOW_AUXILIARIES = new Set(WORDS['how-auxiliary']);
const FIRST_PERSON = new Set(WORDS['first-person']);
const POSSESSIVES = new Set(WORDS.possessive);
/** Stems of hashtags that name a complaint in one word ("#fail", "#neveragain", "#worstairline"). */
const HASHTAG_STEMS = WORDS['hashtag-stem'];

/** A word with flag `f` among the `reach` words before `at`, in its clause (F_NEGATOR: any "n't" word too). */
export function flaggedBefore(t: Tokens, at: number, reach: number, f: number): boolean {
  for (let k = at - 1; k >= 0 && k >= at - reach && t.clause[k] === t.clause[at]; k--) {
    if ((flagsAt(t, k) & f) !== 0) return true;
    if (f === F_NEGATOR && t.words[k]!.includes("n't")) return true;
  }
  return false;
}

/** Whether a word flagged `f` stands among the `reach` words from `from` on, in the clause of the word before it. */
export function flaggedAfter(t: Tokens, from: number, reach: number, f: number): boolean {
  const clause = t.clause[from - 1];
  for (let k = from; k < t.length && k < from + reach && t.clause[k] === clause; k++) {
    if ((flagsAt(t, k) & f) !== 0) return true;
  }
  return false;
}

/** VADER's negation of the word at `at`: a (lower-case) negator among the 3 words before it, any clause. */
export function vaderNegated(t: Tokens, at: number): boolean {
  for (let k = at - 1; k >= 0 && k >= at - 3; k--) {
    if ((flagsAt(t, k) & F_VADER_NEGATOR) !== 0 && t.lowerCase[k]) return true;
    if (t.words[k]!.includes("n't")) return true;
  }
  return false;
}

export function butFactor(t: Tokens, at: number): number {
  // Read by sentence, each sentence has its own "but", as VADER scoring that sentence alone sees it.
  const but = t.sentences === null ? t.butIndex : t.sentences.but[t.sentences.of[at]!]!;
  if (but === -1 || at === but) return 1;
  return at < but ? 0.5 : 1.5;
}

/** The valence VADER gives the word at `at`: its lexicon valence with negation and "but" applied. */
export function applied(t: Tokens, at: number): number {
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
export function forFollows(t: Tokens, at: number): boolean {
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
export function sarcastic(
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
export function resolved(t: Tokens, at: number): boolean {
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
export function settledFrom(t: Tokens, lastEvidence: number): number {
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
export function asking(t: Tokens, at: number): boolean {
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
export function shouted(t: Tokens, a: number, b: number): boolean {
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

/** The weight of a hashtag that names a complaint (one of HASHTAG_STEMS inside it), else 0. */
export function hashtagWeight(t: Tokens, k: number): number {
  if (!t.hashtag[k]) return 0;
  const w = t.words[k]!;
  for (const stem of HASHTAG_STEMS) if (w.includes(stem)) return HASHTAG_WEIGHT;
  return 0;
}

/** Whether every word of the quotation [from, to) is a name ("Delta One", "Wanna Get Away"): a title. */
export function quotedName(t: Tokens, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!t.name[k]) return false;
  return true;
}

/**
 * Whether a praise word stands outside the quotations starting at `quoted` and is not sarcasm with them as the
 * complaint ('the crew sang "happy birthday" to my daughter, thank you!!' is praise; '… the "freshly cleaned"
 * shower. nice' is not). Requests, desk and service words do not count: they are courtesy or the service's name.
 */
export function praiseOutside(
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
export function opensWithHandle(text: string): boolean {
  return OPENS_WITH_HANDLE.test(text);
}
