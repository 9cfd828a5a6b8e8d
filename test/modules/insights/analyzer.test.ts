// The offline analyzer's section builders, each on a small hand-made input with its exact output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  audienceSections,
  brandSafetySection,
  complaintsOf,
  contentBriefSection,
  crmSection,
  distribution,
  keyThemesSection,
  platformSignalSection,
  sentimentSection,
  trendMetricsSection,
} from '../../../src/modules/insights/analyzer.ts';

/** A mention as the builders read it; only the text matters unless given. */
function mention(
  text: string,
  more: { score?: number; category?: 'positive' | 'negative' | 'neutral' } = {},
) {
  return {
    signal: {
      text,
      title: null,
      source: 'x',
      observed_at: 0,
      url: null as string | null,
      location: null as string | null,
      lang: null as string | null,
    },
    full: text,
    lower: text.toLowerCase(),
    score: more.score ?? 0,
    category: more.category ?? 'neutral',
  };
}

const OUTAGES = {
  label: 'outages and downtime',
  response:
    'post a status update with the scope, a cause if known and the time of the next update; follow up when it is resolved.',
};
const BILLING = {
  label: 'billing, pricing and refunds',
  response:
    'apologise, explain the charge, offer a refund or credit where due and give a direct billing contact.',
};

describe('sentiment_category and sentiment_summary', () => {
  test('the mean score decides when one side is below 30 %', () => {
    const scored = [
      { score: 0.8, category: 'positive' as const },
      { score: -0.4, category: 'negative' as const },
      { score: 0.4, category: 'positive' as const },
      { score: 0, category: 'neutral' as const },
    ];
    assert.deepEqual(sentimentSection(scored, 'Zenith', 7), {
      sentiment_category: 'positive',
      sentiment_summary:
        'Sentiment around Zenith is positive: of 4 mentions in the last 7 days, 50 % are positive, 25 % negative ' +
        'and 25 % neutral (mean score 0.20 on a −1 to 1 scale).',
    });
  });

  test('a negative mean is negative', () => {
    const scored = [
      { score: -0.6, category: 'negative' as const },
      { score: 0, category: 'neutral' as const },
      { score: 0, category: 'neutral' as const },
      { score: 0, category: 'neutral' as const },
    ];
    assert.deepEqual(sentimentSection(scored, 'Acme', 3), {
      sentiment_category: 'negative',
      sentiment_summary:
        'Sentiment around Acme is negative: of 4 mentions in the last 3 days, 0 % are positive, 25 % negative ' +
        'and 75 % neutral (mean score -0.15 on a −1 to 1 scale).',
    });
  });

  test('both sides at 30 % or more is mixed, whatever the mean', () => {
    const scored = [
      { score: 0.9, category: 'positive' as const },
      { score: -0.1, category: 'negative' as const },
    ];
    assert.equal(sentimentSection(scored, 'Acme', 7).sentiment_category, 'mixed');
  });

  test('no mentions is neutral and says so', () => {
    assert.deepEqual(sentimentSection([], 'Acme', 7), {
      sentiment_category: 'neutral',
      sentiment_summary:
        'No recent mentions of Acme were available to score; sentiment is treated as neutral until signals arrive.',
    });
  });
});

describe('key_themes', () => {
  const complaints = [{ label: 'a' }, { label: 'b' }, { label: 'c' }, { label: 'd' }];
  const phrases = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];

  test('a negative or mixed tone puts the top three complaint topics first, then phrases, at most 8', () => {
    for (const sentiment of ['negative', 'mixed'] as const) {
      assert.deepEqual(
        keyThemesSection({ name: 'Acme', category: 'Technology', sentiment, phrases, complaints }),
        ['complaints about a', 'complaints about b', 'complaints about c', 'p1', 'p2', 'p3', 'p4', 'p5'],
      );
    }
  });

  test('another tone lists the phrases only', () => {
    assert.deepEqual(
      keyThemesSection({ name: 'Acme', category: 'Technology', sentiment: 'positive', phrases, complaints }),
      phrases,
    );
  });

  test('with nothing found, the name in its category (the name alone under Other)', () => {
    const empty = { sentiment: 'neutral' as const, phrases: [], complaints: [] };
    assert.deepEqual(keyThemesSection({ ...empty, name: 'Zenith Phone', category: 'Technology/Mobile' }), [
      'zenith phone mobile',
    ]);
    assert.deepEqual(keyThemesSection({ ...empty, name: 'Zenith Phone', category: 'Other' }), [
      'zenith phone',
    ]);
  });
});

