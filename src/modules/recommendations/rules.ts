// The recommendation rule engine: pure functions from what Crestwatch knows about one user (their interests,
// the trends matching them, their open crisis events, their latest AI insights) to recommendation drafts.
// No I/O and no clock: `now` and every input arrive in `RuleInput`; the service stores what comes out.
//
// The rules (thresholds in RULES, facts.ts; each draft names its source and type, and the store keeps one
// recommendation per user, source and type):
//
// | rule | source | fires when | type | priority | trigger level |
// |---|---|---|---|---|---|
// | trend momentum | trend | a trend matching an interest has velocity_score ≥ 75 | marketing_angle when the user's fresh insight on it measures commercial intent ≥ 0.2 and is not negative, else content_idea | high at ≥ 90, else medium | 90 or 75 |
// | trend watch | trend | a trend matching an interest has 50 ≤ velocity_score < 75 | monitoring | low | 50 |
// | creator moment | trend | a trend matching an interest has velocity_score ≥ 50, is emerging or rising, and the user's fresh insight on it is positive and brand-safe | influencer_collab | medium (high at ≥ 75) | 75 or 50 |
// | crisis response | crisis event | an open (active or acknowledged) event of severity high or critical | pr_response | the severity | 3 (high) or 4 (critical) |
// | crisis watch | crisis event | an open event of severity low or medium | monitoring | the severity | 1 or 2 |
// | search demand | trend (insight) | the user's latest insight measures commercial intent ≥ 0.15 and its sentiment is not negative | seo_optimization | high at ≥ 0.3, else medium | 30 or 15 |
// | product complaints | trend (insight) | a product complaint topic (outages, bugs, performance, quality, privacy, safety) in ≥ 10 % and ≥ 3 of the analysed mentions | product_improvement | high at ≥ 25 %, else medium | 25 or 10 |
// | service complaints | trend (insight) | a service complaint topic (billing, support, delivery) in ≥ 10 % and ≥ 3 of the analysed mentions | crm_strategy | high at ≥ 25 %, else medium | 25 or 10 |
//
// Confidence is evidence completeness, not a probability: each rule lists the signals a complete decision
// would rest on, with weights summing to 100; the score is the weight of those present (freshness is judged
// when the brief is shown, see brief.ts).
//
// This file runs the rules; facts.ts holds the thresholds (RULES) and the types, trend-rules.ts, crisis-rules.ts
// and insight-rules.ts the rules themselves.
import { crisisDraft } from './crisis-rules.ts';
import { type Draft, RULES, type RuleInput, type TrendFacts } from './facts.ts';
import { complaintDraft, type InsightContext, searchDemand } from './insight-rules.ts';
import { gatingCrisis, isFreshInsight, matchingInterest, paddedWords } from './matching.ts';
import { creatorMoment, momentum, type TrendContext, watch } from './trend-rules.ts';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Every draft the rules produce for one user; at most one per (source_key, type). */
export function generate(input: RuleInput): Draft[] {
  const base = trimSlash(input.baseUrl);
  const trendLink = (id: number) => `${base}/api/trends/${id}`;
  const insightLink = (id: number) => `${base}/api/trends/${id}/ai-insights`;
  const crisisLink = (id: number) => `${base}/api/intelligence/crisis-events/${id}`;
  const insights = new Map(input.insights.map((i) => [i.trend_id, i]));
  const drafts: Draft[] = [];
  const trendsById = new Map<number, TrendFacts>();

  for (const trend of input.trends) {
    const interest = matchingInterest(trend.title, input.interests);
    if (interest === null) continue;
    trendsById.set(trend.id, trend);
    const insight = insights.get(trend.id);
    const c: TrendContext = {
      trend,
      interest,
      insight,
      freshInsight: isFreshInsight(insight, input.now) ? insight : null,
      gate: gatingCrisis(trend, input.crises),
      trendLink: trendLink(trend.id),
      insightLink: insightLink(trend.id),
      interestsLink: `${base}/api/user/interests`,
      freshUntil: Date.parse(trend.timestamp) + RULES.trendFreshMs,
      sourceWords: paddedWords([trend.title]),
    };
    for (const rule of [momentum, watch, creatorMoment]) {
      const draft = rule(c);
      if (draft) drafts.push(draft);
    }
  }

  for (const crisis of input.crises) drafts.push(crisisDraft(crisis, crisisLink(crisis.id)));

  for (const insight of input.insights) {
    const c: InsightContext = {
      insight,
      trend: trendsById.get(insight.trend_id),
      link: insightLink(insight.trend_id),
      trendLink: trendLink(insight.trend_id),
      freshUntil: insight.generated_at + RULES.insightFreshMs,
      sourceWords: paddedWords([insight.trend_name]),
    };
    for (const draft of [searchDemand(c), complaintDraft(c, 'product'), complaintDraft(c, 'service')]) {
      if (draft) drafts.push(draft);
    }
  }

  // One per source and type (inputs could repeat a trend or an event): the first wins.
  const seen = new Set<string>();
  return drafts.filter((d) => {
    const key = `${d.source_key}|${d.type}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
