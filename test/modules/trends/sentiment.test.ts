import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { compound } from '../../../src/modules/trends/index.ts';

describe('compound', () => {
  test('positive text scores above 0.05', () => {
    assert.ok(compound('VADER is very smart, handsome, and funny') > 0.5);
    assert.ok(compound('I love the new update, it is amazing!!! 😍') > 0.05);
  });

  test('negative text scores below -0.05', () => {
    assert.ok(compound('This is a horrible, terrible disaster. Many people were killed.') < -0.5);
    assert.ok(compound('worst outage ever, totally broken :(') < -0.05);
  });

  test('neutral text scores near 0', () => {
    assert.ok(Math.abs(compound('The meeting is on Tuesday at 10am in room 4.')) < 0.05);
  });

  test('matches the VADER reference value', () => {
    assert.equal(compound('VADER is very smart, handsome, and funny'), 0.8545);
  });

  test('empty, blank and missing text score 0', () => {
    assert.equal(compound(''), 0);
    assert.equal(compound('   \n\t'), 0);
    assert.equal(compound(null), 0);
    assert.equal(compound(undefined), 0);
    assert.equal(Object.is(compound('   '), -0), false);
  });

  test('long text is scored without error', () => {
    const score = compound('Great news! '.repeat(2000));
    assert.ok(score > 0 && score <= 1);
  });

  test('always a finite number in [-1, 1], never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        const score = compound(text);
        assert.ok(Number.isFinite(score));
        assert.ok(score >= -1 && score <= 1, String(score));
      }),
      { numRuns: 1000, seed: 20_261_121 },
    );
  });
});
