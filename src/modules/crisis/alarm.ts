// Crisis language: how alarming a post reads, beside its VADER sentiment. Factual crisis reports ("Explosion
// at the finish line", "Tornado on the ground, take shelter now") score 0 in VADER but are exactly what a
// crisis detector must hear, so a post counts towards a surge when it is negative OR alarming.
//
// The lexicon is curated by hand from public hazard vocabularies (the UNDRR/ISC hazard information profiles and
// EM-DAT's hazard classification for natural and technological hazards; the common-alerting-protocol event
// names weather services use — warnings, evacuations, shelter instructions), the harm words news reports of
// disasters use (dead, injured, missing, displaced) and the disruption words of service incidents (outage,
// blackout, stranded). It is not derived from any evaluation data. The core hazard and harm words are also
// given in Spanish, Portuguese, French, Italian, German, Filipino, Indonesian and Russian, the languages most
// crisis posts outside English are written in; VADER reads none of them.
//
// Each term has a category (hazard, harm, emergency, disruption) and a strength: strong terms (weight 1) are
// alarming on their own; weak terms (weight 0.5) are ambiguous outside a crisis ("fire", "crash", "warning",
// "rescue") and alarm only together with another term.
//
//   alarm(text) = min(1, Σ weights of the distinct terms found); the post is alarming when alarm ≥ ALARMING_AT.
//
// Matching: the text is accent-folded (NFKD, combining marks removed) and split into the same word tokens as
// trend keys (`normaliseTokens`: lower case, URLs removed, camelCase hashtags split, English -s plurals folded);
// a term matches as a run of whole tokens, a term written `stem*` matches any token starting with the stem, and
// a term of 4 or more letters also matches inside a lower-case glued hashtag (`#phquake`, `#nswfires`). A few
// idioms cancel the terms inside them ("killed it", "had a blast", "photo bomb", "crash course"), and so do the
// words of the interest itself: for an interest in "Walking Dead" or "Fire TV", "dead" and "fire" name the
// subject, not an alarm (what is alarming must be said about it).
import Type from 'typebox';
import { loadTsv } from '../../platform/data-files.ts';
import { normaliseTokens } from '../text/index.ts';

export type AlarmCategory = 'hazard' | 'harm' | 'emergency' | 'disruption';

/** A post is alarming from this score on (one strong term, or two weak ones). */
export const ALARMING_AT = 1;
/** Weights of strong and weak terms. */
const STRONG_WEIGHT = 1;
const WEAK_WEIGHT = 0.5;
/** Glued hashtags are searched for terms of at least this many letters. */
const HASHTAG_TERM_MIN = 4;

// --- the lexicon (data/alarm-terms.tsv, data/alarm-idioms.tsv; data/README.md gives their sources) --------
// Each term's category and strength (strong: alarming alone; weak: ambiguous alone); `stem*` matches a token
// prefix. Earlier rows win over later spellings that normalise alike, so categories are read in this order.
const CATEGORIES: readonly AlarmCategory[] = ['hazard', 'harm', 'emergency', 'disruption'];
const Term = Type.String({ minLength: 1 });

/** The lexicon and idioms of a data folder laid out as data/ is, checked (DataFileError names the file). */
export function readAlarmLexicon(dir: URL) {
  const rows = loadTsv(
    new URL('alarm-terms.tsv', dir),
    Type.Object({
      term: Term,
      category: Type.Union(CATEGORIES.map((c) => Type.Literal(c))),
      strength: Type.Union([Type.Literal('strong'), Type.Literal('weak')]),
    }),
  );
  const lexicon = Object.fromEntries(
    CATEGORIES.map((category) => {
      const of = (strength: string) =>
        rows.filter((r) => r.category === category && r.strength === strength).map((r) => r.term);
      return [category, { strong: of('strong'), weak: of('weak') }];
    }),
  ) as Record<AlarmCategory, { strong: string[]; weak: string[] }>;
  const idioms = loadTsv(new URL('alarm-idioms.tsv', dir), Type.Object({ idiom: Term })).map((r) => r.idiom);
  return { lexicon, idioms };
}

const { lexicon: LEXICON, idioms: IDIOMS } = readAlarmLexicon(new URL('./data/', import.meta.url));

// --- compiled form ----------------------------------------------------------------------------------------

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}+/gu, '');

interface Entry {
  /** The term as written in the lexicon (`stem*` for a prefix). */
  term: string;
  category: AlarmCategory;
  weight: number;
  /** Token run to match, or the stem for a prefix term. */
  tokens: string[];
  prefix: boolean;
  /** Lower-case letters for matching inside glued hashtags ('' when too short). */
  glued: string;
}

