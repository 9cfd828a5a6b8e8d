import { readSentences } from './complaint-sentences.ts';
import { readComplaint } from './complaints.ts';
import { vaderCompound } from './vader.ts';

// VADER's cost grows with text length and a long article's tone is set early; 5,000 chars bounds the
// worst case (signal text may be 10,000 chars) without changing scores of social-media-sized texts.
const MAX_CHARS = 5000;

/** VADER's normalisation constant: compound = sum / √(sum² + α). */
const ALPHA = 15;
/** |compound| is read as at most this when it is turned back into a sum (1 would be an infinite sum). */
const MAX_READ = 0.9999;
/** A corrected sum closer to zero than this is zero (the inverse of a 4-decimal compound is no finer). */
const ZERO_SUM = 0.01;

function prepare(text: string | null | undefined): string | null {
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  if (trimmed.length === 0) return null;
  return trimmed.length > MAX_CHARS ? trimmed.slice(0, MAX_CHARS) : trimmed;
}

function finish(score: number): number {
  if (!Number.isFinite(score)) return 0;
  const clamped = Math.max(-1, Math.min(1, score));
  return clamped === 0 ? 0 : clamped; // no -0 in JSON-bound values
}

function vaderOf(input: string): number {
  try {
    // Same value as vader-sentiment's polarity_scores(input).compound, several times faster.
    return vaderCompound(input);
  } catch {
    // Scoring has no known failure modes; a scoring failure must not fail ingestion.
    return 0;
  }
}

/**
 * VADER compound sentiment of `text`: a number in [-1, 1] (0 for empty or unscorable text).
 * Conventional reading: ≥ 0.05 positive, ≤ -0.05 negative, otherwise neutral.
 * Plain VADER, without the complaint layer: what crisis detection reads (see `mentionScore`).
 */
export function compound(text: string | null | undefined): number {
  const input = prepare(text);
  return input === null ? 0 : finish(vaderOf(input));
}

/** VADER's punctuation emphasis: 0.292 per "!" (at most 4), plus 0.18 per "?" when there are 2–3 (0.96 above). */
function emphasis(exclamations: number, questions: number): number {
  const ep = Math.min(exclamations, 4) * 0.292;
  const qm = questions > 1 ? (questions <= 3 ? questions * 0.18 : 0.96) : 0;
  return ep + qm;
}

/** A mention's score and whether the complaint layer changed it. */
interface MentionSentiment {
  /** In [-1, 1]; read with VADER's cut-offs (≥ 0.05 positive, ≤ −0.05 negative). */
  score: number;
  /**
   * True when the complaint layer read the text (complaint, sarcasm or courtesy language, or a complaint
   * phrase it neutralised as asked about, hypothetical or solved), whether or not the score moved.
   */
  corrected: boolean;
  /** Whether the layer reads the text as a complaint (complaints.ts: phrase weights ≤ −1.5 or a strong word). */
  complaint: boolean;
}

/**
 * The sentiment of one mention: VADER compound corrected by the complaint layer (complaints.ts), in [-1, 1].
 * The correction Δ is in VADER's units, so it is applied to VADER's sum: s = c·√(α / (1 − c²)) recovers the
 * sum from the compound c (|c| read as at most 0.9999), the punctuation emphasis e is taken off, Δ added, e
 * put back on the new sum's side, and the result normalised as VADER does, s′ / √(s′² + α), α = 15, rounded
 * to 4 decimals. A text the layer leaves alone (Δ = 0: no complaint, courtesy or service language) scores
 * exactly its VADER compound. Same 0.05 cut-offs. docs/metrics.md states the same.
 */
export function mentionSentiment(text: string | null | undefined): MentionSentiment {
  const input = prepare(text);
  if (input === null) return { score: 0, corrected: false, complaint: false };
  const c = vaderOf(input);
  let reading: ReturnType<typeof readComplaint>;
  try {
    reading = readComplaint(input);
  } catch {
    // Like VADER, the layer has no known failure modes; if it had one, the mention keeps its VADER score.
    return { score: finish(c), corrected: false, complaint: false };
  }
  // A text the layer read but did not move (a phrase neutralised as a question, a hypothetical or a solved
  // problem) keeps VADER's score and is still marked corrected: the layer has read it.
  if (reading.delta === 0)
    return { score: finish(c), corrected: reading.matched, complaint: reading.complaint };
  return {
    score: corrected(c, reading.delta, reading.exclamations, reading.questions),
    corrected: true,
    complaint: reading.complaint,
  };
}

/** VADER compound `c` corrected by Δ (see `mentionSentiment`), rounded to 4 decimals. */
function corrected(c: number, delta: number, exclamations: number, questions: number): number {
  if (delta === 0) return finish(c);
  const read = Math.max(-MAX_READ, Math.min(MAX_READ, c));
  const sum = read * Math.sqrt(ALPHA / (1 - read * read));
  const e = emphasis(exclamations, questions);
  const bare = sum > 0 ? sum - e : sum < 0 ? sum + e : 0;
  // Within ±0.01 of zero the sum is zero: a compound with 4 decimals does not give its sum more precisely.
  const sum0 = bare + delta;
  const s1 = Math.abs(sum0) < ZERO_SUM ? 0 : sum0;
  const s2 = s1 > 0 ? s1 + e : s1 < 0 ? s1 - e : 0;
  return finish(Number.parseFloat((s2 / Math.sqrt(s2 * s2 + ALPHA)).toFixed(4)));
}

function count(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/**
 * The score of each sentence of `text` read within the whole text: the sentence's own VADER compound
 * corrected by the part of the complaint layer's Δ that comes from its words (the layer reads the whole text,
 * so a sentence of thanks after a complaint is read as courtesy and a lone "Great." after a delay as
 * sarcasm), and whether the sentence holds a complaint itself. `[]` for empty text. What insights' narrative
 * reading uses (src/modules/insights/sentiment.ts); the per-mention score does not.
 */
export function sentenceSentiments(text: string | null | undefined): { score: number; complaint: boolean }[] {
  const input = prepare(text);
  if (input === null) return [];
  try {
    return readSentences(input).map((r) => {
      const sentence = input.slice(r.from, r.to);
      return {
        score: corrected(vaderOf(sentence), r.delta, count(sentence, '!'), count(sentence, '?')),
        complaint: r.complaint,
      };
    });
  } catch {
    return [];
  }
}

/** `mentionSentiment(text).score`: the per-mention score trends sum at ingest (analysis.ts). */
export function mentionScore(text: string | null | undefined): number {
  return mentionSentiment(text).score;
}
