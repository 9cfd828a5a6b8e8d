/**
 * Trend candidate extraction: one signal → the hashtags, keywords, named entities and key phrases it
 * mentions, each under a normalised key that groups spellings of the same thing across signals.
 *
 * Normalisation (`normaliseKey`) decides what counts as "the same trend":
 *  - NFKC, then camelCase split (`#MachineLearning` → `machine learning`, `AIArt` → `ai art`) — but an
 *    acronym tail is not split (`OpenAI` → `openai`, `ChatGPT` → `chatgpt`), a first part shorter than three
 *    letters is not split (`iPhone`, `LeBron`, `McDonald`, `DeSantis`) and a short list of camel-cased brands
 *    is kept whole (`YouTube` = `youtube`); then case-folded.
 *  - Keys keep their spaces: `Open AI` → `open ai` stays distinct from `openai`. Removing spaces would also
 *    merge lower-case glued hashtags (`#climatechange`) but makes keys unreadable and merges unrelated
 *    phrases; lower-case glued hashtags form their own trend.
 *  - `#`/`@`, possessive `'s`, apostrophes and other punctuation go (`-`, `_`, `/`, `.` separate words;
 *    `.` survives between digits, `&` between letters: `at&t`); dotted acronyms close up (`U.S.` → `us`);
 *    a letter run glued to a trailing number splits (`GPT5` = `GPT-5` = `gpt 5`).
 *  - Simple English `-s` plurals fold per word (`llms` → `llm`, `companies` → `company`, `crashes` → `crash`)
 *    except words that only look plural (`news`, `gas`, `bus`, `analysis`, `ios`, `us`, `series`, `hamas`…).
 *  - null for stop-words and stop-phrases (stopword's English list + social-media noise such as `rt`, `lol`,
 *    `via`, `amp`, `http`), pure numbers, single characters, URLs and e-mail addresses, and strings too long
 *    to be a trend name. `normaliseKey` is idempotent.
 */
import { createRequire } from 'node:module';
import { eng as englishStopwords } from 'stopword';
import type { Model } from 'wink-eng-lite-web-model';
import type { ItemSentence, WinkMethods } from 'wink-nlp';

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

export interface ExtractOptions {
  /** Cap on candidates per signal (default 12). */
  max?: number;
}

export const DEFAULT_MAX_CANDIDATES = 12;
const MAX_ENTITIES = 6;
const MAX_PHRASES = 4;
const MAX_HASHTAGS = 10;
// The NLP pass is the per-signal cost; a trend surfaces early in a text, so long articles are cut.
const MAX_NLP_CHARS = 5000;
const MAX_INPUT_CHARS = 500;
const MAX_KEY_CHARS = 100;
const MAX_KEY_WORDS = 8;

// ---------------------------------------------------------------------------------------------------------
// Word lists

/** A word list written as text: split on whitespace (or on `separator`), trimmed, empties dropped. */
function list(text: string, separator: string | RegExp = /\s+/): string[] {
  return text
    .split(separator)
    .map((w) => w.trim())
    .filter((w) => w !== '');
}

// Function words stopword's short English list lacks.
const EXTRA_FUNCTION_WORDS = list(`
  a an not no nor so will just when why she hers its itself ours yours theirs themselves yourself herself
  myself ourselves does doing done going gone went yet ever again against during above below down until
  once further own few off whom whose upon onto across along among around behind beside beyond within
  without toward towards per via shall may cannot cant dont doesnt didnt isnt arent wasnt werent wont
  wouldnt couldnt shouldnt im ive id youre youve hes shes theyre thats theres whats lets every everyone
  everything something anything nothing someone anyone anybody somebody nobody none either neither whether
  though although however therefore thus else etc ie eg vs versus yes ok okay oh hey hi hello please
  really actually even maybe perhaps always often sometimes soon already almost quite rather enough less
  least
`);

// Words that name no topic on their own (they stay inside names and phrases: `New York`, `Washington Post`).
const VAGUE_WORDS = list(`
  last next first new old good great best better big little lot lots one two three thing things stuff
  today yesterday tomorrow tonight thanks thank
`);