describe('trend_metrics', () => {
  test('commercial intent is the share of mentions with a buying modifier; CPC scales the base', () => {
    const scored = ['where can I buy one', 'it is down', 'love it', 'no idea'].map((t) => ({ lower: t }));
    assert.deepEqual(trendMetricsSection({ velocity_score: 61.5, velocity_1h: 7 }, scored, 2), {
      velocity_score: 61.5,
      velocity_1h: 7,
      // 2 × (0.6 + 1.4 × 0.25)
      predicted_cpc_usd: 1.9,
      commercial_intent: 0.25,
    });
  });

  test('no mentions: no intent, the floor of the base CPC', () => {
    assert.deepEqual(trendMetricsSection({ velocity_score: 0, velocity_1h: 0 }, [], 3.8), {
      velocity_score: 0,
      velocity_1h: 0,
      predicted_cpc_usd: 2.28,
      commercial_intent: 0,
    });
  });
});

describe('platform_signal', () => {
  test('shares sum to exactly 1, biggest first; the biggest absorbs the rounding', () => {
    assert.deepEqual(distribution({ x: 1, reddit: 2, news: 0 }), { reddit: 0.6667, x: 0.3333 });
    assert.deepEqual(distribution({ b: 1, a: 1, c: 1 }), { a: 0.3334, b: 0.3333, c: 0.3333 });
    assert.deepEqual(distribution({ x: 0 }), {});
  });

  test('the busiest platform is the primary source; none is unknown', () => {
    assert.deepEqual(platformSignalSection({ x: 3, reddit: 1 }), {
      primary_source: 'x',
      virality_distribution: { x: 0.75, reddit: 0.25 },
    });
    assert.deepEqual(platformSignalSection({}), {
      primary_source: null,
      virality_distribution: { unknown: 1 },
    });
  });
});

describe('brand_safety', () => {
  test('a lexicon flag on a quarter of the mentions or more is unsafe', () => {
    const scored = [
      'a shooting downtown',
      'another shooting reported',
      'weather is nice',
      'traffic is bad',
    ].map((t) => mention(t));
    assert.deepEqual(brandSafetySection(scored), { level: 'unsafe', flags: ['violence'] });
  });

  test('a flag below the unsafe share is caution', () => {
    const scored = [
      'this is fucking great',
      'fucking finally',
      ...Array.from({ length: 8 }, (_, i) => `plain mention ${i}`),
    ].map((t) => mention(t));
    assert.deepEqual(brandSafetySection(scored), { level: 'caution', flags: ['profanity'] });
  });

  test('one stray mention flags nothing', () => {
    const scored = ['a shooting downtown', 'weather', 'traffic', 'news'].map((t) => mention(t));
    assert.deepEqual(brandSafetySection(scored), { level: 'safe', flags: [] });
    assert.deepEqual(brandSafetySection([]), { level: 'safe', flags: [] });
  });
});

