// The documented formulas behind crisis detection (pure functions; README "Crisis events" explains them), and
// the sentences that describe them, written from the same constants so the text cannot drift from the numbers.
// Method `negative-surge-z`, version below: change the version whenever a formula changes.
//
// 2.0.0 — the surge is counted over every mention of the interest, and a third of them (at least 3) must be
// negative (VADER) or alarming (crisis language, alarm.ts): factual crisis reports count, product launches do
// not; sliding windows of 10, 30 and 60 minutes evaluated on every pass; a baseline that knows the hour of day;
// independent evidence (accounts, linked web domains, official sources, platforms, with the weights below)
// instead of "at least two platforms", so a surge seen on one platform opens when enough independent accounts
// carry it.
// 2.1.0 — concern is weighted: an alarming mention counts 1, a mention that is only negative in VADER counts ½
// (CONCERN_WEIGHTS), and the window needs a concern score ≥ 3 and ≥ a third of its counted mentions. A burst of
// jokes and grumbles around a watched word (negative in tone, hardly a crisis word) no longer opens an event.
// 2.2.0 — a user's interests of one subject count together: two of a user's interest keys are linked when posts
// from ≥ SUBJECT_LINK_ACCOUNTS independent accounts mention both in the longest window, and each group of linked
// keys is evaluated pooled (each post once, every guard of a single key; a post's alarm read against all the
// interests it mentions) besides each key alone (subjects.ts); an interest matches accent-free and however its
// hashtag is cased ("Lac Mégantic" = "Lac Megantic", "#SGHaze" = "#sghaze", surges.ts), and the alarm skips an
// interest's name typed as one hashtag in another case (alarm.ts). `severity_basis`, `summary` and
// `corroboration.subject` name the pooled interests, their counted posts and the links.
// 2.3.0 — the 30-minute window opens with 5 counted mentions (was 6) and a window needs a concern score ≥ 2 (was
// 3): two alarming posts, or one and two merely negative ones, still never less than a third of the window. One
// platform still needs 6 accounts (MIN_EVIDENCE); the earlier opening comes from posts several platforms carry.
// 2.4.0 — in a post (≤ 80 word tokens) an interest's words match anywhere, as keyword tracking on social
// platforms matches them; the span of the key's words + 4 tokens applies to longer texts only (surges.ts).

import { hammingDistance, NEAR_DUPLICATE_BITS } from '../text/index.ts';
import { ALARMING_AT } from './alarm.ts';
import { HAZARD_SOURCES, isOfficialDomain, isWebSource } from './origins.ts';

export const SOCIAL_METHOD = 'negative-surge-z';
export const SOCIAL_METHOD_VERSION = '2.4.0';
export const HAZARD_METHOD = 'official-hazard-feed';
export const HAZARD_METHOD_VERSION = '1.0.0';
export const SENTIMENT_MODEL = 'vader-sentiment 1.1.3 + crisis-lexicon 1.0';

/** A mention is negative at or below this VADER compound (the conventional cut). */
export const NEGATIVE_COMPOUND = -0.05;

const MINUTE_MS = 60_000;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The sliding windows every pass evaluates, shortest first, each with the counted mentions it needs at least:
 * a sharp surge shows in 10 minutes; a slower one (a post every few minutes) needs 30 or 60 minutes to rise
 * above its baseline, and a longer window asks for more mentions, since it is a wider net for chance. A surge
 * opens when any window holds one.
 */
const WINDOWS: readonly { ms: number; minMentions: number }[] = [
  { ms: 10 * MINUTE_MS, minMentions: 4 },
  { ms: 30 * MINUTE_MS, minMentions: 5 },
  { ms: 60 * MINUTE_MS, minMentions: 8 },
];
export const WINDOWS_MS: readonly number[] = WINDOWS.map((w) => w.ms);
export const LONGEST_WINDOW_MS = Math.max(...WINDOWS_MS);
const minMentionsFor = (windowMs: number) =>
  WINDOWS.find((w) => w.ms === windowMs)?.minMentions ?? Math.max(...WINDOWS.map((w) => w.minMentions));
