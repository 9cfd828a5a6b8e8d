// When a scheduled export runs next. Pure; all times UTC.

/** `none`: never runs by itself, only on run-now (upstream's SDK saves configurations so by default). */
export const SCHEDULES = ['daily', 'weekly', 'none'] as const;
export type Schedule = (typeof SCHEDULES)[number];
/** The schedules that queue runs by themselves. */
export type RecurringSchedule = Exclude<Schedule, 'none'>;

/** Weekday names as the API takes them, indexed like `Date.getUTCDay()` (0 = Sunday). */
export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const SCHEDULE_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after 00:00 UTC of an `HH:MM` time. */
function minuteOfDay(time: string): number {
  const match = SCHEDULE_TIME.exec(time);
  if (!match) throw new RangeError(`not an HH:MM time: ${time}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/**
 * The first run strictly after `after`: every day at `time` (daily), or on weekday `day` at `time` (weekly).
 * Runs missed while nothing was running are not made up: the next one is after `after`.
 */
export function nextRunAt(
  schedule: RecurringSchedule,
  time: string,
  day: number | null,
  after: number,
): number {
  const dayStart = Math.floor(after / DAY_MS) * DAY_MS;
  const at = minuteOfDay(time) * MINUTE_MS;
  for (let d = 0; d <= 8; d++) {
    const candidate = dayStart + d * DAY_MS + at;
    if (candidate <= after) continue;
    if (schedule === 'daily' || new Date(candidate).getUTCDay() === day) return candidate;
  }
  throw new RangeError(`no run within 8 days (schedule ${schedule}, day ${day})`);
}
