// The stated shares of an insight: how many of a trend's mentions are negative, positive and neutral.
// Counting each mention by its category ("classify and count") understates a strongly negative audience: on
// posts written to a company the classifier finds about four in five complaints, and the ones it misses
// (plain reports such as "put me on a flight that left 10 minutes ago") read as neutral or faintly positive,
// so a brand that 80 % of posts complain to reads as about 65 % negative. What a reading misses is
// measurable, though: of the posts to a company that read as neutral statements, people labelled about two in
// five negative. So a mention written to an account (its text holds an @handle) counts as the proportions
// people gave posts with the same reading (probabilistic classify and count), re-weighted to the trend's own
// mix of labels, which is estimated from the same mentions (a brand most customers complain to has more
// complaints among its neutral statements too); any other mention counts as its category. Calibration posts:
// the held-out customer-post sets 1–3 of `npm run eval` (353 posts to companies, never used to write a
// complaint rule); held-out sets 4 to 6 test the estimate. docs/metrics.md has the table and the figures.

/** A text's sentiment category (sentiment.ts re-exports it as TextSentiment). */
export type TextSentiment = 'positive' | 'negative' | 'neutral';

/** How a post to an account reads: its category, how strongly, and for a neutral one whether it asks. */
export type Reading =
  | 'negative-strong'
  | 'negative-weak'
  | 'neutral-question'
  | 'neutral-statement'
  | 'positive-weak'
  | 'positive-strong';

/** Score magnitude from which a negative or positive reading is strong (VADER's scale, −1 to 1). */
const STRONG = 0.4;

