// Issue 17, "complaints heard": complaint language makes an insight (and the trend) negative, the category
// follows the shares of mentions, and neutral service talk stays neutral.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyzeOffline, sentimentSection } from '../../../src/modules/insights/analyzer.ts';
import { classifySentiment } from '../../../src/modules/insights/index.ts';
import { mentionSentiment } from '../../../src/modules/text/index.ts';
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
    assert.match(section.sentiment_summary, /11 % are positive, 66 % negative and 23 % neutral/);
  });
});

// Long, story-like posts: the complaint layer's narrative cues and the classifier's sentence-by-sentence reading.
const NARRATIVE_COMPLAINTS = [
  // told without a sentiment word
  "Called @skyjet three times this week about my daughter's bag. Each time I was told someone would call me back within 24 hours. She has been wearing borrowed clothes for five days.",
  'I stayed home all day for the delivery between 8 and 6. At 6:15 I got a notification that they had tried to deliver. Now I have to drive 40 minutes to collect it.',
  // thanking the staff, blaming the company
  'I want to thank the flight attendants, they were lovely and did their best. But the airline let us sit on the plane for three hours with no water and no information.',
  // courtesy before the complaint, and after it
  'Thank you for the lovely email about putting members first. Meanwhile I have been waiting six weeks for a decision and no one will tell me what is holding it up.',
  'Dear Acme, I have been a loyal customer for ten years. I was charged twice for the same upgrade and I have written to you four times since. I would appreciate an actual answer.',
  // sarcasm at the end
  'The courier handed my parcel to a neighbour without asking, who posted a photo of it online. Thanks Zipline, great job.',
];

describe('classifySentiment on narratives', () => {
  test('complaints told as stories are negative, whatever courtesy or thanks surround them', () => {
    for (const text of NARRATIVE_COMPLAINTS) assert.equal(classifySentiment(text).category, 'negative', text);
  });

  test('a genuinely happy story with one "unfortunately" stays positive', () => {
    for (const text of [
      'Unfortunately I left my laptop in the seat pocket on my flight home. I filled in the lost property form expecting nothing. Two days later they called me, and the laptop arrived by courier the next morning. Thank you so much!',
      'Our flight was delayed overnight because of a storm, unfortunately. The airline had hotel vouchers ready and rebooked us on the first flight out. Honestly one of the best handled disruptions I have seen.',
    ]) {
      assert.equal(classifySentiment(text).category, 'positive', text);
    }
  });

  test('a neutral factual update stays neutral', () => {
    for (const text of [
      'Ledgerly announced today that the old desktop app will be retired in June. Existing files will be migrated to the web version automatically. I was told the pricing stays the same.',
      'Update for the team: the courier collected the parcels this morning. They should arrive at the office on Thursday.',
    ]) {
      assert.equal(classifySentiment(text).category, 'neutral', text);
    }
  });

  test('a sentence of praise before an unanswered complaint does not outweigh it; a story that ends well stays positive', () => {
    const praiseFirst =
      'Great crew and comfy seats, loved the food. The flight was delayed 3 hours and nobody told us why.';
    assert.ok(mentionSentiment(praiseFirst).score > 0, 'the whole-text score alone reads it as positive');
    assert.equal(classifySentiment(praiseFirst).category, 'negative');
    assert.equal(
      classifySentiment(
        'The flight was delayed 3 hours. But the crew kept us informed and handed out snacks. Great job.',
      ).category,
      'positive',
    );
  });

  test('an insight on narrative complaints, a happy story and an update states the negative share', () => {
    const texts = [
      ...NARRATIVE_COMPLAINTS.slice(0, 4),
      'Unfortunately I left my laptop in the seat pocket on my flight home. I filled in the lost property form expecting nothing. Two days later they called me, and the laptop arrived by courier the next morning. Thank you so much!',
      'Update for the team: the courier collected the parcels this morning. They should arrive at the office on Thursday.',
    ];
    const section = sentimentSection(
      texts.map((t) => classifySentiment(t)),
      COMPLAINT_BRAND,
      7,
    );
    assert.equal(section.sentiment_category, 'negative');
    assert.match(section.sentiment_summary, /17 % are positive, 66 % negative and 17 % neutral/);
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
