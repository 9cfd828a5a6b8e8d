// A batch's mentions of one trend key, added up (processor.ts `accumulate`), and its exchange with the candidates
// (candidates.ts): what a held phrase's batch added as plain data, and that data added back on promotion.
import { normaliseKey } from '../text/index.ts';
import {
  CANDIDATE_TEXTS,
  type CandidatePast,
  type CandidatePost,
  type PastHour,
  type PastMinute,
} from './candidates.ts';
import type { HourlyIncrement } from './store.ts';

/** Sample texts kept per trend in a batch (a new trend is categorised over them). */
export const SAMPLE_TEXTS = 20;
export const TYPE_RANK: Record<string, number> = { hashtag: 3, entity: 2, keyword: 1 };

export interface Accumulated {
  key: string;
  type: string;
  /** The last signal (a number of the accumulate call) that mentioned it: a signal mentions a trend once. */
  mark: number;
  surfaces: Map<string, number>;
  texts: string[];
  /** Category hints of its signals, one vote each (explicit categories and subreddits apart). */
  hints: { category: string[]; subreddit: string[] };
  mentions: number;
  firstSeen: number;
  lastSeen: number;
  /** Hourly buckets by hour; a hour's buckets of other platforms follow through `next`. */
  hourly: Map<number, HourlyBucket>;
  minutes: Map<number, { mentions: number; evidence: number }>;
  /** Named by a post's own keywords (or a user's interest): a trend at once, never a candidate. */
  forced: boolean;
  /** Independent posts that named it in this batch, up to the promotion threshold (candidates.ts). */
  posts: CandidatePost[];
  /** Posts that also named a phrase it may be a fragment of (`foldable`), by that phrase's key. */
  related: Map<string, number>;
}

export type HourlyBucket = HourlyIncrement & { next: HourlyBucket | undefined };

/** The trend's bucket of one hour and platform, added when missing (a trend is on few platforms in an hour). */
export function hourlyBucket(acc: Accumulated, hour: number, platform: string): HourlyBucket {
  let bucket = acc.hourly.get(hour);
  while (bucket !== undefined && bucket.platform !== platform) bucket = bucket.next;
  if (bucket === undefined) {
    bucket = {
      trend_id: 0,
      platform,
      hour,
      mentions: 0,
      sentiment_sum: 0,
      positive: 0,
      negative: 0,
      evidence: 0,
      next: acc.hourly.get(hour),
    };
    acc.hourly.set(hour, bucket);
  }
  return bucket;
}

/** A post's own keywords (JSON, as stored) as trend keys. */
export function ownKeys(keywords: string): Set<string> {
  const keys = new Set<string>();
  try {
    for (const keyword of JSON.parse(keywords) as unknown[]) {
      if (typeof keyword !== 'string') continue;
      const key = normaliseKey(keyword);
      if (key !== null) keys.add(key);
    }
  } catch {
    // Stored by the signals module as a JSON array; anything else names no keyword.
  }
  return keys;
}

/**
 * Keeps `post` among a batch's independent posts of a key (at most `max`): added when its account and text are new,
 * in place of the post it repeats when it is newer (the promotion window counts back from the newest post).
 */
export function keepIndependent(posts: CandidatePost[], post: CandidatePost, max: number): void {
  let repeats = -1;
  for (let i = 0; i < posts.length; i++) {
    const other = posts[i]!;
    if (other.account !== post.account && other.fingerprint !== post.fingerprint) continue;
    if (repeats >= 0) return;
    repeats = i;
  }
  if (repeats >= 0) {
    if (post.at > posts[repeats]!.at) posts[repeats] = post;
  } else if (posts.length < max) posts.push(post);
}

/** What a held candidate's batch added, as plain data (candidates.ts). */
export function pastOf(acc: Accumulated): CandidatePast {
  const hourly: PastHour[] = [];
  for (const first of acc.hourly.values()) {
    for (let b: HourlyBucket | undefined = first; b !== undefined; b = b.next) {
      hourly.push([b.platform, b.hour, b.mentions, b.sentiment_sum, b.positive, b.negative, b.evidence]);
    }
  }
  const minutes: PastMinute[] = [];
  for (const [minute, counts] of acc.minutes) minutes.push([minute, counts.mentions, counts.evidence]);
  return {
    type: acc.type,
    mentions: acc.mentions,
    firstSeen: acc.firstSeen,
    lastSeen: acc.lastSeen,
    surfaces: [...acc.surfaces],
    texts: acc.texts.slice(0, CANDIDATE_TEXTS),
    hints: {
      category: acc.hints.category.slice(0, CANDIDATE_TEXTS),
      subreddit: acc.hints.subreddit.slice(0, CANDIDATE_TEXTS),
    },
    hourly,
    minutes,
    related: [...acc.related],
  };
}

/** Adds what a candidate's earlier posts added to a batch's accumulation of it (its promotion). */
export function addPast(acc: Accumulated, past: CandidatePast): void {
  acc.mentions += past.mentions;
  acc.firstSeen = Math.min(acc.firstSeen, past.firstSeen);
  acc.lastSeen = Math.max(acc.lastSeen, past.lastSeen);
  if ((TYPE_RANK[past.type] ?? 0) > (TYPE_RANK[acc.type] ?? 0)) acc.type = past.type;
  for (const [form, n] of past.surfaces) acc.surfaces.set(form, (acc.surfaces.get(form) ?? 0) + n);
  for (const text of past.texts) if (acc.texts.length < SAMPLE_TEXTS) acc.texts.push(text);
  acc.hints.category.push(...past.hints.category);
  acc.hints.subreddit.push(...past.hints.subreddit);
  for (const [platform, hour, mentions, sentiment_sum, positive, negative, evidence] of past.hourly) {
    const bucket = hourlyBucket(acc, hour, platform);
    bucket.mentions += mentions;
    bucket.sentiment_sum += sentiment_sum;
    bucket.positive += positive;
    bucket.negative += negative;
    bucket.evidence += evidence;
  }
  for (const [key, posts] of past.related ?? []) acc.related.set(key, (acc.related.get(key) ?? 0) + posts);
  for (const [minute, mentions, evidence] of past.minutes) {
    const counts = acc.minutes.get(minute);
    if (counts) {
      counts.mentions += mentions;
      counts.evidence += evidence;
    } else acc.minutes.set(minute, { mentions, evidence });
  }
}
