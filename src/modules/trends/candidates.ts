// Candidates (docs/metrics.md, "Candidates and promotion"): a phrase named in posts is held here, not stored,
// until TREND_MIN_POSTS independent posts (distinct accounts, copies of one text folded) name it within
// CANDIDATE_WINDOW_MS; then it is promoted to a trend, and what its posts added while it was held (mentions,
// hourly buckets with sentiment and evidence, surface forms, first seen) is written with it. Most phrases are
// named once and never promoted: they cost memory for a day, and no rows.
//
// Held candidates are bounded: past `capacity` the least recently named are evicted (counted), and a candidate
// not named for CANDIDATE_WINDOW_MS expires. Without Redis the pool is this process's memory (a restart forgets
// the held candidates, never a promoted trend); with Redis it is shared (candidates-redis.ts), so a phrase named
// once through each of two instances is promoted as on one.

import { Counter, Gauge, type Registry } from 'prom-client';
import { HOUR_MS } from './metrics.ts';

/** Posts count towards a candidate's promotion for this long after they were observed. */
export const CANDIDATE_WINDOW_MS = 24 * HOUR_MS;
/** Sample texts kept per candidate (a promoted trend is categorised over them and its batch's texts). */
export const CANDIDATE_TEXTS = 3;

/** Related phrases kept per held candidate (the fold needs the few it shares most posts with). */
const RELATED_KEPT = 8;

/** A post naming a candidate: its account (the post itself when it has none), its text's fingerprint and time. */
export interface CandidatePost {
  account: string;
  fingerprint: number;
  at: number;
}

/** [platform, hour, mentions, sentiment_sum, positive, negative, evidence] */
export type PastHour = [string, number, number, number, number, number, number];
/** [minute, mentions, evidence] */
export type PastMinute = [number, number, number];

/** What a candidate's posts added while it was held: plain data (JSON in Redis), written with the trend. */
export interface CandidatePast {
  type: string;
  mentions: number;
  firstSeen: number;
  lastSeen: number;
  surfaces: [string, number][];
  texts: string[];
  hints: { category: string[]; subreddit: string[] };
  hourly: PastHour[];
  minutes: PastMinute[];
  /** Posts that also named a phrase it may be a fragment of, by that phrase's key (at most RELATED_KEPT). */
  related?: [string, number][];
}

/** A batch's posts naming one key that is not a trend yet, and what they added. */
export interface CandidateObservation {
  key: string;
  posts: CandidatePost[];
  past: CandidatePast;
}

/** Held (not yet a trend), or promoted with what earlier batches added while it was held. */
export type CandidateOutcome = { promoted: false } | { promoted: true; earlier: CandidatePast[] };

export interface CandidateStats {
  /** Candidates held now (for Redis: as of this process's last batch). */
  held: number;
  capacity: number;
  /** Promoted and evicted by this process since it started. */
  promoted: number;
  evicted: number;
}

/** Where candidates are held. `observe` runs in the batch's transaction; `commit` once it committed. */
export interface CandidatePool {
  observe(observations: CandidateObservation[], now: number): Promise<CandidateOutcome[]>;
  /** The batch's transaction committed: a pool that stages its changes applies them. */
  commit(): void;
  /** The batch's transaction failed: staged changes are dropped. */
  rollback(): void;
  stats(): CandidateStats;
}

export interface CandidateRules {
  minPosts: number;
  capacity: number;
  windowMs?: number;
}

/**
 * The independent posts among `posts` within `windowMs` of the newest: newest first, a post counts unless its
 * account or its text's fingerprint already counted (one account posting twice, or a text copied by two
 * accounts, is one post). At most `max` are returned (enough to decide promotion).
 */
export function independentPosts(
  posts: readonly CandidatePost[],
  windowMs: number,
  max: number,
): CandidatePost[] {
  const sorted = [...posts].sort((a, b) => b.at - a.at);
  const newest = sorted[0]?.at ?? 0;
  const accounts = new Set<string>();
  const texts = new Set<number>();
  const out: CandidatePost[] = [];
  for (const post of sorted) {
    if (out.length >= max || post.at < newest - windowMs) break;
    if (accounts.has(post.account) || texts.has(post.fingerprint)) continue;
    accounts.add(post.account);
    texts.add(post.fingerprint);
    out.push(post);
  }
  return out;
}

