/**
 * Trend candidate extraction: one signal → the hashtags, keywords, named entities and key phrases it
 * mentions, each under a normalised key that groups spellings of the same thing across signals.
 */
import { createRequire } from 'node:module';
import type { Model } from 'wink-eng-lite-web-model';
import type { ItemSentence, WinkMethods } from 'wink-nlp';
import { FUNCTION_WORDS, normaliseKey, STOPWORDS, wordList } from './keys.ts';

export type CandidateType = 'hashtag' | 'entity' | 'keyword';

export interface TrendCandidate {
  /** Normalised key shared by every spelling of the trend. */
  key: string;
  /** The text as it appeared (hashtags keep their `#`). */
  surface: string;
  type: CandidateType;
}

export interface SignalText {
  text: string;
  title?: string | null;
  /** Keywords supplied with the signal: always honoured (when they normalise to a key). */
  keywords?: readonly string[] | null;
  /** BCP 47 tag; part-of-speech based extraction runs only for English or an unknown language. */
  lang?: string | null;
}

interface ExtractOptions {
  /** Cap on candidates per signal (default 12). */
  max?: number;
}

export const DEFAULT_MAX_CANDIDATES = 12;
const MAX_ENTITIES = 6;
const MAX_PHRASES = 4;
const MAX_HASHTAGS = 10;
// The NLP pass is the per-signal cost; a trend surfaces early in a text, so long articles are cut.
const MAX_NLP_CHARS = 5000;

// ---------------------------------------------------------------------------------------------------------
// Word lists (those of normalisation live in keys.ts)

// Connectors allowed inside a proper-noun sequence (`Bank of England`, `Johnson & Johnson`).
const CONNECTORS: ReadonlySet<string> = new Set(
  wordList(`
  of & de del della da di du la le van von der den
`),
);

// Verbs-in-form that are usually nouns in compounds (`machine learning`, `cloud computing`, `flash flooding`).
const GERUND_NOUNS: ReadonlySet<string> = new Set(
  wordList(`
  learning computing mining gaming streaming marketing banking trading shopping training engineering
  programming funding crowdfunding spending housing clothing building hearing ruling shooting bombing
  flooding warming recycling fishing farming boxing skiing cycling racing wrestling surfing hiking dating
  parenting wedding planning licensing pricing hacking phishing lending printing ranking screening testing
  tracking warning rating recording landing meeting voting polling hosting coding modeling modelling
  scraping sequencing
`),
);

// Adjectives that carry no topic (`new iPhone` is about the iPhone).
const GENERIC_ADJECTIVES: ReadonlySet<string> = new Set(
  wordList(`
  new big huge great good bad best better worst first last latest next other many several more most much
  major little small large old own same different real true whole full entire certain such top high low
  early late recent current previous amazing awesome incredible crazy nice important possible likely
  available free official breaking live exclusive
`),
);

// Nouns too general to be a trend by themselves (still fine inside a phrase).
const GENERIC_NOUNS: ReadonlySet<string> = new Set(
  wordList(`
  thing things stuff lot lots way ways time times day days week weeks month months year years people
  person man woman guy guys kind sort type part place point fact case number group world life end side
  home area report reports story stories news update today tonight morning evening night hour hours minute
  minutes moment question answer idea issue problem reason result change use work job company companies
  team game games fan fans user users member members official officials source sources statement comment
  post video photo article thread link version list set level rest top bit couple deal plan move step
  chance look sense row rows weekend weekends city cities town towns country countries station stations
  centre centres center centers movie movies film films show shows season seasons price prices market
  markets flow flows director directors premiere premieres
`),
);

// Tags of capitalised words that join a name mid-sentence.
const CAPITALISED_NAME_TAGS: ReadonlySet<string> = new Set(['PROPN', 'NOUN', 'ADJ', 'VERB']);
// Ordinals say which one, not what (`fifth day`, `3rd quarter`): dropped from the start of a key phrase.
const ORDINAL =
  /^(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|twentieth|hundredth|thousandth)$/i;

const PROPER = 1;
const NOUN = 2;
const ADJ = 3;
const CONNECTOR = 4;
const SMALL_NUMBER = 5;
const COLON = 6;

const UPPER = /\p{Lu}/u;

// ---------------------------------------------------------------------------------------------------------
// NLP

