/**
 * The demo source: a deterministic, seeded simulator of a multi-platform public stream (reddit, x, news,
 * hackernews, bluesky, search), so a fresh install shows trends moving within a minute, with no network.
 *
 * Everything is a pure function of (seed, simulated time):
 *  - Time is cut into 10-second slots. A slot's posts come from a PRNG seeded with hash(seed, slot), so any
 *    range of time always yields the same posts and a range split into pieces yields exactly the union
 *    (`external_id` = `demo-<slot>-<n>`, stable; re-polling an overlapping range is deduplicated on store).
 *  - Each topic has a base rate (posts/hour) times a daily rhythm (busiest around 15:00 UTC, quietest around
 *    03:00 UTC) times its shape over days: `steady`, `fading` (a story breaks, then fades over days, and a
 *    new one breaks every few days) or `wave` (rises and falls over several days).
 *  - Bursts: time is also cut into 40-minute epochs; each epoch starts one or two bursts at a hashed instant
 *    on a hashed topic. A burst rises over 40–80 minutes and fades over a few hours, so at any moment a few
 *    topics are surging.
 *  - Texts come from templates with positive, negative and neutral phrasing (clear VADER words: love, great,
 *    terrible, angry, …), hashtags often, `keywords` sometimes, engagement numbers, `demo_user_<n>` authors
 *    and, where a platform has links, `https://example.com/demo/<id>` (a reserved domain).
 *  - A slot's volume is the sum of the topic rates (rounded up or down at random, so even a quiet 30 seconds
 *    holds enough posts for trends); each post's topic is drawn by rate.
 * Volume averages about 1.5 posts per second over all topics (about 1/s around 03:00 UTC, 2.2/s in the
 * afternoon): 72 hours of history is about 390,000 posts. Topic names and brands are fictional; no real
 * person is named. The topics and templates are data (data/demo-*.json), read by demo-topics.ts.
 */
import {
  DEFAULT_PLATFORMS,
  DEMO_PLATFORMS,
  DEMO_TOPICS,
  type DemoPlatform,
  type DemoTopic,
  NEGATIVE,
  NEUTRAL,
  POSITIVE,
  QUERY_SUFFIXES,
} from './demo-topics.ts';
import type { PollingSource, PollResult, SourceContext, SourceSignal } from './types.ts';

export { DEMO_PLATFORMS, DEMO_TOPICS } from './demo-topics.ts';

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Posts are generated per slot of this length. */
const DEMO_SLOT_MS = 10 * SECOND_MS;
const BURST_EPOCH_MS = 40 * MINUTE_MS;
/** A burst is ignored after this many rise times (its level is then below 1 % of the peak). */
const BURST_SPAN_RISES = 5;
const MAX_RISE_MS = 80 * MINUTE_MS;
const BURST_LOOKBACK_EPOCHS = Math.ceil((BURST_SPAN_RISES * MAX_RISE_MS) / BURST_EPOCH_MS) + 1;

const TOPIC_TAG_CHANCE = 0.75;
const KEYWORD_CHANCE = 0.35;

// ---------------------------------------------------------------------------------------------------------
// Deterministic randomness

function fmix32(h: number): number {
  let x = h | 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A 32-bit hash of integers (any safe integer: the high part is mixed in too). */
function hash(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    const lo = part >>> 0;
    const hi = Math.floor(part / 4_294_967_296) >>> 0;
    h = fmix32(h ^ lo);
    h = fmix32((h + Math.imul(hi, 0x27d4eb2f) + 0x165667b1) >>> 0);
  }
  return h;
}

/** mulberry32: a small fast PRNG with good enough statistics for a simulation. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function pickWeighted<T>(random: Random, items: readonly T[], weights: readonly number[], total: number): T {
  let r = random() * total;
  for (let i = 0; i < items.length; i++) {
    r -= weights[i]!;
    if (r < 0) return items[i]!;
  }
  return items[items.length - 1]!;
}

/** Heavy-tailed non-negative integer with median about `median`, at most 200 × the median. */
function heavyTail(random: Random, median: number): number {
  const u = 1 - random(); // (0, 1]
  return Math.floor(Math.min(200, (u ** -0.6 - 1) / 0.516) * median);
}

