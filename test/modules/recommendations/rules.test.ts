// The rule engine and the brief, as pure functions: each rule's thresholds, types, priorities, evidence and
// completeness, and freshness judged when the brief is read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type BriefParts, freshnessAt, present } from '../../../src/modules/recommendations/brief.ts';
import {
  type CrisisFacts,
  type Draft,
  type InsightFacts,
  insightFacts,
  parseComplaints,
  RULES,
  type RuleInput,
  type TrendFacts,
} from '../../../src/modules/recommendations/facts.ts';
import { matchingInterest } from '../../../src/modules/recommendations/matching.ts';
import { generate } from '../../../src/modules/recommendations/rules.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');
const HOUR = 3_600_000;
const BASE = 'https://crestwatch.example.com/';

function trend(over: Partial<TrendFacts> = {}): TrendFacts {
  return {
    id: 7,
    title: 'Aurora Borealis',
    category: 'Science',
    timestamp: new Date(NOW - 5 * 60_000).toISOString(),
    volume: 330,
    previous_volume: 240,
    growth: 37.5,
    average_velocity: 13.75,
    velocity_score: 80,
    velocity_1h: 100,
    lifecycle_stage: 'rising',
    sentiment_category: 'neutral',
    platforms: { reddit: 165, x: 165 },
    ...over,
  };
}

function crisis(over: Partial<CrisisFacts> = {}): CrisisFacts {
  return {
    id: 3,
    title: 'Negative surge about Acme',
    summary: '30 negative mentions of "Acme" in the last 30 minutes.',
    severity: 'high',
    status: 'active',
    impacted_entity: 'Acme',
    trend_id: null,
    source_keywords: ['Acme'],
    detected_at: new Date(NOW - 30 * 60_000).toISOString(),
    evidence_as_of: new Date(NOW - 10 * 60_000).toISOString(),
    freshness_window_ms: 6 * HOUR,
    severity_basis: 'z 6.1 over a baseline of 0.4 per 30 min',
    evidence_completeness: { score: 70 },
    independent_sources: 3,
    review_status: 'needs_review',
    source_state: 'surging',
    evidence_version: 'a'.repeat(32),
    ...over,
  };
}

function insight(over: Partial<InsightFacts> = {}): InsightFacts {
  return {
    trend_id: 7,
    trend_name: 'Aurora Borealis',
    generated_at: NOW - HOUR,
    sentiment_category: 'positive',
    commercial_intent: 0.05,
    predicted_cpc_usd: 0.9,
    brand_safety: { level: 'safe', flags: [] },
    complaints: [],
    suggested_responses: [],
    common_questions: [],
    key_angles: ['Where to see it tonight'],
    primary_keywords: ['aurora', 'northern lights', 'aurora forecast'],
    ...over,
  };
}

function input(over: Partial<RuleInput> = {}): RuleInput {
  return {
    now: NOW,
    baseUrl: BASE,
    interests: [{ keyword: 'aurora' }],
    trends: [],
    crises: [],
    insights: [],
    ...over,
  };
}

const brief = (d: Draft, now = NOW, lapsedAt: number | null = null) =>
  present(d.parts, { now, freshUntil: d.fresh_until, lapsedAt });
const byType = (drafts: Draft[], type: string) => drafts.filter((d) => d.type === type);

