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
 *
 * Pattern syntax (data/sentiment/README.md): words separated by spaces; `a|b` alternatives for one word;
 * `[a|b]` an optional word; `#` any number (digits, "3rd", or a number word); `$` (first word only) a number in
 * digits; `*` any one word. Weights are VADER valences.
 *
 * The layer's parts: the tables (complaint-lexicon.ts, read from data/sentiment/), the token table compiled
 * from them (complaint-words.ts), the phrase trie and its matcher (phrase-trie.ts, phrase-match.ts), the
 * tokenizer (complaint-tokens.ts), the context rules (complaint-context.ts), and here the reading that applies
 * them; complaint-sentences.ts credits a reading to its sentences.
 */
import {
  applied,
  asking,
  butFactor,
  flaggedAfter,
  flaggedBefore,
  forFollows,
  HYPOTHETICAL_REACH,
  hashtagWeight,
  NEGATION_REACH,
  opensWithHandle,
  praiseOutside,
  quotedName,
  resolved,
  sarcastic,
  settledFrom,
  shouted,
  vaderNegated,
} from './complaint-context.ts';
import { WORDS } from './complaint-lexicon.ts';
import {
  C_QUESTION,
  flagsAt,
  isNumberToken,
  QUOTED_REACH,
  type Tokens,
  tokenize,
} from './complaint-tokens.ts';
import {
  CORRECTED,
  F_DESK,
  F_GRATITUDE,
  F_HYPOTHETICAL,
  F_NEGATOR,
  F_REQUEST,
  F_SARCASM,
  F_SERVICE,
  F_UNTIL,
  F_WAIT,
  lexiconValence,
  MILD_NEGATIVE,
  NARRATIVE_WEIGHT,
  NEGATIVE_WORD,
} from './complaint-words.ts';
import { longestMatch } from './phrase-match.ts';
import { C_INCR, N_SCALAR } from './vader.ts';

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
} from './complaint-lexicon.ts';
export { expandPattern } from './phrase-trie.ts';

/** Phrase weight at or below which a match is a complaint on its own (context, sarcasm trigger). */
export const STRONG_PHRASE = -1.5;
/** Positive words below this valence are mild: in an information question they name, not praise. */
const MILD_PRAISE = 1.5;
/** Words after an absent problem that say it has come now ("no issues until today") reach this far. */
const UNTIL_REACH = 4;
/**
 * Waiting words: with a duration anywhere in their clause ("waiting for my bags for over an hour") they make
 * a complaint phrase of weight WAIT_WEIGHT at the duration, unless negated, hypothetical or asked about.
 */
const WAIT_WEIGHT = -2;
const DURATION_UNITS = new Set(WORDS['duration-unit']);
/** A quotation of at most this many words is a scare quote ("the 'priority' line", 'my "upgrade"'). */
const SCARE_QUOTE = 3;
/** The weight of a quotation in a post addressed to a company: a complaint on its own (STRONG_PHRASE). */
const QUOTED_WEIGHT = -1.5;

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

/** Adds `d` to the Δ of the sentence of token `k` when reading by sentence. */
function credit(t: Tokens, k: number, d: number): void {
  if (t.sentences !== null) t.sentences.delta[t.sentences.of[k]!]! += d;
}

/** Reads `text` (from `tokens` when it is tokenized already); collects the phrases matched into `matches`. */
export function read(text: string, matches: ComplaintMatch[] | null, tokens?: Tokens): ComplaintReading {
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
        credit(t, i, tag * butFactor(t, i));
        if (t.sentences !== null) t.sentences.phrases[t.sentences.of[i]!]! += tag;
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
    credit(t, i, weight * butFactor(t, i) - replaced);
    // Praise phrases never offset a complaint.
    if (t.sentences !== null) t.sentences.phrases[t.sentences.of[i]!]! += Math.min(weight, 0);
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
      credit(t, j, WAIT_WEIGHT * butFactor(t, j) - replaced);
      if (t.sentences !== null) t.sentences.phrases[t.sentences.of[j]!]! += WAIT_WEIGHT;
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
    credit(t, k, -removed);
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
      credit(t, k, -applied(t, k));
      matched = true;
    } else {
      complaint = true;
      strongWords.push(k);
      if (k > lastEvidence) lastEvidence = k;
      if (t.sentences !== null) t.sentences.strongWord[t.sentences.of[k]!] = 1;
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
        credit(t, from, weight * butFactor(t, from) - replaced);
        if (t.sentences !== null) t.sentences.phrases[t.sentences.of[from]!]! += weight;
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
      credit(t, k, delta - before);
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
        credit(t, k, -removed);
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

/** The complaint phrases found in `text`, for explanations and tests. */
export function complaintPhrases(text: string): ComplaintMatch[] {
  const matches: ComplaintMatch[] = [];
  read(text, matches);
  return matches;
}
