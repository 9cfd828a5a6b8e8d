// The text sentiment classifier behind an insight's sentiment figures. Two general-purpose lexicon scorers:
// VADER's compound (negation, intensifiers, "but" contrast, punctuation and caps emphasis) corrected by the
// complaint layer (trends' mentionSentiment: complaint phrases, sarcasm, service and courtesy words; the same
// score trends use per mention), and wink-nlp's sentiment (a separate AFINN-derived lexicon with its own
// negation and emoji handling). A text the complaint layer read (it corrected a word or matched a phrase, even
// one it then weighed 0, such as "outage" in "is there an outage map?") is scored by the corrected VADER score
// alone: wink's lexicon has the same blind spots (it scores "support", "help", "thanks" and "please" positive,
// knows no complaint phrase and reads an asked-about or solved problem as a complaint), so averaging it in
// would undo the correction. Any other text is scored by the mean of the two, which covers words one lexicon
// lacks. Neither lexicon is edited here.
// A text of two or more sentences is also read sentence by sentence (the narrative reading): a long story is
// one VADER sum, where a polite opening, thanks to the staff or a sarcastic "fantastic" can outweigh the one
// sentence that says what went wrong. So when a sentence read on its own is a complaint (the complaint layer
// reads it as one and it scores ≤ −0.05) and no later sentence scores ≥ 0.05 on its own (a story that ends
// well, "… they refunded me the same day. Really grateful.", keeps its whole-text score), the text scores at
// most that sentence's score: a clear complaint is what the post says, whatever courtesy surrounds it.
// The decision thresholds are VADER's published cut-offs (±0.05); a text between them is neutral.
// Quality is measured by `npm run eval` (scripts/eval/sentiment.eval.ts).
import type { WinkMethods } from 'wink-nlp';
import { mentionSentiment, newWink, sentenceSentiments } from '../text/index.ts';
import { type Reading, readingOf, type TextSentiment } from './share-estimate.ts';

export type { TextSentiment };

const MAX_CHARS = 2000;
const POSITIVE = 0.05;
const NEGATIVE = -0.05;

let wink: WinkMethods | null = null;

function winkNlp(): WinkMethods {
  if (wink === null) {
    wink = newWink();
  }
  return wink;
}

/** wink-nlp's document sentiment in [-1, 1] (0 when it cannot score the text). */
function winkScore(text: string): number {
  const input = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  if (input.trim() === '') return 0;
  try {
    const nlp = winkNlp();
    const score = nlp.readDoc(input).out(nlp.its.sentiment) as unknown as number;
    return Number.isFinite(score) ? Math.max(-1, Math.min(1, score)) : 0;
  } catch {
    return 0;
  }
}

/**
 * The narrative reading (see the top of this file): the score of the last sentence that is a complaint when no
 * later sentence is positive, each read within the whole text; null for a single sentence or no such one.
 */
function unansweredComplaint(input: string): number | null {
  const sentences = sentenceSentiments(input);
  if (sentences.length < 2) return null;
  for (let i = sentences.length - 1; i >= 0; i--) {
    const { score, complaint } = sentences[i]!;
    if (score >= POSITIVE) return null;
    if (complaint && score <= NEGATIVE) return score;
  }
  return null;
}

/**
 * The combined score in [-1, 1]: the complaint-corrected VADER score when the complaint layer read the text,
 * else the mean of VADER compound and wink-nlp sentiment; at most the score of an unanswered complaint
 * sentence (the narrative reading).
 */
function sentimentScore(text: string | null | undefined): number {
  if (typeof text !== 'string' || text.trim() === '') return 0;
  const input = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  const vader = mentionSentiment(input);
  let score = vader.corrected ? vader.score : (vader.score + winkScore(input)) / 2;
  const complaint = unansweredComplaint(input);
  if (complaint !== null && complaint < score) score = complaint;
  return score === 0 ? 0 : score;
}

function categoryOf(score: number): TextSentiment {
  if (score >= POSITIVE) return 'positive';
  if (score <= NEGATIVE) return 'negative';
  return 'neutral';
}

/**
 * The sentiment category of one text, and its reading when it is written to an account (the shares an
 * insight states estimate from it: share-estimate.ts).
 */
export function classifySentiment(text: string | null | undefined): {
  score: number;
  category: TextSentiment;
  reading: Reading | null;
} {
  const score = sentimentScore(text);
  const category = categoryOf(score);
  return { score, category, reading: typeof text === 'string' ? readingOf(text, score, category) : null };
}
