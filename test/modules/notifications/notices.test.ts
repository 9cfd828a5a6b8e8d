// The pure parts: which velocity crossings notify, interest conditions, key notices' wording, the mean growth.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  conditionMet,
  crossedLevel,
  keyExpiringNotice,
  trendAlertNotice,
} from '../../../src/modules/notifications/notices.ts';
import { meanGrowth } from '../../../src/modules/notifications/service.ts';

describe('notices', () => {
  test('crossedLevel: the highest of 50, 75, 90 crossed upward, else null', () => {
    assert.equal(crossedLevel(0, 49.9), null);
    assert.equal(crossedLevel(10, 30), null, '25 is not a notice level');
    assert.equal(crossedLevel(49, 50), 50);
    assert.equal(crossedLevel(50, 74), null, 'already above 50');
    assert.equal(crossedLevel(30, 80), 75);
    assert.equal(crossedLevel(0, 100), 90);
    assert.equal(crossedLevel(95, 60), null, 'falling');
  });

  test('conditionMet: crisis always; volume_above and growth_above against their thresholds', () => {
    const interest = (type: string, volume: number | null = null, growth: number | null = null) => ({
      alert_condition_type: type,
      volume_threshold_value: volume,
      percentage_growth_value: growth,
    });
    assert.equal(conditionMet(interest('crisis'), { volume: 1, growth: null }), true);
    assert.equal(conditionMet(interest('volume_above', 100), { volume: 99, growth: null }), false);
    assert.equal(conditionMet(interest('volume_above', 100), { volume: 100, growth: null }), true);
    assert.equal(conditionMet(interest('growth_above', null, 20), { volume: 5, growth: 19.9 }), false);
    assert.equal(conditionMet(interest('growth_above', null, 20), { volume: 5, growth: 20 }), true);
    assert.equal(conditionMet(interest('growth_above', null, 20), { volume: 5, growth: null }), false);
  });

  test('trend notices dedupe per trend, level and UTC day', () => {
    const event = (at: string) => ({
      id: `e:${at}`,
      type: 'trend.velocity.crossed' as const,
      occurred_at: Date.parse(at),
      data: {
        trend_id: 4,
        trend_name: 'OpenAI',
        category: 'Technology/AI',
        velocity: 80,
        volume: 9,
        from_velocity: 10,
      },
    });
    const key = (at: string, level: number) =>
      trendAlertNotice(event(at), level, ['ai'], 'http://x/').dedupeKey;
    assert.equal(key('2026-11-21T00:00:00Z', 75), key('2026-11-21T23:59:59Z', 75));
    assert.notEqual(key('2026-11-21T23:59:59Z', 75), key('2026-11-22T00:00:00Z', 75));
    assert.notEqual(key('2026-11-21T10:00:00Z', 75), key('2026-11-21T10:00:00Z', 50));
    assert.equal(
      trendAlertNotice(event('2026-11-21T10:00:00Z'), 75, ['ai'], 'http://x/').data.source_link,
      'http://x/api/trends/4',
    );
  });

  test('key notices say how long is left, and dedupe per key and expiry', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    const notice = (inMs: number, expires = now + inMs) =>
      keyExpiringNotice({ id: 3, name: 'ci', prefix: 'cw_abcdefgh', expires_at: expires }, now);
    assert.match(notice(30 * 60_000).message, /within 2 hours/);
    assert.match(notice(5 * 3_600_000).message, /in about 5 hours/);
    assert.match(notice(6.4 * 86_400_000).message, /in about 6 days/);
    assert.equal(notice(3_600_000).dedupeKey, `api_key.expiring:3:${now + 3_600_000}`);
    assert.notEqual(notice(3_600_000).dedupeKey, notice(7_200_000).dedupeKey);
  });

  test('meanGrowth: mean of the known values to 2 decimals; null when none', () => {
    assert.equal(meanGrowth([]), null);
    assert.equal(meanGrowth([null, null]), null);
    assert.equal(meanGrowth([10, null, 20.5]), 15.25);
    assert.equal(meanGrowth([1, 2, 2]), 1.67);
    assert.equal(meanGrowth([-84.03, 0, 37.5, 0]), -11.63);
  });
});