/** Recent baseline: the 24 hours before the window, in window-sized bins (mean and standard deviation). */
const RECENT_MS = DAY_MS;
/** Hour-of-day baseline: the same clock time (a one-hour slot centred on it) on each of the previous 7 days. */
const HOUR_OF_DAY_DAYS = 7;
const HOUR_SLOT_MS = HOUR_MS;
/** The history a baseline reads, before now: 7 days and half a slot. */
export const HISTORY_MS = HOUR_OF_DAY_DAYS * DAY_MS + HOUR_SLOT_MS / 2;
/**
 * How much a counted mention says that something is wrong: an alarming one (crisis language, alarm.ts) counts 1;
 * one that is only negative in VADER counts ½, because VADER also reads jokes, swearing and everyday grumbles as
 * negative ("THAT AIN'T NO EARTHQUAKE", "ok that was NOT cool"), so a negative tone is weaker evidence of a crisis
 * than crisis words are; a mention that is neither counts 0.
 */
export const CONCERN_WEIGHTS = { alarming: 1, negative: 0.5 } as const;
/**
 * A window needs at least its `minMentions` counted mentions (WINDOWS) to open a surge, and a concern score
 * (Σ CONCERN_WEIGHTS over them) of at least this much, and at least this share of its counted mentions…
 */
const MIN_CONCERN = 2;
const CONCERN_SHARE = 1 / 3;
/** …z at least this (the window's counted mentions against its baseline)… */
const OPEN_Z = 3;
/** …and at least this much independent evidence (EVIDENCE_WEIGHTS): six accounts on one platform will do. */
const MIN_EVIDENCE = 6;
/** A surge subsides when every window falls below this many counted mentions or below SUBSIDE_Z. */
const SUBSIDE_MENTIONS = 3;
const SUBSIDE_Z = 1.5;
/** One account contributes at most this many counted mentions per window. */
const MAX_PER_AUTHOR = 2;
/**
 * Two of a user's interest keys are about one subject when posts from at least this many independent accounts
 * (near-duplicates folded first, so one text shared many times is one account's) mention both within the
 * longest window. A subject's keys are evaluated one by one and pooled (subjects.ts).
 */
export const SUBJECT_LINK_ACCOUNTS = 2;

/**
 * Points per independent piece of evidence among a window's counted mentions:
 * - accounts: each distinct account (platform + author; the author-less posts of a platform are one account);
 * - domains: each distinct web domain — a news-like item's own, or one a post links to (shorteners and social
 *   platforms excluded, origins.ts) — that is not official;
 * - official: each official source — a government or intergovernmental domain, or a hazard feed (USGS,
 *   Environment Agency) whose record names the interest;
 * - platforms: each platform beyond the first.
 * Near-duplicates are folded first, so a copy-paste storm from a thousand accounts is one account's text.
 */
export const EVIDENCE_WEIGHTS = { accounts: 1, domains: 2, official: 3, platforms: 2 } as const;
type EvidenceKind = keyof typeof EVIDENCE_WEIGHTS;
const EVIDENCE_KINDS = Object.keys(EVIDENCE_WEIGHTS) as EvidenceKind[];
/** Evidence at which the severity's corroboration part is full. */
const EVIDENCE_FULL = 20;
/** At most this many names per evidence kind are listed in `corroboration`. */
const MAX_NAMES = 20;

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const severityRank = (s: string) => SEVERITIES.indexOf(s as Severity) + 1;

export interface WindowMention {
  id: number;
  /** The platform, or the web domain of a news-like item. */
  origin: string;
  source: string;
  author: string | null;
  compound: number;
  /** Crisis-language score in [0, 1] (alarm.ts) and the terms that made it. */
  alarm: number;
  terms: readonly string[];
  /** Web domains the text links to (publishers only, origins.ts). */
  domains: readonly string[];
  engagement: number;
  simhash: bigint;
  observed_at: number;
}

