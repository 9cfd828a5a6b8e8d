// VADER speed: vaderCompound (src/modules/text/vader.ts) against the vader-sentiment package it reproduces,
// over demo signal texts. Prints the time per text of each and the speed-up; also checks they agree.
//
// Usage: npx tsx bench/vader.ts   (BENCH_VADER_TEXTS, default 20,000; BENCH_VADER_ROUNDS, default 5)
import vader from 'vader-sentiment';
import { demoSignals } from '../src/modules/signals/index.ts';
import { vaderCompound } from '../src/modules/text/vader.ts';
import { setting } from './lib.ts';

const COUNT = setting('BENCH_VADER_TEXTS', 20_000);
const ROUNDS = setting('BENCH_VADER_ROUNDS', 5);

const texts: string[] = [];
for (let from = Date.UTC(2026, 0, 5, 12); texts.length < COUNT; from += 3_600_000) {
  for (const signal of demoSignals({ seed: 1, from, to: from + 3_600_000 })) texts.push(signal.text);
}
texts.length = COUNT;
const chars = texts.reduce((sum, t) => sum + t.length, 0);

const packageCompound = (text: string): number =>
  vader.SentimentIntensityAnalyzer.polarity_scores(text).compound;

let differences = 0;
for (const text of texts) if (!Object.is(packageCompound(text), vaderCompound(text))) differences++;

/** Milliseconds for one pass of `score` over all texts. */
function time(score: (text: string) => number): number {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (const text of texts) sink += score(text);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (Number.isNaN(sink)) throw new Error('unreachable'); // keeps the loop from being optimised away
  return ms;
}

// Alternate the two, keep each one's best round (the least disturbed by GC and the machine).
let bestPackage = Number.POSITIVE_INFINITY;
let bestFast = Number.POSITIVE_INFINITY;
for (let round = 0; round < ROUNDS; round++) {
  bestPackage = Math.min(bestPackage, time(packageCompound));
  bestFast = Math.min(bestFast, time(vaderCompound));
}

const perText = (ms: number): string => `${((ms * 1000) / COUNT).toFixed(2)} µs/text`;
console.log(`${COUNT} demo texts (${(chars / COUNT).toFixed(0)} chars on average), best of ${ROUNDS} rounds`);
console.log(`vader-sentiment polarity_scores: ${bestPackage.toFixed(1)} ms  (${perText(bestPackage)})`);
console.log(`vaderCompound:                   ${bestFast.toFixed(1)} ms  (${perText(bestFast)})`);
console.log(`speed-up: ${(bestPackage / bestFast).toFixed(1)}×; scores that differ: ${differences}`);
if (differences > 0) process.exitCode = 1;
