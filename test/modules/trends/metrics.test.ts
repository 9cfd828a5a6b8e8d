import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  absoluteChange,
  anscombeZ,
  averageVelocity,
  baselineAt,
  computeTrendMetrics,
  ewma,
  formatSentiment,
  growth,
  HOUR_MS,
  hourIndex,
  hourOfWeek,
  lifecycleStage,
  METRICS_VERSION,
  overallTrend,
  platformShare,
  previousVolume,
  round,
  sentimentCategory,
  sentimentMean,
  sixHourShape,
  squash,
  type TrendMetricsInput,
  trendStability,
  velocity1h,
  velocityBaseline,
  velocityScore,
  volume,
} from '../../../src/modules/trends/metrics.ts';

const repeat = (n: number, v: number): number[] => Array.from({ length: n }, () => v);
const noSentiment = { sum: 0, count: 0, positive: 0, negative: 0 };
const END_HOUR = hourIndex(Date.parse('2026-11-21T10:00:00Z'));
const NOW = (END_HOUR + 1) * HOUR_MS;

/** Minute counts for the last hour that add up to `total` (spread as evenly as integers allow). */
function minutes(total: number): number[] {
  return Array.from(
    { length: 60 },
    (_, i) => Math.floor((total * (i + 1)) / 60) - Math.floor((total * i) / 60),
  );
}

function input(hourly: number[], extra: Partial<TrendMetricsInput> = {}): TrendMetricsInput {
  return {
    hourly,
    endHour: END_HOUR,
    minuteCounts: minutes(hourly[hourly.length - 1] ?? 0),
    periodHours: 24,
    now: NOW,
    firstSeenAt: NOW - hourly.length * HOUR_MS,
    sentiment: noSentiment,
    platforms: {},
    ...extra,
  };
}

/** Σ of shares in 1/10 000 units: the exact form of "sums to 1". */
const shareUnits = (shares: Record<string, number>): number =>
  Object.values(shares).reduce((s, v) => s + Math.round(v * 10_000), 0);

describe('helpers', () => {
  test('round is half away from zero and never -0', () => {
    assert.equal(round(1.005, 2), 1.01); // 1.005 × 100 = 100.49999… in binary, read as 100.5
    assert.equal(round(0.125, 2), 0.13);
    assert.equal(round(-0.125, 2), -0.13);
    assert.ok(Object.is(round(-0.001, 2), 0));
  });

  test('hour indexes and hour of week', () => {
    assert.equal(hourIndex(3 * HOUR_MS + 59 * 60_000), 3);
    assert.equal(hourOfWeek(hourIndex(Date.parse('2026-11-23T00:30:00Z'))), 0); // a Monday
    assert.equal(hourOfWeek(hourIndex(Date.parse('2026-11-29T23:00:00Z'))), 167); // the Sunday after
    assert.equal(hourOfWeek(0), 72); // 1970-01-01 was a Thursday
  });

  test('ewma is seeded with the first value', () => {
    // 10 → 0.5·20 + 0.5·10 = 15 → 0.5·30 + 0.5·15 = 22.5
    assert.equal(ewma([10, 20, 30], 0.5), 22.5);
    assert.equal(ewma([], 0.5), null);
  });

  test('a period must be a positive whole number of hours', () => {
    assert.throws(() => volume([1, 2], 0), RangeError);
    assert.throws(() => averageVelocity(1, 1.5), RangeError);
  });
});

