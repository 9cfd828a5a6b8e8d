/**
 * Trend candidate extraction: one signal → the hashtags, keywords, named entities and key phrases it
 * mentions, each under a normalised key that groups spellings of the same thing across signals.
 */
import { FUNCTION_WORDS, normaliseKey, STOPWORDS, wordList } from './keys.ts';
import { loadTokenizer, tokenize } from './tokens.ts';

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
  /** BCP 47 tag; names and key phrases are read only for English or an unknown language. */
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

// Word classes without a part-of-speech tagger. wink's tokenizer gives each token a type (word, number,
// punctuation, hashtag, URL, …); a word's class comes from its capitals, these lists and its suffix (see
// `wordClass`). Only what the chunker needs is told apart: a word that may be part of a noun phrase (noun or
// adjective, and which), and a word that ends one (verb, adverb, number word, interjection). An unknown
// lower-case word is taken for a noun, as a tagger's lexicon does with an unknown word.

// Common English verbs (base forms) that are rarely nouns in headlines and posts; their -s, -ed and -ing
// forms follow from spelling rules (`verbForms`).
const VERB_BASES = wordList(`
  accept accuse achieve add admit affect agree aim allow announce appear apply approve argue arrest arrive ask
  assume avoid await become begin believe belong blame bless borrow bring build bury buy carry catch cause
  capsize celebrate choose compare compete compile complain confirm connect consider contain continue
  convince create crush decide derail devour
  declare defeat defend deliver demand deny depend deserve destroy detect develop die disagree disappear
  discover discuss donate drag drown earn eat elect enable encourage enjoy ensure enter erupt evacuate examine
  exist expand expect explain explode express extend fail feel find finish flee follow forget forgive
  gather get give go grab grow halt handle happen hear help hide hire hit hold hope hurt identify ignore imagine
  improve include increase indicate inform injure insist intend introduce invest invite involve join jump
  keep kill knock know learn leave lend let like listen live look lose love maintain make manage meet
  mention miss mourn need notice obtain occur owe own pay perform pick pray prefer prepare prevent produce
  protect prove provide publish pull push put raise reach read realise realize receive recognise
  recognize recommend recover reduce refer refuse reject rely remain remember remind remove reopen repeat
  replace replicate
  represent require resign respond retire reveal rise run save say scare see seek seem sell send serve
  settle stay
  seize shoot shout shut sing sink sit sleep slam soar speak spend steal submit succeed suffer suggest
  suppose survive swim take teach tell tend thank think threaten throw topple trap try understand unveil
  urge ravage vanish vow wake want
  warn wear welcome win withdraw write
`);

// Words as often nouns as verbs (`train`, `cut`, `plan`): nouns, unless a verb is due there (after `to`, a
// modal or a subject pronoun: `to cut rates`, `we plan`).
const NOUN_OR_VERB = wordList(`
  attack call charge claim collapse cost count crash cross cry cut damage dance deal drink drop escape face
  focus matter
  fall fight fill fire flood form guess hate land laugh launch lead mind move note offer order pass plan
  play present press promise record release reply report rescue rest return ride ring rush set share
  shake show smile spread stand start stick stop strike struggle supply surge talk touch train trust turn use
  suspect view visit vote wait walk watch waste wish wonder worry
`);
// Words after which a noun-or-verb is a verb.
const VERB_CONTEXT: ReadonlySet<string> = new Set(
  wordList(`
  to will would could should can cannot not may might must shall do does did don't dont n't i we you they he
  she who
`),
);

// Irregular past forms and participles (the regular ones follow from the bases).
const IRREGULAR_VERB_FORMS = wordList(`
  said told spoke spoken went gone came got gotten made took taken gave given saw seen knew known thought
  felt left kept ran brought bought sold paid spent won lost led held struck stricken shot hurt fell
  fallen rose risen grew grown became began begun sank sunk drove driven flew flown wrote written sent
  found stood sat understood meant fought built broke broken chose chosen forgot forgotten woke woken
  slept ate eaten drank drunk fled shook shaken stole stolen sought threw thrown wore worn hid hidden
  caught taught bore borne swam sang sung rang rung laid lain lay dealt drew drawn dug hung lit meant
  met rode ridden slid spun stuck swept swung withdrew withdrawn heard
`);

