// Pure trend metrics: every number a TrendItem exposes is computed here from hourly buckets, minute counts,
// sentiment sums and platform counts. No I/O and no clock: "now" and hour indexes are arguments.
// docs/metrics.md states every formula and constant below; keep the two in step (and bump METRICS_VERSION
// when a number would change).

export const METRICS_VERSION = 'crestwatch-metrics/13';

export const HOUR_MS = 3_600_000;
const HOURS_PER_WEEK = 168;
const HOURS_PER_DAY = 24;

/** The windows velocity_score is measured over; the strongest gives the score (velocity_window). */
export const VELOCITY_WINDOWS = ['1h', '6h', '24h'] as const;
export type VelocityWindow = (typeof VELOCITY_WINDOWS)[number];

/** Contract periods in hours. */
export const PERIOD_HOURS = { '1h': 1, '24h': 24, '7d': 168, '30d': 720 } as const;
export type PeriodName = keyof typeof PERIOD_HOURS;

/** Every tunable constant, in one place so docs and explanations can quote them. */
export const METRIC_CONSTANTS = Object.freeze({
  /** overall_trend: growth ≥ +10 % growing, ≤ −10 % declining. */
  overallTrendThresholdPct: 10,
  /** Recent baseline: EWMA over the 24 complete hours before the current one. */
  recentWindowHours: 24,
  recentAlpha: 0.2,
  /** Weekly baseline: EWMA over the same hour of the week in up to 4 past weeks, oldest first. */
  seasonalWeeks: 4,
  seasonalAlpha: 0.5,
  /** Daily baseline: median of the same hour of the day in up to 7 past days. */
  dailyDays: 7,
  /** λ never goes below this, so a handful of mentions on a silent phrase is not a surge. */
  lambdaFloor: 1,
  /** Below this much evidence in the last 60 minutes the velocity score is 0 and a trend is not rising. */
  minEvidence: 2,
  /** The current run: complete hours, up to 6 back, each z ≥ 2 above the baseline before the run… */
  runMaxHours: 6,
  runMinZ: 2,
  /** …and at least half the run's busiest hour (the run keeps its pace); the current hour too. */
  runPaceRatio: 0.5,
  /** score = 100 × (1 − e^(−max(z, 0) / k)). */
  squashK: 5,
  /**
   * The longer velocity windows: their evidence (the current hour and the hours before it) against blocks of
   * the same length before them. The 1h window is the constants above.
   */
  longWindows: Object.freeze({
    '6h': Object.freeze({
      hours: 6,
      /** Recent: EWMA over up to 8 preceding blocks (48 h), oldest first. */
      recentBlocks: 8,
      recentAlpha: 0.3,
      /** Daily: median of the same 6 hours in up to 7 past days. */
      dailyDays: 7,
      lambdaFloor: 2,
      minEvidence: 3,
      /** Counts are read at most at this λ (the ratio to the baseline beyond it). */
      countCap: 6,
    }),
    '24h': Object.freeze({
      hours: 24,
      /** Recent: EWMA over up to 7 preceding days. */
      recentBlocks: 7,
      recentAlpha: 0.3,
      /** The same 24 hours on a past day is a preceding block: recent already reads it. */
      dailyDays: 0,
      lambdaFloor: 3,
      minEvidence: 4,
      countCap: 6,
    }),
  }),
  /** Lifecycle thresholds. */
  emergingMaxAgeHours: 24,
  emergingMinScore: 50,
  risingMinGrowthPct: 25,
  risingMinScore: 40,
  /** Rising by the six-hour shape alone needs at least this velocity score (some surprise). */
  risingShapeMinScore: 20,
  peakingNearMaxRatio: 0.8,
  decliningMaxGrowthPct: -25,
  shapeUpRatio: 1.25,
  shapeDownRatio: 0.75,
  /** Sentiment thresholds (VADER's own cut-offs) and the share that makes a side count for "mixed". */
  sentimentPositive: 0.05,
  sentimentNegative: -0.05,
  mixedMinSharePct: 30,
  /** A clear majority: at least 55 % of the mentions on one side and more than 1.5 × the other side. */
  majorityMinSharePct: 55,
  majorityMinRatio: 1.5,
  /** Platform shares are exact in units of 1 / 10 000 (4 decimals). */
  shareUnits: 10_000,
});

const C = METRIC_CONSTANTS;