// Loaded on first use, not at import: importers that do not extract (the module's index, `titleFrom`'s
// users) should not pay for the model (~0.3 s and tens of MB). Both packages are CommonJS.
const requireCjs = createRequire(import.meta.url);
let nlpInstance: WinkMethods | null = null;

function nlp(): WinkMethods {
  if (nlpInstance === null) {
    const winkNLP = requireCjs('wink-nlp') as typeof import('wink-nlp').default;
    const model = requireCjs('wink-eng-lite-web-model') as Model;
    // Sentences and part of speech: nothing else is read. (wink's entity recogniser, which only knows dates,
    // amounts and web tokens, cost a fifth of the analysis; token types and DATE_WORDS do its job here.)
    nlpInstance = winkNLP(model, ['sbd', 'pos']);
  }
  return nlpInstance;
}

/** Loads the English model now (call at worker start so the first signal does not pay for it). */
export function warmUp(): void {
  nlp();
}

interface Scored {
  key: string;
  surface: string;
  score: number;
  first: number;
}

function addScored(into: Map<string, Scored>, surface: string, score: number, first: number): void {
  const key = normaliseKey(surface);
  if (key === null) return;
  const existing = into.get(key);
  if (existing) existing.score += score;
  else into.set(key, { key, surface, score, first });
}

function topScored(from: Map<string, Scored>, limit: number): Scored[] {
  return [...from.values()].sort((a, b) => b.score - a.score || a.first - b.first).slice(0, limit);
}