// Adjectives that often stand alone after a verb (`stay safe`, `five dead`) or open a phrase; a trend key
// does not end in one. Forms with -ous, -ful, -less, -able, -ible and -ical are adjectives by suffix.
const ADJECTIVES = wordList(`
  able afraid alive alone angry anxious apparent available aware awful bad bare basic beautiful big bitter
  black blind blue bold brave brief bright broad brown busy calm central certain cheap chief civil clean
  clear close cold common complete cool correct crazy cruel cute daily damp dangerous dark dead deadly dear
  deep direct dirty domestic double drunk dry due dull eager early east eastern easy economic elderly
  empty entire equal evil exact excellent extra extreme fair false familiar famous fancy far fast fat fatal
  federal female fierce final fine firm fit flat foreign former frank free frequent fresh friendly front
  full funny general gentle giant glad global golden good grand gray great green grey gross guilty happy
  hard harsh healthy heavy hidden high holy honest horrible hot huge human humble hungry ill immediate
  important impossible inner innocent intense internal international just keen kind large late lazy least
  legal less light likely little live lively local lone lonely long loose loud lovely low lucky mad main
  major male massive mean mental mere mild minor modern moral much narrow nasty national natural near
  nearby neat negative nervous new nice noble normal north northern obvious odd official okay old only
  open ordinary original overall pale past perfect personal physical plain pleasant polite political poor
  popular positive possible potential powerful pregnant present pretty previous primary prime private
  proper proud public pure quick quiet rapid rare raw ready real recent red regional regular related
  relevant remote rich right rough round royal rude rural sad safe same scared scary secret senior
  separate serious severe sexy sharp short shy sick significant silent silly similar simple single slight
  slow small smart social soft solid sore sorry south southern special specific square stable steady
  strange strict strong stupid sudden super sure sweet tall terrible thick thin tight tiny tired top
  total tough tragic true typical ugly unable unknown unlikely unusual upper urban urgent usual vast
  violent visible vital warm weak wealthy weekly weird west western wet white whole wide wild wise
  wonderful worse worst wrong yearly young yellow hourly monthly quarterly
  amazing interesting exciting shocking terrifying heartbreaking devastating disturbing alarming stunning
  surprising ongoing upcoming incoming outgoing outstanding fantastic terrific brilliant superb upset
  worldwide nationwide statewide online offline overnight
`);
const ADJECTIVE_SUFFIX = /(?:ous|ful|less|[ai]ble|ical|ive)$/;
const NOT_ADJECTIVES: ReadonlySet<string> = new Set(
  wordList(`
  table cable stable bible fable vegetable timetable constable dribble pebble bubble archive motive
  executive representative relative alternative detective objective initiative incentive perspective
  directive narrative adjective derivative operative explosive
`),
);
// Words before which a lower-case -s form is a verb rather than a plural (`wildfire destroys hundreds`,
// `fire burns 181 homes`, `storm hits the coast`).
const OBJECT_STARTS: ReadonlySet<string> = new Set(
  wordList('the a an his her its their this that these those our your hundreds thousands dozens millions'),
);