/** Adds `more` to `into` (in place): sums, earliest / latest times, sample texts up to CANDIDATE_TEXTS. */
function mergePast(into: CandidatePast, more: CandidatePast): CandidatePast {
  into.mentions += more.mentions;
  into.firstSeen = Math.min(into.firstSeen, more.firstSeen);
  into.lastSeen = Math.max(into.lastSeen, more.lastSeen);
  const rank = (type: string) => ({ hashtag: 3, entity: 2, keyword: 1 })[type] ?? 0;
  if (rank(more.type) > rank(into.type)) into.type = more.type;
  const surfaces = new Map(into.surfaces);
  for (const [form, n] of more.surfaces) surfaces.set(form, (surfaces.get(form) ?? 0) + n);
  into.surfaces = [...surfaces];
  for (const text of more.texts) if (into.texts.length < CANDIDATE_TEXTS) into.texts.push(text);
  for (const side of ['category', 'subreddit'] as const) {
    for (const hint of more.hints[side])
      if (into.hints[side].length < CANDIDATE_TEXTS) into.hints[side].push(hint);
  }
  for (const hour of more.hourly) {
    const same = into.hourly.find((h) => h[0] === hour[0] && h[1] === hour[1]);
    if (!same) into.hourly.push([...hour]);
    else for (let i = 2; i < 7; i++) (same[i] as number) += hour[i] as number;
  }
  if (more.related && more.related.length > 0) {
    const related = new Map(into.related ?? []);
    for (const [key, n] of more.related) related.set(key, (related.get(key) ?? 0) + n);
    into.related = [...related].sort((a, b) => b[1] - a[1]).slice(0, RELATED_KEPT);
  }
  for (const minute of more.minutes) {
    const same = into.minutes.find((m) => m[0] === minute[0]);
    if (!same) into.minutes.push([...minute]);
    else {
      same[1] += minute[1];
      same[2] += minute[2];
    }
  }
  return into;
}

const clonePast = (past: CandidatePast): CandidatePast => ({
  ...past,
  surfaces: past.surfaces.map(([form, n]) => [form, n]),
  texts: [...past.texts],
  hints: { category: [...past.hints.category], subreddit: [...past.hints.subreddit] },
  hourly: past.hourly.map((h) => [...h]),
  minutes: past.minutes.map((m) => [...m]),
  related: past.related?.map(([key, n]) => [key, n]),
});

interface Held {
  posts: CandidatePost[];
  past: CandidatePast;
  /** Clock time it was last named: the order of eviction and expiry. */
  touched: number;
}

type Staged =
  | { key: string; promoted: true }
  | { key: string; promoted: false; posts: CandidatePost[]; past: CandidatePast };

/**
 * Candidates in this process's memory: a Map in least-recently-named order (a key named again moves to the end),
 * so eviction and expiry read from its head. A batch's changes are staged by `observe` and applied by `commit`,
 * so a batch whose transaction fails (and is read again) counts nothing twice.
 */
export class MemoryCandidates implements CandidatePool {
  private readonly held = new Map<string, Held>();
  private staged: Staged[] = [];
  private stagedAt = 0;
  private promoted = 0;
  private evicted = 0;
  private readonly windowMs: number;

  constructor(private readonly rules: CandidateRules) {
    this.windowMs = rules.windowMs ?? CANDIDATE_WINDOW_MS;
  }

  async observe(observations: CandidateObservation[], now: number): Promise<CandidateOutcome[]> {
    this.staged = [];
    this.stagedAt = now;
    return observations.map((observation) => {
      const entry = this.held.get(observation.key);
      const all = entry ? [...entry.posts, ...observation.posts] : observation.posts;
      const posts = independentPosts(all, this.windowMs, this.rules.minPosts);
      if (posts.length >= this.rules.minPosts) {
        this.staged.push({ key: observation.key, promoted: true });
        return { promoted: true, earlier: entry ? [entry.past] : [] };
      }
      this.staged.push({ key: observation.key, promoted: false, posts, past: observation.past });
      return { promoted: false };
    });
  }

  commit(): void {
    for (const change of this.staged) {
      const entry = this.held.get(change.key);
      this.held.delete(change.key);
      if (change.promoted) {
        this.promoted++;
        continue;
      }
      const past = entry ? mergePast(entry.past, change.past) : clonePast(change.past);
      this.held.set(change.key, { posts: change.posts, past, touched: this.stagedAt });
    }
    this.staged = [];
    for (const [key, entry] of this.held) {
      if (this.held.size > this.rules.capacity) {
        this.held.delete(key);
        this.evicted++;
      } else if (entry.touched < this.stagedAt - this.windowMs) this.held.delete(key);
      else break;
    }
  }

  rollback(): void {
    this.staged = [];
  }

  stats(): CandidateStats {
    return {
      held: this.held.size,
      capacity: this.rules.capacity,
      promoted: this.promoted,
      evicted: this.evicted,
    };
  }
}

/**
 * `crestwatch_trend_candidates` (held now), `crestwatch_trend_candidates_capacity`, and this process's
 * `crestwatch_trend_candidates_promoted_total` and `crestwatch_trend_candidates_evicted_total`.
 */
export function registerCandidateMetrics(registry: Registry, pool: CandidatePool): void {
  const gauge = (name: string, help: string, read: (s: CandidateStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(pool.stats()));
      },
    });
  const counter = (name: string, help: string, read: (s: CandidateStats) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read(pool.stats()));
      },
    });
  gauge(
    'crestwatch_trend_candidates',
    'Phrases held as candidates, not yet named by enough independent posts to be trends (shared with Redis).',
    (s) => s.held,
  );
  gauge(
    'crestwatch_trend_candidates_capacity',
    'Candidates held at most (TREND_CANDIDATES_MAX); past it the least recently named are evicted.',
    (s) => s.capacity,
  );
  counter(
    'crestwatch_trend_candidates_promoted_total',
    'Candidates this process promoted to trends.',
    (s) => s.promoted,
  );
  counter(
    'crestwatch_trend_candidates_evicted_total',
    'Candidates this process evicted past the capacity (their posts no longer count towards promotion).',
    (s) => s.evicted,
  );
}
