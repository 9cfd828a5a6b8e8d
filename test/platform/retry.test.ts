// One backoff and one Retry-After reader for every retrying caller.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { backoffMs, retryAfterMs } from '../../src/platform/retry.ts';

describe('backoffMs', () => {
  const policy = { baseMs: 1000, capMs: 60_000 };

  test('doubles from the base per failure and stops at the cap', () => {
    const top = () => 1;
    assert.deepEqual(
      [1, 2, 3, 4, 7, 8, 100].map((n) => backoffMs(n, policy, top)),
      [1000, 2000, 4000, 8000, 60_000, 60_000, 60_000],
    );
  });

  test('jitter scales the delay within [low, high]; the default is [0.5, 1]', () => {
    assert.equal(
      backoffMs(3, policy, () => 0),
      2000,
    );
    assert.equal(
      backoffMs(3, policy, () => 0.5),
      3000,
    );
    assert.equal(
      backoffMs(3, { ...policy, jitter: [0.75, 1.25] }, () => 0),
      3000,
    );
    assert.equal(
      backoffMs(3, { ...policy, jitter: [0.75, 1.25] }, () => 1),
      5000,
    );
  });

  test('odd attempts and random values stay in range', () => {
    assert.equal(
      backoffMs(0, policy, () => 1),
      1000,
    );
    assert.equal(
      backoffMs(Number.NaN, policy, () => 1),
      1000,
    );
    assert.equal(
      backoffMs(2, policy, () => 7),
      2000,
      'random above 1 is clamped',
    );
    assert.equal(
      backoffMs(2, policy, () => -1),
      1000,
      'random below 0 is clamped',
    );
    assert.ok(Number.isFinite(backoffMs(5000, { baseMs: 1, capMs: Number.MAX_SAFE_INTEGER }, () => 1)));
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');

  test('delta seconds, the first of repeated headers', () => {
    assert.equal(retryAfterMs('120', now), 120_000);
    assert.equal(retryAfterMs(' 1.5 ', now), 1500);
    assert.equal(retryAfterMs(['3', '9'], now), 3000);
  });

  test('an HTTP date, never negative', () => {
    assert.equal(retryAfterMs('Sat, 21 Nov 2026 10:01:00 GMT', now), 60_000);
    assert.equal(retryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now), 0);
  });

  test('absent or unreadable → undefined', () => {
    for (const value of [undefined, null, '', '  ', 'soon', '-5', '+5', '0x10', '1e3', []]) {
      assert.equal(retryAfterMs(value as string | undefined, now), undefined, JSON.stringify(value));
    }
  });
});
