// The text module's public entry: tokens, normalisation and fingerprints, phrase extraction and matching,
// sentiment (VADER with the complaint and praise layers), categories, and the NLP worker pool. A leaf: it
// imports no other module, and every module that needs a text function imports it from here (never through
// trends).
export { type BatchAnalysis, CANDIDATE_TYPES, withExtraCandidates } from './analysis.ts';
export { categorise } from './categories.ts';
export { extractCandidates, titleFrom, typeForTitle } from './extraction.ts';
export { hash32 } from './fingerprint.ts';
export { containedNames, foldLatinAccents, normaliseKey, normaliseTokens, surfaceOfName } from './keys.ts';
export { createNlpPool, InProcessNlp, type NlpPool } from './nlp-pool.ts';
export { containsPhrase, PhraseIndex, phraseTokens } from './phrases.ts';
export { compound, mentionSentiment, sentenceSentiments } from './sentiment.ts';
export { hammingDistance, NEAR_DUPLICATE_BITS, simhashHex } from './simhash.ts';
export { CATEGORIES, categoryByNameOrSlug, descendantsOf } from './taxonomy.ts';
export type { TextHits } from './text-hits.ts';
export { newWink } from './wink.ts';
