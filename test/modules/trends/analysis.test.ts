import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyseBatch } from '../../../src/modules/trends/analysis.ts';
import { sampleTextHits } from '../../../src/modules/trends/categories.ts';

const signal = (text: string) => ({ text, title: null, keywords: null, lang: 'en' });
const hitsOf = (analysis: ReturnType<typeof analyseBatch>, i: number) =>
  analysis.hitsKnown[i]
    ? [...analysis.hits.subarray(analysis.hitOffsets[i]!, analysis.hitOffsets[i + 1]!)]
    : null;

test('a batch carries the lexicon hits of every text that names a candidate', () => {
  const texts = [
    'Earthquake shakes Harbor City, tsunami warning issued',
    'ok',
    'Acme Cloud outage again today',
  ];
  const analysis = analyseBatch(texts.map(signal));
  assert.deepEqual(hitsOf(analysis, 0), Array.from(sampleTextHits(texts[0]!)));
  assert.ok(hitsOf(analysis, 0)!.length > 0, 'a disaster text hits the lexicons');
  assert.equal(hitsOf(analysis, 1), null, 'a text without candidates is never a sample text');
  assert.deepEqual(hitsOf(analysis, 2), Array.from(sampleTextHits(texts[2]!)));
});

test('with the keys a thread saw before, only texts naming another key carry their hits', () => {
  const seen = new Set<string>();
  const first = analyseBatch(
    [signal('Harbor City flood warning'), signal('Harbor City flood warning again')],
    seen,
  );
  assert.ok(
    first.hitsKnown.every((known) => known === 1),
    'every key is new in the first batch',
  );
  assert.ok(seen.size > 0);
  const second = analyseBatch(
    [signal('Harbor City flood warning'), signal('Harbor City flood warning and a Westbrook Dam breach')],
    seen,
  );
  assert.equal(hitsOf(second, 0), null, 'its keys were all analysed before: likely trends already');
  const breach = 'Harbor City flood warning and a Westbrook Dam breach';
  assert.deepEqual(hitsOf(second, 1), Array.from(sampleTextHits(breach)));
});