export type OverallTrend = 'growing' | 'declining' | 'stable';
export type LifecycleStage = 'emerging' | 'rising' | 'peaking' | 'declining' | 'stable';
export type SentimentCategory = 'positive' | 'negative' | 'neutral' | 'mixed';

// ---------------------------------------------------------------------------------------------------------
// Helpers

/**
 * Rounds half away from zero to `decimals` places: round(0.125, 2) = 0.13, round(-0.125, 2) = -0.13.
 * The product is read at 15 significant digits first so 1.005 × 100 (= 100.49999…) rounds as 100.5.
 * Never returns -0.
 */
export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const scaled = Number((Math.abs(value) * factor).toPrecision(15));
  const r = (Math.sign(value) * Math.round(scaled)) / factor;
  return r === 0 ? 0 : r;
}

/** Hour index of an instant: floor(ms / 3 600 000), hours since the Unix epoch (UTC). */
export function hourIndex(ms: number): number {
  return Math.floor(ms / HOUR_MS);
}

/** Hour of the week of an hour index, 0 = Monday 00:00–01:00 UTC (the epoch was a Thursday, +72 h). */
export function hourOfWeek(hour: number): number {
  return (((hour + 72) % HOURS_PER_WEEK) + HOURS_PER_WEEK) % HOURS_PER_WEEK;
}

/** hourly[i], or 0 before the start of the array (no data = no mentions). */
function at(hourly: readonly number[], i: number): number {
  return i >= 0 && i < hourly.length ? hourly[i] : 0;
}

function checkPeriod(periodHours: number): void {
  if (!Number.isInteger(periodHours) || periodHours < 1) {
    throw new RangeError(`periodHours must be a positive integer, got ${periodHours}`);
  }
}

/** Σ of the `periodHours` buckets ending `offset` periods back (0 = current period), read in place. */
function windowSum(hourly: readonly number[], periodHours: number, offset: number): number {
  const end = hourly.length - offset * periodHours; // exclusive
  let s = 0;
  // Only the hours the array holds: those before its start count 0 (a new trend's series is a few hours long).
  for (let i = Math.max(0, end - periodHours); i < end; i++) s += hourly[i]!;
  return s;
}

function sum(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}

// ---------------------------------------------------------------------------------------------------------
// Volume and change. `hourly` is oldest first; its last element is the current hour (it may be partial).

/** volume = Σ of the last `periodHours` hourly buckets (missing buckets count 0). */
export function volume(hourly: readonly number[], periodHours: number): number {
  checkPeriod(periodHours);
  return windowSum(hourly, periodHours, 0);
}

/** previous_volume = Σ of the `periodHours` buckets just before the current period. */
export function previousVolume(hourly: readonly number[], periodHours: number): number {
  checkPeriod(periodHours);
  return windowSum(hourly, periodHours, 1);
}

/** absolute_change = volume − previous_volume. */
export function absoluteChange(current: number, previous: number): number {
  return current - previous;
}

/** growth = (volume − previous) / previous × 100, 2 decimals; null when previous = 0. */
export function growth(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return round(((current - previous) / previous) * 100, 2);
}

/** average_velocity = volume / periodHours (mentions per hour), 2 decimals. */
export function averageVelocity(current: number, periodHours: number): number {
  checkPeriod(periodHours);
  return round(current / periodHours, 2);
}

/** trend_stability = population standard deviation of the period's hourly buckets, 2 decimals. */
export function trendStability(hourly: readonly number[], periodHours: number): number {
  checkPeriod(periodHours);
  const mean = windowSum(hourly, periodHours, 0) / periodHours;
  // The hours before the array's start are zeros: each adds mean².
  const start = Math.max(0, hourly.length - periodHours);
  let squares = (periodHours - (hourly.length - start)) * mean ** 2;
  for (let i = start; i < hourly.length; i++) squares += (hourly[i]! - mean) ** 2;
  return round(Math.sqrt(squares / periodHours), 2);
}

/**
 * overall_trend: growing when growth ≥ +10, declining when growth ≤ −10, else stable.
 * growth null (previous period empty): growing when volume > 0, else stable.
 */
export function overallTrend(growthPct: number | null, current: number): OverallTrend {
  if (growthPct === null) return current > 0 ? 'growing' : 'stable';
  if (growthPct >= C.overallTrendThresholdPct) return 'growing';
  if (growthPct <= -C.overallTrendThresholdPct) return 'declining';
  return 'stable';
}