// Words that end a phrase and are no topic: adverbs without -ly, pronouns, number words, interjections and
// the web's calls to action (`… update`, `watch`, `share`).
const NON_PHRASE_WORDS: ReadonlySet<string> = new Set(
  wordList(`
  ago away back apart ahead instead anymore anyway indoors outdoors overseas abroad upstairs downstairs
  offshore ashore aboard afterwards meanwhile nowhere everywhere anywhere somewhere later earlier else
  together forward forwards backwards inside outside upward upwards downward downwards twice once
  me him them us myself yourself
  zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
  seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand
  million billion dozen half
  wow ah aw oh ooh oops ouch ugh uh um hmm yay yeah yea yep ya nah haha hahaha hehe lmao lol omg wtf amen
  damn pls plz please thanks bravo
  update updates watch follow share like click subscribe reply repost retweet tweet
`),
);
// -ly words that are not adverbs.
const LY_NOUNS: ReadonlySet<string> = new Set(
  wordList(`
  family italy rally ally tally supply reply apply fly july anomaly assembly monopoly butterfly dragonfly
  firefly lily jelly belly bully holly comply imply multiply
`),
);
// -ing and -ed nouns (`morning`, `shed`), beside GERUND_NOUNS.
const ING_ED_NOUNS: ReadonlySet<string> = new Set(
  wordList(`
  thing king ring spring string wing sting swing sibling ceiling morning evening darling pudding viking
  lightning offspring earring sterling everything nothing something anything during bed red shed seed
  speed feed breed creed greed weed sled hundred
`),
);
// Ordinals say which one, not what (`fifth day`, `3rd quarter`): dropped from the start of a key phrase.
const ORDINAL =
  /^(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|twentieth|hundredth|thousandth)$/i;

const PROPER = 1;
const NOUN = 2;
const ADJ = 3;
const CONNECTOR = 4;
const SMALL_NUMBER = 5;
const COLON = 6;
/** A hyphen inside a word (`Metro-North`, `Lac-Mégantic`): joins the names on both sides into one. */
const HYPHEN = 7;

const UPPER = /\p{Lu}/u;

// ---------------------------------------------------------------------------------------------------------
// Word classes

/** The -s, -ed and -ing forms of a verb base, by English spelling rules (`stop` → `stopped`). */
function verbForms(base: string): string[] {
  const forms = [base];
  if (/(?:s|sh|ch|x|z|o)$/.test(base)) forms.push(`${base}es`);
  else if (/[^aeiou]y$/.test(base)) forms.push(`${base.slice(0, -1)}ies`);
  else forms.push(`${base}s`);
  let stem = base;
  if (base.endsWith('e')) stem = base.slice(0, -1);
  else if (/[^aeiou]y$/.test(base)) stem = base.slice(0, -1);
  forms.push(`${stem}${/[^aeiou]y$/.test(base) ? 'ied' : 'ed'}`);
  forms.push(
    `${base.endsWith('ie') ? `${base.slice(0, -2)}y` : base.endsWith('e') && !base.endsWith('ee') ? stem : base}ing`,
  );
  // One-syllable consonant-vowel-consonant bases double their last consonant (`stop`, `shop`, `plan`).
  if (/^[^aeiou]*[aeiou][bdgklmnprt]$/.test(base)) {
    const last = base.at(-1);
    forms.push(`${base}${last}ed`, `${base}${last}ing`);
  }
  return forms;
}

/** An adjective and its -er and -est forms (`big` → `bigger`, `biggest`; `early` → `earlier`). */
function adjectiveForms(adjective: string): string[] {
  if (adjective.length > 6) return [adjective];
  let stem = adjective;
  if (adjective.endsWith('e')) stem = adjective.slice(0, -1);
  else if (/[^aeiou]y$/.test(adjective)) stem = `${adjective.slice(0, -1)}i`;
  else if (/^[^aeiou]*[aeiou][bdgmnpt]$/.test(adjective)) stem = `${adjective}${adjective.at(-1)}`;
  return [adjective, `${stem}er`, `${stem}est`];
}

