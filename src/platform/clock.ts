// Injectable clock so time-based behaviour (quotas, expiry, cooldowns) is testable without sleeping.
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current: number = Date.parse('2026-11-21T10:00:00Z')) {}
  now(): number {
    return this.current;
  }
  set(ms: number | string): void {
    this.current = typeof ms === 'string' ? Date.parse(ms) : ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of the UTC day containing `ms`. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Epoch ms of the next 00:00 UTC after `ms`. */
export function nextUtcMidnight(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS + DAY_MS;
}

/** Epoch ms of 00:00 UTC on the first day of the month after the one containing `ms`. */
export function nextUtcMonthStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export function isoString(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

export { DAY_MS };