// ---------------------------------------------------------------------------------------------------------
// Velocity

/** velocity_1h = Σ of the last 60 minute counts (mentions in the last 60 minutes). */
export function velocity1h(minuteCounts: readonly number[]): number {
  let s = 0;
  for (let i = Math.max(0, minuteCounts.length - 60); i < minuteCounts.length; i++) s += minuteCounts[i]!;
  return s;
}

/** Exponentially weighted mean, seeded with the first value: m₀ = v₀, mᵢ = α·vᵢ + (1 − α)·mᵢ₋₁. */
export function ewma(values: readonly number[], alpha: number): number | null {
  if (values.length === 0) return null;
  let m = values[0];
  for (let i = 1; i < values.length; i++) m = alpha * values[i] + (1 - alpha) * m;
  return m;
}

interface VelocityBaseline {
  /** The expected evidence for the current hour: the largest of the baselines below, floored at 1. */
  lambda: number;
  /** EWMA (α 0.2) of the up to 24 complete hours before the current one and before the run; null if none. */
  recent: number | null;
  /** Median of the same hour of the day in up to 7 past days (before the run); null with no such day. */
  daily: number | null;
  /** EWMA (α 0.5) of the same hour of the week in up to 4 past weeks, oldest first; null with none. */
  seasonal: number | null;
  /** How many past weeks fed `seasonal`. */
  weeks: number;
  /** Index of the first hour of the current run (a burst still at its pace); n − 1 when there is none. */
  runStart: number;
}

/** Median of a non-empty list (the mean of the two middle values for an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The expected count of hour `i` from the hours before `cutoff` (≤ i) only:
 * recent = EWMA(α 0.2) of h[max(0, i − 24) … cutoff − 1];
 * daily = median of h[i − 24d] for d = 1…7 with 0 ≤ i − 24d < cutoff;
 * seasonal = EWMA(α 0.5) of h[i − 168k] for k = 4…1 (oldest first) with 0 ≤ i − 168k < cutoff;
 * λ = max(1, the largest of those that exist), or 1 when none does.
 */
export function baselineAt(
  hourly: readonly number[],
  i: number,
  cutoff: number,
): Omit<VelocityBaseline, 'runStart'> {
  // Loops rather than slices: this runs up to 25 times per trend and window (the run scan).
  let seasonal: number | null = null;
  let weeks = 0;
  for (let k = C.seasonalWeeks; k >= 1; k--) {
    const j = i - k * HOURS_PER_WEEK;
    if (j < 0 || j >= cutoff) continue;
    seasonal =
      seasonal === null ? hourly[j]! : C.seasonalAlpha * hourly[j]! + (1 - C.seasonalAlpha) * seasonal;
    weeks++;
  }
  const days: number[] = [];
  for (let d = 1; d <= C.dailyDays; d++) {
    const j = i - d * HOURS_PER_DAY;
    if (j >= 0 && j < cutoff) days.push(hourly[j]!);
  }
  let recent: number | null = null;
  for (let j = Math.max(0, i - C.recentWindowHours); j < cutoff; j++) {
    recent = recent === null ? hourly[j]! : C.recentAlpha * hourly[j]! + (1 - C.recentAlpha) * recent;
  }
  const daily = days.length > 0 ? median(days) : null;
  const expected = Math.max(recent ?? 0, daily ?? 0, seasonal ?? 0);
  return { lambda: Math.max(C.lambdaFloor, expected), recent, daily, seasonal, weeks };
}

/** Whether hour value `v` is part of a run against expectation `lambda` (z ≥ 2, at least the evidence minimum). */
function elevated(v: number, lambda: number): boolean {
  return v >= C.minEvidence && anscombeZ(v, lambda) >= C.runMinZ;
}

/**
 * The first hour of the current run: scanning the up to 6 complete hours before the current one, oldest
 * first, an hour joins the run when it is elevated (z ≥ 2 and ≥ 2) against the baseline from before the run
 * (before itself when no run is open) and is at least half the run's busiest hour so far; any other hour
 * closes the run. The run counts for the current hour (`lastHour`) only if that hour keeps the pace too
 * (≥ half the busiest). Returns n − 1 when there is no run.
 */
