// Retries: a fetch wrapper that repeats a request the server asked to be repeated (429, 503 with Retry-After,
// a 409 for an Idempotency-Key still in progress) or that failed on the network, when repeating it is safe.
// POSTs get an Idempotency-Key before the first attempt and keep it on every retry, so the server runs the
// request at most once (it replays the stored answer for a repeat).

export interface RetryOptions {
  /** Attempts in all, the first included (1 = never retry). Default 4. */
  maxAttempts?: number;
  /** Backoff base: attempt n waits up to baseDelayMs × 2^(n−1), drawn uniformly (full jitter). Default 500. */
  baseDelayMs?: number;
  /** Cap of one backoff wait. Default 20 s. */
  maxDelayMs?: number;
  /**
   * A `Retry-After` longer than this is not waited for: the answer is returned as it is (a daily quota that
   * resets in hours is the caller's decision, not a sleep). Default 60 s.
   */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/** Methods that have the same effect however often they run (RFC 9110 §9.2.2). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** The code of the 409 answered while a request with the same Idempotency-Key is still running. */
const IDEMPOTENCY_IN_PROGRESS = 'idempotency_in_progress';

/** Full-jitter exponential backoff: a uniform draw from [0, min(max, base × 2^(attempt−1))). */
export function backoffDelayMs(
  attempt: number,
  options: Pick<Required<RetryOptions>, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * `Retry-After` in milliseconds from `nowMs`: delay-seconds (`120`) or an HTTP date. Undefined when absent or
 * unreadable; a date in the past is 0.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** What to do with an answer: retry after `delayMs`, or hand it to the caller. */
type RetryDecision = { retry: true; delayMs: number } | { retry: false };

/**
 * The decision for an answer with `status` on attempt `attempt` (1-based). 429 is retried (after Retry-After,
 * or with backoff without one); 503 only with a Retry-After, since Crestwatch answers 503 without one for a
 * capability it will never have; a 409 for an Idempotency-Key in progress with backoff.
 */
export function decideOnStatus(
  input: { status: number; retryAfterMs: number | undefined; code: string | undefined; attempt: number },
  options: Required<RetryOptions>,
  random: () => number,
): RetryDecision {
  if (input.attempt >= options.maxAttempts) return { retry: false };
  const backoff = () => backoffDelayMs(input.attempt, options, random);
  if (input.status === 429 || input.status === 503) {
    if (input.retryAfterMs === undefined)
      return input.status === 429 ? { retry: true, delayMs: backoff() } : { retry: false };
    if (input.retryAfterMs > options.maxRetryAfterMs) return { retry: false };
    return { retry: true, delayMs: input.retryAfterMs };
  }
  if (input.status === 409 && input.code === IDEMPOTENCY_IN_PROGRESS)
    return { retry: true, delayMs: backoff() };
  return { retry: false };
}

/** Whether a request that failed on the network may be sent again: idempotent, or made so by its key. */
export function safeToResend(method: string, headers: Headers): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase()) || headers.has('idempotency-key');
}

type Fetch = (input: Request) => Promise<Response>;

interface RetryingFetchOptions {
  fetch: Fetch;
  retry: Required<RetryOptions>;
  /** Milliseconds since the epoch, for HTTP-date Retry-After values. */
  now: () => number;
  random: () => number;
  randomUUID: () => string;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The `code` of a problem+json answer, read from a copy so the caller still gets the whole body. */
async function problemCode(response: Response): Promise<string | undefined> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return undefined;
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

/** A fetch that adds the Idempotency-Key to POSTs and retries as `decideOnStatus` and `safeToResend` say. */
export function retryingFetch(options: RetryingFetchOptions): Fetch {
  const sleep = options.sleep ?? abortableSleep;
  return async (input) => {
    const request = input;
    if (request.method.toUpperCase() === 'POST' && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', options.randomUUID());
    }
    for (let attempt = 1; ; attempt++) {
      // Each attempt sends a copy: a body can be read once.
      const copy = request.clone();
      let response: Response;
      try {
        response = await options.fetch(copy);
      } catch (error) {
        if (request.signal.aborted || attempt >= options.retry.maxAttempts) throw error;
        if (!safeToResend(request.method, request.headers)) throw error;
        await sleep(backoffDelayMs(attempt, options.retry, options.random), request.signal);
        continue;
      }
      if (response.ok) return response;
      const decision = decideOnStatus(
        {
          status: response.status,
          retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), options.now()),
          code: response.status === 409 ? await problemCode(response) : undefined,
          attempt,
        },
        options.retry,
        options.random,
      );
      if (!decision.retry) return response;
      // Free the connection before waiting.
      await response.body?.cancel().catch(() => {});
      await sleep(decision.delayMs, request.signal);
    }
  };
}