function compile(): { byFirst: Map<string, Entry[]>; prefixes: Entry[]; hashtag: Entry[] } {
  const byFirst = new Map<string, Entry[]>();
  const prefixes: Entry[] = [];
  const hashtag: Entry[] = [];
  const seen = new Set<string>();
  for (const [category, { strong, weak }] of Object.entries(LEXICON) as [
    AlarmCategory,
    { strong: string[]; weak: string[] },
  ][]) {
    for (const [list, weight] of [
      [strong, STRONG_WEIGHT],
      [weak, WEAK_WEIGHT],
    ] as const) {
      for (const raw of list) {
        const prefix = raw.endsWith('*');
        const folded = fold(prefix ? raw.slice(0, -1) : raw).toLowerCase();
        const tokens = prefix ? [folded] : normaliseTokens(folded);
        // Spellings that normalise alike (plurals: "fires" = "fire") are one term.
        const id = tokens.length === 0 ? raw : `${tokens.join(' ')}${prefix ? '*' : ''}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const term = raw;
        // Symbols (🆘, 🚨) have no word tokens: matched in the raw text instead.
        const entry: Entry = {
          term,
          category,
          weight,
          tokens: tokens.length === 0 ? [] : tokens,
          prefix,
          glued:
            tokens.length === 1 && [...tokens[0]].length >= HASHTAG_TERM_MIN && /^\p{L}+$/u.test(tokens[0])
              ? tokens[0]
              : '',
        };
        if (entry.tokens.length === 0) {
          SYMBOLS.push(entry);
          continue;
        }
        if (prefix) prefixes.push(entry);
        else {
          const list2 = byFirst.get(tokens[0]) ?? [];
          list2.push(entry);
          byFirst.set(tokens[0], list2);
        }
        if (entry.glued) hashtag.push(entry);
      }
    }
  }
  return { byFirst, prefixes, hashtag };
}

const SYMBOLS: Entry[] = [];
const { byFirst: BY_FIRST, prefixes: PREFIXES, hashtag: HASHTAG_TERMS } = compile();
const IDIOM_TOKENS = IDIOMS.map((i) => normaliseTokens(fold(i).toLowerCase())).filter((t) => t.length > 0);
const GLUED_HASHTAG = /#([\p{L}\p{N}_]{4,})/gu;

export interface Alarm {
  /** min(1, Σ weights of the distinct terms found). */
  score: number;
  /** The distinct terms found, as written in the lexicon. */
  terms: string[];
  categories: AlarmCategory[];
}

const NONE: Alarm = { score: 0, terms: [], categories: [] };

function runAt(tokens: readonly string[], at: number, run: readonly string[]): boolean {
  if (at + run.length > tokens.length) return false;
  for (let j = 0; j < run.length; j++) if (tokens[at + j] !== run[j]) return false;
  return true;
}

/** Marks runs of 2–4 consecutive tokens that glued together spell `name` ("boulder", "flood" → "boulderflood"). */
function skipSpelled(tokens: readonly string[], name: string, skip: boolean[]): void {
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].length >= name.length || !name.startsWith(tokens[i])) continue;
    let glued = tokens[i];
    for (let j = i + 1; j < Math.min(tokens.length, i + 4); j++) {
      glued += tokens[j];
      if (glued === name) for (let k = i; k <= j; k++) skip[k] = true;
      if (!name.startsWith(glued)) break;
    }
  }
}

/**
 * How alarming `text` reads (see the file comment): the score and the terms that made it. `subject` is the
 * interest the text is read for, or the interests of one subject: their words never count, nor their names
 * typed as one hashtag in another case ("#BoulderFlood" for "boulderflood").
 */
export function alarm(text: string | null | undefined, subject: string | readonly string[] = ''): Alarm {
  if (typeof text !== 'string' || text.trim() === '') return NONE;
  const folded = fold(text);
  const tokens = normaliseTokens(folded);
  const subjects = (typeof subject === 'string' ? [subject] : subject)
    .map((s) => normaliseTokens(fold(s)))
    .filter((t) => t.length > 0);
  const own = new Set(subjects.flat());
  const names = subjects.map((t) => t.join(''));
  const skip = tokens.map((t) => own.has(t));
  for (const name of names) skipSpelled(tokens, name, skip);
  for (let i = 0; i < tokens.length; i++) {
    for (const idiom of IDIOM_TOKENS) {
      if (runAt(tokens, i, idiom)) for (let j = 0; j < idiom.length; j++) skip[i + j] = true;
    }
  }
  const found = new Map<string, Entry>();
  for (let i = 0; i < tokens.length; i++) {
    if (skip[i]) continue;
    for (const entry of BY_FIRST.get(tokens[i]) ?? []) {
      if (!found.has(entry.term) && runAt(tokens, i, entry.tokens)) found.set(entry.term, entry);
    }
    for (const entry of PREFIXES) {
      if (!found.has(entry.term) && tokens[i].startsWith(entry.tokens[0])) found.set(entry.term, entry);
    }
  }
  for (const match of folded.matchAll(GLUED_HASHTAG)) {
    // camelCase hashtags are split into tokens already; only glued lower-case ones are searched inside.
    if (/\p{Lu}/u.test(match[1].slice(1))) continue;
    let tag = match[1].toLowerCase();
    for (const name of names) tag = tag.replaceAll(name, ' ');
    for (const word of own) if (word.length >= HASHTAG_TERM_MIN) tag = tag.replaceAll(word, ' ');
    for (const entry of HASHTAG_TERMS) {
      if (!found.has(entry.term) && tag.includes(entry.glued)) found.set(entry.term, entry);
    }
  }
  for (const entry of SYMBOLS)
    if (!found.has(entry.term) && text.includes(entry.term)) found.set(entry.term, entry);
  if (found.size === 0) return NONE;
  // A term inside a longer one found ("outage" in "power outage") is not a second term.
  const phrases = [...found.values()]
    .filter((e) => e.tokens.length > 1)
    .map((e) => ` ${e.tokens.join(' ')} `);
  const entries = [...found.values()].filter(
    (e) =>
      e.prefix ||
      !phrases.some((p) => p.length > e.tokens.join(' ').length + 2 && p.includes(` ${e.tokens.join(' ')} `)),
  );
  const score = Math.min(
    1,
    entries.reduce((sum, e) => sum + e.weight, 0),
  );
  return {
    score,
    terms: entries.map((e) => e.term),
    categories: [...new Set(entries.map((e) => e.category))].sort(),
  };
}

export const isAlarming = (a: Alarm) => a.score >= ALARMING_AT;