function currentRunStart(hourly: readonly number[], lastHour: number): number {
  const n = hourly.length;
  let start: number | null = null;
  let peak = 0;
  for (let i = Math.max(0, n - 1 - C.runMaxHours); i <= n - 2; i++) {
    const v = hourly[i]!;
    const lambda = baselineAt(hourly, i, start ?? i).lambda;
    if (elevated(v, lambda) && (start === null || v >= C.runPaceRatio * peak)) {
      if (start === null) {
        start = i;
        peak = v;
      } else peak = Math.max(peak, v);
    } else if (start !== null) {
      // The run ended: this hour may open a new one against the baseline before itself.
      start = null;
      peak = 0;
      if (elevated(v, baselineAt(hourly, i, i).lambda)) {
        start = i;
        peak = v;
      }
    }
  }
  if (start === null || lastHour < C.runPaceRatio * peak) return n - 1;
  return start;
}

/**
 * The expected count λ for the current hour (hourly[n − 1]): `baselineAt(hourly, n − 1, runStart)`, where
 * runStart is the first hour of the current run (`currentRunStart`), so a new story's own first hours are not
 * the baseline it is measured against while it keeps its pace. `lastHour` defaults to hourly[n − 1].
 */
export function velocityBaseline(hourly: readonly number[], lastHour?: number): VelocityBaseline {
  const n = hourly.length;
  const runStart = n === 0 ? -1 : currentRunStart(hourly, lastHour ?? hourly[n - 1]!);
  return { ...baselineAt(hourly, n - 1, Math.max(0, runStart)), runStart };
}

/**
 * Poisson surprise of a count x against an expectation λ on the Anscombe (variance-stabilised) scale:
 * z = 2·(√(x + 3/8) − √(λ + 3/8)); about N(0, 1) when x ~ Poisson(λ).
 */
export function anscombeZ(x: number, lambda: number): number {
  return 2 * (Math.sqrt(x + 3 / 8) - Math.sqrt(lambda + 3 / 8));
}

/** score = 100 × (1 − e^(−max(z, 0) / 5)), 2 decimals, clamped to [0, 100]. z = 1 → 18.13, z ≈ 3.47 → 50. */
export function squash(z: number): number {
  const score = 100 * (1 - Math.exp(-Math.max(z, 0) / C.squashK));
  return Math.min(100, Math.max(0, round(score, 2)));
}

/**
 * The 1h window's velocity (0–100): how surprising the last 60 minutes' evidence is for this hour of the day
 * and of the week. `hourly` is the evidence per hour, `lastHour` the evidence in the last 60 minutes:
 * 0 when lastHour < 2 (one post is no trend); else squash(anscombeZ(lastHour, velocityBaseline(hourly).lambda)).
 */
export function velocityScore(hourly: readonly number[], lastHour: number): number {
  if (lastHour < C.minEvidence) return 0;
  return squash(anscombeZ(lastHour, velocityBaseline(hourly, lastHour).lambda));
}

type LongWindow = Exclude<VelocityWindow, '1h'>;

/** Hours of history the velocity windows read: the 24h window's block 4 weeks back is the farthest. */
export const VELOCITY_HISTORY_HOURS = Math.max(
  C.seasonalWeeks * HOURS_PER_WEEK + C.runMaxHours + 1,
  ...Object.values(C.longWindows).map(
    (w) =>
      w.hours +
      Math.max(w.recentBlocks * w.hours, w.dailyDays * HOURS_PER_DAY, C.seasonalWeeks * HOURS_PER_WEEK),
  ),
);

/**
 * The evidence of the `w` hours ending at index `end` (inclusive), or null when the series does not hold them
 * all. With `partial`, a block the series holds in part (the trend's first hours) counts at the rate of the
 * hours it holds, so a new trend's first hours are the level it is measured against, as in the 1h window.
 */
function blockAt(e: readonly number[], end: number, w: number, partial = false): number | null {
  const first = end - w + 1;
  if (end < 0 || (first < 0 && !partial)) return null;
  let s = 0;
  for (let j = Math.max(0, first); j <= end; j++) s += e[j]!;
  return first >= 0 ? s : (s * w) / (end + 1);
}

interface WindowVelocity {
  window: VelocityWindow;
  /** Evidence in the window (1h: the last 60 minutes; longer: the current hour and the hours before it). */
  evidence: number;
  /** The expected evidence: the largest of recent, daily and seasonal, floored. */
  lambda: number;
  recent: number | null;
  daily: number | null;
  seasonal: number | null;
  score: number;
}

