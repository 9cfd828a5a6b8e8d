import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyseBatch, RECENT_KEPT, recentWordsHeld } from '../../../src/modules/text/analysis.ts';
import { extractCandidates } from '../../../src/modules/text/extraction.ts';
import { mentionScore } from '../../../src/modules/text/sentiment.ts';
import { sampleTextHits } from '../../../src/modules/text/text-hits.ts';

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

/** One signal's candidates, score and fingerprint as a batch gives them. */
const only = (analysis: ReturnType<typeof analyseBatch>, i: number) => ({
  candidates: Array.from(
    analysis.candidateKeys.subarray(analysis.offsets[i]!, analysis.offsets[i + 1]!),
    (k) => analysis.keys[k],
  ),
  score: analysis.scores[i],
  fingerprint: analysis.fingerprints[i],
});

test('a signal whose words were analysed before gets the same analysis; other words, title, keywords or language their own', () => {
  const text = 'Acme Cloud outage in Harbor City, support never answers';
  const variants = [
    { text, title: null, keywords: null, lang: 'en' },
    { text, title: 'Harbor City update', keywords: null, lang: 'en' },
    { text, title: null, keywords: ['status page'], lang: 'en' },
    { text, title: null, keywords: ['status', 'page'], lang: 'en' },
    { text, title: null, keywords: null, lang: 'de' },
    { text: `${text}!`, title: null, keywords: null, lang: 'en' },
  ];
  const first = analyseBatch(variants);
  const again = analyseBatch([...variants].reverse());
  variants.forEach((variant, i) => {
    const fresh = only(first, i);
    assert.deepEqual(only(again, variants.length - 1 - i), fresh, JSON.stringify(variant));
    // What the analysis itself gives those words, read afresh.
    assert.deepEqual(
      fresh.candidates,
      extractCandidates(variant).map((c) => c.key),
    );
    const scored = variant.title ? `${variant.title}. ${variant.text}` : variant.text;
    // Without candidates the score is not needed, and not worked out.
    assert.equal(fresh.score, fresh.candidates.length > 0 ? mentionScore(scored) : 0);
  });
  // The variants are told apart: each differs from the plain signal in candidates or score.
  const plain = only(first, 0);
  for (let i = 1; i < variants.length; i++) assert.notDeepEqual(only(first, i), plain, `variant ${i}`);
});

test('the memory of analysed words stays bounded however many distinct signals arrive', () => {
  for (let from = 0; from < RECENT_KEPT + 5_000; from += 1_000) {
    analyseBatch(
      Array.from({ length: 1_000 }, (_, i) => signal(`Zorblat ${(from + i).toString(36)}x rises`)),
    );
    assert.ok(recentWordsHeld() <= RECENT_KEPT, `${recentWordsHeld()} held`);
  }
});