// Social-media and web noise that is never a trend on its own.
const NOISE_WORDS = list(`
  rt lol lmao lmfao rofl omg wtf smh imo imho tbh idk ftw fyi afaik irl btw ngl dm dms pls plz thx ty yeah
  yep nope gonna wanna gotta amp http https www com org net html tco url link links click via thread post
  posts repost retweet tweet tweets reply replies comment comments follow followers like likes share
  shares subscribe update updates breaking watch read video videos photo photos pic pics image images
  people person time times day days week weeks month months year years way ways part edit deleted removed
  nsfw tldr ama eli5 op psa tl dr
`);

// Multi-word noise; compared after normalisation.
const STOP_PHRASES = list(
  `
  link in bio, check out, check it out, click here, read more, find out, sign up, follow us, follow me,
  thank you, thanks for sharing, breaking news, just in, more info, full story, new post, new video,
  last week, this week, next week, last year, this year, next year, right now, of course, so far, a lot,
  lot of, kind of, sort of, no one, in fact
`,
  ',',
);

// Function words end a name or a phrase; together with vague and noise words they are never a key alone.
const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  ...englishStopwords.map((w) => w.toLowerCase()),
  ...EXTRA_FUNCTION_WORDS,
]);
const STOPWORDS: ReadonlySet<string> = new Set([...FUNCTION_WORDS, ...VAGUE_WORDS, ...NOISE_WORDS]);

// Words ending in -s that are not plurals (or whose folded form would collide with another name).
const NO_FOLD: ReadonlySet<string> = new Set(
  list(`
  news gas bus ios us series species analysis basis crisis thesis chaos ethos pathos kudos cosmos lens
  atlas canvas bias alias christmas xmas always sometimes besides perhaps whereas thus yes plus minus
  bonus clothes politics physics economics mathematics statistics athletics olympics paralympics
  gymnastics electronics genetics robotics analytics logistics ethics linguistics aerobics acoustics
  optics diabetes herpes rabies scabies measles shingles mumps aids sars mers hamas texas kansas arkansas
  vegas dallas honduras bahamas barbados wales james athens brussels flanders netherlands philippines
  maldives seychelles emirates angeles cannes moines massachusetts lagos carlos santos thomas lucas
  douglas nicholas judas midas mars aries pisces reuters adidas hermes mercedes windows macos ipados
  watchos tvos visionos
`),
);

// Plurals the suffix rules get wrong.
const FOLD_MAP: ReadonlyMap<string, string> = new Map(
  [
    ...list(`
    viruses:virus buses:bus gases:gas bonuses:bonus campuses:campus statuses:status censuses:census
    lenses:lens crises:crisis analyses:analysis theses:thesis diagnoses:diagnosis biases:bias
    aliases:alias quizzes:quiz heroes:hero potatoes:potato tomatoes:tomato volcanoes:volcano
    tornadoes:tornado echoes:echo vetoes:veto torpedoes:torpedo mosquitoes:mosquito lives:life wives:wife
    knives:knife wolves:wolf halves:half shelves:shelf thieves:thief calves:calf loaves:loaf leaves:leaf
    aches:ache caches:cache headaches:headache niches:niche avalanches:avalanche cliches:cliche
    moustaches:moustache mustaches:mustache quiches:quiche psyches:psyche movies:movie cookies:cookie
    zombies:zombie rookies:rookie selfies:selfie hoodies:hoodie brownies:brownie smoothies:smoothie
    calories:calorie goalies:goalie indies:indie techies:techie newbies:newbie freebies:freebie
    aussies:aussie veggies:veggie hippies:hippie genies:genie pixies:pixie gpus:gpu cpus:cpu tpus:tpu
    npus:npu emus:emu emojis:emoji taxis:taxi wikis:wiki skis:ski kiwis:kiwi safaris:safari bikinis:bikini
    `),
    // Plurals of two-letter acronyms (three-letter words are otherwise left alone: dns, nhs, aws, gps…).
    ...list(`
    evs:ev tvs:tv pcs:pc ais:ai vcs:vc ads:ad nfts:nft
    `),
  ].map((pair) => pair.split(':') as [string, string]),
);