/**
 * A longer window (6h, 24h): x = Σ e[n − w … n − 1] against blocks of w hours before it, ending at
 * n − 1 − k·w (recent: EWMA over up to `recentBlocks`, a block held in part read at its rate), n − 1 − 24d
 * (daily: median over up to `dailyDays`) and n − 1 − 168k (seasonal: EWMA α 0.5, k = 4…1), those two only
 * when the series holds the whole block (the same hours of another day or week); λ = max(floor, the largest
 * that exists). 0 below the window's minimum evidence, or when no hour of it (nor the last 60 minutes) reached
 * the 1h minimum: evidence is counted per hour, so one account posting every hour adds 1 an hour. Else
 * squash(anscombeZ(x·m, λ·m) / √w), m = min(1, cap / λ).
 */
function longWindowVelocity(e: readonly number[], lastHour: number, window: LongWindow): WindowVelocity {
  const spec = C.longWindows[window];
  const w = spec.hours;
  const n = e.length;
  let x = 0;
  let busiest = lastHour;
  for (let j = Math.max(0, n - w); j < n; j++) {
    x += e[j]!;
    busiest = Math.max(busiest, e[j]!);
  }
  let recent: number | null = null;
  for (let k = spec.recentBlocks; k >= 1; k--) {
    const b = blockAt(e, n - 1 - k * w, w, true);
    if (b !== null) recent = recent === null ? b : spec.recentAlpha * b + (1 - spec.recentAlpha) * recent;
  }
  const days: number[] = [];
  for (let d = 1; d <= spec.dailyDays; d++) {
    const b = blockAt(e, n - 1 - d * HOURS_PER_DAY, w);
    if (b !== null) days.push(b);
  }
  let seasonal: number | null = null;
  for (let k = C.seasonalWeeks; k >= 1; k--) {
    const b = blockAt(e, n - 1 - k * HOURS_PER_WEEK, w);
    if (b !== null) seasonal = seasonal === null ? b : C.seasonalAlpha * b + (1 - C.seasonalAlpha) * seasonal;
  }
  const daily = days.length > 0 ? median(days) : null;
  const lambda = Math.max(spec.lambdaFloor, recent ?? 0, daily ?? 0, seasonal ?? 0);
  let score = 0;
  if (x >= spec.minEvidence && busiest >= C.minEvidence) {
    // A day's count wanders with the news far more than a Poisson count: past the cap only the ratio counts.
    const m = Math.min(1, spec.countCap / lambda);
    // Per hour of window: a steady excess grows z as √hours, so without it a day-long story would outrank
    // (and tie at 100 with) every fresh burst for a whole day.
    score = squash(anscombeZ(x * m, lambda * m) / Math.sqrt(w));
  }
  return { window, evidence: x, lambda, recent, daily, seasonal, score };
}

/**
 * velocity_score over every window: the 1h window is `velocityScore` (the last 60 minutes, run detection); the
 * 6h and 24h windows are `longWindowVelocity`. The score is the strongest window's; ties go to the shortest,
 * so a trend with every window at 0 reads "1h". `evidence` is the evidence per hour, `lastHour` the evidence
 * in the last 60 minutes.
 */
export function velocityWindows(
  evidence: readonly number[],
  lastHour: number,
): { score: number; window: VelocityWindow; windows: WindowVelocity[] } {
  const base = velocityBaseline(evidence, lastHour);
  const windows: WindowVelocity[] = [
    {
      window: '1h',
      evidence: lastHour,
      lambda: base.lambda,
      recent: base.recent,
      daily: base.daily,
      seasonal: base.seasonal,
      score: lastHour < C.minEvidence ? 0 : squash(anscombeZ(lastHour, base.lambda)),
    },
    longWindowVelocity(evidence, lastHour, '6h'),
    longWindowVelocity(evidence, lastHour, '24h'),
  ];
  let best = windows[0]!;
  for (const w of windows) if (w.score > best.score) best = w;
  return { score: best.score, window: best.window, windows };
}

// ---------------------------------------------------------------------------------------------------------
// Lifecycle

interface LifecycleSignals {
  hourly: readonly number[];
  periodHours: number;
  /** Mentions in the last 60 minutes (velocity_1h). */
  lastHour: number;
  /** velocity_score: the strongest window's (velocityWindows). */
  velocityScore: number;
  /** Hours since the trend was first seen; null when unknown (never emerging). */
  ageHours: number | null;
  /** Evidence per hour, aligned with `hourly` (default: `hourly`). */
  evidence?: readonly number[];
  /** Evidence in the last 60 minutes (default: `lastHour`). */
  lastHourEvidence?: number;
}

