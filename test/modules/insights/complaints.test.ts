// Issue 17, "complaints heard": complaint language makes an insight (and the trend) negative, the category
// follows the shares of mentions, and neutral service talk stays neutral.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyzeOffline, sentimentSection } from '../../../src/modules/insights/analyzer.ts';
import { classifySentiment } from '../../../src/modules/insights/index.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import {
  COMPLAINT_BRAND,
  IMPLICIT_COMPLAINTS,
  INFORMATION_QUESTIONS,
  REPROACH_QUESTIONS,
  SEVEN_COMPLAINTS,
  SOLVED_PROBLEMS,
} from '../../fixtures/complaints.ts';
import { buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { RELAXED_PLANS, settle } from './fixtures.ts';

const NOW = Date.parse('2026-11-21T10:30:00Z');

function signal(text: string, i: number) {
  return {
    text,
    title: null,
    source: ['x', 'reddit', 'bluesky'][i % 3]!,
    observed_at: NOW - (i + 1) * 60_000,
    url: null,
    location: null,
    lang: 'en',
  };
}

describe('classifySentiment on complaints and service talk', () => {
  test('each of the seven complaint variants is negative', () => {
    for (const text of SEVEN_COMPLAINTS) assert.equal(classifySentiment(text).category, 'negative', text);
  });

  test('sarcasm and courtesy in complaints are negative; genuine thanks stays positive', () => {
    for (const text of [
      'Great, another delay. Love spending my Friday night at the gate @skyjet',
      'Thanks @skyjet for losing my bag on a direct flight.',
      '@skyjet been on hold for 2 hours trying to rebook a cancelled flight. Please help, thanks',
    ]) {
      assert.equal(classifySentiment(text).category, 'negative', text);
    }
    assert.equal(
      classifySentiment('Thanks @skyjet for rebooking me in two minutes after my flight was cancelled. Hero.')
        .category,
      'positive',
    );
  });

  test('neutral service talk stays neutral', () => {
    for (const text of [
      '@skyjet please DM me about changing the name on my booking, thanks',
      'How do I contact customer support?',
      'Can you help me add a checked bag?',
      'What happens if my connection is delayed?',
    ]) {
      assert.equal(classifySentiment(text).category, 'neutral', text);
    }
  });
});

describe('classifySentiment on implicit complaints, questions and solved problems', () => {
  test('implicit complaints are negative', () => {
    for (const text of [...IMPLICIT_COMPLAINTS, ...REPROACH_QUESTIONS]) {
      assert.equal(classifySentiment(text).category, 'negative', text);
    }
  });

  test('information questions stay neutral, also where wink-nlp alone reads the problem word as negative', () => {
    for (const text of INFORMATION_QUESTIONS) {
      assert.equal(classifySentiment(text).category, 'neutral', text);
    }
  });

  test('a solved problem with thanks is positive', () => {
    for (const text of SOLVED_PROBLEMS) assert.equal(classifySentiment(text).category, 'positive', text);
  });

  test('an insight on a mix of implicit complaints, questions and thanks states their shares', () => {
    const texts = [
      ...IMPLICIT_COMPLAINTS.slice(0, 6),
      ...INFORMATION_QUESTIONS.slice(0, 2),
      SOLVED_PROBLEMS[0]!,
    ];
    const section = sentimentSection(
      texts.map((t) => classifySentiment(t)),
      COMPLAINT_BRAND,
      7,
    );
    assert.equal(section.sentiment_category, 'negative');
    assert.match(section.sentiment_summary, /11 % are positive, 67 % negative and 22 % neutral/);
  });
});

describe('insight sentiment on the seven complaint variants', () => {
  test('the offline analyzer calls them negative and states a 100 % negative share', () => {
    const insight = analyzeOffline({
      trend: { id: 1, title: COMPLAINT_BRAND, key: COMPLAINT_BRAND.toLowerCase(), category: 'Technology' },
      metrics: {
        volume: 7,
        velocity_score: 10,
        velocity_1h: 7,
        lifecycle_stage: 'stable',
        growth: null,
        platforms: {},
      },
      signals: SEVEN_COMPLAINTS.map(signal),
      windowDays: 7,
      now: NOW,
    });
    assert.equal(insight.sentiment_category, 'negative');
    assert.match(
      insight.sentiment_summary!,
      /of 7 mentions in the last 7 days, 0 % are positive, 100 % negative/,
    );
  });

  test('the negative share is the share of mentions classified negative, and a clear majority is negative', () => {
    // 5 negative, 2 positive: 71 % negative, mean near zero → negative (the old rule said neutral).
    const scored = [
      ...Array.from({ length: 5 }, () => ({ score: -0.1, category: 'negative' as const })),
      ...Array.from({ length: 2 }, () => ({ score: 0.3, category: 'positive' as const })),
    ];
    const section = sentimentSection(scored, COMPLAINT_BRAND, 7);
    assert.equal(section.sentiment_category, 'negative');
    assert.match(section.sentiment_summary, /29 % are positive, 71 % negative and 0 % neutral/);
  });
});

describe('trend and insight through the app', () => {
  let ctx: TestContext;
  const clock = new ManualClock(NOW);

  before(async () => {
    ctx = await buildTestApp({ clock, env: { PLANS: RELAXED_PLANS } });
  });
  after(async () => ctx.close());

  test('seven complaint variants make the trend and the insight negative', async () => {
    const feeder = await createUser(ctx, 'enterprise', ['ingest']);
    const res = await call(ctx.app, 'POST', '/api/signals', {
      key: feeder.key,
      body: {
        signals: SEVEN_COMPLAINTS.map((text, i) => ({
          source: ['x', 'reddit', 'bluesky'][i % 3],
          external_id: `complaint-${i}`,
          text,
          keywords: [COMPLAINT_BRAND],
          lang: 'en',
          observed_at: new Date(NOW - (i + 1) * 60_000).toISOString(),
        })),
      },
    });
    assert.equal(res.data.accepted, 7, res.body);
    await ctx.app.services.trendProcessor.drain();
    const row = await ctx.app.services.db
      .selectFrom('trends')
      .select('id')
      .where('key', '=', COMPLAINT_BRAND.toLowerCase())
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    const reader = await createUser(ctx, 'developer');

    const trend = await call(ctx.app, 'GET', `/api/trends/${id}`, { key: reader.key });
    assert.equal(trend.statusCode, 200, trend.body);
    assert.equal(trend.data.sentiment_category, 'negative');
    assert.ok(Number(trend.data.sentiment) <= -0.5, trend.data.sentiment);

    const task = await call(ctx.app, 'POST', `/api/trends/${id}/ai-insights/generate`, { key: reader.key });
    assert.equal(task.statusCode, 202, task.body);
    assert.equal((await settle(ctx, reader.key, task.data.task_id)).status, 'succeeded');
    const insight = (await call(ctx.app, 'GET', `/api/trends/${id}/ai-insights`, { key: reader.key })).data;
    assert.equal(insight.sentiment_category, 'negative');
    assert.match(insight.sentiment_summary, /100 % negative/);
  });
});
