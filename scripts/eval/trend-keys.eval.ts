// Lists the trend keys the extractor (src/modules/text/extraction.ts) takes from real posts and counts how
// many of the most frequent ones are generic single words or sentence fragments (issue 17: "generic words and
// sentence fragments are not trend keys on real text").
//
// Data: CrisisLexT26 (../shared/data/crisislex-t26: ~1,000 labelled real posts for each of 22 crises of
// 2012–2013), read at run time, never copied. Every post (any label, any language) goes through
// `extractCandidates` as a signal's text. Per event, keys are ranked by the number of posts that mention them;
// the top 10 of each event and the top 40 over all events are printed for reading.
//
// The judge is independent of the extractor's word lists, from the posts themselves:
// - a single-word key is a **generic word** when its word is written in lower case in at least half of its
//   occurrences in the raw posts (hashtags and capitals mid-sentence both count as "named"); people write
//   names with capitals (`Boston`, `Chelyabinsk`) and common words without (`strong`, `buying`, `ribs`);
// - a key of several words is a **fragment** when wink-nlp's part-of-speech tagger, reading the key's surface
//   form, tags one of its words as a verb, auxiliary, adverb, pronoun, determiner, adposition or particle
//   (`people affected`, `stay safe`).
// Goal: at most 1 generic word or fragment in each event's top 10 on average (≤ 10 %). EVAL_TOP changes the
// per-event depth (default 10). Exits 0 whether or not the goal is met, 1 when the data cannot be read.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Model } from 'wink-eng-lite-web-model';
import type { WinkMethods } from 'wink-nlp';
import { extractCandidates } from '../../src/modules/text/index.ts';
import { CRISISLEX_DIR, parseCsv } from './crisislex.ts';

const TOP = Number(process.env.EVAL_TOP ?? 10);
const OVERALL_TOP = 40;
const GOAL_SHARE = 0.1;
const FRAGMENT_TAGS = new Set(['VERB', 'AUX', 'ADV', 'PRON', 'DET', 'ADP', 'PART', 'SCONJ', 'CCONJ', 'INTJ']);

const DATA = CRISISLEX_DIR;

function loadPosts(folder: string): string[] {
  const file = path.join(DATA, folder, `${folder}-tweets_labeled.csv`);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of parseCsv(fs.readFileSync(file, 'utf8')).slice(1)) {
    if (r.length < 2 || !/^\d+$/.test(r[0].trim()) || r[1].trim() === '' || seen.has(r[0])) continue;
    seen.add(r[0]);
    out.push(r[1]);
  }
  return out;
}

interface KeyStats {
  key: string;
  posts: number;
  surfaces: Map<string, number>;
  types: Set<string>;
}