/**
 * Six-hour shape: late = lastHour + hourly[n−2] + hourly[n−3], early = hourly[n−4] + hourly[n−5] + hourly[n−6].
 * up when late ≥ 1.25·early and late > 0; down when early > 0 and late ≤ 0.75·early.
 */
export function sixHourShape(hourly: readonly number[], lastHour: number): 'up' | 'down' | 'flat' {
  const n = hourly.length;
  const late = lastHour + at(hourly, n - 2) + at(hourly, n - 3);
  const early = at(hourly, n - 4) + at(hourly, n - 5) + at(hourly, n - 6);
  if (late > 0 && late >= C.shapeUpRatio * early) return 'up';
  if (early > 0 && late <= C.shapeDownRatio * early) return 'down';
  return 'flat';
}

/**
 * lifecycle_stage, first rule that holds (g = growth, s = velocity_score of the strongest window,
 * x = lastHour, h1 = hourly[n−2], peak = max(hourly[n−P … n−2], x), e = evidence in the last 60 minutes):
 * 1. emerging — age < 24 h and s ≥ 50;
 * 2. rising — (g > 25, or g null with volume > 0), e ≥ 2 and (s ≥ 40, or the evidence's six-hour shape is up
 *    and s ≥ 20);
 * 3. peaking — overall_trend growing, peak > 0, h1 ≥ 0.8·peak and x ≤ h1 (at its high, no longer climbing);
 * 4. declining — g ≤ −25, or g ≤ −10 with six-hour shape down;
 * 5. stable — otherwise.
 */
export function lifecycleStage(signals: LifecycleSignals): LifecycleStage {
  const { hourly, periodHours, lastHour: x, velocityScore: s, ageHours } = signals;
  const current = volume(hourly, periodHours);
  const g = growth(current, previousVolume(hourly, periodHours));
  const shape = sixHourShape(hourly, x);
  if (ageHours !== null && ageHours < C.emergingMaxAgeHours && s >= C.emergingMinScore) return 'emerging';
  const growingFast = g === null ? current > 0 : g > C.risingMinGrowthPct;
  // Rising needs independent evidence: one account's or one text's repeats raise g, not the evidence.
  const evidence = signals.lastHourEvidence ?? x;
  const evidenceShape = sixHourShape(signals.evidence ?? hourly, evidence);
  if (
    growingFast &&
    evidence >= C.minEvidence &&
    (s >= C.risingMinScore || (evidenceShape === 'up' && s >= C.risingShapeMinScore))
  ) {
    return 'rising';
  }
  const n = hourly.length;
  const h1 = at(hourly, n - 2);
  let peak = x;
  // Counts are never negative: the hours before the array's start (zeros) cannot raise the peak.
  for (let i = Math.max(0, n - periodHours); i <= n - 2; i++) peak = Math.max(peak, hourly[i]!);
  if (overallTrend(g, current) === 'growing' && peak > 0 && h1 >= C.peakingNearMaxRatio * peak && x <= h1) {
    return 'peaking';
  }
  if (
    g !== null &&
    (g <= C.decliningMaxGrowthPct || (g <= -C.overallTrendThresholdPct && shape === 'down'))
  ) {
    return 'declining';
  }
  return 'stable';
}

// ---------------------------------------------------------------------------------------------------------
// Sentiment

export interface SentimentSums {
  /** Σ of the mentions' scores (VADER compound with the complaint layer: sentiment.ts mentionScore). */
  sum: number;
  /** Mentions scored. */
  count: number;
  /** Mentions with score ≥ 0.05. */
  positive: number;
  /** Mentions with score ≤ −0.05. */
  negative: number;
}

/** Mean score = sum / count, 3 decimals; null when count = 0. */
export function sentimentMean(total: number, count: number): number | null {
  return count > 0 ? round(total / count, 3) : null;
}

/** The contract's string form: the mean rounded to 2 decimals ("-0.42", "0.05"); null stays null. */
export function formatSentiment(mean: number | null): string | null {
  return mean === null ? null : round(mean, 2).toFixed(2);
}

/**
 * Whether `side` mentions of `count` are a clear majority over `other`. Shares are compared as integers
 * (side × 100 ≥ 55 × count): 0.3 × 10 is 3.0000000000000004 in floating point. 1.5 × an integer is exact.
 */