const VERBS: ReadonlySet<string> = new Set([...VERB_BASES.flatMap(verbForms), ...IRREGULAR_VERB_FORMS]);
// Their base and -s forms: the -ed and -ing forms are verbs (`released`, `watching`).
const NOUN_OR_VERB_FORMS: ReadonlySet<string> = new Set(
  NOUN_OR_VERB.flatMap((b) => verbForms(b).slice(0, 2)),
);
const ADJECTIVE_WORDS: ReadonlySet<string> = new Set([
  ...ADJECTIVES.flatMap(adjectiveForms),
  ...GENERIC_ADJECTIVES,
]);

type WordClass = typeof NOUN | typeof ADJ | 0;

const isAdverb = (lower: string): boolean =>
  lower.length > 3 && lower.endsWith('ly') && !LY_NOUNS.has(lower) && !ADJECTIVE_WORDS.has(lower);
// Parts of contractions as wink splits them: `'re`, `'s`, `n't`.
const CONTRACTION = /^(?:['’]|n['’]t$)/i;
const NEGATION = /^n['’]t$/i;

/**
 * The class of a word that is not a name, from its lower-case form: NOUN, ADJ, or 0 for a word that ends a
 * phrase (verb, adverb, number word, interjection). Lists first, then suffixes (-ing and -ed verb forms, -ly
 * adverbs, adjective suffixes); anything else is a noun.
 */
function wordClass(lower: string, previous = '', previousClass = 0, next = ''): WordClass {
  if (GERUND_NOUNS.has(lower) || ING_ED_NOUNS.has(lower)) return NOUN;
  if (NOUN_OR_VERB_FORMS.has(lower)) {
    // A verb is due after `to`, a modal, a subject pronoun or an adverb (`really hate`), and as the bare
    // form after a plural noun (`routes close`, `prices surge`).
    const verb =
      VERB_CONTEXT.has(previous) ||
      isAdverb(previous) ||
      (previousClass === NOUN && !lower.endsWith('s') && /[^s]s$/.test(previous));
    return verb ? 0 : NOUN;
  }
  if (
    !ADJECTIVE_WORDS.has(lower) &&
    !VERBS.has(lower) &&
    VERB_CONTEXT.has(previous) &&
    !lower.endsWith('s')
  ) {
    return 0; // `to ravage`, `will survive`: an unknown word where a verb is due
  }
  if (previousClass === NOUN && /[^su]s$/.test(lower) && !previous.endsWith('s') && OBJECT_STARTS.has(next)) {
    return 0;
  }
  if (ADJECTIVE_WORDS.has(lower) || ORDINAL.test(lower)) return ADJ;
  if (VERBS.has(lower) || NON_PHRASE_WORDS.has(lower)) return 0;
  if (lower.length > 4 && /(?:ing|ed)$/.test(lower)) return 0;
  if (isAdverb(lower)) return 0;
  if (lower.length > 5 && ADJECTIVE_SUFFIX.test(lower) && !NOT_ADJECTIVES.has(lower)) return ADJ;
  return NOUN;
}

// wink's case classes, Unicode-aware: `lower` (no capital), `title` (a capital, then none), `upper` (two or
// more letters, all capitals) or `mixed` (`iPhone`, `McDonald`).
const NO_UPPER = /^[^\p{Lu}]*$/u;
const TITLE = /^[^\p{L}]*\p{Lu}[^\p{Lu}]*$/u;
const ALL_UPPER = /^[^\p{Ll}]*\p{Lu}[^\p{Ll}]*\p{Lu}[^\p{Ll}]*$/u;

function caseOf(value: string): 'lower' | 'title' | 'upper' | 'mixed' {
  // ASCII (most tokens) without regular expressions; the same classes as the Unicode patterns below.
  let upper = 0;
  let lower = 0;
  let firstUpper = false;
  let ascii = true;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c > 0x7f) {
      ascii = false;
      break;
    }
    if (c >= 0x41 && c <= 0x5a) {
      if (upper === 0 && lower === 0) firstUpper = true;
      upper++;
    } else if (c >= 0x61 && c <= 0x7a) lower++;
  }
  if (ascii) {
    if (upper === 0) return 'lower';
    if (upper === 1 && firstUpper) return 'title';
    return lower === 0 && upper >= 2 ? 'upper' : 'mixed';
  }
  if (NO_UPPER.test(value)) return 'lower';
  if (TITLE.test(value)) return 'title';
  return ALL_UPPER.test(value) ? 'upper' : 'mixed';
}