describe('volume and change', () => {
  test('the must-hold scenario: 10/h for 48 h, then 100 in the last hour', () => {
    const hourly = [...repeat(48, 10), 100];
    const m = computeTrendMetrics(input(hourly, { firstSeenAt: NOW - 49 * HOUR_MS }));
    // volume = 23 × 10 + 100 = 330; previous = 24 × 10 = 240
    assert.equal(m.volume, 330);
    assert.equal(m.previous_volume, 240);
    // absolute_change = 330 − 240 = 90; growth = 90 / 240 × 100 = 37.5
    assert.equal(m.absolute_change, 90);
    assert.equal(m.growth, 37.5);
    // average_velocity = 330 / 24 = 13.75
    assert.equal(m.average_velocity, 13.75);
    // mean 13.75; variance = (23 × 3.75² + 86.25²) / 24 = 3.75² × 23 = 323.4375; σ = 3.75 × √23 = 17.984…
    assert.equal(m.trend_stability, 17.98);
    assert.equal(m.overall_trend, 'growing'); // 37.5 ≥ 10
    assert.equal(m.velocity_1h, 100);
    // λ = recent EWMA of 24 × 10 = 10 (no week of history yet); z = 2(√100.375 − √10.375) = 13.5954…
    // score = 100 × (1 − e^(−13.5954 / 5)) = 93.406… → 93.41
    assert.equal(m.velocity_score, 93.41);
    // 49 h old, so not emerging; growth 37.5 > 25 and score ≥ 40 → rising
    assert.equal(m.lifecycle_stage, 'rising');
  });

  test('the same surge on a trend first seen 20 h ago is emerging', () => {
    const m = computeTrendMetrics(input([...repeat(48, 10), 100], { firstSeenAt: NOW - 20 * HOUR_MS }));
    assert.equal(m.lifecycle_stage, 'emerging'); // age 20 < 24 and score 93.41 ≥ 50
  });

  test('a flat series (10/h for 7 days) is stable with a low velocity score', () => {
    const m = computeTrendMetrics(input(repeat(168, 10)));
    assert.equal(m.volume, 240);
    assert.equal(m.previous_volume, 240);
    assert.equal(m.absolute_change, 0);
    assert.equal(m.growth, 0);
    assert.equal(m.average_velocity, 10);
    assert.equal(m.trend_stability, 0);
    assert.equal(m.overall_trend, 'stable');
    assert.equal(m.velocity_score, 0); // x = λ = 10 → z = 0
    assert.ok(m.velocity_score < 20);
    assert.equal(m.lifecycle_stage, 'stable');
  });

  test('a flat series with a one-sigma last hour still scores below 20', () => {
    // λ = 10 (recent and, with 15 days, seasonal: 0.5·10 + 0.5·10); x = 13
    // z = 2(√13.375 − √10.375) = 0.8723…; score = 100(1 − e^(−0.17446)) = 16.009… → 16.01
    const hourly = [...repeat(360, 10), 13];
    assert.equal(velocityBaseline(hourly).weeks, 2);
    assert.equal(velocityScore(hourly, 13), 16.01);
    assert.equal(computeTrendMetrics(input(hourly)).lifecycle_stage, 'stable');
  });

  test('a fading series is declining', () => {
    // previous = 24 × 20 = 480; volume = 24 × 8 = 192; growth = −288 / 480 × 100 = −60
    const m = computeTrendMetrics(input([...repeat(24, 20), ...repeat(24, 8)]));
    assert.equal(m.growth, -60);
    assert.equal(m.absolute_change, -288);
    assert.equal(m.overall_trend, 'declining');
    assert.equal(m.lifecycle_stage, 'declining');
  });

  test('a mild fall with the last six hours dropping is declining; without the drop it is stable', () => {
    // volume = 18 × 10 + 6 + 6 + 6 + 2 + 2 + 2 = 204; previous 240; growth = −36 / 240 × 100 = −15
    // late = 2 + 2 + 2 = 6 ≤ 0.75 × early (6 + 6 + 6 = 18 → 13.5) → shape down
    const dropping = [...repeat(24, 10), ...repeat(18, 10), 6, 6, 6, 2, 2, 2];
    const m = computeTrendMetrics(input(dropping));
    assert.equal(m.growth, -15);
    assert.equal(sixHourShape(dropping, 2), 'down');
    assert.equal(m.lifecycle_stage, 'declining');
    // volume = 18 × 10 + 6 × 8 = 228; growth = −12 / 240 × 100 = −5 → stable overall, shape flat
    const level = [...repeat(24, 10), ...repeat(18, 10), ...repeat(6, 8)];
    assert.equal(computeTrendMetrics(input(level)).growth, -5);
    assert.equal(computeTrendMetrics(input(level)).lifecycle_stage, 'stable');
  });

  test('a trend at its high that stopped climbing is peaking', () => {
    // previous = 24 × 10 = 240; volume = 12 × 10 + 11 × 30 + 25 = 475; growth = 235 / 240 × 100 = 97.916… → 97.92
    const hourly = [...repeat(36, 10), ...repeat(11, 30), 25];
    const m = computeTrendMetrics(input(hourly));
    assert.equal(m.growth, 97.92);
    // 1h: recent EWMA: 13 tens → 10, then 11 steps toward 30: λ = 30 − 20 × 0.8¹¹ = 28.282…; x = 25 < λ → 0.
    // The longer windows still see the step up (version 13), per hour of window: 6h, 175 vs λ 96 read at the
    // cap of 6: z = 2(√(175 × 6 / 96 + 0.375) − √6.375) = 1.676… / √6 = 0.684… → 12.8 (24h: 475 vs 240,
    // z = 1.9502… / √24 = 0.398… → 7.65)
    assert.equal(m.velocity_score, 12.8);
    assert.equal(m.velocity_window, '6h');
    // not rising: score 12.8 < 40 and late 25 + 30 + 30 = 85 < 1.25 × early 90
    // peaking: growing, peak = 30, h1 = 30 ≥ 0.8 × 30, x = 25 ≤ 30
    assert.equal(m.lifecycle_stage, 'peaking');
  });

  test('growth is null when the previous period is empty', () => {
    assert.equal(growth(5, 0), null);
    assert.equal(growth(0, 0), null);
    assert.equal(overallTrend(null, 5), 'growing');
    assert.equal(overallTrend(null, 0), 'stable');
    // 24 h of data only: previous = 0
    const m = computeTrendMetrics(input(repeat(24, 5)));
    assert.equal(m.previous_volume, 0);
    assert.equal(m.growth, null);
    assert.equal(m.absolute_change, 120);
  });

  test('overall_trend thresholds are inclusive at ±10 %', () => {
    assert.equal(overallTrend(10, 1), 'growing');
    assert.equal(overallTrend(9.99, 1), 'stable');
    assert.equal(overallTrend(-10, 1), 'declining');
    assert.equal(overallTrend(-9.99, 1), 'stable');
  });

  test('windows shorter than the history count missing hours as zero', () => {
    // hourly [1, 2, 3], P = 2: volume = 2 + 3 = 5; previous = 0 + 1 = 1; growth = 400
    assert.equal(volume([1, 2, 3], 2), 5);
    assert.equal(previousVolume([1, 2, 3], 2), 1);
    assert.equal(absoluteChange(5, 1), 4);
    assert.equal(growth(5, 1), 400);
    // growth rounds to 2 decimals: 1 / 3 × 100 = 33.333…
    assert.equal(growth(4, 3), 33.33);
    assert.equal(averageVelocity(10, 3), 3.33);
    // [2, 4, 4, 4, 5, 5, 7, 9]: mean 5, squared deviations 9+1+1+1+0+0+4+16 = 32, σ = √(32 / 8) = 2
    assert.equal(trendStability([2, 4, 4, 4, 5, 5, 7, 9], 8), 2);
  });

  test('a series shorter than its period reads the hours before its start as zeros', () => {
    // A new trend's series is only as long as its history (service.ts): every window figure must equal that of
    // the same series padded with zeros to the full span.
    fc.assert(
      fc.property(
        fc.array(fc.nat(50), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(1, 24, 168, 720),
        fc.nat(60),
        fc.nat(100),
        (short, period, lastHour, score) => {
          const padded = [...new Array<number>(2 * period + 7).fill(0), ...short];
          assert.equal(volume(short, period), volume(padded, period));
          assert.equal(previousVolume(short, period), previousVolume(padded, period));
          assert.equal(trendStability(short, period), trendStability(padded, period));
          const signals = { periodHours: period, lastHour, velocityScore: score, ageHours: 30 };
          assert.equal(
            lifecycleStage({ ...signals, hourly: short }),
            lifecycleStage({ ...signals, hourly: padded }),
          );
        },
      ),
    );
  });
});

describe('velocity', () => {
  test('velocity_1h sums the last 60 minutes', () => {
    assert.equal(velocity1h(minutes(100)), 100);
    assert.equal(velocity1h([...repeat(30, 5), ...repeat(60, 1)]), 60); // only the last 60 count
    assert.equal(velocity1h([]), 0);
  });

  test('the baseline is the largest of the same hour of past weeks, of past days and of recent hours', () => {
    // n = 337: the current hour is index 336; same hour 1 and 2 weeks back: 168 and 0
    const hourly = repeat(337, 10);
    hourly[0] = 40;
    hourly[168] = 60;
    const b = velocityBaseline(hourly);
    // seasonal EWMA oldest first: 40 → 0.5·60 + 0.5·40 = 50; recent = 24 × 10 → 10;
    // daily = median of the same hour 1…7 days back (312, 288, …, 168) = median(10 × 6, 60) = 10
    assert.equal(b.seasonal, 50);
    assert.equal(b.recent, 10);
    assert.equal(b.daily, 10);
    assert.equal(b.weeks, 2);
    assert.equal(b.lambda, 50); // max(50, 10, 10)
    // x = 100: z = 2(√100.375 − √50.375) = 5.8423…; score = 100(1 − e^(−1.16846)) = 68.92
    assert.equal(velocityScore(hourly, 100), 68.92);
  });

  test('the recent baseline is an EWMA of complete hours before the cutoff, floored at 1', () => {
    // [0, 10, 20] before hour 3: 0 → 0.2·10 = 2 → 0.2·20 + 0.8·2 = 5.6
    assert.ok(Math.abs(baselineAt([0, 10, 20, 99], 3, 3).lambda - 5.6) < 1e-12);
    // cutoff 1: only [0] → 0, floored to 1
    assert.equal(baselineAt([0, 10, 20, 99], 3, 1).lambda, 1);
    assert.equal(velocityBaseline([0, 0, 0, 7]).lambda, 1);
    assert.deepEqual(velocityBaseline([]), {
      lambda: 1,
      seasonal: null,
      recent: null,
      daily: null,
      weeks: 0,
      runStart: -1,
    });
  });

  test('a daily peak at the same hour is expected, not a surge (median of the same hour in past days)', () => {
    // 14 days of 40 at 09:00 and 4 in every other hour, then day 15 up to 09:00 with 40 again
    const hourly: number[] = [];
    for (let day = 0; day < 15; day++)
      for (let h = 0; h < 24 && (day < 14 || h <= 9); h++) hourly.push(h === 9 ? 40 : 4);
    const b = velocityBaseline(hourly, 40);
    assert.equal(b.daily, 40);
    assert.equal(b.lambda, 40);
    assert.equal(velocityScore(hourly, 40), 0);
    // the same 40 at 10:00, where the day's rhythm says 4, is a surge
    const shifted = [...hourly.slice(0, -1), 4, 40];
    assert.ok(velocityScore(shifted, 40) >= 50, String(velocityScore(shifted, 40)));
  });

  test('a new story keeps its surprise while it keeps its pace: its own first hours are not its baseline', () => {
    // first hour 12 mentions, the last 60 minutes 12 again: the run started in the first hour, so λ is the
    // floor 1 (nothing before the run): z = 2(√12.375 − √1.375) = 4.6901…; score = 60.86
    assert.equal(velocityBaseline([12, 12], 12).runStart, 0);
    assert.equal(velocityScore([12, 12], 12), 60.86);
    assert.equal(velocityScore([12, 12], 12), velocityScore([12], 12));
    // an established trend at 2 an hour, then 30, 30 and 30 now: λ stays 2 (the run is excluded)
    const quiet = repeat(30, 2);
    assert.equal(velocityBaseline([...quiet, 30, 30, 30], 30).lambda, 2);
    // pace lost: 100, 100, then 30 in the last hour (< half of 100): the run no longer counts, λ = recent EWMA
    const fading = velocityBaseline([...quiet, 100, 100, 30], 30);
    assert.equal(fading.runStart, 32);
    assert.ok(fading.lambda > 30);
    assert.equal(velocityScore([...quiet, 100, 100, 30], 30), 0);
  });

  test('a run is looked for in the last 6 complete hours only: a level held longer becomes the baseline', () => {
    // 10 an hour, then 30 for 11 hours: the scan (6 hours back) starts inside the run, where the recent EWMA
    // has caught up (30 − 20 × 0.8⁵ = 23.4, z(30) < 2): no run, λ = 28.28…
    const hourly = [...repeat(36, 10), ...repeat(11, 30), 25];
    assert.equal(velocityBaseline(hourly, 25).runStart, hourly.length - 1);
    assert.ok(Math.abs(velocityBaseline(hourly, 25).lambda - (30 - 20 * 0.8 ** 11)) < 1e-9);
  });

  test('velocity and rising read evidence: one account repeating itself is neither surging nor rising', () => {
    // 150 mentions in the last hour, 1 of them evidence (the rest repeat its account or text)
    const spam = computeTrendMetrics(
      input([...repeat(24, 0), 150], { evidence: [...repeat(24, 0), 1], firstSeenAt: null }),
    );
    assert.equal(spam.velocity_1h, 150);
    assert.equal(spam.velocity_score, 0);
    assert.equal(spam.lifecycle_stage, 'stable');
    // the same 150 mentions from 30 independent posts: z = 2(√30.375 − √1.375) = 8.6770…; score = 82.37
    const real = computeTrendMetrics(
      input([...repeat(24, 0), 150], { evidence: [...repeat(24, 0), 30], firstSeenAt: null }),
    );
    assert.equal(real.velocity_score, 82.37);
    assert.equal(real.lifecycle_stage, 'rising');
  });

  test('one post is no trend: below 2 of evidence in the last hour the score is 0', () => {
    assert.equal(velocityScore([], 1), 0);
    assert.equal(velocityScore(repeat(24, 0), 1), 0);
    assert.ok(velocityScore(repeat(24, 0), 2) > 0);
  });

  test('the Anscombe z and the squashing', () => {
    assert.equal(anscombeZ(10, 10), 0);
    assert.equal(squash(0), 0);
    assert.equal(squash(-3), 0);
    assert.equal(squash(5 * Math.log(2)), 50); // 100 × (1 − ½)
    assert.equal(squash(1), 18.13); // 100 × (1 − e^(−0.2)) = 18.126…
  });

  test('tiny counts stay calm', () => {
    // λ = max(1, 0.1) = 1: one mention is exactly what is expected → 0
    assert.equal(velocityScore(repeat(24, 0.1), 1), 0);
    // 3 on a silent phrase: z = 2(√3.375 − √1.375) = 1.3290…; score = 100(1 − e^(−0.26581)) = 23.34
    assert.equal(velocityScore(repeat(24, 0), 3), 23.34);
  });

  test('a 10× surge at moderate counts scores at least 70', () => {
    // 5 → 50: z = 2(√50.375 − √5.375) = 9.558…; score = 85.22
    assert.equal(velocityScore([...repeat(48, 5), 50], 50), 85.22);
    assert.ok(velocityScore([...repeat(48, 10), 100], 100) >= 70);
  });

  test('an emerging phrase: young and surging', () => {
    // 1h: λ = recent EWMA of [2, 2, 2, 2, 2] = 2; z = 2(√30.375 − √2.375) = 7.9405…; score = 79.57.
    // 6h (version 13): the phrase's whole life, 40, against nothing before it (λ = the 6h floor 2):
    // z = 2(√40.375 − √2.375) = 9.6260… per hour of window / √6 = 3.9298… → 54.41: the 1h window is stronger
    const hourly = [2, 2, 2, 2, 2, 30];
    const m = computeTrendMetrics(input(hourly, { firstSeenAt: NOW - 6 * HOUR_MS }));
    assert.equal(velocityScore(hourly, 30), 79.57);
    assert.equal(m.velocity_score, 79.57);
    assert.equal(m.velocity_window, '1h');
    assert.equal(m.growth, null);
    assert.equal(m.lifecycle_stage, 'emerging');
    // the same shape with an unknown first-seen time is rising (growth null, volume 40 > 0, score ≥ 40)
    assert.equal(computeTrendMetrics(input(hourly, { firstSeenAt: null })).lifecycle_stage, 'rising');
  });

  test('lifecycle rules can be checked one by one', () => {
    const base = {
      hourly: [...repeat(24, 10), ...repeat(24, 13)],
      periodHours: 24,
      lastHour: 13,
      ageHours: 100,
    };
    // growth = (312 − 240) / 240 × 100 = 30 > 25
    assert.equal(lifecycleStage({ ...base, velocityScore: 40 }), 'rising');
    // score 39 and shape flat (39 vs 39): h1 = 13 = peak, x = 13 ≤ h1 → peaking
    assert.equal(lifecycleStage({ ...base, velocityScore: 39 }), 'peaking');
    assert.equal(lifecycleStage({ ...base, velocityScore: 90, ageHours: 23.9 }), 'emerging');
  });

  test('minute counts omitted: the last hourly bucket stands in for velocity_1h', () => {
    const m = computeTrendMetrics({ ...input([...repeat(48, 10), 100]), minuteCounts: undefined });
    assert.equal(m.velocity_1h, 100);
    assert.equal(m.velocity_score, 93.41);
  });
});

describe('sentiment', () => {
  test('mean and its string form', () => {
    assert.equal(sentimentMean(-4.2, 10), -0.42);
    assert.equal(sentimentMean(1, 3), 0.333);
    assert.equal(sentimentMean(0, 0), null);
    assert.equal(formatSentiment(-0.42), '-0.42');
    assert.equal(formatSentiment(0.125), '0.13');
    assert.equal(formatSentiment(-0.001), '0.00');
    assert.equal(formatSentiment(null), null);
    // computeTrendMetrics formats the unrounded mean: −4.249 / 10 = −0.4249 → "-0.42"
    const m = computeTrendMetrics(
      input(repeat(48, 10), { sentiment: { sum: -4.249, count: 10, positive: 1, negative: 6 } }),
    );
    assert.equal(m.sentiment, '-0.42');
    assert.equal(m.sentiment_category, 'negative');
  });

  test('categories', () => {
    // mean 0.3
    assert.equal(sentimentCategory({ sum: 3, count: 10, positive: 5, negative: 1 }), 'positive');
    // mean exactly 0.05 is positive; −0.05 negative
    assert.equal(sentimentCategory({ sum: 0.5, count: 10, positive: 2, negative: 0 }), 'positive');
    assert.equal(sentimentCategory({ sum: -0.5, count: 10, positive: 0, negative: 2 }), 'negative');
    // mean 0.02
    assert.equal(sentimentCategory({ sum: 0.2, count: 10, positive: 2, negative: 1 }), 'neutral');
    assert.equal(sentimentCategory({ sum: 0, count: 0, positive: 0, negative: 0 }), 'neutral');
  });

  test('mixed when both sides hold at least 30 %, whichever way the mean leans', () => {
    // 50 % positive, 30 % negative, mean 0.06 → mixed (checked before positive)
    assert.equal(sentimentCategory({ sum: 0.6, count: 10, positive: 5, negative: 3 }), 'mixed');
    // exactly 3 of 10 on each side: 3 × 100 ≥ 30 × 10 (0.3 × 10 would be 3.0000000000000004)
    assert.equal(sentimentCategory({ sum: 0, count: 10, positive: 3, negative: 3 }), 'mixed');
    // 20 % negative is not enough: mean 0.06 → positive
    assert.equal(sentimentCategory({ sum: 0.6, count: 10, positive: 5, negative: 2 }), 'positive');
  });

  test('a clear majority decides whatever the mean: ≥ 55 % of the mentions and more than 1.5 × the other side', () => {
    // Issue 17: 5 of 7 complaints negative (71 %), 2 positive on "support", mean near zero → negative.
    assert.equal(sentimentCategory({ sum: 0.01, count: 7, positive: 2, negative: 5 }), 'negative');
    // Exactly 55 %: 11 × 100 ≥ 55 × 20; 11 > 1.5 × 7 = 10.5 → negative, although both sides hold ≥ 30 %.
    assert.equal(sentimentCategory({ sum: 0.5, count: 20, positive: 7, negative: 11 }), 'negative');
    // 11 of 20 against 8: 11 is not more than 1.5 × 8 = 12 → not a clear majority; both ≥ 30 % → mixed.
    assert.equal(sentimentCategory({ sum: -2, count: 20, positive: 8, negative: 11 }), 'mixed');
    // 54 % is not a majority: falls through to the mean (negative, with more negative than positive).
    assert.equal(sentimentCategory({ sum: -10, count: 100, positive: 20, negative: 54 }), 'negative');
    // Positive is symmetric: 6 of 10 positive, 3 negative (6 > 4.5) → positive, not mixed.
    assert.equal(sentimentCategory({ sum: -0.3, count: 10, positive: 6, negative: 3 }), 'positive');
  });

  test('the mean decides only for the side with at least as many mentions', () => {
    // Mean −0.1 from two very negative mentions, but four positive ones → not negative: neutral.
    assert.equal(sentimentCategory({ sum: -1, count: 10, positive: 4, negative: 2 }), 'neutral');
    assert.equal(sentimentCategory({ sum: 1, count: 10, positive: 2, negative: 4 }), 'neutral');
    // Ties keep the mean's side.
    assert.equal(sentimentCategory({ sum: -1, count: 10, positive: 2, negative: 2 }), 'negative');
  });
});

describe('platforms', () => {
  test('shares are 4 decimals and sum to exactly 1', () => {
    // 1/3 each → 3333 units × 3 = 9999; +1 to the largest (a tie: first by name, news)
    const thirds = platformShare({ x: 1, reddit: 1, news: 1 });
    assert.deepEqual(thirds.shares, { news: 0.3334, reddit: 0.3333, x: 0.3333 });
    assert.equal(shareUnits(thirds.shares), 10_000);
    // 1/6 → 1667, 1/6 → 1667, 4/6 → 6667: 10 001 units, so the largest gives one back
    const sixths = platformShare({ a: 1, b: 1, c: 4 });
    assert.deepEqual(sixths.shares, { a: 0.1667, b: 0.1667, c: 0.6666 });
    assert.equal(shareUnits(sixths.shares), 10_000);
    assert.deepEqual(sixths.counts, { a: 1, b: 1, c: 4 });
  });

  test('no mentions → every share 0; bad counts read as 0', () => {
    assert.deepEqual(platformShare({ x: 0, reddit: 0 }).shares, { reddit: 0, x: 0 });
    assert.deepEqual(platformShare({}).shares, {});
    assert.deepEqual(platformShare({ x: -3, news: Number.NaN, reddit: 2 }), {
      counts: { x: 0, news: 0, reddit: 2 },
      shares: { news: 0, reddit: 1, x: 0 },
    });
    // a platform named "__proto__" is an ordinary key, not a prototype
    const odd = platformShare(JSON.parse('{"__proto__": 3, "x": 1}'));
    assert.deepEqual(Object.keys(odd.shares), ['__proto__', 'x']);
    assert.equal(shareUnits(odd.shares), 10_000);
  });

  test('computeTrendMetrics returns the counts as platforms', () => {
    const m = computeTrendMetrics(input(repeat(24, 1), { platforms: { reddit: 20, x: 4 } }));
    assert.deepEqual(m.platforms, { reddit: 20, x: 4 });
  });
});

describe('properties', () => {
  const counts = fc.array(fc.nat({ max: 100_000 }), { maxLength: 400 });

  test('velocity_score is always within [0, 100]', () => {
    fc.assert(
      fc.property(counts, fc.nat({ max: 10_000_000 }), (hourly, x) => {
        const s = velocityScore(hourly, x);
        return s >= 0 && s <= 100;
      }),
      { numRuns: 300 },
    );
  });

  test('platform shares always sum to 1 (10 000 units) when there is a mention', () => {
    const platforms = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.nat({ max: 1_000_000 }), {
      minKeys: 1,
      maxKeys: 12,
    });
    fc.assert(
      fc.property(platforms, (byPlatform) => {
        const { shares } = platformShare(byPlatform);
        const total = Object.values(byPlatform).reduce((a, b) => a + b, 0);
        const values = Object.values(shares);
        if (total === 0) return values.every((v) => v === 0);
        return shareUnits(shares) === 10_000 && values.every((v) => v >= 0 && v <= 1);
      }),
      { numRuns: 300 },
    );
  });

  test('growth is null exactly when previous is 0, and its sign matches absolute_change', () => {
    fc.assert(
      fc.property(counts, fc.constantFrom(1, 24, 168), (hourly, period) => {
        const current = volume(hourly, period);
        const previous = previousVolume(hourly, period);
        const change = absoluteChange(current, previous);
        const g = growth(current, previous);
        if (previous === 0) return g === null;
        if (g === null) return false;
        // a change under 0.005 % of previous rounds to 0
        return Math.sign(g) === Math.sign(change) || (g === 0 && Math.abs(change / previous) * 100 < 0.005);
      }),
      { numRuns: 300 },
    );
  });

  test('lifecycle stages agree with the numbers they are drawn from', () => {
    const trend = fc.record({
      hourly: fc.array(fc.nat({ max: 500 }), { maxLength: 200 }),
      last: fc.nat({ max: 2_000 }),
      age: fc.option(fc.double({ min: 0, max: 1_000, noNaN: true }), { nil: null }),
      period: fc.constantFrom(1, 24, 168),
    });
    fc.assert(
      fc.property(trend, ({ hourly, last, age, period }) => {
        const m = computeTrendMetrics({
          ...input(hourly),
          minuteCounts: minutes(last),
          periodHours: period,
          firstSeenAt: age === null ? null : NOW - age * HOUR_MS,
        });
        switch (m.lifecycle_stage) {
          case 'emerging':
            return m.velocity_score >= 50 && age !== null && age < 24;
          case 'rising':
            return m.growth === null ? m.volume > 0 : m.growth > 25;
          case 'peaking':
            return m.overall_trend === 'growing';
          case 'declining':
            return m.overall_trend === 'declining';
          default:
            return true;
        }
      }),
      { numRuns: 300 },
    );
  });

  test('METRICS_VERSION is set', () => {
    assert.match(METRICS_VERSION, /^crestwatch-metrics\/\d+$/);
  });
});
