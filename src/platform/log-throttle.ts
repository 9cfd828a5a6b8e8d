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

type LogArgs = unknown[];

/**
 * A pino `logMethod` hook for the whole process: a warning or error whose `err` is an outage (`isOutage`: the
 * database or Redis away) is written once per window per message, then once more with the count left out, so
 * the requests refused meanwhile (`dependency unavailable`) and the background loops (trend engine, job worker,
 * sources, leases) write a few lines during an outage, not one per request or pass.
 */
export function outageLogHook(isOutage: (error: unknown) => boolean, windowMs: number, now: () => number) {
  const throttle = new LogThrottle(windowMs);
  return function logMethod(this: unknown, args: LogArgs, method: (...args: LogArgs) => void, level: number) {
    const [fields, message] = args;
    if (
      level >= WARN_LEVEL &&
      typeof message === 'string' &&
      typeof fields === 'object' &&
      fields !== null &&
      isOutage((fields as { err?: unknown }).err)
    ) {
      const decision = throttle.occurrence(message, now());
      if (!decision.write) return;
      if (decision.suppressed > 0) {
        args = [
          { ...fields, suppressed: decision.suppressed },
          `${message} (and ${decision.suppressed} more since the last such line, not logged)`,
          ...args.slice(2),
        ];
      }
    }
    method.apply(this, args);
  };
}

/** pino's number for `warn`. */
const WARN_LEVEL = 40;
