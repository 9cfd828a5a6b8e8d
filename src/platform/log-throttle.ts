// Repeated warnings of one kind, as a whole outage produces them (every request that needs the database while it
// is away), are written once per window: the first with its details, then one line per window saying how many
// were left out. The requests themselves still show in the access log with their status.

/** What to do with one occurrence: write it (and say how many were left out before it), or leave it out. */
type ThrottleDecision = { write: true; suppressed: number } | { write: false };

export class LogThrottle {
  private readonly windows = new Map<string, { until: number; suppressed: number }>();

  constructor(private readonly windowMs: number) {}

  /** Decides for one occurrence of `kind` at `now` (ms). */
  occurrence(kind: string, now: number): ThrottleDecision {
    const window = this.windows.get(kind);
    if (window && now < window.until) {
      window.suppressed++;
      return { write: false };
    }
    const suppressed = window?.suppressed ?? 0;
    this.windows.set(kind, { until: now + this.windowMs, suppressed: 0 });
    return { write: true, suppressed };
  }
}
