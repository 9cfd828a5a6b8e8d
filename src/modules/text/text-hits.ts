/**
 * The lexicon hits of a sample text, as categorisation reads it: summed by category, remembered for the last few
 * thousand texts. Pure: the NLP threads work them out for new trends' texts (analysis.ts).
 */
import { normaliseTokens } from './keys.ts';
import { lexiconTerms, termHits } from './lexicon.ts';

/** A text's lexicon hits summed by category, as [index, weight, index, weight, …]. */
export type TextHits = ArrayLike<number>;

/** Only the start of a sample text is read. */
const MAX_TEXT_CHARS = 1000;
/** A term in a sample text counts once its lexicon weight (the trend's own key and forms count more). */
const TEXT = 1;

/**
 * The lexicon hits of a sample text as categorisation reads it (its first 1,000 characters). Pure: the NLP
 * threads work them out for the texts of signals naming a key they had not seen, so the thread that writes a
 * batch does not read those texts again to categorise the new trends (`CategoriseInput.knownHits`).
 */
export function sampleTextHits(text: string): TextHits {
  return textHits(text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text);
}

const TEXT_HITS = new Map<string, readonly number[]>();
/** Texts whose hits are remembered (at most MAX_TEXT_CHARS each): a few MB. */
const TEXT_HITS_KEPT = 4096;

/**
 * A text's lexicon hits summed by category, as [index, weight, index, weight, …]. Remembered for the last few
 * thousand texts: a batch categorises each new trend over its sample texts, and a post naming five new trends
 * was read five times (on real posts that reading was most of the API thread's work per signal). Weights are
 * whole numbers, so the sums are exact in any order.
 */
function textHits(text: string): readonly number[] {
  let hits = TEXT_HITS.get(text);
  if (hits !== undefined) return hits;
  const sums = new Map<number, number>();
  // Each term counts once per text, so one long text cannot outvote the rest.
  for (const term of new Set(lexiconTerms(normaliseTokens(text)))) {
    for (const hit of termHits(term)!) {
      sums.set(hit.index, (sums.get(hit.index) ?? 0) + hit.weight * TEXT);
    }
  }
  hits = [...sums].flat();
  if (TEXT_HITS.size >= TEXT_HITS_KEPT) TEXT_HITS.clear();
  TEXT_HITS.set(text, hits);
  return hits;
}