describe('crm_and_support_insights', () => {
  test('complaint topics of negative mentions: most mentions first, each quoting an example not yet quoted', () => {
    const scored = [
      mention('Total outage again', { score: -0.5, category: 'negative' }),
      mention('Outage and they refuse a refund', { score: -0.8, category: 'negative' }),
      mention('Overcharged, want a refund', { score: -0.3, category: 'negative' }),
      mention('refund arrived, thanks', { score: 0.4, category: 'positive' }),
    ];
    assert.deepEqual(complaintsOf(scored), [
      { ...BILLING, count: 2, example: 'Outage and they refuse a refund' },
      { ...OUTAGES, count: 2, example: 'Total outage again' },
    ]);
  });

  test('complaints with their share, the questions, and replies to both', () => {
    const scored = [
      { category: 'negative' as const },
      { category: 'negative' as const },
      { category: 'negative' as const },
      { category: 'positive' as const },
    ];
    const complaints = [
      { ...OUTAGES, response: 'post a status update.', count: 2, example: 'It is down again' },
    ];
    const questions = ['Is it down?', 'When will it be back?', 'Who runs it?'];
    assert.deepEqual(crmSection({ name: 'Acme', scored, complaints, questions }), {
      common_complaints: ['outages and downtime: 2 of 4 mentions (50 %), e.g. “It is down again”'],
      common_questions: questions,
      suggested_responses: [
        'On outages and downtime: post a status update.',
        'Answer “Is it down?” in a pinned FAQ or a short reply template.',
        'Answer “When will it be back?” in a pinned FAQ or a short reply template.',
      ],
    });
  });

  test('no complaint and no question: says so, and a generic reply', () => {
    const scored = [{ category: 'negative' as const }, { category: 'neutral' as const }];
    assert.deepEqual(crmSection({ name: 'Acme', scored, complaints: [], questions: [] }), {
      common_complaints: [
        'No recurring complaint: 1 of 2 mentions read as negative and none share a complaint topic.',
      ],
      common_questions: [],
      suggested_responses: [
        'Thank people for their interest in Acme and point them to a clear source of information.',
      ],
    });
  });
});

describe('content_brief', () => {
  const base = {
    audiences: ['tech early adopters'],
    velocity1h: 12,
    questions: ['Is it down?'],
    complaints: [] as { label: string }[],
    phrases: [] as string[],
    commercialIntent: 0,
    primarySource: null as string | null,
    safety: { level: 'safe' as const, flags: [] as string[] },
  };

  test('a rising trend under fire: early angle, the complaint, the platform, status and support actions', () => {
    const brief = contentBriefSection({
      ...base,
      name: 'Acme',
      stage: 'rising',
      sentiment: 'negative',
      phrases: ['battery life', 'price'],
      complaints: [{ label: 'outages and downtime' }],
      // Buying language does not count while the tone is negative.
      commercialIntent: 0.3,
      primarySource: 'reddit',
      safety: { level: 'caution', flags: ['profanity'] },
    });
    assert.deepEqual(brief, {
      target_audience_segments: ['tech early adopters', 'reddit users discussing Acme'],
      key_angles_for_content: [
        'Be early: explain what Acme is and why it is picking up (12 mentions in the last hour).',
        'Connect Acme with what people are talking about: battery life, price.',
        'Address the frustration head-on (outages and downtime) with facts and what is being done.',
      ],
      suggested_content_formats: [
        'community discussion post or AMA',
        'long-form explainer answering the common questions',
        'quick-turnaround social posts',
        'FAQ answering the most common questions',
      ],
      call_to_action_ideas: [
        'Publish a clear status or response on Acme and point people to it.',
        'Route affected customers to a dedicated support page or contact form.',
        'Invite followers to share their take on Acme (poll or reply prompt).',
        'Subscribe to updates on Acme: turn the interest into newsletter or follow sign-ups.',
        'Review brand-safety flags (profanity) before running paid placements.',
      ],
    });
  });

  test('a positive peak with buying intent: buyers, enthusiasm and comparisons', () => {
    const brief = contentBriefSection({
      ...base,
      name: 'Zenith',
      stage: 'peaking',
      sentiment: 'positive',
      commercialIntent: 0.15,
      questions: [],
    });
    assert.deepEqual(brief, {
      target_audience_segments: ['tech early adopters', 'in-market buyers comparing Zenith options'],
      key_angles_for_content: [
        'Ride the peak: a definitive explainer or roundup on Zenith while attention is highest.',
        'Amplify the enthusiasm: user stories and examples of Zenith in use.',
        'Meet buying intent: comparisons, pricing and honest reviews of Zenith.',
      ],
      suggested_content_formats: ['explainer article', 'short explainer'],
      call_to_action_ideas: [
        'Offer a comparison guide or trial for people researching Zenith.',
        'Invite followers to share their take on Zenith (poll or reply prompt).',
        'Subscribe to updates on Zenith: turn the interest into newsletter or follow sign-ups.',
      ],
    });
  });

  test('later stages go evergreen; a neutral tone informs, a mixed one without topics answers criticism', () => {
    const neutral = contentBriefSection({ ...base, name: 'Acme', stage: 'declining', sentiment: 'neutral' });
    assert.deepEqual(neutral.key_angles_for_content, [
      'Go deeper than the news: an evergreen guide on Acme for people still searching for it.',
      'Inform rather than persuade: a plain explainer of Acme with the facts people ask about.',
    ]);
    const mixed = contentBriefSection({ ...base, name: 'Acme', stage: 'stable', sentiment: 'mixed' });
    assert.deepEqual(mixed.key_angles_for_content, [
      'Go deeper than the news: an evergreen guide on Acme for people still searching for it.',
      'Acknowledge the criticism of Acme and answer it with facts.',
    ]);
  });
});

