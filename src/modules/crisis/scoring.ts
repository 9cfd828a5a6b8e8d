// The documented formulas behind crisis detection (pure functions; README "Crisis events" explains them), and
// the sentences that describe them, written from the same constants so the text cannot drift from the numbers.
// Method `negative-surge-z`, version below: change the version whenever a formula changes.
import { hammingDistance, NEAR_DUPLICATE_BITS } from './simhash.ts';

export const SOCIAL_METHOD = 'negative-surge-z';
export const SOCIAL_METHOD_VERSION = '1.0.0';
export const HAZARD_METHOD = 'official-hazard-feed';
export const HAZARD_METHOD_VERSION = '1.0.0';
export const SENTIMENT_MODEL = 'vader-sentiment 1.1.3 (compound ≤ -0.05)';

export const NEGATIVE_COMPOUND = -0.05;
/** The sliding window negative mentions are counted in. */
export const WINDOW_MS = 30 * 60_000;
/** Baseline: the 24 hours before the window, in window-sized bins. */
export const BASELINE_MS = 24 * 3600_000;
const MIN_MENTIONS = 5;
const MIN_SOURCES = 2;
const OPEN_Z = 3;
/** A surge subsides when the window falls below this many counted mentions (or z below SUBSIDE_Z). */
const SUBSIDE_MENTIONS = 3;
const SUBSIDE_Z = 1.5;
/** One account contributes at most this many counted mentions per window. */
const MAX_PER_AUTHOR = 2;

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const severityRank = (s: string) => SEVERITIES.indexOf(s as Severity) + 1;

export interface WindowMention {
  id: number;
  origin: string;
  source: string;
  author: string | null;
  compound: number;
  engagement: number;
  simhash: bigint;
  observed_at: number;
}

export interface SurgeCount {
  /** Mentions counted: near-duplicates once, at most MAX_PER_AUTHOR per account. */
  counted: WindowMention[];
  raw: number;
  origins: string[];
}

/** Near-duplicate clusters (first mention of each kept), then the per-account cap. */
export function countIndependent(mentions: readonly WindowMention[]): SurgeCount {
  const sorted = [...mentions].sort((a, b) => a.observed_at - b.observed_at || a.id - b.id);
  const representatives: WindowMention[] = [];
  for (const m of sorted) {
    if (representatives.some((r) => hammingDistance(r.simhash, m.simhash) <= NEAR_DUPLICATE_BITS)) continue;
    representatives.push(m);
  }
  const perAuthor = new Map<string, number>();
  const counted: WindowMention[] = [];
  for (const m of representatives) {
    if (m.author) {
      const account = `${m.source}\u0000${m.author.toLowerCase()}`;
      const n = perAuthor.get(account) ?? 0;
      if (n >= MAX_PER_AUTHOR) continue;
      perAuthor.set(account, n + 1);
    }
    counted.push(m);
  }
  const origins = [...new Set(counted.map((m) => m.origin))].sort();
  return { counted, raw: mentions.length, origins };
}

interface Baseline {
  mean: number;
  std: number;
  bins: number;
}

/** Mean and standard deviation of negative mentions per window-sized bin over [from, to). */
export function baseline(times: readonly number[], from: number, to: number, binMs = WINDOW_MS): Baseline {
  const bins = Math.max(1, Math.round((to - from) / binMs));
  const counts = new Array<number>(bins).fill(0);
  for (const t of times) {
    if (t < from || t >= to) continue;
    counts[Math.min(bins - 1, Math.floor((t - from) / binMs))]++;
  }
  const mean = counts.reduce((a, b) => a + b, 0) / bins;
  const variance = counts.reduce((a, c) => a + (c - mean) ** 2, 0) / bins;
  return { mean, std: Math.sqrt(variance), bins };
}

/** z = (n − mean) / max(std, √max(mean, 1)): a Poisson floor so a silent baseline cannot make z explode. */
export function zScore(n: number, base: Baseline): number {
  const scale = Math.max(base.std, Math.sqrt(Math.max(base.mean, 1)));
  return (n - base.mean) / scale;
}

export function isSurge(count: SurgeCount, z: number): boolean {
  return count.counted.length >= MIN_MENTIONS && count.origins.length >= MIN_SOURCES && z >= OPEN_Z;
}

export function hasSubsided(count: SurgeCount, z: number): boolean {
  return count.counted.length < SUBSIDE_MENTIONS || z < SUBSIDE_Z;
}