const SENTENCE_END: ReadonlySet<string> = new Set(['.', '!', '?', '…', '...', '?!', '!?', '!!', '??']);

// ---------------------------------------------------------------------------------------------------------
// Tokens: wink-nlp's (tokens.ts), values, types (word, number, punctuation, hashtag, URL, …) and spacing only.
// Sentence boundaries, part-of-speech tags and entities cost more than the tokenizer itself; sentence ends are
// read from punctuation, word classes from capitals, word lists and suffixes (`wordClass`), and dates and
// amounts from DATE_WORDS and AMOUNT_WORDS.

/** Loads the English model now (call at worker start so the first signal does not pay for it). */
export function warmUp(): void {
  loadTokenizer();
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

/** Tokens `from`…`to` as written (a space where the text had spacing). */
function joinTokens(values: readonly string[], spaces: readonly string[], from: number, to: number): string {
  let out = values[from];
  for (let i = from + 1; i <= to; i++) out += (spaces[i] === '' ? '' : ' ') + values[i];
  return out;
}

/** A capitalised content word follows token `i` (`New York`: the opener joins the name). */
function nameFollows(
  i: number,
  types: readonly string[],
  cases: readonly string[],
  lowers: readonly string[],
): boolean {
  return (
    i + 1 < types.length &&
    types[i + 1] === 'word' &&
    cases[i + 1] !== 'lower' &&
    !FUNCTION_WORDS.has(lowers[i + 1]) &&
    !NON_PHRASE_WORDS.has(lowers[i + 1])
  );
}

/**
 * Proper-noun sequences (entities) and adjective/noun chunks (key phrases) of one text. wink's tokenizer says
 * which tokens are words, numbers, punctuation, hashtags, mentions, URLs or emoji; only words (and small
 * numbers and connectors inside names) are read here (hashtags are read separately).
 */
function analyse(
  text: string,
  weight: number,
  offset: number,
  entities: Map<string, Scored>,
  phrases: Map<string, Scored>,
): void {
  const { values, types, spaces } = tokenize(
    text.length > MAX_NLP_CHARS ? text.slice(0, MAX_NLP_CHARS) : text,
  );
  const n = values.length;

  const cls = new Uint8Array(n);
  // A sentence starts the text, follows a sentence's end (. ! ? …) or a line break.
  const sentenceStart = new Uint8Array(n);
  let atStart = true;
  for (let i = 0; i < n; i++) {
    if (spaces[i].includes('\n')) atStart = true;
    if (types[i] === 'punctuation') {
      if (SENTENCE_END.has(values[i])) atStart = true;
      continue;
    }
    if (atStart) sentenceStart[i] = 1;
    atStart = false;
  }
  const lowers = new Array<string>(n);
  const cases = new Array<ReturnType<typeof caseOf>>(n);
  for (let i = 0; i < n; i++) {
    lowers[i] = values[i].toLowerCase();
    cases[i] = caseOf(values[i]);
  }
  const foreign = looksForeign(values, lowers);
  for (let i = 0; i < n; i++) {
    const value = values[i];
    const lower = lowers[i];
    if (types[i] === 'number') {
      // Cardinals may end a product name (`iPhone 17`).
      if (/^\d{1,3}$/.test(value)) cls[i] = SMALL_NUMBER;
      continue;
    }
    // Words that are part of a date or an amount are not names (`on Tuesday`, `in March`, `5 million`,
    // `Thousands joined`).
    if (
      DATE_WORDS.has(lower) ||
      QUANTITY_WORDS.has(lower) ||
      (CAPITALISED_DATE_WORDS.has(lower) && value !== lower) ||
      (i > 0 && types[i - 1] === 'number' && AMOUNT_WORDS.has(lower))
    ) {
      continue;
    }
    // A title's colon (`Starfall: Echoes`) may join two names; a label's (`Update: Biden…`) may not.
    if (value === ':' && spaces[i] === '' && i > 0 && !STOPWORDS.has(lowers[i - 1])) {
      const left = lowers[i - 1];
      if (!GENERIC_NOUNS.has(left) && !GENERIC_ADJECTIVES.has(left)) cls[i] = COLON;
      continue;
    }
    // A hyphenated name is one name (`Metro-North`, `Lac-Mégantic`), not two: no space on either side.
    if (value === '-' && spaces[i] === '' && i > 0 && i + 1 < n && spaces[i + 1] === '') {
      cls[i] = HYPHEN;
      continue;
    }
    if (CONNECTORS.has(lower) && value === lower) {
      cls[i] = CONNECTOR;
      continue;
    }
    // Function words end names and phrases; so do contractions (`do n't`, `ca n't`, `we 're`).
    if (types[i] !== 'word' || FUNCTION_WORDS.has(lower) || CONTRACTION.test(value)) continue;
    if (i + 1 < n && NEGATION.test(values[i + 1])) continue;
    if (cases[i] === 'lower') {
      const next = i + 1 < n ? lowers[i + 1] : '';
      cls[i] = i > 0 ? wordClass(lower, lowers[i - 1], cls[i - 1], next) : wordClass(lower);
      continue;
    }
    // Mid-sentence capitals mark a name (`Harbor City Hawks`, `European Union`) unless the word is a number,
    // an adverb or an interjection (`FOUR`, `Really`, `WOW`); a mixed case (`iPhone`) marks one anywhere. A
    // capitalised sentence opener is a name unless it is a verb (`Stay safe`) or an adjective (`Powerful
    // quake…`); an opener of everyday words is dealt with below.
    if (cases[i] === 'mixed') cls[i] = PROPER;
    else if (!sentenceStart[i]) cls[i] = NON_PHRASE_WORDS.has(lower) || isAdverb(lower) ? 0 : PROPER;
    else if (
      NOUN_OR_VERB_FORMS.has(lower) &&
      !lower.endsWith('s') &&
      FUNCTION_WORDS.has(lowers[i + 1] ?? '')
    ) {
      cls[i] = 0; // an imperative (`Stop the…`, `Hate how…`)
    } else {
      const word = wordClass(lower);
      // `New York`, `Harbor City Hawks`: an opener that is no verb or adverb joins the name that follows.
      cls[i] = word === NOUN || (word === ADJ && nameFollows(i, types, cases, lowers)) ? PROPER : word;
    }
  }

  // Entities: NAME (connector NAME)* [small number], at most 4 names long (longer runs are Title Case
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
        (cls[end + 1] === CONNECTOR || cls[end + 1] === COLON || cls[end + 1] === HYPHEN) &&
        end + 2 < n &&
        cls[end + 2] === PROPER
      ) {
        end += 2;
        names += 1;
      } else break;
    }
    // `iPhone 17`, `Windows 11` — but not a score (`Arsenal 3`) followed by more names or a counted noun.
    if (end + 1 < n && cls[end + 1] === SMALL_NUMBER && (end + 2 >= n || cls[end + 2] !== PROPER)) {
      if (end + 2 >= n || cls[end + 2] !== NOUN) end += 1;
    }
    // A lone capitalised word opening a sentence may just be capitalised (`Tsunami warning for…`): it ranks
    // low as a name and also heads a key phrase when a noun follows.
    const opener = names === 1 && end === i && sentenceStart[i] === 1;
    // A capitalised common word opening a sentence (`Cities open cooling centres`) is no name at all.
    const generic = opener && GENERIC_NOUNS.has(values[i].toLowerCase());
    // In a text that reads as another language, a capitalised opener says even less (`El`, `La`, `Es`).
    // A function word of another language (`El`, `La`, `Es`) is no name alone either.
    const foreignWord = names === 1 && end === i && FOREIGN_FUNCTION_WORDS.has(lowers[i]);
    if (names <= 4 && !generic && !foreignWord && !(opener && foreign))
      addScored(entities, joinTokens(values, spaces, i, end), opener ? weight * 0.25 : weight, offset + i);
    for (let k = i; k <= end; k++) cls[k] = 0;
    if (opener && i + 1 < n && cls[i + 1] === NOUN) cls[i] = NOUN;
    i = end;
  }

  // Key phrases: runs of adjectives/nouns ending in a noun, 2 or 3 words (English heads come last). A single
  // common word is no trend key (`strong`, `buying`, `ribs`): a word alone must be a name or a hashtag.
  for (let i = 0; !foreign && i < n; i++) {
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
      // Longer chunks are more specific; a single common word is no key.
      if (length > 1)
        addScored(
          phrases,
          joinTokens(values, spaces, start, end),
          weight * (1 + 0.5 * (length - 1)),
          offset + start,
        );
      // The compound inside a three-word chunk: `machine learning community` → `machine learning`.
      if (length === 3 && cls[start + 1] === NOUN) {
        addScored(phrases, joinTokens(values, spaces, start, start + 1), weight, offset + start);
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
  wordList(`
  hundred thousand million billion trillion percent per cent pct bn
  km kms kilometer kilometers kilometre kilometres mi mile miles meter meters metre metres ft feet foot inch
  inches cm mm kg kgs lb lbs ton tons tonne tonnes mph kph kmh knots hr hrs hour hours min mins minute minutes
  sec secs second seconds am pm gb mb tb
`),
);

// Function words of the languages posts most often come in besides English, where they do not double as
// English words (no \`a\`, \`de\`, \`in\`, \`die\`, \`per\`): a text of unknown language with more of these than of
// English function words is not read for key phrases, whose word lists are English (its names still are).
const FOREIGN_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  wordList(`
  el la los las del que por con una es en para se al lo su sus pero como más muy fue está están hay
  il di che della nel gli sono è non alla delle dei anche
  le les des du est une dans pour sur pas avec sont qui au aux ce cette
  não em com uma os às pelo pela são foi
  der das und ist nicht mit ein eine auf dem den zu sich
  ang mga ng sa na ay yang dan ini itu untuk dari
`),
);
const ENGLISH_MARKERS: ReadonlySet<string> = new Set(
  wordList(`
  the and of to is are was were for on with at this that from by it be have has had you we they he she my
  our their will would an not but or in a i
`),
);