/** A mention of concern: negative in VADER, or alarming in crisis language. */
export const isConcern = (m: Pick<WindowMention, 'compound' | 'alarm'>) =>
  m.compound <= NEGATIVE_COMPOUND || m.alarm >= ALARMING_AT;

/** A mention's concern weight (CONCERN_WEIGHTS): 1 alarming, ½ only negative, else 0. */
export function concernWeight(m: Pick<WindowMention, 'compound' | 'alarm'>): number {
  if (m.alarm >= ALARMING_AT) return CONCERN_WEIGHTS.alarming;
  return m.compound <= NEGATIVE_COMPOUND ? CONCERN_WEIGHTS.negative : 0;
}

/** The concern score of counted mentions: Σ concernWeight. */
export const concernScore = (counted: readonly Pick<WindowMention, 'compound' | 'alarm'>[]) =>
  counted.reduce((sum, m) => sum + concernWeight(m), 0);

export interface SurgeCount<T extends WindowMention = WindowMention> {
  /** Mentions counted: near-duplicates once, at most MAX_PER_AUTHOR per account. */
  counted: T[];
  raw: number;
  origins: string[];
}

/**
 * Simhashes within NEAR_DUPLICATE_BITS (6) of each other agree on at least one of 7 bands of the 64 bits
 * (pigeonhole), so a mention is compared only with the representatives sharing a band: exact, and near-linear.
 */
const BANDS = NEAR_DUPLICATE_BITS + 1;
const BAND_BITS = Math.ceil(64 / BANDS);
const bandsOf = (h: bigint): string[] =>
  Array.from(
    { length: BANDS },
    (_, b) => `${b}:${(h >> BigInt(b * BAND_BITS)) & ((1n << BigInt(BAND_BITS)) - 1n)}`,
  );

