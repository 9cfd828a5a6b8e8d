// Velocity over 1 h, 6 h and 24 h windows (metrics version 13), on evidence series written out by hand: each
// number is one post from its own account unless a test says otherwise. docs/metrics.md works the numbers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  computeTrendMetrics,
  HOUR_MS,
  hourIndex,
  type TrendMetricsInput,
  velocityScore,
  velocityWindows,
} from '../../../src/modules/trends/metrics.ts';

const repeat = (n: number, v: number): number[] => Array.from({ length: n }, () => v);
const quietDay = repeat(24, 0);
const END_HOUR = hourIndex(Date.parse('2026-11-21T12:00:00Z'));
const NOW = (END_HOUR + 1) * HOUR_MS;

/** Each window's score, by name. */
function scores(evidence: number[], lastHour: number): Record<string, number> {
  return Object.fromEntries(velocityWindows(evidence, lastHour).windows.map((w) => [w.window, w.score]));
}

/** Minute counts for the last hour holding `total`, all in its last minute. */
const lastMinutes = (total: number): number[] => [...repeat(59, 0), total];

/** Metrics of a trend whose mentions are its evidence, known for as long as its series. */
function metrics(evidence: number[], lastHour: number, extra: Partial<TrendMetricsInput> = {}) {
  return computeTrendMetrics({
    hourly: evidence,
    endHour: END_HOUR,
    minuteCounts: lastMinutes(lastHour),
    periodHours: 24,
    now: NOW,
    firstSeenAt: NOW - evidence.length * HOUR_MS,
    sentiment: { sum: 0, count: 0, positive: 0, negative: 0 },
    platforms: {},
    ...extra,
  });
}