describe('ad_platform_targeting and audience_injection', () => {
  test('keywords from the name, category and neutral phrases; demographics; exclusions; per-platform payloads', () => {
    const located = (
      text: string,
      location: string | null,
      lang: string | null,
      url: string | null = null,
    ) => ({ signal: { location, lang, url }, lower: text.toLowerCase() });
    const sections = audienceSections({
      name: 'Zenith Phone',
      category: 'Technology/Mobile',
      profile: { ageMin: 18, ageMax: 34, demographics: 'Young adults.' },
      // An opinion is what people say, not an audience: it is left out.
      phrases: ['Battery Life', 'terrible service'],
      scored: [
        located('A shooting near the store', 'US', 'en-US', 'https://www.reddit.com/r/Android/comments/1'),
        located('Gunman arrested', 'US', 'en'),
        located('Neue Farben', 'Berlin', 'de'),
      ],
      safetyFlags: ['violence'],
      hasComplaints: true,
      primarySource: 'reddit',
    });
    const negative = [
      'shooting',
      'gunman',
      'scam',
      'refund',
      'free download',
      'torrent',
      'crack',
      'jobs',
      'careers',
      'salary',
    ];
    assert.deepEqual(sections, {
      ad_platform_targeting: {
        primary_audience_keywords: ['zenith phone', 'battery life'],
        secondary_audience_keywords: [
          'zenith phone review',
          'best zenith phone',
          'zenith phone news',
          'mobile',
        ],
        potential_demographics_summary: 'Young adults.',
      },
      audience_injection: {
        demographics: {
          age_min: 18,
          age_max: 34,
          summary: 'Young adults.',
          top_locations: ['US', 'Berlin'],
          languages: ['en', 'de'],
          primary_platform: 'reddit',
        },
        interest_keywords: ['zenith phone', 'mobile', 'battery life'],
        negative_keywords: negative,
        platform_payloads: {
          social_ads: {
            interests: [{ name: 'zenith phone' }, { name: 'mobile' }, { name: 'battery life' }],
            exclusions: { interests: [{ name: 'Weapons' }] },
            age_min: 18,
            age_max: 34,
            geo_locations: { countries: ['US'] },
          },
          forum_ads: {
            keywords: [
              'zenith phone',
              'battery life',
              'zenith phone review',
              'best zenith phone',
              'zenith phone news',
              'mobile',
            ],
            communities: ['android', 'technology', 'gadgets', 'programming'],
            negative_keywords: negative,
          },
        },
      },
    });
  });

  test('without flags, complaints or countries: the generic negatives and no geo targeting', () => {
    const { audience_injection } = audienceSections({
      name: 'Blorp',
      category: 'Other',
      profile: { ageMin: 18, ageMax: 65, demographics: 'Everyone.' },
      phrases: [],
      scored: [],
      safetyFlags: [],
      hasComplaints: false,
      primarySource: null,
    });
    assert.deepEqual(audience_injection.negative_keywords, [
      'free download',
      'torrent',
      'crack',
      'jobs',
      'careers',
      'salary',
    ]);
    assert.deepEqual(audience_injection.platform_payloads.social_ads, {
      interests: [{ name: 'blorp' }, { name: 'other' }],
      exclusions: { interests: [] },
      age_min: 18,
      age_max: 65,
    });
  });
});
