// Event-loop delay watch: past the threshold new requests get 503 `overloaded` instead of queueing up.
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 10;
const SAMPLE_MS = 1000;

export class OverloadMonitor {
  overloaded = false;
  private histogram: IntervalHistogram | null = null;
  private timer: NodeJS.Timeout | null = null;

  /** `thresholdMs` 0 turns the watch off. */
  constructor(private readonly thresholdMs: number) {}

  /**
   * Starts watching. Called once the app is built: building it (schema compilation, migrations) blocks the
   * loop by design and must not count as overload.
   */
  start(): void {
    const thresholdMs = this.thresholdMs;
    if (thresholdMs <= 0 || this.histogram) return;
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    this.histogram = histogram;
    let due = performance.now() + SAMPLE_MS;
    this.timer = setInterval(() => {
      // Mean delay beyond the sampling resolution over the last window (the measure @fastify/under-pressure
      // uses), or this timer's own lateness when the histogram has no sample yet for a block that just ended.
      const now = performance.now();
      const mean = histogram.count > 0 ? histogram.mean / 1e6 - RESOLUTION_MS : 0;
      const delay = Math.max(0, Number.isNaN(mean) ? 0 : mean, now - due);
      this.overloaded = delay > thresholdMs;
      due = now + SAMPLE_MS;
      histogram.reset();
    }, SAMPLE_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.histogram?.disable();
  }
}
