// Word lists and per-category tables of the offline analyzer, read from data/ (data/README.md gives each file's
// source). General vocabulary, written by topic, never fitted to particular texts.
import Type, { type Static } from 'typebox';
import { DataFileError, loadJson } from '../../platform/data-files.ts';

const Phrase = Type.String({ minLength: 1 });
const Phrases = Type.Array(Phrase, { minItems: 1 });

const CategoryProfileSchema = Type.Object(
  {
    /** Typical cost per click in USD of search/social ads in this vertical (order of magnitude only). */
    baseCpcUsd: Type.Number({ exclusiveMinimum: 0 }),
    ageMin: Type.Integer({ minimum: 0 }),
    ageMax: Type.Integer({ minimum: 0 }),
    audiences: Phrases,
    demographics: Phrase,
  },
  { additionalProperties: false },
);
export type CategoryProfile = Static<typeof CategoryProfileSchema>;

/** Every file of a data folder laid out as data/ is, checked (DataFileError names the file that is wrong). */
export function readLexicons(dir: URL) {
  const file = (name: string) => new URL(name, dir);
  /** A table per top-level category that must hold `General`, the fallback of every lookup. */
  const byCategory = <T extends Type.TSchema>(name: string, value: T): Record<string, Static<T>> => {
    const table = loadJson(file(name), Type.Record(Phrase, value));
    if (!Object.hasOwn(table, 'General')) throw new DataFileError(file(name), '', 'no General entry');
    return table;
  };
  return {
    commercialModifiers: loadJson(file('commercial-modifiers.json'), Phrases),
    complaintTopics: loadJson(
      file('complaint-topics.json'),
      Type.Array(
        Type.Object({ label: Phrase, response: Phrase, cues: Phrases }, { additionalProperties: false }),
      ),
    ),
    safetyLexicons: loadJson(
      file('safety-lexicons.json'),
      Type.Array(Type.Object({ flag: Phrase, terms: Phrases }, { additionalProperties: false })),
    ),
    negativeKeywords: loadJson(file('negative-keywords.json'), Phrases),
    categoryProfiles: byCategory('category-profiles.json', CategoryProfileSchema),
    platformFormats: loadJson(file('platform-formats.json'), Type.Record(Phrase, Phrases)),
    categoryCommunities: byCategory('category-communities.json', Phrases),
  };
}

const LEXICONS = readLexicons(new URL('./data/', import.meta.url));

/** Matches as whole words (phrases allowed) against a lower-cased text. */
function phraseMatcher(phrases: readonly string[]): RegExp {
  const escaped = phrases.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
}

/** Commercial or transactional modifiers: a mention using one is a buying-research mention. */
export const COMMERCIAL = phraseMatcher(LEXICONS.commercialModifiers);

/** Complaint topics: a negative mention that uses one of the cues is a complaint about that topic. */
export const COMPLAINT_TOPICS = LEXICONS.complaintTopics.map((t) => ({
  ...t,
  matcher: phraseMatcher(t.cues),
}));

/** Brand-safety category lexicons (profanity itself comes from `obscenity`). */
export const SAFETY_LEXICONS = LEXICONS.safetyLexicons.map((l) => ({
  ...l,
  matcher: phraseMatcher(l.terms),
}));

/** Negative keywords every ad campaign on a trend should exclude (job seekers, piracy, freebies). */
export const GENERIC_NEGATIVE_KEYWORDS = LEXICONS.negativeKeywords;

/**
 * Per top-level category: a base CPC and a coarse audience profile. The CPCs are rounded industry-average
 * figures for paid search/social (finance and legal expensive, entertainment and gaming cheap); they
 * set the scale of predicted_cpc_usd and are not a quote.
 */
const CATEGORY_PROFILES = LEXICONS.categoryProfiles;

export function profileFor(category: string): CategoryProfile {
  const top = category.split('/')[0] ?? 'General';
  return CATEGORY_PROFILES[top] ?? CATEGORY_PROFILES.General!;
}

/** Content formats that fit each platform's audience. */
export const PLATFORM_FORMATS: Record<string, string[]> = LEXICONS.platformFormats;

/** Reddit-like communities per top-level category, for forum-ads payloads when signals name none. */
export const CATEGORY_COMMUNITIES: Record<string, string[]> = LEXICONS.categoryCommunities;