describe('velocity windows', () => {
  test('5 posts within 2 hours after a quiet day are a burst, whatever the last 60 minutes hold', () => {
    // 1h: 3 in the last 60 minutes → 23.34, 2 → 13.71, 0 or 1 → 0 (below the minimum evidence).
    // 6h: all 5 against nothing before (λ = the 6h floor 2): z = 2(√5.375 − √2.375) = 1.5546…, per hour of
    // window / √6 = 0.6346… → 100(1 − e^(−0.1269…)) = 11.92. 24h: 5 vs its floor 3, z = 0.9626… / √24 → 3.85.
    const cases: [string, number[], number, number, string][] = [
      ['2 then 3, 3 in the last 60 minutes', [...quietDay, 2, 3], 3, 23.34, '1h'],
      ['2 then 3, 2 in the last 60 minutes', [...quietDay, 2, 3], 2, 13.71, '1h'],
      ['3 then 2, 2 in the last 60 minutes', [...quietDay, 3, 2], 2, 13.71, '1h'],
      ['an hour after the 5th post, none in the last 60 minutes', [...quietDay, 2, 3, 0], 0, 11.92, '6h'],
      ['an hour after the 5th post, 1 in the last 60 minutes', [...quietDay, 2, 3, 0], 1, 11.92, '6h'],
      ['1, 3, 1 over three clock hours, 1 in the last 60 minutes', [...quietDay, 1, 3, 1], 1, 11.92, '6h'],
    ];
    for (const [name, evidence, last, score, window] of cases) {
      const v = velocityWindows(evidence, last);
      assert.equal(v.score, score, name);
      assert.equal(v.window, window, name);
      assert.equal(metrics(evidence, last).velocity_score, score, name);
    }
    assert.deepEqual(scores([...quietDay, 2, 3], 3), { '1h': 23.34, '6h': 11.92, '24h': 3.85 });
    assert.deepEqual(scores([...quietDay, 2, 3, 0], 0), { '1h': 0, '6h': 11.92, '24h': 3.85 });
  });

  test('a steady phrase scores 0 on every window', () => {
    for (const perHour of [1, 3, 40]) {
      const evidence = repeat(10 * 24, perHour);
      assert.deepEqual(scores(evidence, perHour), { '1h': 0, '6h': 0, '24h': 0 }, `${perHour} an hour`);
      assert.equal(velocityWindows(evidence, perHour).window, '1h');
    }
  });

  test('a daily rhythm is expected on every window, as the 1h window expects it', () => {
    // 6 posts at 09:00 every day for a week, none otherwise; day 8 up to hour h.
    const day = (upTo: number) => [
      ...Array.from({ length: 7 }, () => Array.from({ length: 24 }, (_, h) => (h === 9 ? 6 : 0))).flat(),
      ...Array.from({ length: upTo + 1 }, (_, h) => (h === 9 ? 6 : 0)),
    ];
    // At 09:00 each window's own baseline holds the same 6: 1h and 6h by the daily median, 24h by its recent days
    assert.deepEqual(scores(day(9), 6), { '1h': 0, '6h': 0, '24h': 0 });
    // Later in the day the 6h window still holds the 09:00 posts, as its same 6 hours of past days did
    assert.deepEqual(scores(day(14), 0), { '1h': 0, '6h': 0, '24h': 0 });
    // The same 6 posts at 15:00, an hour that is always quiet, are a surprise
    const offHour = [...day(14), 6];
    assert.ok(velocityWindows(offHour, 6).score > 0);
  });

  test('2 posts spread over 24 hours are no burst', () => {
    // 24h: 2 < its minimum evidence 4; 6h: one post at most
    assert.deepEqual(scores([...quietDay, 1, ...repeat(10, 0), 1, ...repeat(12, 0)], 0), {
      '1h': 0,
      '6h': 0,
      '24h': 0,
    });
    // 5 hours apart: the 6h window holds both, below its minimum 3
    assert.deepEqual(scores([...quietDay, 1, 0, 0, 0, 0, 1], 1), { '1h': 0, '6h': 0, '24h': 0 });
  });

  test('floods from one account stay damped on every window', () => {
    // 150 mentions in an hour from one account are 1 of evidence
    const flood = metrics([...quietDay, 150], 150, {
      evidence: [...quietDay, 1],
      evidenceMinutes: lastMinutes(1),
    });
    assert.equal(flood.velocity_1h, 150);
    assert.equal(flood.velocity_score, 0);
    assert.equal(flood.lifecycle_stage, 'stable');
    // One account posting every hour for 12 hours is 1 of evidence an hour: no hour reaches 2, so neither
    // longer window scores (12 accounts posting one an hour read the same: evidence cannot tell them apart)
    assert.deepEqual(scores([...quietDay, ...repeat(12, 1)], 1), { '1h': 0, '6h': 0, '24h': 0 });
  });

  test('velocity_window names the window that gave the score', () => {
    // 1h: 100 against 10 an hour (93.41); the 6h and 24h windows see it diluted
    const surge = velocityWindows([...repeat(48, 10), 100], 100);
    assert.equal(surge.score, 93.41);
    assert.equal(surge.window, '1h');
    // 6h: the 5 posts above
    assert.equal(velocityWindows([...quietDay, 2, 3, 0], 0).window, '6h');
    // 24h: after two quiet days, 13 posts over a day, 2 in its first hour then one every other hour: 13 vs the
    // 24h floor 3, z = 2(√13.375 − √3.375) = 3.6401… / √24 = 0.7430… → 13.81; no 6 hours of it hold more than 3
    const slowDay = [2, ...Array.from({ length: 23 }, (_, i) => (i % 2 === 1 ? 1 : 0))];
    const slow = velocityWindows([...quietDay, ...quietDay, ...slowDay], 0);
    assert.deepEqual(scores([...quietDay, ...quietDay, ...slowDay], 0), { '1h': 0, '6h': 0, '24h': 13.81 });
    assert.equal(slow.window, '24h');
    assert.equal(metrics([...quietDay, ...quietDay, ...slowDay], 0).velocity_window, '24h');
    // every window at 0: the shortest
    assert.equal(velocityWindows(repeat(48, 0), 0).window, '1h');
    assert.equal(metrics(repeat(48, 0), 0).velocity_window, '1h');
  });

  test('a busy trend 10 % above its usual day is no 24h burst (counts are read at most at λ = 6)', () => {
    // 2,640 vs 2,400: z = 2(√(2640 × 6 / 2400 + 0.375) − √6.375) = 0.2323… / √24 → 0.94 (read as Poisson, and
    // not per hour of window, 61.57)
    const evidence = [...repeat(8 * 24, 100), ...repeat(24, 110)];
    assert.equal(scores(evidence, 110)['24h'], 0.94);
    assert.ok(velocityWindows(evidence, 110).score < 10);
  });

  test('lifecycle reads the strongest window', () => {
    // The 5 posts with 3 in the last 60 minutes: 23.34 ≥ 20 and the six-hour shape is up → rising
    const now = metrics([...quietDay, 2, 3], 3);
    assert.equal(now.velocity_score, 23.34);
    assert.equal(now.lifecycle_stage, 'rising');
    // An hour later, nothing in the last 60 minutes: the 6h window still holds the 5 posts, but rising needs 2
    // of evidence now, and the hour before (2) is below 0.8 × its busiest (3), so not peaking either
    const later = metrics([...quietDay, 3, 2, 0], 0);
    assert.equal(later.velocity_score, 11.92);
    assert.equal(later.lifecycle_stage, 'stable');
  });

  test('the 1h window is unchanged; the score is the strongest window, within [0, 100]', () => {
    const counts = fc.array(fc.nat({ max: 300 }), { maxLength: 800 });
    fc.assert(
      fc.property(counts, fc.nat({ max: 400 }), (evidence, last) => {
        const v = velocityWindows(evidence, last);
        const oneHour = velocityScore(evidence, last);
        assert.equal(v.windows[0]!.score, oneHour);
        assert.equal(v.score, Math.max(...v.windows.map((w) => w.score)));
        assert.equal(v.window, v.windows.find((w) => w.score === v.score)!.window);
        assert.ok(v.score >= 0 && v.score <= 100);
      }),
      { numRuns: 300 },
    );
  });
});
