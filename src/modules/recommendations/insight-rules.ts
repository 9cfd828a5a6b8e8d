// Insight rules: the user's latest insight on a trend becomes seo_optimization (search demand),
// product_improvement or crm_strategy (complaint topics); see the table in rules.ts.
import type { Evidence } from './brief.ts';
import { insightEvidence, trendEvidence } from './evidence.ts';
import { type Draft, type InsightFacts, RULES, type TrendFacts } from './facts.ts';
import { iso } from './format.ts';

export interface InsightContext {
  insight: InsightFacts;
  trend: TrendFacts | undefined;
  link: string;
  trendLink: string;
  freshUntil: number;
  sourceWords: string;
}

function insightCommon(c: InsightContext) {
  return {
    source_key: `trend:${c.insight.trend_id}`,
    source_trend_id: String(c.insight.trend_id),
    source_trend_name: c.insight.trend_name,
    source_words: c.sourceWords,
    fresh_until: c.freshUntil,
  };
}

export function searchDemand(c: InsightContext): Draft | null {
  const { insight } = c;
  const intent = insight.commercial_intent;
  if (intent === null || intent < RULES.seoIntent) return null;
  // Buying words in complaints (refunds, charges, cancellations) are not demand to capture.
  if (insight.sentiment_category === 'negative') return null;
  const strong = intent >= RULES.seoStrongIntent;
  const keywords = insight.primary_keywords.slice(0, 5);
  const evidence = insightEvidence(insight, c.link);
  if (keywords.length > 0)
    evidence.push({
      metric: 'primary_audience_keywords',
      label: 'Primary audience keywords',
      value: keywords,
      unit: null,
      interpretation: null,
      source: 'crestwatch',
      source_url: c.link,
      observed_at: iso(insight.generated_at),
    });
  if (c.trend) evidence.push(...trendEvidence(c.trend, c.trendLink).slice(0, 3));
  const unsafe = insight.brand_safety?.level === 'unsafe';
  return {
    ...insightCommon(c),
    type: 'seo_optimization',
    title: `Capture search demand for "${insight.trend_name}"`,
    details:
      `${Math.round(intent * 100)} % of the analysed mentions of "${insight.trend_name}" use buying language ` +
      `(predicted CPC $${insight.predicted_cpc_usd ?? '?'}): a page that answers them can earn that traffic organically.`,
    priority: strong ? 'high' : 'medium',
    trigger_level: Math.round((strong ? RULES.seoStrongIntent : RULES.seoIntent) * 100),
    parts: {
      why_now:
        `Your insight of ${iso(insight.generated_at)} measures commercial intent ${intent} for "${insight.trend_name}"` +
        (c.trend ? `, which now has velocity score ${c.trend.velocity_score}.` : '.'),
      evidence,
      checks: [
        {
          signal: 'commercial_intent',
          weight: 30,
          present: true,
          reason: `Commercial intent measured: ${intent}.`,
        },
        {
          signal: 'predicted_cpc',
          weight: 15,
          present: insight.predicted_cpc_usd !== null,
          reason:
            insight.predicted_cpc_usd !== null
              ? `Predicted CPC $${insight.predicted_cpc_usd} values the traffic.`
              : 'No predicted CPC to value the traffic.',
        },
        {
          signal: 'audience_keywords',
          weight: 20,
          present: keywords.length >= 3,
          reason:
            keywords.length >= 3
              ? `Keywords to target: ${keywords.join(', ')}.`
              : 'Fewer than 3 audience keywords to target.',
        },
        {
          signal: 'live_trend_metrics',
          weight: 15,
          present: c.trend !== undefined,
          reason: c.trend
            ? `Live numbers: velocity score ${c.trend.velocity_score}, ${c.trend.volume} mentions in 24 hours.`
            : 'The trend does not match one of your interests, so its live numbers are not tracked here.',
        },
      ],
      freshness_weight: 20,
      expected_benefit: {
        outcome: `Organic search traffic from people looking to buy around "${insight.trend_name}".`,
        basis: `Commercial intent ${intent}${insight.predicted_cpc_usd !== null ? ` at a predicted CPC of $${insight.predicted_cpc_usd}` : ''}.`,
        measurement: 'Impressions, clicks and conversions of the page for the target keywords over 28 days.',
      },
      urgency: strong
        ? {
            level: 'this_week',
            window: 'Next 7 days',
            reason: 'High buying intent while the topic is discussed.',
          }
        : { level: 'this_week', window: 'Next 14 days', reason: 'Moderate buying intent.' },
      next_steps: [
        keywords.length > 0
          ? `Map the keywords ${keywords.join(', ')} to one landing page or guide.`
          : `Research the queries people use about "${insight.trend_name}".`,
        'Answer the buying questions directly (price, comparison, where to buy) with structured data.',
        `Re-run the insight in a week to see whether intent holds: POST /api/trends/${insight.trend_id}/ai-insights/generate.`,
      ],
      snapshot_at: iso(insight.generated_at),
      blockers: unsafe
        ? [
            `Your latest insight rates the mentions brand-unsafe (${insight.brand_safety!.flags.join(', ') || 'flagged'}).`,
          ]
        : [],
    },
  };
}

