/**
 * The category lexicon (data/categories/lexicon.tsv): terms pointing to the child categories they suggest,
 * strong terms (distinctive) weighing 3 and weak ones (suggestive) 1. Terms pass through `normaliseKey`, so
 * plurals and spellings match as trend keys do. Finds the terms among a text's words.
 */
import Type from 'typebox';
import { loadTsv } from '../../platform/data-files.ts';
import { normaliseKey } from './keys.ts';
import { CATEGORIES, indexOfPath } from './taxonomy.ts';

const STRONG_WEIGHT = 3;
const WEAK_WEIGHT = 1;

interface LexiconHit {
  index: number;
  weight: number;
}

/** The rows of a lexicon file laid out as data/categories/lexicon.tsv is, each naming one of `categories`. */
export function readLexicon(file: URL, categories: readonly string[]) {
  return loadTsv(
    file,
    Type.Object({
      term: Type.String({ pattern: '^\\S(?:.*\\S)?$' }),
      category: Type.Enum(categories),
      strength: Type.Enum(['strong', 'weak']),
    }),
  );
}

/** normalised term → categories it points to (taxonomy order) */
const LEXICON = new Map<string, LexiconHit[]>();
/** Lexicon terms that did not survive normalisation (a test keeps this empty). */
export const UNUSABLE_LEXICON_TERMS: string[] = [];
/** Every lexicon term, normalised (for tests). */
export const lexiconTermKeys = (): string[] => [...LEXICON.keys()];
/** The first words of every lexicon term longer than them (`new`, `new york` for `new york city`). */
const TERM_PREFIXES = new Set<string>();

function addTerm(index: number, term: string, weight: number): void {
  const key = normaliseKey(term);
  if (key === null) {
    UNUSABLE_LEXICON_TERMS.push(term);
    return;
  }
  const words = key.split(' ');
  for (let n = 1; n < words.length; n++) TERM_PREFIXES.add(words.slice(0, n).join(' '));
  const hits = LEXICON.get(key) ?? [];
  const existing = hits.find((h) => h.index === index);
  if (existing) existing.weight = Math.max(existing.weight, weight);
  else hits.push({ index, weight });
  LEXICON.set(key, hits);
}

const children = CATEGORIES.filter((c) => c.parent !== null).map((c) => c.name);
for (const row of readLexicon(new URL('./data/categories/lexicon.tsv', import.meta.url), children))
  addTerm(indexOfPath(row.category)!, row.term, row.strength === 'strong' ? STRONG_WEIGHT : WEAK_WEIGHT);
// Taxonomy order whatever the file's: ties between a term's categories go to the earlier one.
for (const hits of LEXICON.values()) hits.sort((a, b) => a.index - b.index);

/** The categories a normalised term points to, with their weights; undefined for a word no term is. */
export function termHits(term: string): readonly LexiconHit[] | undefined {
  return LEXICON.get(term);
}

/**
 * The lexicon terms among a token list's n-grams (each start in turn, shortest gram first): a gram is extended
 * by a word only while it begins some longer term, so a text's words are not joined into grams no term can be.
 */
export function lexiconTerms(tokens: readonly string[]): string[] {
  const terms: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let gram = tokens[i]!;
    for (let n = 1; ; n++) {
      if (LEXICON.has(gram)) terms.push(gram);
      if (i + n >= tokens.length || !TERM_PREFIXES.has(gram)) break;
      gram = `${gram} ${tokens[i + n]}`;
    }
  }
  return terms;
}

/** A term's strongest category by the lexicon (taxonomy order breaks ties). */
export function strongestCategory(value: string): number | undefined {
  const key = normaliseKey(value);
  const hits = key === null ? undefined : LEXICON.get(key);
  if (hits === undefined) return undefined;
  let winner: LexiconHit | undefined;
  for (const hit of hits) if (winner === undefined || hit.weight > winner.weight) winner = hit;
  return winner?.index;
}
