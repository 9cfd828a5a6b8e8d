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
