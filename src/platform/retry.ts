// Retrying well: one exponential backoff with jitter, and one reader of `Retry-After`.

export interface BackoffPolicy {
  /** The delay after the first failure. */
  baseMs: number;
  capMs: number;
  /** The delay is multiplied by a factor drawn from [low, high]: failing callers do not retry in lockstep. */
  jitter?: readonly [low: number, high: number];
}

/** Delay after failure number `attempt` (1 = the first): base · 2^(attempt − 1), capped, then jittered. */
export function backoffMs(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const n = Number.isFinite(attempt) ? Math.max(1, Math.floor(attempt)) : 1;
  // 2^60 ms is far past any cap; bounding the exponent keeps the product finite.
  const value = Math.min(policy.baseMs * 2 ** Math.min(n - 1, 60), policy.capMs);
  const [low, high] = policy.jitter ?? [0.5, 1];
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(value * (low + (high - low) * r));
}

/**
 * A `Retry-After` value (delta-seconds or an HTTP date; the first of repeated headers) as milliseconds from
 * `now`, never negative; undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | string[] | null | undefined, now: number): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
  // An HTTP date names its day or month ("Wed, 21 Oct 2026 07:28:00 GMT"); V8 would also read "-5" as a date.
  if (!/[A-Za-z]{3}/.test(raw)) return undefined;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