function clearMajority(side: number, other: number, count: number): boolean {
  return side * 100 >= C.majorityMinSharePct * count && side > C.majorityMinRatio * other;
}

/**
 * sentiment_category from the shares of positive and negative mentions, then the unrounded mean
 * m = sum / count (docs/metrics.md has the table). The first rule that holds:
 * neutral when count = 0; negative when negative mentions are a clear majority (≥ 55 % of count and more
 * than 1.5 × the positive ones); positive likewise; mixed when both sides hold ≥ 30 %; negative when
 * m ≤ −0.05 and negative ≥ positive; positive when m ≥ 0.05 and positive ≥ negative; else neutral.
 */
export function sentimentCategory(s: SentimentSums): SentimentCategory {
  if (s.count <= 0) return 'neutral';
  if (clearMajority(s.negative, s.positive, s.count)) return 'negative';
  if (clearMajority(s.positive, s.negative, s.count)) return 'positive';
  const minShare = C.mixedMinSharePct * s.count;
  if (s.positive * 100 >= minShare && s.negative * 100 >= minShare) return 'mixed';
  const mean = s.sum / s.count;
  if (mean <= C.sentimentNegative && s.negative >= s.positive) return 'negative';
  if (mean >= C.sentimentPositive && s.positive >= s.negative) return 'positive';
  return 'neutral';
}

// ---------------------------------------------------------------------------------------------------------
// Platforms

interface PlatformShares {
  /** Mentions per platform (negative or non-finite counts read as 0). */
  counts: Record<string, number>;
  /** count / total rounded to 4 decimals; the rounding remainder goes to the largest platform. */
  shares: Record<string, number>;
}

/** Mentions per platform, negative or non-finite counts read as 0 (own properties: "__proto__" is a plain key). */
function platformCounts(countsByPlatform: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(countsByPlatform).map(([name, c]) => [name, Number.isFinite(c) && c > 0 ? c : 0]),
  );
}

/**
 * share = round(10 000 · count / total) / 10 000 for each platform; the units left over (10 000 − Σ units,
 * possibly negative) go to the platform with the most mentions (ties: first by name), so the shares add up
 * to exactly 10 000 units = 1. total = 0 → every share 0.
 */
export function platformShare(countsByPlatform: Readonly<Record<string, number>>): PlatformShares {
  // Object.fromEntries defines own properties, so a platform called "__proto__" stays a plain key.
  const entries = Object.entries(countsByPlatform).map(([name, c]): [string, number] => [
    name,
    Number.isFinite(c) && c > 0 ? c : 0,
  ]);
  const counts = Object.fromEntries(entries);
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const total = sum(sorted.map(([, c]) => c));
  if (total === 0) return { counts, shares: Object.fromEntries(sorted.map(([name]) => [name, 0])) };
  const units = sorted.map(([name, c]): [string, number] => [name, Math.round((c * C.shareUnits) / total)]);
  let largest = 0;
  for (let i = 1; i < sorted.length; i++) if (sorted[i][1] > sorted[largest][1]) largest = i;
  units[largest][1] += C.shareUnits - sum(units.map(([, u]) => u));
  return { counts, shares: Object.fromEntries(units.map(([name, u]) => [name, u / C.shareUnits])) };
}

// ---------------------------------------------------------------------------------------------------------
// Assembly

export interface TrendMetricsInput {
  /** Hourly mention counts, oldest first; the last element is the bucket of hour `endHour` (may be partial). */
  hourly: readonly number[];
  /** Hour index (hourIndex(ms)) of hourly[hourly.length − 1]. */
  endHour: number;
  /** Per-minute counts for the last 60 minutes, oldest first; omitted → the last hourly bucket stands in. */
  minuteCounts?: readonly number[];
  /** Evidence per hour, aligned with `hourly` (evidence.ts); omitted → every mention is evidence. */
  evidence?: readonly number[];
  /** Evidence per minute, aligned with `minuteCounts`; omitted → the last evidence bucket stands in. */
  evidenceMinutes?: readonly number[];
  /** Period length in hours (PERIOD_HOURS). */
  periodHours: number;
  /** Epoch ms the metrics are computed at; defaults to the end of hour `endHour`. */
  now?: number;
  /** Epoch ms the trend was first seen; null when unknown. */
  firstSeenAt: number | null;
  sentiment: SentimentSums;
  /** Mentions per platform over the period. */
  platforms: Readonly<Record<string, number>>;
}

