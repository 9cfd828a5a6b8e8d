// Event-loop delay watch: past the threshold new requests get 503 `overloaded` instead of queueing up.
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 10;
const SAMPLE_MS = 1000;

export class OverloadMonitor {
  overloaded = false;
  private readonly histogram: IntervalHistogram | null;
  private readonly timer: NodeJS.Timeout | null;

  /** `thresholdMs` 0 turns the watch off. */
  constructor(thresholdMs: number) {
    if (thresholdMs <= 0) {
      this.histogram = null;
      this.timer = null;
      return;
    }
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
    this.histogram = histogram;
    this.timer = setInterval(() => {
      // Mean delay beyond the sampling resolution over the last window (the measure @fastify/under-pressure uses).
      const delay = Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS);
      this.overloaded = Number.isNaN(delay) ? false : delay > thresholdMs;
      histogram.reset();
    }, SAMPLE_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.histogram?.disable();
  }
}