/** An @handle at the start or after a space or bracket (not an e-mail address). */
const ADDRESSED = /(?:^|[\s([{"'“])@[A-Za-z0-9_]/u;
/**
 * Handles that credit someone rather than write to them: "RT @x:", "MT @x", "via @x", "h/t @x" ("cc @x" asks
 * the account to read, so it addresses it).
 */
const CREDITED = /(?:^|[^\w@])(?:rt|mt|via|h\/t)\s*:?\s*@[A-Za-z0-9_]+/giu;

/** Whether a text is written to an account: it holds an @handle that does not only credit or copy one. */
function isAddressed(text: string): boolean {
  return ADDRESSED.test(text) && ADDRESSED.test(text.replace(CREDITED, ' '));
}

/**
 * A clause that asks for information in the first person, with or without a question mark (posts often have
 * none): "how do I …", "can I …", "what should we …", "is there …". Not "how am I supposed to" or "where is
 * my bag": those are complaints put as questions, and a complaint is not asked by the customer about
 * themselves.
 */
const ASKS = new RegExp(
  String.raw`(?:^|[.!,;:()\-–—]\s*|^(?:\s*@\w+)+\s+)` +
    String.raw`(?:(?:how|what|when|which|where|can|could|do|does|should|may|will|would)\s+` +
    String.raw`(?:(?:do|does|can|could|should|will|would|much|many|long|early|far)\s+)?(?:i|we)\b|(?:is|are)\s+there\b)`,
  'iu',
);

/** A neutral text asks: it holds a question mark or a first-person request for information. */
function asks(text: string): boolean {
  return text.includes('?') || ASKS.test(text);
}

/** The reading of a post to an account; null for any other text (it counts as its category). */
export function readingOf(text: string, score: number, category: TextSentiment): Reading | null {
  if (!isAddressed(text)) return null;
  if (category === 'negative') return score <= -STRONG ? 'negative-strong' : 'negative-weak';
  if (category === 'positive') return score >= STRONG ? 'positive-strong' : 'positive-weak';
  return asks(text) ? 'neutral-question' : 'neutral-statement';
}

interface LabelCounts {
  posts: number;
  negative: number;
  positive: number;
  neutral: number;
}

/**
 * The calibration: per reading, how the held-out posts 1–3 with that reading were labelled. Measured with
 * the classifier as shipped; test/modules/insights/share-estimate.test.ts recomputes it, so a change to the
 * classifier that moves a post to another reading fails until this table is measured again.
 */
export const READING_CALIBRATION: Readonly<Record<Reading, LabelCounts>> = {
  'negative-strong': { posts: 145, negative: 143, positive: 1, neutral: 1 },
  'negative-weak': { posts: 31, negative: 26, positive: 4, neutral: 1 },
  'neutral-question': { posts: 59, negative: 2, positive: 0, neutral: 57 },
  'neutral-statement': { posts: 33, negative: 14, positive: 4, neutral: 15 },
  'positive-weak': { posts: 31, negative: 12, positive: 16, neutral: 3 },
  'positive-strong': { posts: 54, negative: 7, positive: 45, neutral: 2 },
};

interface LabelShares {
  negative: number;
  positive: number;
  neutral: number;
}

const READINGS = Object.keys(READING_CALIBRATION) as Reading[];
const LABELS = ['negative', 'positive', 'neutral'] as const;

/** Per reading, the share of each label, add-one smoothed (a label never seen is not 0); computed once. */
const LABEL_SHARES = new Map<Reading, LabelShares>(
  READINGS.map((r) => {
    const c = READING_CALIBRATION[r];
    const total = c.posts + 3;
    return [
      r,
      {
        negative: (c.negative + 1) / total,
        positive: (c.positive + 1) / total,
        neutral: (c.neutral + 1) / total,
      },
    ];
  }),
);

/** The share of each label among calibration posts with this reading (smoothed). */
export function labelSharesOf(reading: Reading): LabelShares {
  return LABEL_SHARES.get(reading)!;
}

/** The calibration posts' label mix, from the smoothed shares (so posts mixed like them are a fixed point). */
const CALIBRATION_MIX: LabelShares = (() => {
  const posts = READINGS.reduce((total, r) => total + READING_CALIBRATION[r].posts, 0);
  const mix: LabelShares = { negative: 0, positive: 0, neutral: 0 };
  for (const r of READINGS) {
    const shares = labelSharesOf(r);
    for (const label of LABELS) mix[label] += (READING_CALIBRATION[r].posts / posts) * shares[label];
  }
  return mix;
})();

/**
 * How many mentions the calibration's label mix weighs as, against a trend's own (a prior): with a handful
 * of mentions the estimate stays near the calibration's shares, with hundreds it follows the trend's own mix.
 */
const PRIOR_MENTIONS = 20;
const MAX_ROUNDS = 200;
const CONVERGED = 1e-9;

/** Expected mentions per label (see the top of this file and docs/metrics.md). */
interface EstimatedCounts extends LabelShares {
  /** Mentions read. */
  count: number;
  /** Of them, written to an account (estimated from their reading). */
  addressed: number;
}

/**
 * The expected number of mentions per label. A mention not written to an account counts 1 towards its
 * category. One written to an account counts as its reading's label shares re-weighted to the trend's own
 * label mix π: w(l) ∝ share(reading, l) × π(l) / π_cal(l), where π is estimated from the mentions written
 * to an account (expectation–maximisation, starting from the calibration's mix π_cal, which weighs as
 * PRIOR_MENTIONS mentions): a complaint reads like a complaint whatever the brand, but how many of a brand's
 * neutral statements are complaints depends on how many of its customers complain.
 */
export function estimateCounts(
  mentions: readonly { reading?: Reading | null; category: TextSentiment }[],
): EstimatedCounts {
  const byReading = new Map<Reading, number>();
  const fixed: LabelShares = { negative: 0, positive: 0, neutral: 0 };
  for (const m of mentions) {
    if (m.reading == null) fixed[m.category]++;
    else byReading.set(m.reading, (byReading.get(m.reading) ?? 0) + 1);
  }
  const count = mentions.length;
  const addressed = count - fixed.negative - fixed.positive - fixed.neutral;
  const expected = (mix: LabelShares): LabelShares => {
    const out = { ...fixed };
    for (const [reading, n] of byReading) {
      const shares = labelSharesOf(reading);
      const weights = LABELS.map((l) => (shares[l] * mix[l]) / CALIBRATION_MIX[l]);
      const total = weights.reduce((a, w) => a + w, 0);
      LABELS.forEach((l, i) => {
        out[l] += (n * weights[i]!) / total;
      });
    }
    return out;
  };
  let mix = { ...CALIBRATION_MIX };
  let counts = expected(mix);
  for (let round = 0; round < MAX_ROUNDS && addressed > 0; round++) {
    const next: LabelShares = { negative: 0, positive: 0, neutral: 0 };
    // The mix of the mentions written to an account only: the others are a different population (news, …).
    for (const l of LABELS)
      next[l] = (counts[l] - fixed[l] + PRIOR_MENTIONS * CALIBRATION_MIX[l]) / (addressed + PRIOR_MENTIONS);
    const moved = Math.max(...LABELS.map((l) => Math.abs(next[l] - mix[l])));
    mix = next;
    counts = expected(mix);
    if (moved < CONVERGED) break;
  }
  return { ...counts, count, addressed };
}
