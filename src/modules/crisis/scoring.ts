// The documented formulas behind social crisis detection (pure functions; README "Crisis events" explains
// them). Method `negative-surge-z`, version below: change the version whenever a formula changes.
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
export const MIN_MENTIONS = 5;
export const MIN_SOURCES = 2;
export const OPEN_Z = 3;
/** A surge subsides when the window falls below this many counted mentions (or z below SUBSIDE_Z). */
export const SUBSIDE_MENTIONS = 3;
export const SUBSIDE_Z = 1.5;
/** One account contributes at most this many counted mentions per window. */
export const MAX_PER_AUTHOR = 2;

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

export interface Baseline {
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

/**
 * score = 100 × (0.35·surge + 0.25·negativity + 0.20·reach + 0.20·corroboration), each part in [0, 1]:
 * surge = min(1, z/10); negativity = mean(−compound); reach = min(1, log10(1 + mentions + engagement)/4);
 * corroboration = min(1, (independent sources − 1)/3). critical ≥ 75, high ≥ 55, medium ≥ 35, else low.
 */
export function socialSeverity(
  count: SurgeCount,
  z: number,
  base: Baseline,
): { severity: Severity; basis: SeverityBasis } {
  const n = count.counted.length;
  const meanCompound = n === 0 ? 0 : count.counted.reduce((a, m) => a + m.compound, 0) / n;
  const engagement = count.counted.reduce((a, m) => a + m.engagement, 0);
  const surge = Math.min(1, Math.max(0, z / 10));
  const negativity = Math.min(1, Math.max(0, -meanCompound));
  const reach = Math.min(1, Math.log10(1 + n + engagement) / 4);
  const corroboration = Math.min(1, Math.max(0, (count.origins.length - 1) / 3));
  const score = 100 * (0.35 * surge + 0.25 * negativity + 0.2 * reach + 0.2 * corroboration);
  return {
    severity: severityFromScore(score),
    basis: {
      score: round(score, 1),
      surge: round(surge),
      negativity: round(negativity),
      reach: round(reach),
      corroboration: round(corroboration),
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
  if (score >= 75) return 'critical';
  if (score >= 55) return 'high';
  if (score >= 35) return 'medium';
  return 'low';
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