// Camel-cased names that are one word (`YouTube` = `youtube`); matched as prefixes of the lower-cased word.
const CAMEL_BRANDS = list(`
  youtube tiktok playstation javascript typescript coffeescript linkedin whatsapp paypal deepmind deepseek
  github gitlab wordpress blackrock blackberry softbank facetime airpods airtag airbnb macbook powerpoint
  sharepoint crowdstrike doordash hubspot mastercard fedex buzzfeed huffpost aliexpress jetblue smackdown
  wrestlemania starcraft warcraft soundcloud servicenow tensorflow oneplus gofundme stubhub solarwinds
  coindesk coinbase coinmarketcap opensea metamask bittorrent cloudflare dropbox snapchat facebook yougov
  redbull astrazeneca glaxosmithkline exxonmobil pewdiepie openstreetmap postgresql mongodb devops fintech
  biotech bluesky truthsocial playstore appstore hbomax primevideo applepay airpod
`);

// Connectors allowed inside a proper-noun sequence (`Bank of England`, `Johnson & Johnson`).
const CONNECTORS: ReadonlySet<string> = new Set(
  list(`
  of & de del della da di du la le van von der den
`),
);

// Verbs-in-form that are usually nouns in compounds (`machine learning`, `cloud computing`, `flash flooding`).
const GERUND_NOUNS: ReadonlySet<string> = new Set(
  list(`
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
  list(`
  new big huge great good bad best better worst first last latest next other many several more most much
  major little small large old own same different real true whole full entire certain such top high low
  early late recent current previous amazing awesome incredible crazy nice important possible likely
  available free official breaking live exclusive
`),
);

// Nouns too general to be a trend by themselves (still fine inside a phrase).
const GENERIC_NOUNS: ReadonlySet<string> = new Set(
  list(`
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

// ---------------------------------------------------------------------------------------------------------
// Normalisation

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/\S*|\bwww\.\S+/gi;
const URL_LIKE = /:\/\/|^www\.|^[^\s/@]+\.[a-z]{2,}\/|^[^\s@]+@[^\s@]+\.[^\s@]+$/i;
const CAMEL_HINT = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
const LETTER_RUN = /[\p{L}\p{M}]+/gu;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const POSSESSIVE = /['’‘`´]s(?![\p{L}\p{M}\p{N}])/gu;
const DOTTED_ACRONYM = /(?<![\p{L}\p{N}])\p{L}(?:\.\p{L})+\.?(?![\p{L}\p{N}])/gu;
const WORD = /[\p{L}\p{M}\p{N}]+(?:(?:(?<=\p{N})\.(?=\p{N})|(?<=\p{L})&(?=\p{L}))[\p{L}\p{M}\p{N}]+)*/gu;
const LETTERS_THEN_DIGITS = /^(\p{L}{2,})(\p{N}+)$/u;
const NUMERIC = /^\p{N}+(?:\.\p{N}+)*$/u;
const ASCII_WORD = /^[a-z]+$/;
const NOT_FOLDED_SUFFIX = /(?:ss|us|is)$/;
const ES_AFTER_SIBILANT = /(?:sh|ch|x|zz|ss)es$/;

/** Splits `MachineLearning` → `Machine Learning` and `AIArt` → `AI Art`; see the module comment. */
function splitCamel(text: string): string {
  if (!CAMEL_HINT.test(text)) return text;
  return text.replace(LETTER_RUN, (word) => {
    const lower = word.toLowerCase();
    if (CAMEL_BRANDS.some((brand) => lower.startsWith(brand))) return word;
    const chars = Array.from(word);
    let out = chars[0] ?? '';
    let segment = 1; // letters since the last boundary
    let split = false; // the short-prefix rule (`iPhone`, `LeBron`) only applies at the start of the word
    let upperRun = chars[0] !== undefined && UPPER.test(chars[0]) ? 1 : 0; // consecutive capitals before i
    for (let i = 1; i < chars.length; i++) {
      const c = chars[i];
      const prev = chars[i - 1];
      const next = chars[i + 1];
      if (UPPER.test(c) && next !== undefined && LOWER.test(next)) {
        const wordStart = LOWER.test(prev) && (segment >= 3 || split);
        const afterAcronym =
          UPPER.test(prev) && upperRun >= 2 && chars[i + 2] !== undefined && LOWER.test(chars[i + 2]);
        if (wordStart || afterAcronym) {
          out += ' ';
          segment = 0;
          split = true;
        }
      }
      upperRun = UPPER.test(c) ? upperRun + 1 : 0;
      segment += 1;
      out += c;
    }
    return out;
  });
}

function foldPlural(word: string): string {
  const mapped = FOLD_MAP.get(word);
  if (mapped !== undefined) return mapped;
  if (word.length < 4 || !ASCII_WORD.test(word)) return word; // English rules only
  if (!word.endsWith('s') || NO_FOLD.has(word) || FUNCTION_WORDS.has(word)) return word;
  if (NOT_FOLDED_SUFFIX.test(word)) return word; // class, status, analysis
  if (word.endsWith('ies')) return word.length > 4 ? `${word.slice(0, -3)}y` : word.slice(0, -1);
  if (ES_AFTER_SIBILANT.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/** NFKC'd, camel-split, case-folded, plural-folded word tokens (no stop-word filtering). */
function tokensOf(text: string): string[] {
  // Full case folding beyond toLowerCase for the two letters that matter in practice: ß and dotted İ.
  const folded = splitCamel(text)
    .toLowerCase()
    .normalize('NFKC')
    .replace(/ß/g, 'ss')
    .replace(/i\u0307/g, 'i');
  const prepared = folded
    .replace(POSSESSIVE, '')
    .replace(DOTTED_ACRONYM, (m) => m.replaceAll('.', ''))
    .replace(/['’‘`´]/g, '');
  const out: string[] = [];
  for (const match of prepared.matchAll(WORD)) {
    const word = match[0];
    const split = LETTERS_THEN_DIGITS.exec(word);
    if (split) {
      out.push(foldPlural(split[1]), split[2]);
    } else {
      out.push(foldPlural(word));
    }
  }
  return out;
}

const STOP_PHRASE_KEYS: ReadonlySet<string> = new Set(STOP_PHRASES.map((p) => tokensOf(p).join(' ')));

function isStopToken(token: string): boolean {
  return STOPWORDS.has(token) || NUMERIC.test(token);
}

/**
 * The key a surface form is grouped under, or null when it cannot be a trend (stop-word or stop-phrase,
 * pure number, single character, URL, e-mail address, over 100 characters or 8 words). Idempotent.
 */
// Names and phrases recur across signals: their keys are remembered (bounded; cleared when full).
const KEY_CACHE_SIZE = 50_000;
const keyCache = new Map<string, string | null>();

export function normaliseKey(surface: string): string | null {
  if (typeof surface !== 'string') return null;
  const cached = keyCache.get(surface);
  if (cached !== undefined) return cached;
  const key = computeKey(surface);
  if (keyCache.size >= KEY_CACHE_SIZE) keyCache.clear();
  keyCache.set(surface, key);
  return key;
}

function computeKey(surface: string): string | null {
  const input = surface.normalize('NFKC').trim();
  if (input.length === 0 || input.length > MAX_INPUT_CHARS || URL_LIKE.test(input)) return null;
  const tokens = tokensOf(input);
  if (tokens.length === 0 || tokens.length > MAX_KEY_WORDS) return null;
  const key = tokens.join(' ');
  if (key.length > MAX_KEY_CHARS || Array.from(key).length < 2) return null;
  if (tokens.every(isStopToken) || STOP_PHRASE_KEYS.has(key)) return null;
  return key;
}

/**
 * A free text as normalised word tokens (URLs removed, stop-words kept), so that n-grams of the result
 * compare equal to `normaliseKey` of the same words. Used for lexicon matching.
 */
export function normaliseTokens(text: string): string[] {
  if (typeof text !== 'string' || text.length === 0) return [];
  return tokensOf(text.normalize('NFKC').replace(URL_IN_TEXT, ' '));
}

// ---------------------------------------------------------------------------------------------------------
// NLP

// Loaded on first use, not at import: modules that only need `normaliseKey` (categories, routes) should
// not pay for the model (~0.3 s and tens of MB). Both packages are CommonJS.
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
  list(`
  monday tuesday wednesday thursday friday saturday sunday tues thurs
  january february april june july august september october november december sept
  today tonight tomorrow yesterday
`),
);
// Months that are also common words: dates only when capitalised (`in March`, not `climate march`).
const CAPITALISED_DATE_WORDS: ReadonlySet<string> = new Set(
  list('march may jan feb mar apr jun jul aug sep oct nov dec'),
);
const QUANTITY_WORDS: ReadonlySet<string> = new Set(
  list('dozens hundreds thousands millions billions scores'),
);
const AMOUNT_WORDS: ReadonlySet<string> = new Set(
  list('hundred thousand million billion trillion percent per cent pct bn'),
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