/** The TrendItem metric fields, named as in the contract. */
export interface TrendMetrics {
  volume: number;
  previous_volume: number;
  absolute_change: number;
  growth: number | null;
  average_velocity: number;
  trend_stability: number;
  overall_trend: OverallTrend;
  velocity_score: number;
  velocity_1h: number;
  lifecycle_stage: LifecycleStage;
  /** The window velocity_score comes from. */
  velocity_window: VelocityWindow;
  sentiment: string | null;
  sentiment_category: SentimentCategory;
  platforms: Record<string, number>;
}

/** The hours of `series` (ending at hour `endHour`) from `firstHour` on; all of it when firstHour is null. */
function knownHours(series: readonly number[], endHour: number, firstHour: number | null): readonly number[] {
  if (firstHour === null) return series;
  const start = Math.max(0, series.length - 1 - (endHour - firstHour));
  return start === 0 ? series : series.slice(start);
}

/** Every TrendItem metric for one trend from one input; see the functions above for each formula. */
export function computeTrendMetrics(input: TrendMetricsInput): TrendMetrics {
  const { periodHours } = input;
  // Hours before the trend was first seen are "no data", not "no mentions": dropping them keeps the velocity
  // baseline from reading a new trend's empty past weeks as zeros. Sums are unchanged (missing counts 0).
  const firstHour = input.firstSeenAt === null ? null : hourIndex(input.firstSeenAt);
  const hourly = knownHours(input.hourly, input.endHour, firstHour);
  const current = volume(hourly, periodHours);
  const previous = previousVolume(hourly, periodHours);
  const g = growth(current, previous);
  const lastHour =
    input.minuteCounts === undefined ? at(hourly, hourly.length - 1) : velocity1h(input.minuteCounts);
  // Velocity reads evidence (independent posts), volumes read mentions.
  const evidence =
    input.evidence === undefined ? hourly : knownHours(input.evidence, input.endHour, firstHour);
  let lastHourEvidence = lastHour;
  if (input.evidenceMinutes !== undefined) lastHourEvidence = velocity1h(input.evidenceMinutes);
  else if (input.evidence !== undefined) lastHourEvidence = at(evidence, evidence.length - 1);
  const velocity = velocityWindows(evidence, lastHourEvidence);
  const score = velocity.score;
  const now = input.now ?? (input.endHour + 1) * HOUR_MS;
  const ageHours = input.firstSeenAt === null ? null : Math.max(0, now - input.firstSeenAt) / HOUR_MS;
  const s = input.sentiment;
  return {
    volume: current,
    previous_volume: previous,
    absolute_change: absoluteChange(current, previous),
    growth: g,
    average_velocity: averageVelocity(current, periodHours),
    trend_stability: trendStability(hourly, periodHours),
    overall_trend: overallTrend(g, current),
    velocity_score: score,
    velocity_1h: lastHour,
    lifecycle_stage: lifecycleStage({
      hourly,
      periodHours,
      lastHour,
      velocityScore: score,
      ageHours,
      evidence,
      lastHourEvidence,
    }),
    velocity_window: velocity.window,
    // From the unrounded mean, so the string is one rounding of sum / count.
    sentiment: formatSentiment(s.count > 0 ? s.sum / s.count : null),
    sentiment_category: sentimentCategory(s),
    platforms: platformCounts(input.platforms),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Analytics

type VelocityTrend = 'accelerating' | 'decelerating' | 'steady';

/**
 * velocity_trend of a window's points (oldest first): compares the mentions of its second half with its
 * first half (the middle point of an odd count is left out). first = 0: accelerating when second > 0, else
 * steady; otherwise second ≥ 1.1·first accelerating, second ≤ 0.9·first decelerating, else steady.
 */
export function velocityTrend(points: readonly number[]): VelocityTrend {
  const half = Math.floor(points.length / 2);
  const first = sum(points.slice(0, half));
  const second = sum(points.slice(points.length - half));
  if (first === 0) return second > 0 ? 'accelerating' : 'steady';
  if (second >= first * (1 + C.overallTrendThresholdPct / 100)) return 'accelerating';
  if (second <= first * (1 - C.overallTrendThresholdPct / 100)) return 'decelerating';
  return 'steady';
}
