// Which interest a trend matches, which open crisis gates it, and whether an insight is still fresh: names are
// compared by their normalised keys as whole words, as trends and interests are keyed.
import { normaliseKey } from '../text/index.ts';
import { type CrisisFacts, type InsightFacts, type InterestFacts, RULES } from './facts.ts';

/** The key a name is matched by (as trends and interests are keyed), or null. */
function keyOf(text: string): string | null {
  return normaliseKey(text.trim().replace(/^#/, ''));
}

/** ` key ` for whole-word containment; alternatives joined by `|`. */
export function paddedWords(names: (string | null)[]): string {
  const keys = [...new Set(names.map((n) => (n ? keyOf(n) : null)).filter((k): k is string => k !== null))];
  return keys.length === 0 ? ' ' : ` ${keys.join(' | ')} `;
}

/** The first interest whose key occurs as whole words in the name's key. */
export function matchingInterest(name: string, interests: readonly InterestFacts[]): InterestFacts | null {
  const key = keyOf(name);
  if (key === null) return null;
  const padded = ` ${key} `;
  for (const interest of interests) {
    const k = keyOf(interest.keyword);
    if (k !== null && padded.includes(` ${k} `)) return interest;
  }
  return null;
}

/** An open crisis of severity ≥ high about the trend: its trend_id, or a keyword or entity in the name. */
export function gatingCrisis(trend: { id: number; title: string }, crises: readonly CrisisFacts[]) {
  const key = keyOf(trend.title);
  const padded = key === null ? '' : ` ${key} `;
  return (
    crises.find((c) => {
      if (c.severity !== 'high' && c.severity !== 'critical') return false;
      if (c.trend_id === trend.id) return true;
      return [...c.source_keywords, c.impacted_entity].some((name) => {
        const k = name ? keyOf(name) : null;
        return k !== null && padded.includes(` ${k} `);
      });
    }) ?? null
  );
}

export const isFreshInsight = (insight: InsightFacts | undefined, now: number): insight is InsightFacts =>
  insight !== undefined && now - insight.generated_at <= RULES.insightFreshMs;