export interface SeverityBasis {
  score: number;
  surge: number;
  negativity: number;
  reach: number;
  corroboration: number;
  z: number;
  mentions: number;
  baseline_mean: number;
  mean_compound: number;
  engagement: number;
  independent_sources: number;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Weights of the social severity score's parts (each part in [0, 1]; the weights sum to 1). */
const SOCIAL_SEVERITY_WEIGHTS = {
  surge: 0.35,
  negativity: 0.25,
  reach: 0.2,
  corroboration: 0.2,
} as const;
type SocialPart = keyof typeof SOCIAL_SEVERITY_WEIGHTS;
const SOCIAL_PARTS = Object.keys(SOCIAL_SEVERITY_WEIGHTS) as SocialPart[];

interface Band {
  severity: Severity;
  min: number;
}
/** Social score bands, highest first: at or above `min` → that severity; below every band, low. */
const SCORE_BANDS: readonly Band[] = [
  { severity: 'critical', min: 75 },
  { severity: 'high', min: 55 },
  { severity: 'medium', min: 35 },
];

const inBand = (value: number, bands: readonly Band[]): Severity =>
  bands.find((b) => value >= b.min)?.severity ?? 'low';

/**
 * score = 100 × Σ weight·part (SOCIAL_SEVERITY_WEIGHTS), each part in [0, 1]:
 * surge = min(1, z/10); negativity = mean(−compound); reach = min(1, log10(1 + mentions + engagement)/4);
 * corroboration = min(1, (independent sources − 1)/3). Severity from SCORE_BANDS.
 */
export function socialSeverity(
  count: SurgeCount,
  z: number,
  base: Baseline,
): { severity: Severity; basis: SeverityBasis } {
  const n = count.counted.length;
  const meanCompound = n === 0 ? 0 : count.counted.reduce((a, m) => a + m.compound, 0) / n;
  const engagement = count.counted.reduce((a, m) => a + m.engagement, 0);
  const parts: Record<SocialPart, number> = {
    surge: Math.min(1, Math.max(0, z / 10)),
    negativity: Math.min(1, Math.max(0, -meanCompound)),
    reach: Math.min(1, Math.log10(1 + n + engagement) / 4),
    corroboration: Math.min(1, Math.max(0, (count.origins.length - 1) / 3)),
  };
  const score = 100 * SOCIAL_PARTS.reduce((sum, p) => sum + SOCIAL_SEVERITY_WEIGHTS[p] * parts[p], 0);
  return {
    severity: severityFromScore(score),
    basis: {
      score: round(score, 1),
      surge: round(parts.surge),
      negativity: round(parts.negativity),
      reach: round(parts.reach),
      corroboration: round(parts.corroboration),
      z: round(z),
      mentions: n,
      baseline_mean: round(base.mean),
      mean_compound: round(meanCompound, 3),
      engagement,
      independent_sources: count.origins.length,
    },
  };
}

export function severityFromScore(score: number): Severity {
  return inBand(score, SCORE_BANDS);
}

const WINDOW_MINUTES = WINDOW_MS / 60_000;

/**
 * `severity_basis` of a social event: the formula with this window's numbers, and the bands. `peak` is the
 * severity kept when it is above the one these numbers give (severity never drops while a surge lasts).
 */
export function socialSeverityBasis(basis: SeverityBasis, peak?: Severity): string {
  const terms = SOCIAL_PARTS.map((p) => `${SOCIAL_SEVERITY_WEIGHTS[p].toFixed(2)} × ${p} ${basis[p]}`);
  const bands = SCORE_BANDS.map((b) => `${b.severity} ≥ ${b.min}`).join(', ');
  return (
    `score ${basis.score} = 100 × (${terms.join(' + ')}); z ${basis.z} over a baseline of ` +
    `${basis.baseline_mean} negative mentions per ${WINDOW_MINUTES} min; ${basis.mentions} counted mentions ` +
    `(mean compound ${basis.mean_compound}, engagement ${basis.engagement}) from ${basis.independent_sources} ` +
    `independent sources. Bands: ${bands}, else low` +
    (peak === undefined ? '.' : `; severity kept at its peak (${peak}).`)
  );
}

/** `summary` of a social event: the window's counted mentions against the baseline. */
export function socialSummary(
  entity: string | null,
  basis: SeverityBasis,
  origins: readonly string[],
): string {
  return (
    `${basis.mentions} negative mentions of "${entity}" in the last ${WINDOW_MINUTES} minutes from ` +
    `${origins.length} independent sources (${origins.join(', ')}), against a baseline of ` +
    `${basis.baseline_mean} per ${WINDOW_MINUTES} minutes (z = ${basis.z}).`
  );
}

// --- hazards: the providers' severity words mapped onto ours ------------------------------------------

/** USGS PAGER alert levels, in the feed's words. */
const PAGER_ALERT_SEVERITY: ReadonlyMap<string, Severity> = new Map([
  ['red', 'critical'],
  ['orange', 'high'],
  ['yellow', 'medium'],
  ['green', 'low'],
]);
/** A green PAGER alert counts as medium from this magnitude on. */
const GREEN_ALERT_MEDIUM_FROM = 6;
/** Without a PAGER alert: magnitude bands, highest first; below every band (or no magnitude), low. */
const MAGNITUDE_BANDS: readonly Band[] = [
  { severity: 'critical', min: 7 },
  { severity: 'high', min: 6 },
  { severity: 'medium', min: 4.5 },
];

/** PAGER alert first; without a known one, the magnitude bands. */
export function usgsSeverity(magnitude: number | null, alert: string | null): Severity {
  const byAlert = alert === null ? undefined : PAGER_ALERT_SEVERITY.get(alert);
  if (byAlert !== undefined) {
    if (alert === 'green' && magnitude !== null && magnitude >= GREEN_ALERT_MEDIUM_FROM) return 'medium';
    return byAlert;
  }
  return magnitude === null ? 'low' : inBand(magnitude, MAGNITUDE_BANDS);
}

/** Environment Agency flood warning severity levels. */
const FLOOD_LEVELS: readonly { level: number; name: string; severity: Severity }[] = [
  { level: 1, name: 'severe flood warning', severity: 'critical' },
  { level: 2, name: 'flood warning', severity: 'high' },
  { level: 3, name: 'flood alert', severity: 'medium' },
  { level: 4, name: 'no longer in force', severity: 'low' },
];

/** An EA severity level's severity; an unknown or missing level is low. */
export function floodSeverity(level: number | null): Severity {
  return FLOOD_LEVELS.find((l) => l.level === level)?.severity ?? 'low';
}

/** `severity_basis` of a hazard event: the provider's words and the mapping from them to our severity. */
export function hazardSeverityBasis(source: string, providerSeverity: string): string {
  let mapping: string;
  if (source === 'usgs') {
    const alerts = [...PAGER_ALERT_SEVERITY].map(
      ([alert, severity]) =>
        `${alert} → ${severity}${alert === 'green' ? ` (medium from M ${GREEN_ALERT_MEDIUM_FROM})` : ''}`,
    );
    const bands = MAGNITUDE_BANDS.map((b, i) => `${i === 0 ? 'M ' : ''}≥ ${b.min} ${b.severity}`);
    mapping = `PAGER alert ${alerts.join(', ')}; without an alert ${bands.join(', ')}, else low.`;
  } else {
    const levels = FLOOD_LEVELS.map(
      (l, i) => `${i === 0 ? 'level ' : ''}${l.level} (${l.name}) → ${l.severity}`,
    );
    mapping = `${levels.join(', ')}.`;
  }
  return `Provider severity ${providerSeverity}. Mapping: ${mapping}`;
}

/** Events at or above this severity rank, or below this completeness, wait for a human review. */
const REVIEW_FROM_RANK = 3;
const REVIEW_BELOW_COMPLETENESS = 60;

/** The review status after the numbers change: only a status no human has set moves. */
export function reviewStatusAfter(current: string, rank: number, completeness: number): string {
  if (current !== 'unreviewed' && current !== 'needs_review') return current;
  return rank >= REVIEW_FROM_RANK || completeness < REVIEW_BELOW_COMPLETENESS ? 'needs_review' : 'unreviewed';
}

export const SOCIAL_COMPLETENESS_METHOD = 'social-evidence-coverage-v1';
export const HAZARD_COMPLETENESS_METHOD = 'official-record-v1';
export const COMPLETENESS_MEANING =
  'How much of what a reviewer needs to verify the event is present (0–100); not a probability that it is real.';

/**
 * Social: 40 × min(1, items/10) + 30 × min(1, (independent sources − 1)/2) + 20 × (counted mentions backed by a
 * linked evidence item) + 10 when the newest evidence is within the freshness window.
 */
export function socialCompleteness(
  items: number,
  sources: number,
  linkedShare: number,
  fresh: boolean,
): number {
  const score =
    40 * Math.min(1, items / 10) +
    30 * Math.min(1, Math.max(0, (sources - 1) / 2)) +
    20 * Math.min(1, Math.max(0, linkedShare)) +
    (fresh ? 10 : 0);
  return Math.round(score);
}

/** Hazard: 50 for the provider's own record, 20 for a link to it, 20 for attribution and licence, 10 fresh. */
export function hazardCompleteness(hasLink: boolean, hasLicence: boolean, fresh: boolean): number {
  return 50 + (hasLink ? 20 : 0) + (hasLicence ? 20 : 0) + (fresh ? 10 : 0);
}

export const FRESHNESS_WINDOWS_MS: Record<string, number> = {
  social: 6 * 3600_000,
  usgs: 24 * 3600_000,
  environment_agency: 12 * 3600_000,
};

export function freshness(
  evidenceAsOf: number | null,
  windowMs: number,
  now: number,
): 'fresh' | 'stale' | 'missing' {
  if (evidenceAsOf === null) return 'missing';
  return now - evidenceAsOf <= windowMs ? 'fresh' : 'stale';
}