/**
 * True when a text's lower-case words look more like another language than English: more function words of
 * FOREIGN_FUNCTION_WORDS than of ENGLISH_MARKERS (capitalised forms are not counted: `LA` is Los Angeles).
 */
function looksForeign(values: readonly string[], lowers: readonly string[]): boolean {
  let foreign = 0;
  let english = 0;
  for (let i = 0; i < lowers.length; i++) {
    if (values[i] !== lowers[i]) continue;
    if (FOREIGN_FUNCTION_WORDS.has(lowers[i]!)) foreign++;
    else if (ENGLISH_MARKERS.has(lowers[i]!)) english++;
  }
  return foreign > english;
}

const HASHTAG = /(?<![\p{L}\p{M}\p{N}_&#])#([\p{L}\p{M}\p{N}_]{1,100})/gu;

/** The candidates a signal's title and text give (in their language), before its keywords join them. */
export interface WordCandidates {
  hashtags: readonly TrendCandidate[];
  /** Entities, then key phrases, by score. */
  named: readonly TrendCandidate[];
}

/**
 * The candidates of a signal's title and text alone: its hashtags, and for English or an unknown language its
 * entities and key phrases. Pure of title, text and language; `withKeywords` completes them.
 */
export function wordCandidates(signal: SignalText): WordCandidates {
  const text = typeof signal.text === 'string' ? signal.text : '';
  const title = typeof signal.title === 'string' ? signal.title : '';
  const hashtags: TrendCandidate[] = [];
  for (const source of [title, text]) {
    for (const match of source.matchAll(HASHTAG)) {
      if (hashtags.length >= MAX_HASHTAGS) break;
      const key = normaliseKey(match[1]);
      if (key === null) continue;
      hashtags.push({ key, surface: match[0], type: 'hashtag' });
    }
  }
  const named: TrendCandidate[] = [];
  if (isEnglish(signal.lang)) {
    const entities = new Map<string, Scored>();
    const phrases = new Map<string, Scored>();
    if (title.trim() !== '' && !isTitleCase(title)) analyse(title, 2, 0, entities, phrases);
    if (text.trim() !== '') analyse(text, 1, 1_000_000, entities, phrases);
    for (const e of topScored(entities, MAX_ENTITIES))
      named.push({ key: e.key, surface: e.surface, type: 'entity' });
    for (const p of topScored(phrases, MAX_PHRASES))
      named.push({ key: p.key, surface: p.surface, type: 'keyword' });
  }
  return { hashtags, named };
}

const RANK: Record<CandidateType, number> = { hashtag: 3, entity: 2, keyword: 1 };

/**
 * A signal's candidates from its words' and its own keywords, deduplicated by key (a key's type is the best
 * seen: hashtag > entity > keyword) and capped (default 12): hashtags first, then the keywords, then entities
 * and key phrases by score.
 */
export function withKeywords(
  words: WordCandidates,
  keywords: readonly unknown[] | null | undefined,
  options: ExtractOptions = {},
): TrendCandidate[] {
  const max = options.max ?? DEFAULT_MAX_CANDIDATES;
  const own: TrendCandidate[] = [];
  for (const keyword of keywords ?? []) {
    if (typeof keyword !== 'string') continue;
    const key = normaliseKey(keyword);
    if (key !== null) own.push({ key, surface: keyword.trim(), type: 'keyword' });
  }
  const byKey = new Map<string, TrendCandidate>();
  for (const list of [words.hashtags, own, words.named]) {
    for (const candidate of list) {
      const existing = byKey.get(candidate.key);
      if (existing === undefined) byKey.set(candidate.key, { ...candidate });
      else if (RANK[candidate.type] > RANK[existing.type]) {
        existing.type = candidate.type;
        existing.surface = candidate.surface;
      }
    }
  }
  return [...byKey.values()].slice(0, Math.max(0, max));
}

/**
 * Trend candidates of one signal, deduplicated by key (a key's type is the best seen:
 * hashtag > entity > keyword) and capped (default 12): hashtags first, then the signal's own keywords,
 * then entities and key phrases by score (title mentions count double).
 */
export function extractCandidates(signal: SignalText, options: ExtractOptions = {}): TrendCandidate[] {
  return withKeywords(wordCandidates(signal), signal.keywords, options);
}

/**
 * The display title of a trend: its most frequent surface form; ties go to a form with capitals, then to
 * the lexically smallest (code-unit order), so the choice is deterministic. '' for an empty map.
 */
/**
 * A trend's type as its title reads: `hashtag` exactly when the title is one (`#WorldCup`). A trend whose
 * mentions included a hashtag but whose title is a plain form (`Stratus Cloud`) is an `entity` when the title has
 * a capital, else a `keyword`; any other type stays as the mentions gave it.
 */
export function typeForTitle(type: string, title: string): string {
  if (title.startsWith('#')) return 'hashtag';
  if (type !== 'hashtag') return type;
  return /\p{Lu}/u.test(title) ? 'entity' : 'keyword';
}

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