/** `Strong Earthquake Hits Japan`: every word capitalised, so capitals say nothing about names. */
function isTitleCase(text: string): boolean {
  const words = text.match(/\p{L}[\p{L}\p{M}'’-]*/gu) ?? [];
  const content = words.filter((w) => !FUNCTION_WORDS.has(w.toLowerCase()));
  if (content.length < 3) return false;
  const capitalised = content.filter((w) => UPPER.test(w[0])).length;
  return capitalised / content.length >= 0.8;
}

function isEnglish(lang: string | null | undefined): boolean {
  if (lang === null || lang === undefined || lang.trim() === '') return true;
  return /^en(?:$|[-_])/i.test(lang.trim());
}

/**
 * Proper-noun sequences (entities) and adjective/noun chunks (key phrases) of one text. wink's own entity
 * recogniser only knows dates, numbers, money, URLs, hashtags, mentions and emoji: those tokens are
 * excluded here (hashtags are read separately), and names come from proper-noun sequences.
 */
function analyse(
  text: string,
  weight: number,
  offset: number,
  entities: Map<string, Scored>,
  phrases: Map<string, Scored>,
): void {
  const wink = nlp();
  const its = wink.its;
  const doc = wink.readDoc(text.length > MAX_NLP_CHARS ? text.slice(0, MAX_NLP_CHARS) : text);
  const tokens = doc.tokens();
  const values = tokens.out(its.value) as string[];
  const pos = tokens.out(its.pos) as string[];
  const types = tokens.out(its.type) as string[];
  const cases = tokens.out(its.case) as string[];
  const spaces = tokens.out(its.precedingSpaces) as string[];
  const n = values.length;

  const cls = new Uint8Array(n);
  // Words that are part of a date or an amount are not names (`on Tuesday`, `in March`, `5 million`,
  // `Thousands joined`).
  const excluded = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const lower = values[i].toLowerCase();
    if (
      DATE_WORDS.has(lower) ||
      QUANTITY_WORDS.has(lower) ||
      (CAPITALISED_DATE_WORDS.has(lower) && values[i] !== lower) ||
      (i > 0 && types[i - 1] === 'number' && AMOUNT_WORDS.has(lower))
    ) {
      excluded[i] = 1;
    }
  }
  const sentenceStart = new Uint8Array(n);
  doc.sentences().each((sentence: ItemSentence) => {
    const span = sentence.out(its.span) as unknown as number[];
    if (span[0] < n) sentenceStart[span[0]] = 1;
  });
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (types[i] === 'number') {
      // Cardinals are wink entities but may end a product name (`iPhone 17`).
      if (/^\d{1,3}$/.test(value)) cls[i] = SMALL_NUMBER;
      continue;
    }
    if (excluded[i]) continue;
    const lower = value.toLowerCase();
    // A title's colon (`Starfall: Echoes`) may join two names; a label's (`Update: Biden…`) may not.
    if (value === ':' && spaces[i] === '' && i > 0 && !STOPWORDS.has(values[i - 1].toLowerCase())) {
      const left = values[i - 1].toLowerCase();
      if (!GENERIC_NOUNS.has(left) && !GENERIC_ADJECTIVES.has(left)) cls[i] = COLON;
      continue;
    }
    if (CONNECTORS.has(lower) && value === lower) {
      cls[i] = CONNECTOR;
      continue;
    }
    if (types[i] !== 'word') continue;
    const tag = pos[i];
    const capitalised = cases[i] === 'titleCase' || cases[i] === 'upperCase';
    // A capitalised proper noun survives a stop-word spelling (`Will Smith`); `normaliseKey` has the last word.
    if (tag === 'PROPN' && cases[i] !== 'lowerCase') cls[i] = PROPER;
    // Mid-sentence capitals mark a name whatever the tagger says of the word (`Harbor City Hawks`: City is
    // tagged NOUN; `European Union`: European ADJ). A sentence opener is capitalised anyway.
    else if (capitalised && !sentenceStart[i] && CAPITALISED_NAME_TAGS.has(tag) && !FUNCTION_WORDS.has(lower))
      cls[i] = PROPER;
    else if (FUNCTION_WORDS.has(lower)) continue;
    else if (tag === 'PROPN') cls[i] = NOUN;
    else if (tag === 'NOUN' || (tag === 'VERB' && GERUND_NOUNS.has(lower))) cls[i] = NOUN;
    else if (tag === 'ADJ') cls[i] = ADJ;
  }

  const join = (from: number, to: number): string => {
    let out = values[from];
    for (let i = from + 1; i <= to; i++) out += (spaces[i] === '' ? '' : ' ') + values[i];
    return out;
  };

  // Entities: PROPN (connector PROPN)* [small number], at most 4 names long (longer runs are Title Case
  // headlines, not names).
  for (let i = 0; i < n; i++) {
    if (cls[i] !== PROPER) continue;
    let end = i;
    let names = 1;
    while (end + 1 < n) {
      if (cls[end + 1] === PROPER) {
        end += 1;
        names += 1;
      } else if (
        (cls[end + 1] === CONNECTOR || cls[end + 1] === COLON) &&
        end + 2 < n &&
        cls[end + 2] === PROPER
      ) {
        end += 2;
        names += 1;
      } else break;
    }
    // `iPhone 17`, `Windows 11` — but not a score (`Arsenal 3`) followed by more names or a counted noun.
    if (end + 1 < n && cls[end + 1] === SMALL_NUMBER && (end + 2 >= n || cls[end + 2] !== PROPER)) {
      if (end + 2 >= n || pos[end + 2] !== 'NOUN') end += 1;
    }
    // A lone capitalised word opening a sentence may just be capitalised (`Tsunami warning for…`): it ranks
    // low as a name and also heads a key phrase when a noun follows.
    const opener = names === 1 && end === i && sentenceStart[i] === 1;
    // A capitalised common word opening a sentence (`Cities open cooling centres`) is no name at all.
    const generic = opener && GENERIC_NOUNS.has(values[i].toLowerCase());
    if (names <= 4 && !generic)
      addScored(entities, join(i, end), opener ? weight * 0.25 : weight, offset + i);
    for (let k = i; k <= end; k++) cls[k] = 0;
    if (opener && i + 1 < n && cls[i + 1] === NOUN) cls[i] = NOUN;
    i = end;
  }

  // Key phrases: runs of adjectives/nouns ending in a noun, at most 3 words (English heads come last).
  for (let i = 0; i < n; i++) {
    if (cls[i] !== NOUN && cls[i] !== ADJ) continue;
    let end = i;
    while (end + 1 < n && (cls[end + 1] === NOUN || cls[end + 1] === ADJ)) end += 1;
    const runEnd = end;
    let start = i;
    while (
      start <= end &&
      cls[start] === ADJ &&
      (GENERIC_ADJECTIVES.has(values[start].toLowerCase()) || ORDINAL.test(values[start]))
    )
      start++;
    while (end >= start && cls[end] !== NOUN) end--;
    if (end >= start) {
      if (end - start >= 3) start = end - 2;
      const length = end - start + 1;
      // Longer chunks are more specific; a single noun ranks below them unless it recurs.
      if (length > 1 || !GENERIC_NOUNS.has(values[start].toLowerCase())) {
        addScored(
          phrases,
          join(start, end),
          weight * (length === 1 ? 0.75 : 1 + 0.5 * (length - 1)),
          offset + start,
        );
      }
      // The compound inside a three-word chunk: `machine learning community` → `machine learning`.
      if (length === 3 && cls[start + 1] === NOUN) {
        addScored(phrases, join(start, start + 1), weight, offset + start);
      }
    }
    i = runEnd;
  }
}

