// The complaint layer's phrase tables and word lists, read once from data/sentiment/ (its README.md gives each
// file's fields, how the weights are used, and the source) and checked: a malformed row stops the process at
// start with the file and the line. complaints.ts states the rules that use them.
import Type, { type TSchema } from 'typebox';
import { DataFileError, loadTsv } from '../../platform/data-files.ts';

/** A phrase pattern and its weight, a valence on VADER's scale (complaints.ts gives the pattern syntax). */
type Phrase = readonly [pattern: string, weight: number];

/** The word lists of words.tsv, by the name in its `list` column. */
const WORD_LISTS = [
  'service',
  'request',
  'desk',
  'gratitude',
  'sarcasm',
  'negator',
  'hypothetical',
  'contrast',
  'clause-filler',
  'number',
  'resolution',
  'wait',
  'duration-unit',
  'take',
  'turn',
  'until',
  'asking',
  'greeting',
  'how-measure',
  'how-auxiliary',
  'first-person',
  'possessive',
  'reproach',
  'hashtag-stem',
  'problem',
] as const;
type WordList = (typeof WORD_LISTS)[number];

const WORD = "[a-z0-9']+";
const ALTERNATIVES = `${WORD}(?:\\|${WORD})*`;
/**
 * One slot of a pattern: alternatives, optional alternatives `[a|b]` or `[*]`, `#`, `*`, `$`, or `{list}` (the
 * words of a list of words.tsv as alternatives). The first slot is never `*` (it would match at every word).
 */
const SLOT = `(?:${ALTERNATIVES}|\\[(?:${ALTERNATIVES}|\\*)\\]|#|\\*|\\$|\\{(?:${WORD_LISTS.join('|')})\\})`;
const Pattern = Type.String({ pattern: `^(?!\\*( |$))${SLOT}(?: ${SLOT})*$` });

/** Every phrase table and word list of a data folder laid out as data/sentiment/ is, checked. */
export function readComplaintLexicon(dir: URL) {
  const file = (name: string) => new URL(name, dir);

  const words = Object.fromEntries(WORD_LISTS.map((list) => [list, [] as string[]])) as Record<
    WordList,
    string[]
  >;
  const wordRows = loadTsv(
    file('words.tsv'),
    Type.Object({
      list: Type.Union(WORD_LISTS.map((list) => Type.Literal(list))),
      word: Type.String({ pattern: `^${WORD}$` }),
    }),
  );
  for (const { list, word } of wordRows) words[list as WordList].push(word);
  for (const list of WORD_LISTS)
    if (words[list].length === 0) throw new DataFileError(file('words.tsv'), '', `no words in list ${list}`);

  /** `{list}` in a pattern: the list's words as alternatives. */
  const expand = (pattern: string): string =>
    pattern.replace(/\{([a-z-]+)\}/g, (_, list: WordList) => words[list].join('|'));
  const phrases = (name: string, weight: TSchema): Phrase[] =>
    loadTsv(file(name), Type.Object({ weight, pattern: Pattern }), { numeric: ['weight'] }).map(
      (row) => [expand(row.pattern), row.weight as number] as const,
    );
  const negative = Type.Number({ exclusiveMaximum: 0 });
  const positive = Type.Number({ exclusiveMinimum: 0 });

  return {
    complaint: phrases('complaint-phrases.tsv', negative),
    selfContained: phrases('self-contained-phrases.tsv', negative),
    request: phrases('request-phrases.tsv', negative),
    narrative: loadTsv(
      file('narrative-phrases.tsv'),
      Type.Object({
        tells: Type.Union(['told', 'time', 'cost', 'expected'].map((t) => Type.Literal(t))),
        pattern: Pattern,
      }),
    ).map((row) => expand(row.pattern)),
    neutral: phrases('neutral-phrases.tsv', Type.Literal(0)),
    absence: phrases('absence-phrases.tsv', positive),
    praise: phrases('praise-phrases.tsv', positive),
    words,
  };
}

const LEXICON = readComplaintLexicon(new URL('./data/sentiment/', import.meta.url));

/** Complaint phrases that a negator or a hypothetical marker before them cancels. */
export const COMPLAINT_PHRASES: readonly (readonly [pattern: string, weight: number])[] = LEXICON.complaint;
/** Complaint phrases that carry their own negation, or are requests or sarcasm: never cancelled. */
export const SELF_CONTAINED_PHRASES: readonly (readonly [pattern: string, weight: number])[] =
  LEXICON.selfContained;
/**
 * Asking for money back: a complaint that no negator cancels ("no refund", "never refunded") but that an
 * information question makes neutral ("can I get a refund if I cancel?").
 */
export const REQUEST_PHRASES: readonly (readonly [pattern: string, weight: number])[] = LEXICON.request;
/** Narrative cues: weigh NARRATIVE_WEIGHT, and only when corroborated (complaints.ts). */
export const NARRATIVE_PHRASES: readonly string[] = LEXICON.narrative;
/** Phrases that are neither praise nor complaint: weight 0, replacing their words' VADER valences. */
export const NEUTRAL_PHRASES: readonly (readonly [pattern: string, weight: number])[] = LEXICON.neutral;
/** The absence of a problem is praise, unless hypothetical, asked about or followed by "until". */
export const ABSENCE_PHRASES: readonly (readonly [pattern: string, weight: number])[] = LEXICON.absence;
/** Praise idioms neither lexicon knows: never cancelled, never counted towards a complaint. */
export const PRAISE_PHRASES: readonly (readonly [pattern: string, weight: number])[] = LEXICON.praise;

/** Words VADER scores positive that in a complaint name the service or are politeness, not praise. */
export const SERVICE_WORDS: readonly string[] = LEXICON.words.service;
/** Request markers: politeness, never an opinion, so never scored (and they make a text a request). */
export const REQUEST_WORDS: readonly string[] = LEXICON.words.request;
/** Names of the service desk that VADER scores as praise ("customer support"): never scored. */
export const DESK_WORDS: readonly string[] = LEXICON.words.desk;
/** Gratitude: courtesy in a complaint unless "for" follows within 3 words (then it thanks for something). */
export const GRATITUDE_WORDS: readonly string[] = LEXICON.words.gratitude;
/** Praise words that complaints use sarcastically ("great, another delay"). */
export const SARCASM_WORDS: readonly string[] = LEXICON.words.sarcasm;
/** Every word list of words.tsv by name (the README says what each is for). */
export const WORDS: Readonly<Record<WordList, readonly string[]>> = LEXICON.words;
