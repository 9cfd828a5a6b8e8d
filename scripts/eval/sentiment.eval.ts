// Scores the text sentiment classifier that insights use (src/modules/insights/sentiment.ts) on the
// labelled UCI "Sentiment Labelled Sentences" (Kotzias et al., 2015) that the `sentiment` dev package ships
// in test/fixtures: 1,001 sentences each from Amazon, IMDb and Yelp reviews, class 1 positive, 0 negative.
// Binary reading: a sentence is called positive when its category is `positive` (score ≥ 0.05); neutral
// and negative both count as "not positive". Read from node_modules, never copied.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { classifySentiment } from '../../src/modules/insights/index.ts';
import { compound } from '../../src/modules/trends/index.ts';

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

let allMet = true;
console.log('set      n     classifier  vader-only  afinn-baseline  goal');
for (const set of ['amazon', 'imdb', 'yelp']) {
  const file = path.join(fixtures, `${set}.json`);
  if (!fs.existsSync(file)) {
    console.error(`Missing ${file}.`);
    process.exit(1);
  }
  const rows = JSON.parse(fs.readFileSync(file, 'utf8')) as { text: string; class: number }[];
  let hits = 0;
  let vaderHits = 0;
  for (const row of rows) {
    const predicted = classifySentiment(row.text).category === 'positive' ? 1 : 0;
    if (predicted === row.class) hits++;
    if ((compound(row.text) >= 0.05 ? 1 : 0) === row.class) vaderHits++;
  }
  const accuracy = hits / rows.length;
  if (accuracy < GOAL) allMet = false;
  console.log(
    `${set.padEnd(8)} ${String(rows.length).padEnd(5)} ${accuracy.toFixed(3).padEnd(11)} ` +
      `${(vaderHits / rows.length).toFixed(3).padEnd(11)} ${AFINN_BASELINE[set]!.toFixed(2).padEnd(15)} ` +
      `≥ ${GOAL.toFixed(2)} ${accuracy >= GOAL ? 'met' : 'NOT met'}`,
  );
}
console.log(allMet ? 'Goal met on every set.' : 'Goal not met on every set.');