const DATE_WORDS: ReadonlySet<string> = new Set(
  wordList(`
  monday tuesday wednesday thursday friday saturday sunday tues thurs
  january february april june july august september october november december sept
  today tonight tomorrow yesterday
`),
);
// Months that are also common words: dates only when capitalised (`in March`, not `climate march`).
const CAPITALISED_DATE_WORDS: ReadonlySet<string> = new Set(
  wordList('march may jan feb mar apr jun jul aug sep oct nov dec'),
);
const QUANTITY_WORDS: ReadonlySet<string> = new Set(
  wordList('dozens hundreds thousands millions billions scores'),
);
const AMOUNT_WORDS: ReadonlySet<string> = new Set(
  wordList('hundred thousand million billion trillion percent per cent pct bn'),
);

const HASHTAG = /(?<![\p{L}\p{M}\p{N}_&#])#([\p{L}\p{M}\p{N}_]{1,100})/gu;

/**
 * Trend candidates of one signal, deduplicated by key (a key's type is the best seen:
 * hashtag > entity > keyword) and capped (default 12): hashtags first, then the signal's own keywords,
 * then entities and key phrases by score (title mentions count double).
 */
export function extractCandidates(signal: SignalText, options: ExtractOptions = {}): TrendCandidate[] {
  const max = options.max ?? DEFAULT_MAX_CANDIDATES;
  const text = typeof signal.text === 'string' ? signal.text : '';
  const title = typeof signal.title === 'string' ? signal.title : '';
  const ordered: TrendCandidate[] = [];

  let hashtags = 0;
  for (const source of [title, text]) {
    for (const match of source.matchAll(HASHTAG)) {
      if (hashtags >= MAX_HASHTAGS) break;
      const key = normaliseKey(match[1]);
      if (key === null) continue;
      ordered.push({ key, surface: match[0], type: 'hashtag' });
      hashtags += 1;
    }
  }

  for (const keyword of signal.keywords ?? []) {
    if (typeof keyword !== 'string') continue;
    const key = normaliseKey(keyword);
    if (key !== null) ordered.push({ key, surface: keyword.trim(), type: 'keyword' });
  }

  if (isEnglish(signal.lang)) {
    const entities = new Map<string, Scored>();
    const phrases = new Map<string, Scored>();
    if (title.trim() !== '' && !isTitleCase(title)) analyse(title, 2, 0, entities, phrases);
    if (text.trim() !== '') analyse(text, 1, 1_000_000, entities, phrases);
    for (const e of topScored(entities, MAX_ENTITIES)) {
      ordered.push({ key: e.key, surface: e.surface, type: 'entity' });
    }
    for (const p of topScored(phrases, MAX_PHRASES)) {
      ordered.push({ key: p.key, surface: p.surface, type: 'keyword' });
    }
  }

  const rank: Record<CandidateType, number> = { hashtag: 3, entity: 2, keyword: 1 };
  const byKey = new Map<string, TrendCandidate>();
  for (const candidate of ordered) {
    const existing = byKey.get(candidate.key);
    if (existing === undefined) byKey.set(candidate.key, { ...candidate });
    else if (rank[candidate.type] > rank[existing.type]) {
      existing.type = candidate.type;
      existing.surface = candidate.surface;
    }
  }
  return [...byKey.values()].slice(0, Math.max(0, max));
}

/**
 * The display title of a trend: its most frequent surface form; ties go to a form with capitals, then to
 * the lexically smallest (code-unit order), so the choice is deterministic. '' for an empty map.
 */
export function titleFrom(surfaceCounts: ReadonlyMap<string, number>): string {
  let best: string | null = null;
  let bestCount = Number.NEGATIVE_INFINITY;
  let bestCapitals = false;
  for (const [surface, count] of surfaceCounts) {
    const capitals = UPPER.test(surface);
    const better =
      best === null ||
      count > bestCount ||
      (count === bestCount && capitals && !bestCapitals) ||
      (count === bestCount && capitals === bestCapitals && surface < best);
    if (better) {
      best = surface;
      bestCount = count;
      bestCapitals = capitals;
    }
  }
  return best ?? '';
}
