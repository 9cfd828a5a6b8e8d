import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { Type } from 'typebox';
import vader from 'vader-sentiment';
import { demoSignals } from '../../../src/modules/signals/index.ts';
import {
  B_DECR,
  B_INCR,
  BOOSTER_DICT,
  C_INCR,
  N_SCALAR,
  NEGATE,
  PUNC_LIST,
  SPECIAL_CASE_IDIOMS,
  vaderCompound,
} from '../../../src/modules/text/vader.ts';
import { loadJson } from '../../../src/platform/data-files.ts';

const require = createRequire(import.meta.url);
const { lexicon } = require('vader-sentiment/src/vader_lexicon.js') as { lexicon: Record<string, number> };

/** The package's own answer: what vaderCompound must equal, bit for bit. */
function reference(text: string): number {
  return vader.SentimentIntensityAnalyzer.polarity_scores(text).compound;
}

/** Texts whose scores differ from the package's, as [text, expected, actual], at most `limit`. */
function mismatches(texts: Iterable<string>, limit = 5): [string, number, number][] {
  const bad: [string, number, number][] = [];
  for (const text of texts) {
    const expected = reference(text);
    const actual = vaderCompound(text);
    if (!Object.is(expected, actual)) {
      bad.push([text, expected, actual]);
      if (bad.length >= limit) break;
    }
  }
  return bad;
}

/** Hand-picked texts covering every rule of the port, by rule (test/fixtures/vader/README.md), and long ones. */
const TRICKY = [
  ...Object.values(
    loadJson(
      new URL('../../fixtures/vader/texts.json', import.meta.url),
      Type.Record(Type.String(), Type.Array(Type.String())),
    ),
  ).flat(),
  'good '.repeat(300),
  'bad but good '.repeat(100),
  'GREAT great '.repeat(50),
];

// ---------- the fast-check vocabulary

const LEXICON_WORDS = Object.keys(lexicon);
const SPECIAL = [
  'but',
  'BUT',
  'But',
  'least',
  'Least',
  'at',
  'very',
  'kind',
  'of',
  'sort',
  'just',
  'enough',
  'never',
  'so',
  'this',
  'the',
  'shit',
  'bomb',
  'bad',
  'ass',
  'yeah',
  'right',
  'cut',
  'mustard',
  'kiss',
  'death',
  'hand',
  'to',
  'mouth',
  "n't",
  "isn't",
  "don't",
  'nope',
  'a',
  'I',
  'x',
  '',
  'undefined',
  'https://example.com/x',
  '#great',
  '@user',
  '😀',
  'İ',
];
const PUNCT_TOKENS = [
  ...PUNC_LIST,
  '...',
  '(',
  ')',
  '#',
  '@',
  '!!!!',
  '?!',
  '--',
  '\\',
  '_',
  '~',
  '"\'',
  '¡',
];
const AFFIXES = ['', '', '', '', '', ...PUNC_LIST, '(', ')', '...', '#', '!!!!', "'s", 'x', '.!', '""'];

const wordArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...LEXICON_WORDS) },
  { weight: 2, arbitrary: fc.constantFrom(...Object.keys(BOOSTER_DICT).flatMap((key) => key.split(' '))) },
  { weight: 2, arbitrary: fc.constantFrom(...NEGATE) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL) },
  { weight: 1, arbitrary: fc.constantFrom(...PUNCT_TOKENS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);
const caseArb = fc.constantFrom(
  (w: string) => w,
  (w: string) => w,
  (w: string) => w,
  (w: string) => w.toUpperCase(),
  (w: string) => w.charAt(0).toUpperCase() + w.slice(1),
);
const tokenArb = fc
  .tuple(fc.constantFrom(...AFFIXES), wordArb, caseArb, fc.constantFrom(...AFFIXES))
  .map(([before, word, casing, after]) => before + casing(word) + after);
const spaceArb = fc.constantFrom(
  ' ',
  ' ',
  ' ',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\u00a0',
  '\u2003',
  '\u3000',
  '',
);
const textArb = fc
  .tuple(fc.array(fc.tuple(tokenArb, spaceArb), { maxLength: 30 }), spaceArb)
  .map(([pairs, lead]) => lead + pairs.map(([token, space]) => token + space).join(''));

describe('vaderCompound', () => {
  test('repeats exactly the constants of vader-sentiment', () => {
    // src/vaderSentiment.js loads under `node --import tsx` (the test runner), not under every loader.
    const pkg = require('vader-sentiment/src/vaderSentiment.js');
    assert.equal(B_INCR, pkg.B_INCR);
    assert.equal(B_DECR, pkg.B_DECR);
    assert.equal(C_INCR, pkg.C_INCR);
    assert.equal(N_SCALAR, pkg.N_SCALAR);
    assert.deepEqual(PUNC_LIST, pkg.PUNC_LIST);
    assert.deepEqual(NEGATE, pkg.NEGATE);
    assert.deepEqual({ ...BOOSTER_DICT }, pkg.BOOSTER_DICT);
    assert.deepEqual({ ...SPECIAL_CASE_IDIOMS }, pkg.SPECIAL_CASE_IDIOMS);
    assert.equal(String(pkg.REGEX_REMOVE_PUNCTUATION), String(/[!"#$%&'()*+,-./:;<=>?@[\\\]^_`{|}~]/g));
  });

  test('matches the package on hand-picked texts covering every rule', () => {
    assert.deepEqual(mismatches(TRICKY, 50), []);
    // The same texts in capitals, lower case, and after a neutral or ALL-CAPS word (for is_cap_diff).
    const variants = TRICKY.flatMap((t) => [
      t.toUpperCase(),
      t.toLowerCase(),
      `ok ${t}`,
      `WOW ${t}`,
      `${t} ok`,
    ]);
    assert.deepEqual(mismatches(variants, 50), []);
    assert.equal(vaderCompound('VADER is very smart, handsome, and funny'), 0.8545);
  });

  test('matches the package around every punctuation run and affix', () => {
    const runs = [...PUNC_LIST, '', '...', '!!!!', '?!', '(', ')', '#', '@', '_', '~', '(-', '"\'', '¡'];
    const cores = ['good', 'go', 'g', 'GOOD', 'g.od', 'bad', "isn't", 'but', 'never', 'least', ':)', '😀'];
    const texts: string[] = [];
    for (const run of runs) {
      for (const core of cores) {
        for (const token of [run + core, core + run, run + core + run]) {
          texts.push(token, `not ${token}`, `very ${token} but nice`, `SO ${token} good`);
        }
      }
    }
    assert.deepEqual(mismatches(texts, 50), []);
    // Every ASCII character as a one-character affix.
    const ascii: string[] = [];
    for (let c = 32; c < 127; c++) {
      const ch = String.fromCharCode(c);
      ascii.push(`${ch}good bad`, `good${ch} bad`, `${ch}${ch}great`, `not ${ch}bad${ch}`);
    }
    assert.deepEqual(mismatches(ascii, 50), []);
  });

  test('splits on exactly the whitespace of /\\s/ (every UTF-16 code unit)', () => {
    const negative = vaderCompound('not good');
    assert.ok(negative < 0);
    const sampled: string[] = [];
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      const text = `not${ch}good`;
      // Split there exactly when the package's /\s/ splits: "not good" is negative, "not?good" is no word.
      assert.equal(vaderCompound(text), /\s/.test(ch) ? negative : 0, `U+${c.toString(16)}`);
      if (/\s/.test(ch) || c % 32 === 0 || c < 256) sampled.push(text);
    }
    assert.deepEqual(mismatches(sampled, 50), []);
  });

  test('matches the package on demo signal texts', () => {
    const from = Date.UTC(2026, 0, 5, 12);
    const signals = demoSignals({ seed: 7, from, to: from + 3 * 3_600_000 });
    const texts = signals.filter((_, k) => k % 4 === 0).map((s) => s.text);
    assert.ok(texts.length >= 2000, `only ${texts.length} demo texts`);
    assert.deepEqual(mismatches(texts), []);
    // Shouted and mixed-case versions of some of them.
    const shouted = texts
      .filter((_, k) => k % 10 === 0)
      .flatMap((t) => [
        t.toUpperCase(),
        t.replace(/\b(\w+)\b/g, (w, _w, at: number) => (at % 3 ? w : w.toUpperCase())),
      ]);
    assert.deepEqual(mismatches(shouted), []);
  });

  test('matches the package on random texts of lexicon words, boosters, negations and punctuation', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const expected = reference(text);
        const actual = vaderCompound(text);
        assert.ok(
          Object.is(expected, actual),
          `${JSON.stringify(text)}: expected ${expected}, got ${actual}`,
        );
      }),
      { numRuns: 6000, seed: 20_260_105 },
    );
  });

  test('matches the package on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (text) => {
        assert.ok(Object.is(reference(text), vaderCompound(text)), JSON.stringify(text));
      }),
      { numRuns: 2000, seed: 20_260_106 },
    );
  });
});
