/**
 * Trend keys: the normalisation every module groups and matches text with. `normaliseKey` gives the key
 * shared by every spelling of a trend; `normaliseTokens` gives a text's words so that n-grams of them
 * compare equal to `normaliseKey` of the same words.
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
import { eng as englishStopwords } from 'stopword';

const MAX_INPUT_CHARS = 500;
const MAX_KEY_CHARS = 100;
const MAX_KEY_WORDS = 8;

// ---------------------------------------------------------------------------------------------------------
// Word lists

/** A word list written as text: split on whitespace (or on `separator`), trimmed, empties dropped. */
export function wordList(text: string, separator: string | RegExp = /\s+/): string[] {
  return text
    .split(separator)
    .map((w) => w.trim())
    .filter((w) => w !== '');
}

// Function words stopword's short English list lacks.
const EXTRA_FUNCTION_WORDS = wordList(`
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
const VAGUE_WORDS = wordList(`
  last next first new old good great best better big little lot lots one two three thing things stuff
  today yesterday tomorrow tonight thanks thank
`);

// Social-media and web noise that is never a trend on its own.
const NOISE_WORDS = wordList(`
  rt lol lmao lmfao rofl omg wtf smh imo imho tbh idk ftw fyi afaik irl btw ngl dm dms pls plz thx ty yeah
  yep nope gonna wanna gotta amp http https www com org net html tco url link links click via thread post
  posts repost retweet tweet tweets reply replies comment comments follow followers like likes share
  shares subscribe update updates breaking watch read video videos photo photos pic pics image images
  people person time times day days week weeks month months year years way ways part edit deleted removed
  nsfw tldr ama eli5 op psa tl dr
`);

// Multi-word noise; compared after normalisation.
const STOP_PHRASES = wordList(
  `
  link in bio, check out, check it out, click here, read more, find out, sign up, follow us, follow me,
  thank you, thanks for sharing, breaking news, just in, more info, full story, new post, new video,
  last week, this week, next week, last year, this year, next year, right now, of course, so far, a lot,
  lot of, kind of, sort of, no one, in fact
`,
  ',',
);

// Function words end a name or a phrase; together with vague and noise words they are never a key alone.
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  ...englishStopwords.map((w) => w.toLowerCase()),
  ...EXTRA_FUNCTION_WORDS,
]);
export const STOPWORDS: ReadonlySet<string> = new Set([...FUNCTION_WORDS, ...VAGUE_WORDS, ...NOISE_WORDS]);

// Words ending in -s that are not plurals (or whose folded form would collide with another name).
const NO_FOLD: ReadonlySet<string> = new Set(
  wordList(`
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
    ...wordList(`
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
    ...wordList(`
    evs:ev tvs:tv pcs:pc ais:ai vcs:vc ads:ad nfts:nft
    `),
  ].map((pair) => pair.split(':') as [string, string]),
);

// Camel-cased names that are one word (`YouTube` = `youtube`); matched as prefixes of the lower-cased word.
const CAMEL_BRANDS = wordList(`
  youtube tiktok playstation javascript typescript coffeescript linkedin whatsapp paypal deepmind deepseek
  github gitlab wordpress blackrock blackberry softbank facetime airpods airtag airbnb macbook powerpoint
  sharepoint crowdstrike doordash hubspot mastercard fedex buzzfeed huffpost aliexpress jetblue smackdown
  wrestlemania starcraft warcraft soundcloud servicenow tensorflow oneplus gofundme stubhub solarwinds
  coindesk coinbase coinmarketcap opensea metamask bittorrent cloudflare dropbox snapchat facebook yougov
  redbull astrazeneca glaxosmithkline exxonmobil pewdiepie openstreetmap postgresql mongodb devops fintech
  biotech bluesky truthsocial playstore appstore hbomax primevideo applepay airpod
`);

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
    // A split needs a lower-case letter before a capital or two capitals before a lower-case one.
    if (!CAMEL_HINT.test(word)) return word;
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

/** Combining accents on Latin letters, as NFD spells them (`é` = `e` + U+0301). */
const LATIN_ACCENTED = /([a-z])[\u0300-\u036f]+/g;
const NON_ASCII = /[^\p{ASCII}]/u;

/**
 * Drops the accents of Latin letters (`pokémon` → `pokemon`, `mégantic` → `megantic`, `año` → `ano`), as
 * search on social platforms does, so a name typed with and without them is one trend. Letters of other
 * scripts keep their marks (`й`, Devanagari vowel signs), and letters that are not a base plus an accent (`ø`,
 * `ł`, `æ`) stay as they are. Migration 0023 folded the keys stored before with the same rule.
 */
export function foldLatinAccents(lower: string): string {
  if (!NON_ASCII.test(lower)) return lower;
  const decomposed = lower.normalize('NFD');
  const folded = decomposed.replace(LATIN_ACCENTED, '$1');
  return folded === decomposed ? lower : folded.normalize('NFC');
}

/** NFKC'd, camel-split, case-folded, accent-folded (Latin), plural-folded word tokens (no stop-word filtering). */
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
  // Only a text with non-ASCII letters has accents to fold (most texts: none, and no per-word check).
  const fold = NON_ASCII.test(prepared) ? foldWord : foldPlural;
  const out: string[] = [];
  for (const match of prepared.matchAll(WORD)) {
    const word = match[0];
    const split = LETTERS_THEN_DIGITS.exec(word);
    if (split) {
      out.push(fold(split[1]), split[2]);
    } else {
      out.push(fold(word));
    }
  }
  return out;
}

/**
 * A word accent-folded, or plural-folded when it has no Latin accents: English plural rules never applied to
 * accented words (`cafés`, `años`), and still do not once their accents are gone, so a stored key folds to
 * the key the code computes (migration 0023 folds accents only).
 */
function foldWord(word: string): string {
  const unaccented = foldLatinAccents(word);
  return unaccented === word ? foldPlural(word) : unaccented;
}

const STOP_PHRASE_KEYS: ReadonlySet<string> = new Set(STOP_PHRASES.map((p) => tokensOf(p).join(' ')));

function isStopToken(token: string): boolean {
  return STOPWORDS.has(token) || NUMERIC.test(token);
}

// Names and phrases recur across signals: their keys are remembered (bounded; cleared when full).
const KEY_CACHE_SIZE = 50_000;
const keyCache = new Map<string, string | null>();

/**
 * The key a surface form is grouped under, or null when it cannot be a trend (stop-word or stop-phrase,
 * pure number, single character, URL, e-mail address, over 100 characters or 8 words). Idempotent.
 */
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
// Names inside longer keys

// Words that label a post rather than name its topic (`Breaking Alaska Airlines`, `Video Alaska Airlines`),
// as keys (plural-folded). Stripped from the front of a key when what remains is an established name. Words
// that begin names too (`New York`, `Live Aid`, `Apple Watch`) are not in the list.
const LABEL_WORDS: ReadonlySet<string> = new Set(
  wordList(`
  breaking latest exclusive developing update video photo pic urgent
`),
);

/** Contiguous spans of at least this many words of a longer key may be the name it is about. */
const MIN_CONTAINED_NAME_WORDS = 2;

/**
 * The keys a candidate key may be counted under, in the order they are tried: its contiguous spans of at
 * least two words (for a key of three words or more; longest first, then the one ending last, since English
 * names end in their head: `max alaska airline` → `alaska airline`, then `max alaska`), and the key without its
 * leading label words (`breaking boeing` → `boeing`, any length). The first one that is an established trend
 * is the key the mention is counted under (the processor's `namesFor`).
 */
export function containedNames(key: string): string[] {
  const words = key.split(' ');
  const spans: { text: string; length: number; end: number }[] = [];
  for (let length = words.length - 1; length >= MIN_CONTAINED_NAME_WORDS; length--) {
    for (let start = words.length - length; start >= 0; start--) {
      spans.push({ text: words.slice(start, start + length).join(' '), length, end: start + length });
    }
  }
  let lead = 0;
  while (lead < words.length - 1 && LABEL_WORDS.has(words[lead])) lead++;
  if (lead > 0 && words.length - lead < MIN_CONTAINED_NAME_WORDS) {
    spans.push({ text: words.slice(lead).join(' '), length: words.length - lead, end: words.length });
  }
  const out: string[] = [];
  for (const span of spans) {
    if (!out.includes(span.text) && isNameKey(span.text)) out.push(span.text);
  }
  return out;
}

/**
 * The words of `surface` that spell `name`, a name its key contains ("data center" in "data center servers",
 * "Alaska Airlines" in "MAX Alaska Airlines"), as written; null when no run of its words normalises to it.
 * A mention counted under the name is recorded in this form, so the name's title is never the longer phrase.
 */
export function surfaceOfName(surface: string, name: string): string | null {
  const words = surface.trim().split(/\s+/);
  for (let length = 1; length <= words.length; length++) {
    for (let start = 0; start + length <= words.length; start++) {
      const span = words.slice(start, start + length).join(' ');
      if (normaliseKey(span) === name) return span;
    }
  }
  return null;
}

/** A span can be a name only if it would be a key on its own (not stop-words only, not a stop phrase). */
function isNameKey(span: string): boolean {
  return normaliseKey(span) === span;
}
