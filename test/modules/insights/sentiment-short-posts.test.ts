// The insight classifier on short posts the complaint layer now reads (crestwatch-metrics/5): once the layer
// reads a post, the classifier trusts its corrected score, so wink-nlp no longer tips these the wrong way.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifySentiment } from '../../../src/modules/insights/index.ts';

describe('classifySentiment: short posts', () => {
  test('a wait told by its duration is negative, even where wink-nlp reads it as positive', () => {
    assert.equal(
      classifySentiment('@Air 45 min waiting for a gate to open after landing').category,
      'negative',
    );
  });

  test('a praise idiom wink-nlp reads as negative is positive', () => {
    assert.equal(
      classifySentiment('@Air shout out to Dev at the Seattle desk, absolute legend').category,
      'positive',
    );
  });

  test('a conditional question about a cancellation and a refund is neutral', () => {
    assert.equal(
      classifySentiment('@Air if the flight is cancelled do I get a refund or a credit?').category,
      'neutral',
    );
  });
});