// Salts keep the independent streams apart.
const SALT_SLOT = 1;
const SALT_BURST = 2;
const SALT_SHAPE = 3;

// ---------------------------------------------------------------------------------------------------------
// Rates

/** Daily rhythm: 1.35 at 15:00 UTC, 0.65 at 03:00 UTC, average 1. */
function dailyFactor(at: number): number {
  const hour = (((at % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
  return 1 + 0.35 * Math.cos((2 * Math.PI * (hour - 15)) / 24);
}

/** The topic's level over days (independent of the daily rhythm). */
function shapeFactor(seed: number, index: number, topic: DemoTopic, at: number): number {
  if (topic.shape === 'steady') return 1;
  const random = mulberry32(hash(seed, SALT_SHAPE, index));
  const periodMs = (3 + random() * 5) * DAY_MS; // 3–8 days
  const phaseMs = random() * periodMs;
  const position = (((at + phaseMs) % periodMs) + periodMs) % periodMs;
  if (topic.shape === 'fading') {
    // A story breaks at the start of each period and fades with a 1.5-day time constant.
    return 0.2 + 2 * Math.exp(-position / (1.5 * DAY_MS));
  }
  return 1 + 0.7 * Math.sin((2 * Math.PI * position) / periodMs);
}

interface Burst {
  topic: number;
  start: number;
  riseMs: number;
  /** Extra posts per hour at the peak (before the daily rhythm). */
  peak: number;
}

const BURST_WEIGHTS = DEMO_TOPICS.map((t) => t.burstiness);
const BURST_WEIGHT_TOTAL = BURST_WEIGHTS.reduce((a, b) => a + b, 0);
const TOPIC_INDEXES = DEMO_TOPICS.map((_, i) => i);

function epochBursts(seed: number, epoch: number): Burst[] {
  const random = mulberry32(hash(seed, SALT_BURST, epoch));
  const count = random() < 0.35 ? 2 : 1;
  const bursts: Burst[] = [];
  for (let i = 0; i < count; i++) {
    bursts.push({
      topic: pickWeighted(random, TOPIC_INDEXES, BURST_WEIGHTS, BURST_WEIGHT_TOTAL),
      start: epoch * BURST_EPOCH_MS + Math.floor(random() * BURST_EPOCH_MS),
      riseMs: (40 + random() * 40) * MINUTE_MS,
      peak: 250 + random() * 650,
    });
  }
  return bursts;
}

/** Rises as (x/T)² to 1 at x = T, then fades: (x/T)² e^{2(1 − x/T)}. */
function pulse(elapsed: number, riseMs: number): number {
  if (elapsed <= 0 || elapsed >= BURST_SPAN_RISES * riseMs) return 0;
  const x = elapsed / riseMs;
  return x * x * Math.exp(2 * (1 - x));
}

class RateModel {
  private readonly bursts = new Map<number, Burst[]>();
  constructor(private readonly seed: number) {}

  private burstsOf(epoch: number): Burst[] {
    let found = this.bursts.get(epoch);
    if (!found) {
      found = epochBursts(this.seed, epoch);
      if (this.bursts.size > 256) this.bursts.clear();
      this.bursts.set(epoch, found);
    }
    return found;
  }

  /** Posts per hour of each topic at instant `at`. */
  rates(at: number): { base: number[]; total: number[] } {
    const daily = dailyFactor(at);
    const base = DEMO_TOPICS.map((topic, i) => topic.rate * daily * shapeFactor(this.seed, i, topic, at));
    const total = [...base];
    const epoch = Math.floor(at / BURST_EPOCH_MS);
    for (let e = epoch - BURST_LOOKBACK_EPOCHS; e <= epoch; e++) {
      for (const burst of this.burstsOf(e)) {
        total[burst.topic]! += burst.peak * daily * pulse(at - burst.start, burst.riseMs);
      }
    }
    return { base, total };
  }
}

/**
 * Posts per hour of each topic (in `DEMO_TOPICS` order) at simulated instant `at`: `base` without bursts,
 * `total` with them. For tests and tooling.
 */
export function demoTopicRates(seed: number, at: number): { base: number[]; total: number[] } {
  return new RateModel(seed).rates(at);
}

// ---------------------------------------------------------------------------------------------------------
// Posts

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fill(template: string, subject: string, fact: string): string {
  return template.replaceAll('{S}', capitalise(subject)).replaceAll('{s}', subject).replaceAll('{f}', fact);
}

const PLATFORM_WEIGHTS = DEMO_TOPICS.map((topic) =>
  DEMO_PLATFORMS.map((p) => topic.platforms?.[p] ?? DEFAULT_PLATFORMS[p]),
);
const PLATFORM_TOTALS = PLATFORM_WEIGHTS.map((w) => w.reduce((a, b) => a + b, 0));

function engagementFor(
  random: Random,
  platform: DemoPlatform,
  heat: number,
): SourceSignal['engagement'] | undefined {
  const h = Math.sqrt(Math.max(1, heat));
  switch (platform) {
    case 'x':
      return {
        likes: heavyTail(random, 12 * h),
        shares: heavyTail(random, 3 * h),
        comments: heavyTail(random, 2 * h),
        views: heavyTail(random, 900 * h),
      };
    case 'bluesky':
      return {
        likes: heavyTail(random, 8 * h),
        shares: heavyTail(random, 2 * h),
        comments: heavyTail(random, h),
      };
    case 'reddit':
      return { likes: heavyTail(random, 25 * h), comments: heavyTail(random, 6 * h) };
    case 'hackernews':
      return { likes: heavyTail(random, 15 * h), comments: heavyTail(random, 5 * h) };
    case 'news':
      return random() < 0.5 ? { shares: heavyTail(random, 20 * h) } : undefined;
    default:
      return undefined;
  }
}

function post(
  random: Random,
  topic: DemoTopic,
  topicIndex: number,
  heat: number,
  id: string,
  observedAt: number,
): SourceSignal {
  const platform = pickWeighted(
    random,
    DEMO_PLATFORMS,
    PLATFORM_WEIGHTS[topicIndex]!,
    PLATFORM_TOTALS[topicIndex]!,
  );
  const subject = pick(random, topic.subjects);
  const factIndex = Math.floor(random() * topic.facts.length);
  const fact = topic.facts[factIndex]!;
  // News leads with one fact (the headline) and goes on with another.
  const otherFact =
    topic.facts[(factIndex + 1 + Math.floor(random() * (topic.facts.length - 1))) % topic.facts.length]!;
  const signal: SourceSignal = {
    source: platform,
    external_id: id,
    text: '',
    observed_at: observedAt,
    lang: 'en',
  };

  if (platform === 'search') {
    const keyword = pick(random, [topic.name, ...topic.keywords.filter((k) => k !== topic.name)]);
    signal.text = `${topic.name.toLowerCase()}${keyword === topic.name ? pick(random, QUERY_SUFFIXES) : ` ${keyword.toLowerCase()}`}`;
    signal.keywords = [keyword];
    const views = heavyTail(random, 200 * Math.sqrt(Math.max(1, heat)));
    signal.engagement = { views };
    return signal;
  }

  // Sentiment: the topic's mood tilts the mix; news is mostly neutral.
  const positive = 0.38 + 0.25 * topic.mood;
  const negative = 0.27 - 0.25 * topic.mood;
  const roll = random() * (platform === 'news' ? 2.2 : 1);
  const bodyFact = platform === 'news' ? otherFact : fact;
  let sentence: string;
  if (roll < positive) sentence = fill(pick(random, POSITIVE), subject, bodyFact);
  else if (roll < positive + negative) sentence = fill(pick(random, NEGATIVE), subject, bodyFact);
  else sentence = fill(pick(random, NEUTRAL), subject, bodyFact);

  const tags: string[] = [];
  const tagChance =
    platform === 'x' || platform === 'bluesky' ? TOPIC_TAG_CHANCE : platform === 'reddit' ? 0.2 : 0;
  if (random() < tagChance) {
    tags.push(`#${topic.hashtags[0]}`);
    if (random() < 0.6) tags.push(`#${topic.hashtags[1] ?? topic.hashtags[0]}`);
  }

  switch (platform) {
    case 'news':
      signal.title = fact;
      signal.text = `${fact} ${sentence}`;
      signal.author = `demo_newsdesk_${1 + Math.floor(random() * 40)}`;
      break;
    case 'hackernews':
      signal.title = fact;
      signal.text = sentence;
      signal.author = `demo_user_${1 + Math.floor(random() * 5000)}`;
      break;
    case 'reddit':
      signal.title = random() < 0.5 ? fact : `What do you think about ${subject}?`;
      signal.text = tags.length > 0 ? `${sentence} ${tags.join(' ')}` : sentence;
      signal.author = `demo_user_${1 + Math.floor(random() * 5000)}`;
      break;
    default:
      signal.text = tags.length > 0 ? `${sentence} ${tags.join(' ')}` : sentence;
      signal.author = `demo_user_${1 + Math.floor(random() * 5000)}`;
  }
  if (platform === 'reddit' || platform === 'news' || platform === 'hackernews') {
    signal.url = `https://example.com/demo/${id}`;
  }
  const keywordChance = platform === 'news' ? 0.6 : KEYWORD_CHANCE;
  if (random() < keywordChance) {
    const first = pick(random, topic.keywords);
    const second = pick(random, topic.keywords);
    signal.keywords = first === second ? [first] : [first, second];
  }
  if (topic.locations && random() < 0.5) signal.location = pick(random, topic.locations);
  const engagement = engagementFor(random, platform, heat);
  if (engagement) signal.engagement = engagement;
  return signal;
}

function slotSignals(seed: number, slot: number, model: RateModel): SourceSignal[] {
  const random = mulberry32(hash(seed, SALT_SLOT, slot));
  const start = slot * DEMO_SLOT_MS;
  const { base, total } = model.rates(start + DEMO_SLOT_MS / 2);
  // The slot's volume follows the rates closely (the expectation rounded up or down at random), so even a
  // quiet 30 seconds has enough posts; which topics they are about is drawn by rate.
  let sum = 0;
  for (const rate of total) sum += rate;
  const expected = (sum * DEMO_SLOT_MS) / HOUR_MS;
  const count = Math.floor(expected) + (random() < expected - Math.floor(expected) ? 1 : 0);
  const drafts: { offset: number; topic: number; heat: number }[] = [];
  for (let n = 0; n < count; n++) {
    const topic = pickWeighted(random, TOPIC_INDEXES, total, sum);
    const heat = base[topic]! > 0 ? total[topic]! / base[topic]! : 1;
    drafts.push({ offset: Math.floor(random() * DEMO_SLOT_MS), topic, heat });
  }
  drafts.sort((a, b) => a.offset - b.offset || a.topic - b.topic);
  return drafts.map((draft, n) =>
    post(
      random,
      DEMO_TOPICS[draft.topic]!,
      draft.topic,
      draft.heat,
      `demo-${slot}-${n}`,
      start + draft.offset,
    ),
  );
}

/**
 * Every simulated post with `observed_at` in [from, to) (epoch ms, simulated time), ordered by time.
 * A pure function of (seed, time): equal arguments give equal output, and adjacent ranges partition it.
 */
export function demoSignals(options: { seed: number; from: number; to: number }): SourceSignal[] {
  const { seed, from, to } = options;
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) return [];
  const model = new RateModel(seed);
  const out: SourceSignal[] = [];
  const first = Math.floor(from / DEMO_SLOT_MS);
  const last = Math.floor((to - 1) / DEMO_SLOT_MS);
  for (let slot = first; slot <= last; slot++) {
    for (const signal of slotSignals(seed, slot, model)) {
      if (signal.observed_at >= from && signal.observed_at < to) out.push(signal);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The polling source

/** The first poll reaches back this far (simulated), so it already yields posts. */
const DEMO_LOOKBACK_MS = 5 * MINUTE_MS;
/** One poll emits at most this much simulated time; the cursor catches up over later polls. */
export const DEMO_MAX_POLL_MS = 10 * MINUTE_MS;
/** After downtime the simulator skips ahead rather than replaying more than this (simulated). */
export const DEMO_MAX_BACKLOG_MS = HOUR_MS;

/** Cursor: the simulated instant emitted up to, and the real instant it maps to. */
interface DemoCursor {
  sim: number;
  real: number;
}

function parseCursor(cursor: string | null): DemoCursor | null {
  if (cursor === null) return null;
  try {
    const parsed = JSON.parse(cursor) as Partial<DemoCursor>;
    if (Number.isFinite(parsed.sim) && Number.isFinite(parsed.real)) {
      return { sim: parsed.sim!, real: parsed.real! };
    }
  } catch {
    // An unreadable cursor starts the simulation afresh.
  }
  return null;
}

/**
 * The demo simulator as a polling source.
 *
 * Simulated time runs `speed` times faster than real time: on the first poll it is
 * `startedAt + (now − startedAt) × speed`. The cursor stores the simulated instant emitted up to together
 * with the real instant it corresponds to, and later polls continue that line (`sim = cursor.sim +
 * (now − cursor.real) × speed`), so simulated time is continuous across restarts and a high speed never
 * leaves the cursor stranded in the simulated future.
 *
 * `observed_at` of an emitted post is the real instant corresponding to its simulated instant (rounded
 * down), so it is never later than `now`; at speed 60 a real minute carries a simulated hour of posts.
 * The first poll starts 5 simulated minutes back; one poll covers at most 10 simulated minutes; after a
 * long stop the simulator replays at most one simulated hour.
 */
export function demoSource(options: {
  seed: number;
  speed: number;
  startedAt: number;
  intervalMs?: number;
}): PollingSource {
  const { seed, startedAt } = options;
  const speed = options.speed > 0 ? options.speed : 1;
  return {
    id: 'demo',
    name: 'Demo simulator',
    attribution: 'Crestwatch demo simulator (synthetic data)',
    // Generated here from a seed: there is no third party whose licence could apply.
    licence_url: '',
    coverage:
      'Synthetic posts from a seeded simulator of reddit, x, news, hackernews, bluesky and search activity ' +
      'about fictional topics; no real platform is contacted and no licence applies.',
    kind: 'poll',
    intervalMs: options.intervalMs ?? 2000,
    async poll(context: SourceContext): Promise<PollResult> {
      const now = context.now;
      const anchor = parseCursor(context.cursor) ?? {
        sim: startedAt + (now - startedAt) * speed - DEMO_LOOKBACK_MS,
        real: now - DEMO_LOOKBACK_MS / speed,
      };
      const simNow = anchor.sim + (now - anchor.real) * speed;
      const realOf = (sim: number) => anchor.real + (sim - anchor.sim) / speed;
      if (simNow <= anchor.sim) {
        return { signals: [], cursor: JSON.stringify(anchor) };
      }
      const from = Math.max(anchor.sim, simNow - DEMO_MAX_BACKLOG_MS);
      const to = Math.min(simNow, from + DEMO_MAX_POLL_MS);
      const signals = demoSignals({ seed, from, to });
      for (const signal of signals) {
        signal.observed_at = Math.min(now, Math.floor(realOf(signal.observed_at)));
      }
      const cursor: DemoCursor = { sim: to, real: realOf(to) };
      return { signals, cursor: JSON.stringify(cursor) };
    },
  };
}
