// start_date/end_date ranges: whole UTC days, checked alike on every route that takes them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dayRange } from '../../src/platform/dates.ts';
import { ApiError } from '../../src/platform/errors.ts';

const NOW = Date.parse('2026-11-21T10:30:00Z');
const DAY = 86_400_000;

function refused(run: () => unknown, field: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 400);
    assert.equal(error.extra.errors?.[0]?.path, field);
    return true;
  });
}

describe('dayRange', () => {
  test('defaults: the end is today, the start is the end', () => {
    const today = dayRange(undefined, undefined, NOW);
    assert.equal(today.startDate, '2026-11-21');
    assert.equal(today.endDate, '2026-11-21');
    assert.equal(today.startMs, Date.parse('2026-11-21T00:00:00Z'));
    assert.equal(today.endMs, Date.parse('2026-11-22T00:00:00Z'));
    assert.equal(today.endsToday, true);
    const past = dayRange('2026-11-01', '2026-11-03', NOW);
    assert.equal(past.endMs - past.startMs, 3 * DAY);
    assert.equal(past.endsToday, false);
  });

  test('a future end, a reversed range and an over-long range are 400s naming the field', () => {
    refused(() => dayRange(undefined, '2026-11-22', NOW), 'end_date');
    refused(() => dayRange('2026-11-10', '2026-11-09', NOW), 'start_date');
    refused(() => dayRange('2025-10-16', '2026-11-20', NOW), 'start_date');
    assert.equal(dayRange('2025-10-17', '2026-11-20', NOW).startDate, '2025-10-17', '400 days is the limit');
    refused(() => dayRange('2026-13-01', undefined, NOW), 'start_date');
  });

  test('rules: a future end and a longer span where a route allows them', () => {
    assert.equal(dayRange(undefined, '2027-01-01', NOW, { allowFuture: true }).endDate, '2027-01-01');
    assert.equal(
      dayRange('2000-01-01', '2026-11-20', NOW, { maxDays: Number.POSITIVE_INFINITY }).startDate,
      '2000-01-01',
    );
    refused(() => dayRange('2026-11-01', '2026-11-20', NOW, { maxDays: 7 }), 'start_date');
  });
});