/** Near-duplicate clusters (first mention of each kept), then the per-account cap. */
export function countIndependent<T extends WindowMention>(mentions: readonly T[]): SurgeCount<T> {
  const sorted = [...mentions].sort((a, b) => a.observed_at - b.observed_at || a.id - b.id);
  const representatives: T[] = [];
  const byBand = new Map<string, T[]>();
  for (const m of sorted) {
    const bands = bandsOf(m.simhash);
    const duplicate = bands.some((band) =>
      (byBand.get(band) ?? []).some((r) => hammingDistance(r.simhash, m.simhash) <= NEAR_DUPLICATE_BITS),
    );
    if (duplicate) continue;
    representatives.push(m);
    for (const band of bands) {
      const list = byBand.get(band);
      if (list) list.push(m);
      else byBand.set(band, [m]);
    }
  }
  const perAuthor = new Map<string, number>();
  const counted: T[] = [];
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

interface EvidencePart {
  /** Distinct accounts, domains, official sources or platforms. */
  count: number;
  weight: number;
  /** weight × count (platforms: weight × (count − 1)). */
  points: number;
  /** The domains, official sources or platforms (accounts are only counted). */
  names: string[];
}

export interface IndependentEvidence {
  total: number;
  parts: Record<EvidenceKind, EvidencePart>;
  /** Kinds that contributed points, most first. */
  carried_by: EvidenceKind[];
}

/** Independent evidence among counted mentions: Σ EVIDENCE_WEIGHTS × distinct items of each kind. */
export function independentEvidence(counted: readonly WindowMention[]): IndependentEvidence {
  const sets: Record<EvidenceKind, Set<string>> = {
    accounts: new Set(),
    domains: new Set(),
    official: new Set(),
    platforms: new Set(),
  };
  const domain = (d: string) => (isOfficialDomain(d) ? sets.official : sets.domains).add(d);
  for (const m of counted) {
    sets.accounts.add(`${m.source}\u0000${m.author?.toLowerCase() ?? ''}`);
    if (HAZARD_SOURCES.has(m.source)) sets.official.add(m.source);
    else if (isWebSource(m.source) && m.origin !== m.source) domain(m.origin);
    else sets.platforms.add(m.source);
    for (const d of m.domains) domain(d);
  }
  const parts = {} as Record<EvidenceKind, EvidencePart>;
  for (const kind of EVIDENCE_KINDS) {
    const count = sets[kind].size;
    const weight = EVIDENCE_WEIGHTS[kind];
    parts[kind] = {
      count,
      weight,
      points: weight * (kind === 'platforms' ? Math.max(0, count - 1) : count),
      names: kind === 'accounts' ? [] : [...sets[kind]].sort().slice(0, MAX_NAMES),
    };
  }
  const total = EVIDENCE_KINDS.reduce((sum, k) => sum + parts[k].points, 0);
  const carried_by = EVIDENCE_KINDS.filter((k) => parts[k].points > 0).sort(
    (a, b) => parts[b].points - parts[a].points,
  );
  return { total, parts, carried_by };
}

/** Counted mentions by their stored minute (epoch minutes), the input of a baseline. */
export interface MinuteCount {
  minute: number;
  n: number;
}

interface Baseline {
  /** Expected mentions in the window: the larger of recent_mean and hour_mean. */
  mean: number;
  /** Standard deviation of the recent window-sized bins. */
  std: number;
  /** Mean per window-sized bin over the 24 hours before the window. */
  recent_mean: number;
  /** The same clock hour on previous days (mean per day), scaled to the window. */
  hour_mean: number;
  /** Previous days the hour-of-day mean is over (days since the key's first stored mention, at most 7). */
  days: number;
}

/**
 * The baseline of a window ending at `now`, from the key's stored mentions per minute:
 * - recent: mean μr and standard deviation σ of the mentions per window-sized bin over the 24 hours before the
 *   window;
 * - hour of day: μh = mean over the previous days d = 1…7 of the mentions in [now − d·24 h − 30 min,
 *   now − d·24 h + 30 min), × window / 60 min; days before the key's first stored mention are left out, so a
 *   new topic has no hour-of-day baseline (μh = 0) rather than a week of zeros;
 * - mean = max(μr, μh): a topic loud at 09:00 every day is expected to be loud at 09:00.
 */
export function windowBaseline(minutes: readonly MinuteCount[], now: number, windowMs: number): Baseline {
  const windowStart = now - windowMs;
  const from = windowStart - RECENT_MS;
  const bins = Math.max(1, Math.round(RECENT_MS / windowMs));
  const counts = new Array<number>(bins).fill(0);
  let first = Number.POSITIVE_INFINITY;
  for (const { minute, n } of minutes) {
    const t = minute * MINUTE_MS;
    if (t < first) first = t;
    if (t >= from && t < windowStart) counts[Math.min(bins - 1, Math.floor((t - from) / windowMs))] += n;
  }
  const recent = counts.reduce((a, b) => a + b, 0) / bins;
  const variance = counts.reduce((a, c) => a + (c - recent) ** 2, 0) / bins;
  let days = 0;
  let total = 0;
  for (let d = 1; d <= HOUR_OF_DAY_DAYS; d++) {
    const lo = now - d * DAY_MS - HOUR_SLOT_MS / 2;
    if (lo < first) continue;
    days++;
    const hi = lo + HOUR_SLOT_MS;
    for (const { minute, n } of minutes) {
      const t = minute * MINUTE_MS;
      if (t >= lo && t < hi) total += n;
    }
  }
  const hour = days === 0 ? 0 : ((total / days) * windowMs) / HOUR_SLOT_MS;
  return {
    mean: Math.max(recent, hour),
    std: Math.sqrt(variance),
    recent_mean: recent,
    hour_mean: hour,
    days,
  };
}

/** z = (n − mean) / max(σ, √max(mean, 1)): a Poisson floor so a silent baseline cannot make z explode. */
export function zScore(n: number, base: Pick<Baseline, 'mean' | 'std'>): number {
  const scale = Math.max(base.std, Math.sqrt(Math.max(base.mean, 1)));
  return (n - base.mean) / scale;
}

/**
 * A window holds a surge: at least its `minMentions` counted mentions (WINDOWS), a concern score (concernScore)
 * ≥ MIN_CONCERN and ≥ CONCERN_SHARE × the counted mentions, ≥ MIN_EVIDENCE independent evidence, and z ≥ OPEN_Z.
 */
export function isSurge(
  count: SurgeCount,
  evidence: IndependentEvidence,
  z: number,
  windowMs: number,
): boolean {
  const n = count.counted.length;
  const concern = concernScore(count.counted);
  return (
    n >= minMentionsFor(windowMs) &&
    concern >= MIN_CONCERN &&
    concern >= CONCERN_SHARE * n &&
    evidence.total >= MIN_EVIDENCE &&
    z >= OPEN_Z
  );
}

/** A window no longer holds one: fewer than SUBSIDE_MENTIONS counted mentions, or z below SUBSIDE_Z. */
export function hasSubsided(count: SurgeCount, z: number): boolean {
  return count.counted.length < SUBSIDE_MENTIONS || z < SUBSIDE_Z;
}

/** An interest key and how many of a window's counted mentions (posts) mention it. */
export interface InterestCount {
  key: string;
  mentions: number;
}

/** Two interest keys of one subject, and the independent accounts whose posts mention both. */
export interface SubjectLink {
  keys: [string, string];
  accounts: number;
}

/** What a reading counts: one interest key, or the keys of one subject pooled (and the links that join them). */
interface SubjectCount {
  interests: InterestCount[];
  links: SubjectLink[];
}

export interface SeverityBasis {
  score: number;
  surge: number;
  negativity: number;
  reach: number;
  corroboration: number;
  z: number;
  window_minutes: number;
  mentions: number;
  /** Counted mentions of concern (negative or alarming), and of each kind. */
  concern: number;
  /** Their concern score: alarming × 1 + only negative × ½ (CONCERN_WEIGHTS). */
  concern_score: number;
  negative: number;
  alarming: number;
  baseline_mean: number;
  recent_mean: number;
  hour_mean: number;
  baseline_days: number;
  mean_compound: number;
  engagement: number;
  independent_sources: number;
  evidence: IndependentEvidence;
  /** The interest keys counted, with their counted mentions: one, or a subject's keys pooled (each post once). */
  interests: InterestCount[];
  /** The links that make the pooled keys one subject (none for a single key). */
  links: SubjectLink[];
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
 * surge = min(1, z/10); negativity = mean over counted mentions of max(−compound, alarm) (how negative or
 * alarming they read); reach = min(1, log10(1 + mentions + engagement)/4); corroboration = min(1, independent
 * evidence / EVIDENCE_FULL). Severity from SCORE_BANDS.
 */
export function socialSeverity(
  count: SurgeCount,
  evidence: IndependentEvidence,
  z: number,
  base: Baseline,
  windowMs: number,
  subject: SubjectCount = { interests: [], links: [] },
): { severity: Severity; basis: SeverityBasis } {
  const n = count.counted.length;
  const meanCompound = n === 0 ? 0 : count.counted.reduce((a, m) => a + m.compound, 0) / n;
  const meanAlarm =
    n === 0 ? 0 : count.counted.reduce((a, m) => a + Math.min(1, Math.max(0, -m.compound, m.alarm)), 0) / n;
  const engagement = count.counted.reduce((a, m) => a + m.engagement, 0);
  const parts: Record<SocialPart, number> = {
    surge: Math.min(1, Math.max(0, z / 10)),
    negativity: meanAlarm,
    reach: Math.min(1, Math.log10(1 + n + engagement) / 4),
    corroboration: Math.min(1, evidence.total / EVIDENCE_FULL),
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
      window_minutes: Math.round(windowMs / MINUTE_MS),
      mentions: n,
      concern: count.counted.filter(isConcern).length,
      concern_score: concernScore(count.counted),
      negative: count.counted.filter((m) => m.compound <= NEGATIVE_COMPOUND).length,
      alarming: count.counted.filter((m) => m.alarm >= ALARMING_AT).length,
      baseline_mean: round(base.mean),
      recent_mean: round(base.recent_mean),
      hour_mean: round(base.hour_mean),
      baseline_days: base.days,
      mean_compound: round(meanCompound, 3),
      engagement,
      independent_sources: count.origins.length,
      evidence,
      interests: subject.interests,
      links: subject.links,
    },
  };
}

export function severityFromScore(score: number): Severity {
  return inBand(score, SCORE_BANDS);
}

const EVIDENCE_NAMES: Record<EvidenceKind, string> = {
  accounts: 'accounts',
  domains: 'linked domains',
  official: 'official sources',
  platforms: 'platforms',
};

/** "12 = 9 accounts × 1 + 0 linked domains × 2 + 0 official sources × 3 + (2 platforms − 1) × 2". */
function evidenceFormula(e: IndependentEvidence): string {
  const terms = EVIDENCE_KINDS.map((k) => {
    const p = e.parts[k];
    return k === 'platforms'
      ? `(${p.count} ${EVIDENCE_NAMES[k]} − 1) × ${p.weight}`
      : `${p.count} ${EVIDENCE_NAMES[k]} × ${p.weight}`;
  });
  return `${e.total} = ${terms.join(' + ')}`;
}

/**
 * `severity_basis` of a social event: the formula with the numbers of the window that carried it, its baseline,
 * the independent evidence and the bands. `peak` is the severity kept when it is above the one these numbers
 * give (severity never drops while a surge lasts).
 */
export function socialSeverityBasis(basis: SeverityBasis, peak?: Severity): string {
  const terms = SOCIAL_PARTS.map((p) => `${SOCIAL_SEVERITY_WEIGHTS[p].toFixed(2)} × ${p} ${basis[p]}`);
  const bands = SCORE_BANDS.map((b) => `${b.severity} ≥ ${b.min}`).join(', ');
  const carried = basis.evidence.carried_by.map((k) => EVIDENCE_NAMES[k]).join(' and ') || 'nothing';
  return (
    `score ${basis.score} = 100 × (${terms.join(' + ')}); z ${basis.z} over a baseline of ` +
    `${basis.baseline_mean} mentions per ${basis.window_minutes} min (the larger of the last 24 hours, ` +
    `${basis.recent_mean}, and this hour of day on ${basis.baseline_days} previous days, ${basis.hour_mean}); ` +
    `${basis.mentions} counted mentions in the last ${basis.window_minutes} minutes${pooledText(basis)}, ` +
    `${basis.concern} of concern ` +
    `(${basis.alarming} alarming, ${basis.negative} negative; concern score ${basis.concern_score}; mean compound ` +
    `${basis.mean_compound}, engagement ${basis.engagement}); independent evidence ${evidenceFormula(basis.evidence)}, carried by ${carried}. ` +
    `${OPEN_RULE} Bands: ${bands}, else low` +
    (peak === undefined ? '.' : `; severity kept at its peak (${peak}).`)
  );
}

/** The opening rule, in words, from the same constants. */
const OPEN_RULE =
  `A window of ${WINDOWS.map((w) => w.ms / MINUTE_MS).join(', ')} minutes opens a surge with ≥ ` +
  `${WINDOWS.map((w) => w.minMentions).join(', ')} counted mentions, a concern score (alarming × ` +
  `${CONCERN_WEIGHTS.alarming} + only negative × ${CONCERN_WEIGHTS.negative}) ≥ ${MIN_CONCERN} and ≥ ` +
  `${Math.round(CONCERN_SHARE * 100)} % of the counted mentions, z ≥ ${OPEN_Z} and independent evidence ≥ ` +
  `${MIN_EVIDENCE}; a user's interests of one subject (posts from ≥ ${SUBJECT_LINK_ACCOUNTS} independent ` +
  `accounts mention both in the last ${LONGEST_WINDOW_MS / MINUTE_MS} minutes) are counted one by one and ` +
  'pooled, each post once.';

const listInterests = (interests: readonly InterestCount[]) =>
  interests.map((i) => `${i.key} ×${i.mentions}`).join(', ');

/** " (one subject pooled, each post once: …; linked by …)" when a reading pools several interest keys. */
function pooledText(basis: SeverityBasis): string {
  if (basis.interests.length < 2) return '';
  const links = basis.links.map((l) => `${l.keys[0]} + ${l.keys[1]} by ${l.accounts} accounts`).join(', ');
  return (
    ` (${basis.interests.length} interests of one subject pooled, each post once: ` +
    `${listInterests(basis.interests)}; linked by posts mentioning both: ${links})`
  );
}

/** The terms of the alarming counted mentions: term → posts using it, most used first, at most `limit`. */
export function alarmTermCounts(counted: readonly WindowMention[], limit = 10): Record<string, number> {
  const counts = new Map<string, number>();
  for (const m of counted) {
    if (m.alarm < ALARMING_AT) continue;
    for (const t of new Set(m.terms)) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return Object.fromEntries(
    [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit),
  );
}

/** `summary` of a social event: what the window that carried it counted, against its baseline. */
export function socialSummary(
  entity: string | null,
  basis: SeverityBasis,
  terms: Readonly<Record<string, number>>,
): string {
  const e = basis.evidence.parts;
  const words = Object.entries(terms)
    .slice(0, 5)
    .map(([t, n]) => `${t} ×${n}`)
    .join(', ');
  const platforms =
    e.platforms.count === 0 ? '' : ` on ${e.platforms.count} platforms (${e.platforms.names.join(', ')})`;
  const pooled =
    basis.interests.length < 2
      ? ''
      : ` and of the interests sharing its posts (${listInterests(basis.interests)}; each post once)`;
  return (
    `${basis.mentions} mentions of "${entity}"${pooled} in the last ${basis.window_minutes} minutes, ${basis.concern} ` +
    `of them negative or alarming (${basis.alarming} with crisis words${words ? `: ${words}` : ''}; ` +
    `${basis.negative} negative in VADER; concern score ${basis.concern_score}), from ${e.accounts.count} accounts${platforms}, ${e.domains.count} ` +
    `linked domains and ${e.official.count} official sources, against a baseline of ${basis.baseline_mean} per ` +
    `${basis.window_minutes} minutes at this hour (z = ${basis.z}).`
  );
}

/** `corroboration` of a social event: which kinds of independent evidence carried it, and the alarm words. */
export function socialCorroboration(
  basis: SeverityBasis,
  origins: readonly string[],
  terms: Readonly<Record<string, number>>,
) {
  return {
    independent_sources: origins.length,
    sources: origins,
    score: basis.corroboration,
    counted_mentions: basis.mentions,
    window_minutes: basis.window_minutes,
    subject: { interests: basis.interests, links: basis.links },
    evidence: {
      total: basis.evidence.total,
      needed: MIN_EVIDENCE,
      carried_by: basis.evidence.carried_by,
      ...basis.evidence.parts,
    },
    concern: {
      mentions: basis.concern,
      score: basis.concern_score,
      needed: MIN_CONCERN,
      alarming: basis.alarming,
      negative: basis.negative,
      alarm_terms: terms,
    },
  };
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
