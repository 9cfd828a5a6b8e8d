/**
 * `categorise` files a trend under one category of the taxonomy (taxonomy.ts):
 *  1. Hints carried by its signals win when they resolve to a taxonomy entry — first an explicit category
 *     (name, slug or a common section alias such as `tech`), then a subreddit, then free-form source tags
 *     (hints.ts). A hint that names a top-level category is refined to its best-scoring child when one scores.
 *  2. Otherwise weighted keyword hits against per-child lexicons (lexicon.ts): an exact match of the trend key
 *     counts 6× the term weight, a term inside the key 3×, inside another surface form 2×, and each distinct
 *     term in a sample of signal texts 1× (text-hits.ts; strong terms weigh 3, ordinary ones 1). The best child
 *     with a score of at least 2 wins; ties go to the earlier entry in taxonomy order.
 *  3. Otherwise `General/Other`.
 * Same input, same category: no randomness, no iteration over unordered data.
 */
import { type CategoryHints, resolveHints } from './hints.ts';
import { normaliseKey } from './keys.ts';
import { lexiconTerms, termHits } from './lexicon.ts';
import { CATEGORIES, childIndexes, FALLBACK_CATEGORY } from './taxonomy.ts';
import { sampleTextHits, type TextHits } from './text-hits.ts';

// test/modules/trends/routes.test.ts reads the taxonomy from here.
export { CATEGORIES } from './taxonomy.ts';

interface CategoriseInput {
  /** The trend's normalised key. */
  key: string;
  surfaceForms?: readonly string[];
  /** A sample of signal texts; only the first 20 (1,000 chars each) are read. */
  texts?: readonly string[];
  /** Lexicon hits of some of those texts, worked out already (`sampleTextHits`, in an NLP thread). */
  knownHits?: ReadonlyMap<string, TextHits>;
  hints?: CategoryHints | null;
}

const KEY_EXACT = 6;
const KEY_PART = 3;
const SURFACE = 2;
const MIN_SCORE = 2;
const MAX_TEXTS = 20;
const MAX_SURFACES = 20;

function addHits(scores: Float64Array, term: string, multiplier: number): void {
  const hits = termHits(term);
  if (hits === undefined) return;
  for (const hit of hits) scores[hit.index] += hit.weight * multiplier;
}

function lexiconScores(input: CategoriseInput): Float64Array {
  const scores = new Float64Array(CATEGORIES.length);
  const key = (typeof input.key === 'string' ? normaliseKey(input.key) : null) ?? '';
  const seen = new Set<string>();
  if (key !== '') {
    seen.add(key);
    addHits(scores, key, KEY_EXACT);
    for (const term of lexiconTerms(key.split(' '))) if (term !== key) addHits(scores, term, KEY_PART);
  }
  for (const surface of (input.surfaceForms ?? []).slice(0, MAX_SURFACES)) {
    const normal = typeof surface === 'string' ? normaliseKey(surface) : null;
    if (normal === null || seen.has(normal)) continue;
    seen.add(normal);
    for (const term of new Set(lexiconTerms(normal.split(' ')))) addHits(scores, term, SURFACE);
  }
  for (const text of (input.texts ?? []).slice(0, MAX_TEXTS)) {
    if (typeof text !== 'string') continue;
    const hits = input.knownHits?.get(text) ?? sampleTextHits(text);
    for (let i = 0; i < hits.length; i += 2) scores[hits[i]!] += hits[i + 1]!;
  }
  return scores;
}

/** Index of the best score ≥ MIN_SCORE among `candidates` (taxonomy order breaks ties), or undefined. */
function best(scores: Float64Array, candidates: Iterable<number>): number | undefined {
  let winner: number | undefined;
  for (const i of candidates) {
    if (scores[i] < MIN_SCORE) continue;
    if (winner === undefined || scores[i] > scores[winner]) winner = i;
  }
  return winner;
}

/**
 * The category path of a trend (see the module comment for the rules). Always a taxonomy name;
 * `General/Other` when nothing matches.
 */
export function categorise(input: CategoriseInput): string {
  const hinted = input.hints ? resolveHints(input.hints) : undefined;
  if (hinted !== undefined) {
    if (CATEGORIES[hinted].parent !== null) return CATEGORIES[hinted].name;
    const refined = best(lexiconScores(input), childIndexes(hinted));
    return CATEGORIES[refined ?? hinted].name;
  }
  const scores = lexiconScores(input);
  const winner = best(scores, scores.keys());
  return winner === undefined ? FALLBACK_CATEGORY : CATEGORIES[winner].name;
}
