import { vaderCompound } from './vader.ts';

// VADER's cost grows with text length and a long article's tone is set early; 5,000 chars bounds the
// worst case (signal text may be 10,000 chars) without changing scores of social-media-sized texts.
const MAX_CHARS = 5000;

/**
 * VADER compound sentiment of `text`: a number in [-1, 1] (0 for empty or unscorable text).
 * Conventional reading: ≥ 0.05 positive, ≤ -0.05 negative, otherwise neutral.
 */
export function compound(text: string | null | undefined): number {
  if (typeof text !== 'string') return 0;
  const trimmed = text.trim();
  if (trimmed.length === 0) return 0;
  const input = trimmed.length > MAX_CHARS ? trimmed.slice(0, MAX_CHARS) : trimmed;
  let score: number;
  try {
    // Same value as vader-sentiment's polarity_scores(input).compound, several times faster.
    score = vaderCompound(input);
  } catch {
    // Scoring has no known failure modes; a scoring failure must not fail ingestion.
    return 0;
  }
  if (!Number.isFinite(score)) return 0;
  const clamped = Math.max(-1, Math.min(1, score));
  return clamped === 0 ? 0 : clamped; // no -0 in JSON-bound values
}
