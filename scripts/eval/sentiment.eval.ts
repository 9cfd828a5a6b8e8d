// Scores the text sentiment classifier that insights use (src/modules/insights/sentiment.ts) and the
// per-mention score trends use (mentionScore, src/modules/text/sentiment.ts), against two references:
//  1. the labelled UCI "Sentiment Labelled Sentences" (Kotzias et al., 2015) that the `sentiment` dev package
//     ships in test/fixtures: 1,001 sentences each from Amazon, IMDb and Yelp reviews, class 1 positive,
//     0 negative. Binary reading: a sentence is called positive when its category is `positive` (score ≥
//     0.05); neutral and negative both count as "not positive". Read from node_modules, never copied.
//  2. customer posts written by the Crestwatch team (scripts/eval/data/, read by customer-posts.ts:
//     complaints, praise and neutral questions to airlines and other companies; labels are the team's reading;
//     development sets used while building the complaint layer — `dev-narratives` holds long story-like posts,
//     used for the narrative rules — and held-out sets never used to change it). Three-class accuracy and the
//     share of posts classified negative against the labelled share.
// "before" is the classifier as it was before the complaint layer (mean of VADER and wink-nlp), rebuilt here
// for comparison.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Model } from 'wink-eng-lite-web-model';
import type { WinkMethods } from 'wink-nlp';
import { classifySentiment } from '../../src/modules/insights/index.ts';
import { estimateCounts } from '../../src/modules/insights/share-estimate.ts';
import { compound, mentionSentiment } from '../../src/modules/text/index.ts';
import { CUSTOMER_POSTS, POST_SETS } from './customer-posts.ts';

const GOAL = 0.8;
const AFINN_BASELINE: Record<string, number> = { amazon: 0.72, imdb: 0.76, yelp: 0.69 };

const requireCjs = createRequire(import.meta.url);
let fixtures: string;
try {
  fixtures = path.join(path.dirname(requireCjs.resolve('sentiment/package.json')), 'test', 'fixtures');
} catch {
  console.error('The `sentiment` dev dependency is not installed (npm ci installs it).');
  process.exit(1);
}

const winkNLP = requireCjs('wink-nlp') as typeof import('wink-nlp').default;
const nlp: WinkMethods = winkNLP(requireCjs('wink-eng-lite-web-model') as Model);
/** The classifier before the complaint layer: mean of VADER compound and wink-nlp sentiment. */
function before(text: string): number {
  const input = text.length > 2000 ? text.slice(0, 2000) : text;
  const wink = nlp.readDoc(input).out(nlp.its.sentiment) as unknown as number;
  return (compound(input) + (Number.isFinite(wink) ? Math.max(-1, Math.min(1, wink)) : 0)) / 2;
}

type Category = 'positive' | 'negative' | 'neutral';
const categoryOf = (score: number): Category =>
  score >= 0.05 ? 'positive' : score <= -0.05 ? 'negative' : 'neutral';

const scorers: [string, (text: string) => Category][] = [
  ['classifier', (t) => classifySentiment(t).category],
  ['before', (t) => categoryOf(before(t))],
  ['vader-only', (t) => categoryOf(compound(t))],
  ['mention', (t) => categoryOf(mentionSentiment(t).score)],
];

let allMet = true;
console.log('UCI sentences: accuracy of "positive" vs not (mention = trends per-mention score)');
console.log(
  `set      n     ${scorers.map(([name]) => name.padEnd(11)).join('')}afinn-baseline  goal (classifier)`,
);
for (const set of ['amazon', 'imdb', 'yelp']) {
  const file = path.join(fixtures, `${set}.json`);
  if (!fs.existsSync(file)) {
    console.error(`Missing ${file}.`);
    process.exit(1);
  }
  const rows = JSON.parse(fs.readFileSync(file, 'utf8')) as { text: string; class: number }[];
  const hits = scorers.map(([, score]) =>
    rows.filter((r) => (score(r.text) === 'positive' ? 1 : 0) === r.class),
  );
  const accuracy = hits.map((h) => h.length / rows.length);
  if (accuracy[0]! < GOAL) allMet = false;
  console.log(
    `${set.padEnd(8)} ${String(rows.length).padEnd(5)} ${accuracy.map((a) => a.toFixed(3).padEnd(11)).join('')}` +
      `${AFINN_BASELINE[set]!.toFixed(2).padEnd(15)} ≥ ${GOAL.toFixed(2)} ${accuracy[0]! >= GOAL ? 'met' : 'NOT met'}`,
  );
}
console.log(allMet ? 'Goal met on every set.' : 'Goal not met on every set.');

