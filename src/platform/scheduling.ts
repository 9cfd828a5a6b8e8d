// Cooperative scheduling for long work on the API's event loop. better-sqlite3 is synchronous, so a chain of
// awaited queries never returns to the event loop by itself (each await resumes as a microtask); long passes
// must hand it back now and then so requests and live-stream messages are not held up behind them.

/** Resolves after the event loop has run its pending I/O and timers once. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Yields when more than `budgetMs` passed since the last yield: cheap to call in a tight loop. */
export class TimeSlicer {
  private since = performance.now();

  constructor(private readonly budgetMs = 4) {}

  async maybeYield(): Promise<void> {
    if (performance.now() - this.since < this.budgetMs) return;
    await yieldToEventLoop();
    this.since = performance.now();
  }
}

/**
 * Runs `work` again and again while `pending` is unsettled, until it settles or `work` answers that it had
 * nothing to do: for filling the event loop's wait on another thread with work that would otherwise come later.
 * Only a wait longer than `graceMs` is filled: a short one means the other thread keeps pace, and work moved
 * into it would delay what follows rather than use idle time.
 */
export async function workWhilePending(
  pending: Promise<unknown>,
  work: () => Promise<boolean>,
  graceMs: number,
): Promise<void> {
  let settled = false;
  const mark = () => {
    settled = true;
  };
  const settles = pending.then(mark, mark);
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([settles, grace]);
  clearTimeout(timer);
  while (!settled && (await work())) await yieldToEventLoop();
}