export function complaintDraft(c: InsightContext, kind: 'product' | 'service'): Draft | null {
  const { insight } = c;
  const topics = insight.complaints.filter(
    (t) => t.kind === kind && t.share_pct >= RULES.complaintSharePct && t.count >= RULES.complaintMinCount,
  );
  if (topics.length === 0) return null;
  const top = topics.reduce((a, b) => (b.share_pct > a.share_pct ? b : a));
  const strong = top.share_pct >= RULES.complaintStrongSharePct;
  const at = iso(insight.generated_at);
  const sample = top.of;
  const evidence: Evidence[] = topics.slice(0, 3).map((t) => ({
    metric: 'complaint_share',
    label: `Mentions complaining about ${t.label}`,
    value: t.share_pct,
    unit: '%',
    interpretation: `${t.count} of ${t.of} analysed mentions${t.example ? `, e.g. “${t.example}”` : ''}.`,
    source: 'crestwatch',
    source_url: c.link,
    observed_at: at,
  }));
  evidence.push({
    metric: 'sample_size',
    label: 'Mentions analysed',
    value: sample,
    unit: 'mentions',
    interpretation: null,
    source: 'crestwatch',
    source_url: c.link,
    observed_at: at,
  });
  if (insight.sentiment_category)
    evidence.push({
      metric: 'sentiment_category',
      label: 'Sentiment of the analysed mentions',
      value: insight.sentiment_category,
      unit: null,
      interpretation: null,
      source: 'crestwatch',
      source_url: c.link,
      observed_at: at,
    });
  const negative = insight.sentiment_category === 'negative' || insight.sentiment_category === 'mixed';
  const labels = topics.map((t) => t.label).join('; ');
  const product = kind === 'product';
  return {
    ...insightCommon(c),
    type: product ? 'product_improvement' : 'crm_strategy',
    title: product
      ? `Fix what people complain about in "${insight.trend_name}": ${top.label}`
      : `Set up a support response for "${insight.trend_name}": ${top.label}`,
    details:
      `${top.share_pct} % of the analysed mentions of "${insight.trend_name}" complain about ${top.label}` +
      (topics.length > 1
        ? ` (also: ${topics
            .slice(1)
            .map((t) => t.label)
            .join('; ')})`
        : '') +
      '.',
    priority: strong ? 'high' : 'medium',
    trigger_level: strong ? RULES.complaintStrongSharePct : RULES.complaintSharePct,
    parts: {
      why_now: `Your insight of ${at} finds ${top.count} of ${top.of} mentions complaining about ${top.label} (${top.share_pct} %).`,
      evidence,
      checks: [
        {
          signal: 'complaint_share',
          weight: 35,
          present: true,
          reason: `Complaint share measured: ${labels}.`,
        },
        {
          signal: 'sample_size',
          weight: 20,
          present: sample >= RULES.solidSample,
          reason:
            sample >= RULES.solidSample
              ? `${sample} mentions analysed.`
              : `Only ${sample} mentions analysed (fewer than ${RULES.solidSample}).`,
        },
        {
          signal: 'negative_sentiment',
          weight: 20,
          present: negative,
          reason: negative
            ? `Overall sentiment is ${insight.sentiment_category}.`
            : `Overall sentiment is ${insight.sentiment_category ?? 'unknown'}, not negative.`,
        },
      ],
      freshness_weight: 25,
      expected_benefit: product
        ? {
            outcome: `Fewer complaints about ${top.label}.`,
            basis: `${top.share_pct} % of the analysed mentions.`,
            measurement: `The topic's share in your next insight on the trend against ${top.share_pct} % now.`,
          }
        : {
            outcome: `Faster, consistent answers on ${top.label}, and fewer repeat contacts.`,
            basis: `${top.share_pct} % of the analysed mentions.`,
            measurement: `The topic's share and the overall sentiment in your next insight against ${top.share_pct} % now.`,
          },
      urgency: strong
        ? {
            level: 'this_week',
            window: 'Next 3 days',
            reason: `${top.share_pct} % of mentions is a recurring problem.`,
          }
        : { level: 'this_week', window: 'Next 14 days', reason: 'A recurring, moderate complaint.' },
      next_steps: product
        ? [
            `Share the examples with whoever owns ${top.label}: GET /api/trends/${insight.trend_id}/ai-insights.`,
            'Reproduce the most common failure and estimate the fix.',
            `Re-run the insight after the fix: POST /api/trends/${insight.trend_id}/ai-insights/generate.`,
          ]
        : [
            ...insight.suggested_responses
              .filter((r) => topics.some((t) => r.startsWith(`On ${t.label}:`)))
              .slice(0, 2),
            `Turn the answer into a support macro and a pinned FAQ entry about ${top.label}.`,
            ...(insight.common_questions.length > 0
              ? [`Answer the common question: ${insight.common_questions[0]}`]
              : []),
          ],
      snapshot_at: at,
      blockers: [],
    },
  };
}