console.log(
  '\nCustomer posts written by the team: three-class accuracy; share classified negative vs labelled',
);
console.log(
  `set            n    labelled-neg  ${scorers.map(([name]) => `${name} acc/neg`.padEnd(22)).join('')}`,
);
for (const set of POST_SETS) {
  const posts = CUSTOMER_POSTS.filter((p) => p.set === set);
  const labelled = posts.filter((p) => p.label === 'negative').length / posts.length;
  const cells = scorers.map(([, score]) => {
    const predicted = posts.map((p) => score(p.text));
    const accuracy = predicted.filter((c, i) => c === posts[i]!.label).length / posts.length;
    const negShare = predicted.filter((c) => c === 'negative').length / posts.length;
    return `${accuracy.toFixed(3)} / ${negShare.toFixed(3)}`.padEnd(22);
  });
  console.log(
    `${set.padEnd(14)} ${String(posts.length).padEnd(4)} ${labelled.toFixed(3).padEnd(13)} ${cells.join('')}`,
  );
}

// The issue's measure is per brand: an insight's stated negative share against the labelled share of that
// brand's posts. held-out-4 and development-5 address twelve brands each (about 10–17 posts a brand, so one post
// moves a brand's share by 0.06–0.10); held-out-5 six airlines with 20 posts each (0.05 a post), held-out-6 four
// with 40 each (0.025 a post). "counted" is
// the share classified negative; "stated" is what an insight states: the estimate of share-estimate.ts, whose
// calibration comes from held-out 1–3 (so those sets test nothing about it), tested here on held-out 4 to 6.
console.log(
  '\nPer brand (the first @handle of each post): |share − labelled| negative share, counted one by one and as stated',
);
console.log(
  `set            brands  counted: mean  largest  within 0.15   stated: mean  largest  within 0.15`,
);
for (const set of ['held-out-4', 'held-out-5', 'held-out-6', 'development-5', 'development-6'] as const) {
  const byBrand = new Map<string, { labelled: number; scored: ReturnType<typeof classifySentiment>[] }>();
  for (const post of CUSTOMER_POSTS.filter((p) => p.set === set)) {
    const brand = /@\w+/.exec(post.text)?.[0] ?? '(none)';
    const row = byBrand.get(brand) ?? { labelled: 0, scored: [] };
    if (post.label === 'negative') row.labelled++;
    row.scored.push(classifySentiment(post.text));
    byBrand.set(brand, row);
  }
  const rows = [...byBrand.values()];
  const summary = (share: (b: (typeof rows)[number]) => number) => {
    const gaps = rows.map((b) => Math.abs(share(b) - b.labelled / b.scored.length));
    const mean = gaps.reduce((a, g) => a + g, 0) / gaps.length;
    const within = gaps.filter((g) => g <= 0.15 + 1e-9).length;
    return `${mean.toFixed(3).padEnd(6)} ${Math.max(...gaps)
      .toFixed(2)
      .padEnd(8)} ${`${within} of ${gaps.length}`.padEnd(13)}`;
  };
  const counted = summary((b) => b.scored.filter((s) => s.category === 'negative').length / b.scored.length);
  const stated = summary((b) => estimateCounts(b.scored).negative / b.scored.length);
  console.log(`${set.padEnd(14)} ${String(rows.length).padEnd(7)} ${counted}         ${stated}`);
}
