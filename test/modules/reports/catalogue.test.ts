import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sortRows, type TrendFacts, trendRows } from '../../../src/modules/reports/aggregate.ts';
import { planReport, type TrendPlan } from '../../../src/modules/reports/catalogue.ts';
import {
  freshnessWindowMs,
  isSyntheticUrl,
  limitationsFor,
  titleOf,
} from '../../../src/modules/reports/demo-signals.ts';

const HOUR = 3_600_000;

describe('report plans', () => {
  test('defaults: the total volume of trends; the event count of crisis events', () => {
    assert.deepEqual(planReport({}), {
      dataset: 'trends',
      dimensions: [],
      metrics: ['volume'],
      perTrend: false,
      buckets: [],
      previous: false,
      whole: false,
    });
    assert.deepEqual(planReport({ dataset: 'crisis_events' }), {
      dataset: 'crisis_events',
      dimensions: [],
      metrics: ['event_count'],
    });
  });

  test('what a plan needs to read follows from its names', () => {
    const plan = planReport({
      dimensions: ['trend_name', 'overall_trend'],
      metrics: ['volume', 'velocity_score'],
    }) as TrendPlan;
    assert.equal(plan.perTrend, true);
    assert.equal(plan.previous, true, 'overall_trend compares with the previous window');
    assert.equal(plan.whole, true, 'velocity_score is a computed metric');
    const buckets = planReport({ dimensions: ['category', 'hour', 'platform'] }) as TrendPlan;
    assert.deepEqual(buckets.buckets, ['hour', 'platform']);
    assert.equal(buckets.whole, false);
    assert.equal((planReport({ filters: { lifecycle_stage: 'rising' } }) as TrendPlan).whole, true);
  });

  test('refusals name the field and say why', () => {
    assert.throws(
      () => planReport({ metrics: ['volume', 'volume'] }),
      /metrics\[1\] "volume" is listed twice/,
    );
    assert.throws(
      () => planReport({ metrics: ['lifecycle_stage'] }),
      /metrics\[0\] "lifecycle_stage" is not a metric of trends reports \(it is a dimension: list it in dimensions\)/,
    );
    assert.throws(
      () => planReport({ dimensions: ['platform'], metrics: ['max_velocity_score'] }),
      /cannot be split by platform/,
    );
    assert.throws(
      () => planReport({ dataset: 'crisis_events', filters: { min_volume: 3 } }),
      /filters\.min_volume does not apply to crisis_events reports/,
    );
  });
});

describe('report rows', () => {
  const trend = (id: number, category: string, volume: number, previous: number): TrendFacts => ({
    trend_id: id,
    title: `t${id}`,
    category,
    type: 'keyword',
    volume,
    previous_volume: previous,
    sentiment_sum: volume * 0.5,
    positive: volume,
    negative: 0,
  });

  test('groups sum counts and compute growth and velocity from the sums', () => {
    const plan = planReport({
      dimensions: ['category'],
      metrics: ['volume', 'growth', 'average_velocity', 'trend_count', 'sentiment'],
    }) as TrendPlan;
    const rows = trendRows(
      plan,
      { fromHour: 0, toHour: 23 },
      [trend(1, 'A', 30, 10), trend(2, 'A', 18, 0)],
      null,
    );
    assert.deepEqual(rows, [
      { category: 'A', volume: 48, growth: 380, average_velocity: 2, trend_count: 2, sentiment: 0.5 },
    ]);
  });

  test('a day row averages over the hours of that day inside the window', () => {
    const plan = planReport({ dimensions: ['day'], metrics: ['volume', 'average_velocity'] }) as TrendPlan;
    // The window is 20:00 on day 0 to 05:00 on day 1: 4 hours of day 0, 6 of day 1.
    const bucket = (day: number, volume: number) => ({
      trend_id: null,
      platform: null,
      day,
      hour: null,
      volume,
      sentiment_sum: 0,
      positive: 0,
      negative: 0,
      trends: 1,
    });
    const rows = trendRows(plan, { fromHour: 20, toHour: 29 }, [], [bucket(0, 8), bucket(1, 9)]);
    assert.deepEqual(rows, [
      { day: '1970-01-01', volume: 8, average_velocity: 2 },
      { day: '1970-01-02', volume: 9, average_velocity: 1.5 },
    ]);
  });

  test('sorting puts nulls last either way and breaks ties by every column', () => {
    const rows = [
      { name: 'b', growth: null },
      { name: 'a', growth: 5 },
      { name: 'c', growth: 5 },
      { name: 'd', growth: -1 },
    ];
    const names = (order: 'asc' | 'desc') =>
      sortRows([...rows], ['name', 'growth'], 'growth', order).map((r) => r.name);
    assert.deepEqual(names('desc'), ['a', 'c', 'd', 'b']);
    assert.deepEqual(names('asc'), ['d', 'a', 'c', 'b']);
  });
});

describe('demo signal wording', () => {
  test('links to reserved example domains are synthetic', () => {
    assert.equal(isSyntheticUrl('https://example.com/demo/1'), true);
    assert.equal(isSyntheticUrl('https://news.example.org/x'), true);
    assert.equal(isSyntheticUrl('https://site.test/x'), true);
    assert.equal(isSyntheticUrl('https://www.reddit.com/r/x'), false);
    assert.equal(isSyntheticUrl('https://notexample.com/x'), false);
    assert.match(limitationsFor('reddit', 'https://example.com/demo/1'), /^Synthetic demo data/);
    assert.match(limitationsFor('news', 'https://www.bbc.co.uk/news/1'), /news item/);
  });

  test('freshness windows: the feed’s own, 24 h for news, 6 h for social', () => {
    const windows = { social: 6 * HOUR, usgs: 24 * HOUR, environment_agency: 12 * HOUR };
    assert.equal(freshnessWindowMs('usgs', windows), 24 * HOUR);
    assert.equal(freshnessWindowMs('environment_agency', windows), 12 * HOUR);
    assert.equal(freshnessWindowMs('news', windows), 24 * HOUR);
    assert.equal(freshnessWindowMs('reddit', windows), 6 * HOUR);
  });

  test('titles: the item’s own, else its text cut at a word to 140 characters', () => {
    assert.equal(titleOf(' Own title ', 'text'), 'Own title');
    assert.equal(titleOf(null, 'short\n text'), 'short text');
    const long = titleOf(null, 'word '.repeat(50));
    assert.ok(long.length <= 140 && long.endsWith('word…'), long);
  });
});