describe('trend rules', () => {
  test('velocity ≥ 75 on a trend matching an interest → one content_idea with the trend’s numbers as evidence', () => {
    const t = trend();
    const drafts = generate(input({ trends: [t] }));
    assert.deepEqual(
      drafts.map((d) => d.type),
      ['content_idea'],
    );
    const d = drafts[0]!;
    assert.equal(d.source_key, 'trend:7');
    assert.equal(d.source_trend_id, '7');
    assert.equal(d.priority, 'medium');
    assert.equal(d.trigger_level, 75);
    assert.equal(d.source_words, ' aurora borealis ');
    const evidence = Object.fromEntries(d.parts.evidence.map((e) => [e.metric, e]));
    for (const metric of [
      'velocity_score',
      'velocity_1h',
      'volume',
      'previous_volume',
      'growth',
      'average_velocity',
    ] as const) {
      assert.equal(evidence[metric]!.value, t[metric], metric);
      assert.equal(evidence[metric]!.source, 'crestwatch');
      assert.equal(evidence[metric]!.source_url, 'https://crestwatch.example.com/api/trends/7');
      assert.equal(evidence[metric]!.observed_at, t.timestamp);
    }
    assert.equal(evidence.interest_match!.value, 'aurora');
    assert.equal(d.fresh_until, Date.parse(t.timestamp) + RULES.trendFreshMs);
    const b = brief(d);
    assert.equal(b.actionable, true);
    assert.equal(b.confidence.score, 80);
    assert.deepEqual(b.confidence.missing_signals, ['ai_insight']);
    assert.equal(b.confidence.level, 'high');
    assert.equal(b.data_quality.status, 'strong');
    assert.equal(b.urgency.level, 'act_now');
  });

  test('the thresholds: < 50 nothing, 50–74.99 monitoring, ≥ 90 high priority at trigger level 90', () => {
    assert.deepEqual(generate(input({ trends: [trend({ velocity_score: 49.99 })] })), []);
    const watch = generate(input({ trends: [trend({ velocity_score: 50 })] }));
    assert.deepEqual(
      watch.map((d) => [d.type, d.priority, d.trigger_level]),
      [['monitoring', 'low', 50]],
    );
    // Each figure with its own window: the growth compares 24 hours with the 24 before, not the last hour.
    assert.match(
      watch[0]!.parts.why_now,
      /100 mentions in the last hour, 330 in 24 hours \(\+37\.5 % against the previous 24 hours\)/,
    );
    assert.deepEqual(
      generate(input({ trends: [trend({ velocity_score: 74.99 })] })).map((d) => d.type),
      ['monitoring'],
    );
    const strong = generate(input({ trends: [trend({ velocity_score: 90 })] }));
    assert.deepEqual(
      strong.map((d) => [d.type, d.priority, d.trigger_level]),
      [['content_idea', 'high', 90]],
    );
  });

  test('a trend matching no interest (whole words only) yields nothing', () => {
    assert.deepEqual(generate(input({ interests: [{ keyword: 'aurora b' }], trends: [trend()] })), []);
    assert.deepEqual(generate(input({ interests: [], trends: [trend()] })), []);
    assert.equal(
      matchingInterest('Aurora Borealis tonight', [{ keyword: '#AuroraBorealis' }])?.keyword,
      '#AuroraBorealis',
    );
    assert.equal(matchingInterest('Auroras', [{ keyword: 'aurora' }])?.keyword, 'aurora');
    assert.equal(matchingInterest('Borealisation', [{ keyword: 'borealis' }]), null);
  });

  test('buying intent in a fresh insight makes it a marketing_angle; a stale insight does not count', () => {
    const buying = insight({ commercial_intent: RULES.marketingIntent });
    const [d] = generate(input({ trends: [trend()], insights: [buying] }));
    assert.equal(d!.type, 'marketing_angle');
    assert.ok(d!.parts.evidence.some((e) => e.metric === 'commercial_intent' && e.value === 0.2));
    assert.equal(brief(d!).confidence.score, 100);
    const old = insight({ commercial_intent: 0.5, generated_at: NOW - RULES.insightFreshMs - 1 });
    const drafts = generate(input({ trends: [trend()], insights: [old] }));
    assert.equal(byType(drafts, 'content_idea').length, 1);
    assert.equal(byType(drafts, 'marketing_angle').length, 0);
  });

  test('an open high crisis about the trend or unsafe brand safety blocks the content recommendation', () => {
    const gated = generate(input({ trends: [trend({ title: 'Acme Aurora' })], crises: [crisis()] }));
    const content = byType(gated, 'content_idea')[0]!;
    assert.equal(content.parts.blockers.length, 1);
    assert.match(content.parts.blockers[0]!, /crisis event #3/);
    assert.equal(brief(content).actionable, false);
    assert.equal(brief(content).urgency.level, 'verify_first');
    // A medium one does not block.
    const medium = generate(
      input({ trends: [trend({ title: 'Acme Aurora' })], crises: [crisis({ severity: 'medium' })] }),
    );
    assert.equal(brief(byType(medium, 'content_idea')[0]!).actionable, true);
    const unsafe = generate(
      input({
        trends: [trend()],
        insights: [insight({ brand_safety: { level: 'unsafe', flags: ['profanity'] } })],
      }),
    );
    assert.equal(brief(byType(unsafe, 'content_idea')[0]!).actionable, false);
  });

  test('influencer_collab needs an emerging or rising trend ≥ 50 with a positive, brand-safe fresh insight', () => {
    const ok = generate(input({ trends: [trend({ velocity_score: 60 })], insights: [insight()] }));
    assert.deepEqual(ok.map((d) => d.type).sort(), ['influencer_collab', 'monitoring']);
    assert.equal(byType(ok, 'influencer_collab')[0]!.priority, 'medium');
    const strong = generate(input({ trends: [trend()], insights: [insight()] }));
    assert.equal(byType(strong, 'influencer_collab')[0]!.priority, 'high');
    for (const over of [
      { trend: { lifecycle_stage: 'peaking' }, insight: {} },
      { trend: {}, insight: { sentiment_category: 'mixed' } },
      { trend: {}, insight: { brand_safety: { level: 'caution', flags: ['violence'] } } },
      { trend: { velocity_score: 40 }, insight: {} },
    ]) {
      const drafts = generate(input({ trends: [trend(over.trend)], insights: [insight(over.insight)] }));
      assert.equal(byType(drafts, 'influencer_collab').length, 0, JSON.stringify(over));
    }
  });
});

describe('crisis rules', () => {
  test('an open high crisis → one pr_response with the event’s numbers, fresh while within its window', () => {
    const c = crisis();
    const [d, ...rest] = generate(input({ crises: [c] }));
    assert.equal(rest.length, 0);
    assert.equal(d!.type, 'pr_response');
    assert.equal(d!.priority, 'high');
    assert.equal(d!.trigger_level, 3);
    assert.equal(d!.source_key, 'crisis:3');
    assert.equal(d!.source_trend_id, null);
    assert.equal(d!.source_trend_name, 'Acme');
    assert.equal(d!.source_words, ' acme ');
    const evidence = Object.fromEntries(d!.parts.evidence.map((e) => [e.metric, e]));
    assert.equal(evidence.severity!.value, 'high');
    assert.equal(evidence.severity!.interpretation, c.severity_basis);
    assert.equal(evidence.independent_sources!.value, 3);
    assert.equal(evidence.evidence_completeness!.value, 70);
    assert.equal(
      evidence.severity!.source_url,
      'https://crestwatch.example.com/api/intelligence/crisis-events/3',
    );
    assert.equal(evidence.severity!.observed_at, c.evidence_as_of);
    const asOf = Date.parse(c.evidence_as_of!);
    assert.equal(d!.fresh_until, asOf + 6 * HOUR);
    const fresh = brief(d!);
    assert.equal(fresh.actionable, true);
    assert.equal(fresh.confidence.score, 80); // basis, corroboration, completeness, fresh; no supporting review
    assert.deepEqual(fresh.confidence.missing_signals, ['human_review']);
    const edge = brief(d!, asOf + 6 * HOUR);
    assert.equal(edge.actionable, true);
    const stale = brief(d!, asOf + 6 * HOUR + 1);
    assert.equal(stale.actionable, false);
    assert.equal(stale.data_quality.freshness, 'stale');
    assert.equal(stale.confidence.score, 60);
    assert.deepEqual(stale.confidence.missing_signals, ['human_review', 'fresh_evidence']);
  });

  test('critical → critical priority at level 4; without evidence → missing; disputed → blocked', () => {
    const [critical] = generate(input({ crises: [crisis({ severity: 'critical', trend_id: 9 })] }));
    assert.deepEqual(
      [critical!.priority, critical!.trigger_level, critical!.source_trend_id],
      ['critical', 4, '9'],
    );
    assert.equal(critical!.parts.urgency.window, 'Next 2 hours');
    const [none] = generate(input({ crises: [crisis({ evidence_as_of: null })] }));
    assert.equal(none!.fresh_until, null);
    assert.equal(brief(none!).data_quality.freshness, 'missing');
    assert.equal(brief(none!).actionable, false);
    const [disputed] = generate(input({ crises: [crisis({ review_status: 'disputed' })] }));
    assert.equal(brief(disputed!).actionable, false);
  });

  test('low and medium crises → monitoring with their severity as priority', () => {
    const drafts = generate(
      input({ crises: [crisis({ id: 1, severity: 'low' }), crisis({ id: 2, severity: 'medium' })] }),
    );
    assert.deepEqual(
      drafts.map((d) => [d.type, d.priority, d.trigger_level, d.source_key]),
      [
        ['monitoring', 'low', 1, 'crisis:1'],
        ['monitoring', 'medium', 2, 'crisis:2'],
      ],
    );
  });
});

describe('insight rules', () => {
  test('commercial intent ≥ 0.15 → seo_optimization (high from 0.3) with the insight’s numbers', () => {
    assert.equal(
      byType(generate(input({ insights: [insight({ commercial_intent: 0.149 })] })), 'seo_optimization')
        .length,
      0,
    );
    const [medium] = byType(
      generate(input({ insights: [insight({ commercial_intent: 0.15 })] })),
      'seo_optimization',
    );
    assert.deepEqual([medium!.priority, medium!.trigger_level], ['medium', 15]);
    const [high] = byType(
      generate(input({ insights: [insight({ commercial_intent: 0.3 })] })),
      'seo_optimization',
    );
    assert.deepEqual([high!.priority, high!.trigger_level], ['high', 30]);
    const evidence = Object.fromEntries(high!.parts.evidence.map((e) => [e.metric, e]));
    assert.equal(evidence.commercial_intent!.value, 0.3);
    assert.equal(evidence.predicted_cpc_usd!.value, 0.9);
    assert.equal(
      evidence.commercial_intent!.source_url,
      'https://crestwatch.example.com/api/trends/7/ai-insights',
    );
    assert.equal(evidence.commercial_intent!.observed_at, new Date(NOW - HOUR).toISOString());
    assert.equal(high!.fresh_until, NOW - HOUR + RULES.insightFreshMs);
    // Buying words in a negative conversation (refunds, charges) are complaints, not demand.
    const negative = insight({ commercial_intent: 0.5, sentiment_category: 'negative' });
    assert.equal(byType(generate(input({ insights: [negative] })), 'seo_optimization').length, 0);
    // Without the trend among the matching ones, its live numbers are missing.
    assert.deepEqual(brief(high!).confidence.missing_signals, ['live_trend_metrics']);
  });

  test('complaints: product topics → product_improvement, service topics → crm_strategy, from 10 % and 3 mentions', () => {
    const complaints = parseComplaints([
      'bugs and broken features: 9 of 30 mentions (30 %), e.g. “the app crashed again”',
      'billing, pricing and refunds: 4 of 30 mentions (13 %), e.g. “charged twice”',
      'customer support: 2 of 30 mentions (7 %), e.g. “no reply”',
      'No recurring complaint: 3 of 30 mentions read as negative and none share a complaint topic.',
    ]);
    assert.deepEqual(
      complaints.map((c) => [c.label, c.count, c.of, c.share_pct, c.kind]),
      [
        ['bugs and broken features', 9, 30, 30, 'product'],
        ['billing, pricing and refunds', 4, 30, 13.3, 'service'],
        ['customer support', 2, 30, 6.7, 'service'],
      ],
    );
    assert.equal(complaints[0]!.example, 'the app crashed again');
    const drafts = generate(
      input({
        insights: [
          insight({
            complaints,
            sentiment_category: 'negative',
            suggested_responses: ['On billing, pricing and refunds: apologise.'],
          }),
        ],
      }),
    );
    const product = byType(drafts, 'product_improvement')[0]!;
    assert.deepEqual([product.priority, product.trigger_level], ['high', 25]);
    assert.equal(product.parts.evidence.find((e) => e.metric === 'complaint_share')!.value, 30);
    assert.equal(product.parts.evidence.find((e) => e.metric === 'sample_size')!.value, 30);
    const crm = byType(drafts, 'crm_strategy')[0]!;
    assert.deepEqual([crm.priority, crm.trigger_level], ['medium', 10]);
    // Only the topic above the thresholds is evidence; the 7 % one is not.
    assert.deepEqual(
      crm.parts.evidence.filter((e) => e.metric === 'complaint_share').map((e) => e.value),
      [13.3],
    );
    assert.equal(crm.parts.next_steps[0], 'On billing, pricing and refunds: apologise.');
    assert.equal(brief(crm).confidence.score, 100);
  });

  test('insightFacts reads a stored AIInsight', () => {
    const facts = insightFacts(
      {
        trend_id: 4,
        trend_name: 'Zenith Phone',
        sentiment_summary: null,
        sentiment_category: 'positive',
        key_themes: [],
        content_brief: {
          target_audience_segments: [],
          key_angles_for_content: ['Value for money'],
          suggested_content_formats: [],
          call_to_action_ideas: [],
        },
        ad_platform_targeting: {
          primary_audience_keywords: ['zenith phone', 'buy zenith'],
          secondary_audience_keywords: [],
          potential_demographics_summary: '',
        },
        trend_metrics: { velocity_score: 12, velocity_1h: 3, predicted_cpc_usd: 1.2, commercial_intent: 0.4 },
        platform_signal: null,
        audience_injection: null,
        brand_safety: { level: 'safe', flags: [] },
        crm_and_support_insights: {
          common_complaints: ['product quality: 3 of 10 mentions (30 %), e.g. “cracked”'],
          common_questions: ['Is it worth it?'],
          suggested_responses: [],
        },
        overall_topic_category_llm: null,
        analysis_notes: null,
        llm_model_used: null,
        generated_at: '2026-11-21T09:00:00.000Z',
        usage_count: null,
        usage_limit: null,
      },
      Date.parse('2026-11-21T09:00:00Z'),
    );
    assert.equal(facts.commercial_intent, 0.4);
    assert.equal(facts.predicted_cpc_usd, 1.2);
    assert.deepEqual(facts.primary_keywords, ['zenith phone', 'buy zenith']);
    assert.deepEqual(facts.key_angles, ['Value for money']);
    assert.deepEqual(
      facts.complaints.map((c) => [c.label, c.share_pct, c.kind]),
      [['product quality', 30, 'product']],
    );
  });
});

describe('the engine and the brief', () => {
  test('never two drafts for one source and type, even when inputs repeat', () => {
    const drafts = generate(input({ trends: [trend(), trend()], crises: [crisis(), crisis()] }));
    const keys = drafts.map((d) => `${d.source_key}|${d.type}`);
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(drafts.length, 2);
  });

  test('generation is deterministic (the fingerprint of a draft depends only on its inputs)', () => {
    const a = generate(
      input({ trends: [trend()], crises: [crisis()], insights: [insight({ commercial_intent: 0.4 })] }),
    );
    const b = generate(
      input({ trends: [trend()], crises: [crisis()], insights: [insight({ commercial_intent: 0.4 })] }),
    );
    assert.deepEqual(a, b);
  });

  test('a lapsed trigger is never actionable and says so', () => {
    const [d] = generate(input({ trends: [trend()] }));
    const b = brief(d!, NOW, NOW - 1000);
    assert.equal(b.actionable, false);
    assert.equal(b.data_quality.status, 'lapsed');
    assert.ok(b.confidence.missing_signals.includes('current_trigger'));
    assert.equal(b.urgency.window, 'None: the trigger lapsed');
  });

  test('confidence is the weight of the signals present; levels at 75 and 50', () => {
    const parts: BriefParts = {
      why_now: 'x',
      evidence: [],
      checks: [
        { signal: 'a', weight: 40, present: true, reason: 'a present' },
        { signal: 'b', weight: 30, present: false, reason: 'b missing' },
      ],
      freshness_weight: 30,
      expected_benefit: { outcome: 'o', basis: 'b', measurement: 'm' },
      urgency: { level: 'act_now', window: 'w', reason: 'r' },
      next_steps: [],
      snapshot_at: null,
      blockers: [],
    };
    const fresh = present(parts, { now: NOW, freshUntil: NOW, lapsedAt: null });
    assert.deepEqual(
      [fresh.confidence.score, fresh.confidence.level, fresh.data_quality.status],
      [70, 'medium', 'partial'],
    );
    assert.deepEqual(fresh.confidence.missing_signals, ['b']);
    assert.equal(fresh.confidence.reasons[0], 'a present');
    const stale = present(parts, { now: NOW + 1, freshUntil: NOW, lapsedAt: null });
    assert.deepEqual(
      [stale.confidence.score, stale.confidence.level, stale.data_quality.status],
      [40, 'low', 'weak'],
    );
    assert.equal(freshnessAt(null, NOW), 'missing');
  });
});
