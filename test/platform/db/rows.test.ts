import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { powerOfTwoParts } from '../../../src/platform/db/rows.ts';

describe('multi-row statements in power-of-two parts', () => {
  test('rows are split, in order, into parts of power-of-two lengths up to the maximum, largest first', () => {
    const rows = Array.from({ length: 300 }, (_, i) => i);
    const parts = powerOfTwoParts(rows, 1024);
    assert.deepEqual(
      parts.map((p) => p.length),
      [256, 32, 8, 4],
    );
    assert.deepEqual(parts.flat(), rows);
    assert.deepEqual(
      powerOfTwoParts(
        Array.from({ length: 2500 }, (_, i) => i),
        1024,
      ).map((p) => p.length),
      [1024, 1024, 256, 128, 64, 4],
    );
  });

  test('an exact power of two is one part; no rows are no parts', () => {
    assert.deepEqual(
      powerOfTwoParts([1, 2, 3, 4], 1024).map((p) => p.length),
      [4],
    );
    assert.deepEqual(powerOfTwoParts([], 1024), []);
  });

  test('any number of rows takes at most a dozen distinct lengths', () => {
    const lengths = new Set<number>();
    for (let n = 1; n <= 3000; n++)
      for (const part of powerOfTwoParts(new Array(n).fill(0), 1024)) lengths.add(part.length);
    assert.deepEqual(
      [...lengths].sort((a, b) => a - b),
      [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
    );
  });
});