let folders: string[];
try {
  folders = fs
    .readdirSync(DATA, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
} catch {
  console.error(`Cannot read ${DATA} (the shared CrisisLexT26 data).`);
  process.exit(1);
}
if (folders.length === 0) {
  console.error(`No events in ${DATA}.`);
  process.exit(1);
}

const requireCjs = createRequire(import.meta.url);
const winkNLP = requireCjs('wink-nlp') as typeof import('wink-nlp').default;
const nlp: WinkMethods = winkNLP(requireCjs('wink-eng-lite-web-model') as Model);

/** Lower-case share of a word's occurrences in the texts (whole words; a hashtag counts as named). */
function lowerShare(word: string, texts: readonly string[]): number {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(#?)(?<![\\p{L}\\p{N}])(${escaped})(?![\\p{L}\\p{N}])`, 'giu');
  let lower = 0;
  let all = 0;
  for (const text of texts) {
    for (const m of text.matchAll(pattern)) {
      all++;
      if (m[1] === '' && m[2] === m[2].toLowerCase()) lower++;
    }
  }
  return all === 0 ? 0 : lower / all;
}

function verdict(stats: KeyStats, texts: readonly string[]): 'generic' | 'fragment' | '' {
  const words = stats.key.split(' ');
  if (words.length === 1) {
    if (stats.types.has('hashtag')) return '';
    // The key is the folded form; read the most frequent surface (plural and all) in the texts.
    const surface = [...stats.surfaces].sort((a, b) => b[1] - a[1])[0]![0];
    return lowerShare(surface.replace(/^#/, ''), texts) >= 0.5 ? 'generic' : '';
  }
  const surface = [...stats.surfaces].sort((a, b) => b[1] - a[1])[0]![0];
  // Every word capitalised is a name (`Colorado Springs`), whatever its tags.
  if (surface.split(/\s+/).every((w) => /^\p{Lu}/u.test(w))) return '';
  const tokens = nlp.readDoc(surface).tokens();
  const tags = tokens.out(nlp.its.pos) as string[];
  const values = tokens.out() as string[];
  // A verb's -ing form is a noun in a compound (`airport shooting`, `meteor shower` tagged as a verb).
  return tags.some((t, i) => FRAGMENT_TAGS.has(t) && !(t === 'VERB' && /ing$/i.test(values[i] ?? '')))
    ? 'fragment'
    : '';
}

const started = performance.now();
const overall = new Map<string, KeyStats & { events: Set<string> }>();
let posts = 0;
let flagged = 0;
let ranked = 0;
const perEvent: string[] = [];
for (const folder of folders) {
  let texts: string[];
  try {
    texts = loadPosts(folder);
  } catch {
    console.error(`Cannot read the posts of ${folder}.`);
    process.exit(1);
  }
  posts += texts.length;
  const byKey = new Map<string, KeyStats>();
  for (const text of texts) {
    for (const c of extractCandidates({ text })) {
      let s = byKey.get(c.key);
      if (!s) {
        s = { key: c.key, posts: 0, surfaces: new Map(), types: new Set() };
        byKey.set(c.key, s);
      }
      s.posts++;
      s.surfaces.set(c.surface, (s.surfaces.get(c.surface) ?? 0) + 1);
      s.types.add(c.type);
      let o = overall.get(c.key);
      if (!o) {
        o = { key: c.key, posts: 0, surfaces: new Map(), types: new Set(), events: new Set() };
        overall.set(c.key, o);
      }
      o.posts++;
      o.surfaces.set(c.surface, (o.surfaces.get(c.surface) ?? 0) + 1);
      o.types.add(c.type);
      o.events.add(folder);
    }
  }
  const top = [...byKey.values()].sort((a, b) => b.posts - a.posts || (a.key < b.key ? -1 : 1)).slice(0, TOP);
  const marks = top.map((s) => {
    const v = verdict(s, texts);
    if (v !== '') flagged++;
    ranked++;
    return `${s.key} (${s.posts})${v === '' ? '' : ` [${v}]`}`;
  });
  perEvent.push(`${folder}: ${marks.join(', ')}`);
}

console.log(`Trend keys of ${posts} real posts over ${folders.length} events (CrisisLexT26)`);
console.log(
  `\nTop ${TOP} keys per event by posts ([generic] single common word, [fragment] sentence fragment):`,
);
for (const line of perEvent) console.log(`  ${line}`);
const allTexts = folders.flatMap(loadPosts);
console.log(`\nTop ${OVERALL_TOP} keys over all events (posts, events):`);
const overallTop = [...overall.values()].sort((a, b) => b.posts - a.posts).slice(0, OVERALL_TOP);
let overallFlagged = 0;
for (const s of overallTop) {
  const v = verdict(s, allTexts);
  if (v !== '') overallFlagged++;
  console.log(
    `  ${s.key.padEnd(32)} ${String(s.posts).padStart(5)} ${String(s.events.size).padStart(3)}  ${v}`,
  );
}
const share = flagged / Math.max(1, ranked);
console.log(
  `\nGeneric words or fragments: ${flagged} of ${ranked} per-event top-${TOP} keys (${(share * 100).toFixed(1)} %), ` +
    `${overallFlagged} of the overall top ${OVERALL_TOP}; goal ≤ ${GOAL_SHARE * 100} % per event: ` +
    `${share <= GOAL_SHARE ? 'met' : 'NOT met'}. ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);
