// `start_date`/`end_date` query ranges: inclusive whole UTC days, checked the same way on every route.
import { badRequest } from './errors.ts';

const DAY_MS = 86_400_000;
/** A range may span at most this many days by default (trend buckets are kept 400 days). */
const MAX_RANGE_DAYS = 400;

interface DayRange {
  startDate: string;
  endDate: string;
  /** 00:00 UTC of the first day. */
  startMs: number;
  /** 00:00 UTC of the day after the last (exclusive). */
  endMs: number;
  /** The range ends today (so "now" is inside it). */
  endsToday: boolean;
}

interface DayRangeRules {
  /** Whether the last day may lie after today (UTC). */
  allowFuture?: boolean;
  maxDays?: number;
}

/**
 * The days from `start_date` to `end_date` (either may be missing: the end defaults to today, the start to the
 * end). Errors name the field only; the error handler adds its place (`query.`).
 */
export function dayRange(
  startDate: string | undefined,
  endDate: string | undefined,
  now: number,
  rules: DayRangeRules = {},
): DayRange {
  const today = new Date(now).toISOString().slice(0, 10);
  const end = endDate ?? today;
  const start = startDate ?? end;
  if (!rules.allowFuture && end > today) {
    throw badRequest(`end_date ${end} is in the future (today is ${today} UTC).`, 'end_date');
  }
  const startMs = Date.parse(`${start}T00:00:00Z`);
  const lastMs = Date.parse(`${end}T00:00:00Z`);
  // Route schemas check the format; a caller that skipped them still gets a 400, not NaN bounds.
  if (Number.isNaN(startMs))
    throw badRequest(`start_date ${start} is not a date (YYYY-MM-DD).`, 'start_date');
  if (Number.isNaN(lastMs)) throw badRequest(`end_date ${end} is not a date (YYYY-MM-DD).`, 'end_date');
  if (startMs > lastMs) {
    throw badRequest(`start_date ${start} is after end_date ${end}.`, startDate ? 'start_date' : 'end_date');
  }
  const maxDays = rules.maxDays ?? MAX_RANGE_DAYS;
  if ((lastMs - startMs) / DAY_MS + 1 > maxDays) {
    throw badRequest(`A date range may span at most ${maxDays} days.`, 'start_date');
  }
  return { startDate: start, endDate: end, startMs, endMs: lastMs + DAY_MS, endsToday: end === today };
}
