// The offline analyzer: a complete AIInsight from a trend's metrics and a sample of its recent signals,
// with no model and no network. Pure: everything it needs comes in `AnalyzerInput`.
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { extractCandidates } from '../text/index.ts';
import { sentimentCategory } from '../trends/index.ts';
import {
  CATEGORY_COMMUNITIES,
  type CategoryProfile,
  COMMERCIAL,
  COMPLAINT_TOPICS,
  GENERIC_NEGATIVE_KEYWORDS,
  PLATFORM_FORMATS,
  profileFor,
  SAFETY_LEXICONS,
} from './lexicons.ts';
import { classifySentiment, type TextSentiment } from './sentiment.ts';
import { estimateCounts, type Reading } from './share-estimate.ts';

const OFFLINE_VERSION = '1.2';
const OFFLINE_MODEL = `crestwatch-offline/${OFFLINE_VERSION}`;

type SentimentCategory = 'positive' | 'negative' | 'neutral' | 'mixed';
export type SafetyLevel = 'safe' | 'caution' | 'unsafe';

export interface AIInsight {
  trend_id: number;
  trend_name: string | null;
  sentiment_summary: string | null;
  sentiment_category: string | null;
  key_themes: string[];
  content_brief: {
    target_audience_segments: string[];
    key_angles_for_content: string[];
    suggested_content_formats: string[];
    call_to_action_ideas: string[];
    [key: string]: unknown;
  };
  ad_platform_targeting: {
    primary_audience_keywords: string[];
    secondary_audience_keywords: string[];
    potential_demographics_summary: string;
    [key: string]: unknown;
  };
  trend_metrics: {
    velocity_score: number | null;
    velocity_1h: number | null;
    predicted_cpc_usd: number | null;
    commercial_intent: number | null;
  } | null;
  platform_signal: { primary_source: string | null; virality_distribution: Record<string, number> } | null;
  audience_injection: {
    demographics: Record<string, unknown>;
    interest_keywords: string[];
    negative_keywords: string[];
    platform_payloads: Record<string, unknown>;
  } | null;
  brand_safety: { level: SafetyLevel | null; flags: string[] } | null;
  crm_and_support_insights: {
    common_complaints: string[];
    common_questions: string[];
    suggested_responses: string[];
    [key: string]: unknown;
  };
  overall_topic_category_llm: string | null;
  analysis_notes: string | null;
  llm_model_used: string | null;
  generated_at: string | null;
  usage_count: number | null;
  usage_limit: number | null;
}

export interface AnalyzerSignal {
  text: string;
  title: string | null;
  source: string;
  observed_at: number;
  url: string | null;
  location: string | null;
  lang: string | null;
}

export interface AnalyzerInput {
  trend: { id: number; title: string; key: string; category: string };
  metrics: {
    volume: number;
    velocity_score: number;
    velocity_1h: number;
    lifecycle_stage: string;
    growth: number | null;
    /** Mentions by platform (over the metrics window). */
    platforms: Record<string, number>;
  };
  signals: AnalyzerSignal[];
  /** How many days back the signal sample reaches. */
  windowDays: number;
  now: number;
}

const MAX_THEMES = 8;
const MAX_QUESTIONS = 5;
/** predicted_cpc_usd = base CPC of the category × (0.6 + 1.4 × commercial_intent): 0.6× with no buying
 * language at all, 2× when every mention is transactional. */
const INTENT_FLOOR = 0.6;
const INTENT_SLOPE = 1.4;

let matcher: RegExpMatcher | null = null;
function profanity(): RegExpMatcher {
  matcher ??= new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  return matcher;
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;
const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));
const clip = (text: string, max = 160) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
};

/** The last segment of a category path (`Technology/AI` → `AI`). */
const leafOf = (category: string) => category.split('/').at(-1) ?? category;

function topEntries(counts: Map<string, number>, limit: number): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit);
}

/** A signal as the sections read it: title and text joined, a lower-cased copy, and its sentiment. */
interface ScoredSignal {
  signal: AnalyzerSignal;
  full: string;
  lower: string;
  score: number;
  category: TextSentiment;
  /** How it reads when written to an account (null otherwise): the basis of the estimated shares. */
  reading: Reading | null;
}

/** A complaint topic found among the negative mentions, with its stock response and its worst example. */
interface Complaint {
  label: string;
  response: string;
  count: number;
  example: string;
}

function scoreSignals(signals: readonly AnalyzerSignal[]): ScoredSignal[] {
  return signals.map((signal) => {
    const full = signal.title ? `${signal.title}. ${signal.text}` : signal.text;
    const { score, category, reading } = classifySentiment(full);
    return { signal, full, lower: full.toLowerCase(), score, category, reading };
  });
}

/** Shares of mentions per platform, rounded to 4 decimals, summing to exactly 1. */
export function distribution(counts: Record<string, number>): Record<string, number> {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  const total = entries.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return {};
  entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const out: Record<string, number> = {};
  let assigned = 0;
  for (const [name, n] of entries.slice(1)) {
    out[name] = round(n / total);
    assigned += out[name]!;
  }
  out[entries[0]![0]] = round(1 - assigned);
  return Object.fromEntries(entries.map(([name]) => [name, out[name]!]));
}

/** Key phrases of the mentions (not the trend's own name), by number of mentions, in their commonest form. */
function recurringPhrases(scored: readonly ScoredSignal[], trendKey: string): string[] {
  const docs = new Map<string, number>();
  const surfaces = new Map<string, Map<string, number>>();
  const trendTokens = new Set(trendKey.split(' '));
  for (const s of scored) {
    const seen = new Set<string>();
    let candidates: ReturnType<typeof extractCandidates> = [];
    try {
      candidates = extractCandidates({ text: s.signal.text, title: s.signal.title, lang: s.signal.lang });
    } catch {
      candidates = [];
    }
    for (const c of candidates) {
      // The trend itself, and pieces of its own name, are not themes of it.
      if (c.key === trendKey || c.key.split(' ').every((t) => trendTokens.has(t))) continue;
      if (seen.has(c.key)) continue;
      seen.add(c.key);
      docs.set(c.key, (docs.get(c.key) ?? 0) + 1);
      const forms = surfaces.get(c.key) ?? new Map<string, number>();
      const surface = c.surface.replace(/^#/, '');
      forms.set(surface, (forms.get(surface) ?? 0) + 1);
      surfaces.set(c.key, forms);
    }
  }
  const minDocs = scored.length >= 20 ? 2 : 1;
  return [...docs]
    .filter(([, n]) => n >= minDocs)
    .sort(
      (a, b) => b[1] - a[1] || b[0].split(' ').length - a[0].split(' ').length || a[0].localeCompare(b[0]),
    )
    .slice(0, MAX_THEMES)
    .map(([key]) => topEntries(surfaces.get(key)!, 1)[0]![0]);
}

/** The questions people ask most (sentences ending in `?`), else three stock questions about the trend. */
function questionsOf(scored: readonly Pick<ScoredSignal, 'full'>[], name: string): string[] {
  const counts = new Map<string, { text: string; n: number }>();
  for (const s of scored) {
    for (const sentence of s.full.split(/(?<=[.!?])\s+|\n+/)) {
      const q = sentence.trim();
      if (!q.endsWith('?') || q.length < 12) continue;
      const key = q
        .toLowerCase()
        .replace(/[^\p{L}\p{N} ]/gu, '')
        .replace(/\s+/g, ' ');
      const hit = counts.get(key);
      if (hit) hit.n++;
      else counts.set(key, { text: clip(q), n: 1 });
    }
  }
  const found = [...counts.values()]
    .sort((a, b) => b.n - a.n || a.text.localeCompare(b.text))
    .slice(0, MAX_QUESTIONS)
    .map((q) => q.text);
  return found.length > 0
    ? found
    : [
        `What is ${name} and why is it trending now?`,
        `How does ${name} affect me or my business?`,
        `What are the best alternatives to ${name}?`,
      ];
}

export function complaintsOf(
  scored: readonly Pick<ScoredSignal, 'signal' | 'lower' | 'score' | 'category'>[],
): Complaint[] {
  const negatives = scored.filter((s) => s.category === 'negative');
  const found = COMPLAINT_TOPICS.map((topic) => ({
    topic,
    hits: negatives.filter((s) => topic.matcher.test(s.lower)).sort((a, b) => a.score - b.score),
  }))
    .filter((t) => t.hits.length > 0)
    .sort((a, b) => b.hits.length - a.hits.length || a.topic.label.localeCompare(b.topic.label));
  // Each topic quotes the most negative mention not already quoted for a bigger topic.
  const used = new Set<(typeof negatives)[number]>();
  return found.map(({ topic, hits }) => {
    const example = hits.find((h) => !used.has(h)) ?? hits[0]!;
    used.add(example);
    return {
      label: topic.label,
      response: topic.response,
      count: hits.length,
      example: clip(example.signal.text, 120),
    };
  });
}

/**
 * sentiment_category and sentiment_summary. Each mention is classified on its own (sentiment.ts). The shares
 * are estimated (share-estimate.ts): a mention written to an account counts as the proportions people gave
 * posts with the same reading, any other as its category, so a strongly negative audience is not understated
 * by the complaints the classifier misses. The category is the trends rule on those shares (trends'
 * sentimentCategory, docs/metrics.md): a clear majority (≥ 55 % of the mentions and more than 1.5 × the
 * other side) decides, then `mixed` when both sides hold ≥ 30 %, then the mean score against ±0.05 on the side
 * with at least as many mentions, else neutral. The summary states the estimated shares and, when any mention
 * was estimated, how many read as negative one by one.
 */
export function sentimentSection(
  scored: readonly (Pick<ScoredSignal, 'score' | 'category'> & { reading?: Reading | null })[],
  name: string,
  windowDays: number,
): { sentiment_category: SentimentCategory; sentiment_summary: string } {
  const n = scored.length;
  const estimate = estimateCounts(scored);
  const classifiedNegative = scored.filter((s) => s.category === 'negative').length;
  const sum = scored.reduce((total, s) => total + s.score, 0);
  const mean = n === 0 ? 0 : sum / n;
  const category: SentimentCategory = sentimentCategory({
    sum,
    count: n,
    positive: estimate.positive,
    negative: estimate.negative,
  });
  const basis =
    estimate.addressed === 0
      ? ''
      : `; shares estimated: ${estimate.addressed} written to an account count as people labelled posts that ` +
        `read like them; one by one, ${pct(classifiedNegative, n)} % read as negative`;
  const summary =
    n === 0
      ? `No recent mentions of ${name} were available to score; sentiment is treated as neutral until signals arrive.`
      : `Sentiment around ${name} is ${category}: of ${n} mentions in the last ${windowDays} days, ` +
        `${pct(estimate.positive, n)} % are positive, ${pct(estimate.negative, n)} % negative and ` +
        `${pct(estimate.neutral, n)} % neutral (mean score ${mean.toFixed(2)} on a −1 to 1 scale${basis}).`;
  return { sentiment_category: category, sentiment_summary: summary };
}

/**
 * key_themes: the top complaint topics first when the tone is negative or mixed, then the recurring phrases;
 * with neither, the trend's name in its category.
 */
export function keyThemesSection(input: {
  name: string;
  category: string;
  sentiment: SentimentCategory;
  phrases: readonly string[];
  complaints: readonly Pick<Complaint, 'label'>[];
}): string[] {
  const complaintThemes =
    input.sentiment === 'negative' || input.sentiment === 'mixed'
      ? input.complaints.slice(0, 3).map((c) => `complaints about ${c.label}`)
      : [];
  const themes = [...complaintThemes, ...input.phrases].slice(0, MAX_THEMES);
  // Too few mentions for recurring phrases: the trend's own name in its category says the most.
  if (themes.length === 0) {
    const lowerName = input.name.toLowerCase();
    const leaf = leafOf(input.category);
    themes.push(leaf === 'Other' ? lowerName : `${lowerName} ${leaf.toLowerCase()}`.trim());
  }
  return themes;
}

/**
 * trend_metrics: the engine's velocity figures, commercial intent (the share of mentions with buying
 * modifiers) and predicted_cpc_usd = base CPC × (0.6 + 1.4 × commercial intent).
 */
export function trendMetricsSection(
  metrics: Pick<AnalyzerInput['metrics'], 'velocity_score' | 'velocity_1h'>,
  scored: readonly Pick<ScoredSignal, 'lower'>[],
  baseCpcUsd: number,
): { velocity_score: number; velocity_1h: number; predicted_cpc_usd: number; commercial_intent: number } {
  const n = scored.length;
  const commercialCount = scored.filter((s) => COMMERCIAL.test(s.lower)).length;
  const commercialIntent = n === 0 ? 0 : round(commercialCount / n);
  return {
    velocity_score: metrics.velocity_score,
    velocity_1h: metrics.velocity_1h,
    predicted_cpc_usd: round(baseCpcUsd * (INTENT_FLOOR + INTENT_SLOPE * commercialIntent), 2),
    commercial_intent: commercialIntent,
  };
}

/** Mentions by platform: the metrics' counts, or the sample's sources when the metrics have none. */
function platformCountsOf(
  platforms: Record<string, number>,
  scored: readonly Pick<ScoredSignal, 'signal'>[],
): Record<string, number> {
  if (!Object.values(platforms).every((v) => !v)) return platforms;
  const counts: Record<string, number> = {};
  for (const s of scored) counts[s.signal.source] = (counts[s.signal.source] ?? 0) + 1;
  return counts;
}

/** platform_signal: the busiest platform and every platform's share (`{unknown: 1}` without any). */
export function platformSignalSection(counts: Record<string, number>): {
  primary_source: string | null;
  virality_distribution: Record<string, number>;
} {
  const virality = distribution(counts);
  return {
    primary_source: Object.keys(virality)[0] ?? null,
    virality_distribution: Object.keys(virality).length > 0 ? virality : { unknown: 1 },
  };
}

/**
 * brand_safety: a flag (profanity, or a category lexicon) needs at least 2 mentions and 5 % of them; any flag
 * makes the trend `caution`, and a large share of adult, hate, profanity, violence or tragedy `unsafe`.
 */
export function brandSafetySection(scored: readonly Pick<ScoredSignal, 'full' | 'lower'>[]): {
  level: SafetyLevel;
  flags: string[];
} {
  const n = scored.length;
  const counts: Record<string, number> = { profanity: 0 };
  for (const s of scored) {
    if (profanity().hasMatch(s.full)) counts.profanity!++;
    for (const lexicon of SAFETY_LEXICONS) {
      if (lexicon.matcher.test(s.lower)) counts[lexicon.flag] = (counts[lexicon.flag] ?? 0) + 1;
    }
  }
  const shares: Record<string, number> = {};
  for (const [flag, c] of Object.entries(counts)) shares[flag] = n === 0 ? 0 : c / n;
  // A flag needs at least 2 mentions and 5 % of them: one stray word does not make a topic unsafe.
  const flags = Object.entries(counts)
    .filter(([flag, c]) => c >= Math.min(2, n) && c > 0 && shares[flag]! >= 0.05)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([flag]) => flag);
  const share = (flag: string) => shares[flag] ?? 0;
  let level: SafetyLevel = flags.length > 0 ? 'caution' : 'safe';
  if (
    share('adult') >= 0.1 ||
    share('hate') >= 0.1 ||
    share('profanity') >= 0.25 ||
    share('violence') >= 0.25 ||
    share('tragedy') >= 0.4
  ) {
    level = 'unsafe';
  }
  return { level: flags.length > 0 ? level : 'safe', flags };
}

const EXCLUSION_INTERESTS: Record<string, string> = {
  adult: 'Adult entertainment',
  drugs: 'Recreational drug use',
  violence: 'Weapons',
  hate: 'Extremism',
};

function communitiesOf(
  scored: readonly { signal: Pick<AnalyzerSignal, 'url'> }[],
  category: string,
): string[] {
  const counts = new Map<string, number>();
  for (const s of scored) {
    const m = /reddit\.com\/r\/([A-Za-z0-9_]{2,21})/.exec(s.signal.url ?? '');
    if (m) counts.set(m[1]!.toLowerCase(), (counts.get(m[1]!.toLowerCase()) ?? 0) + 1);
  }
  const named = topEntries(counts, 5).map(([c]) => c);
  const top = category.split('/')[0] ?? 'General';
  const defaults = CATEGORY_COMMUNITIES[top] ?? CATEGORY_COMMUNITIES.General!;
  return [...new Set([...named, ...defaults])].slice(0, 6);
}

/**
 * ad_platform_targeting and audience_injection: keywords from the trend's name, its category and its neutral
 * phrases (opinions are what people say, not audiences), the category's demographics with the mentions'
 * locations and languages, negative keywords from the safety flags and complaints, and a payload per platform.
 */
export function audienceSections(input: {
  name: string;
  category: string;
  profile: Pick<CategoryProfile, 'ageMin' | 'ageMax' | 'demographics'>;
  phrases: readonly string[];
  scored: readonly { signal: Pick<AnalyzerSignal, 'location' | 'lang' | 'url'>; lower: string }[];
  safetyFlags: readonly string[];
  hasComplaints: boolean;
  primarySource: string | null;
}): {
  ad_platform_targeting: AIInsight['ad_platform_targeting'];
  audience_injection: NonNullable<AIInsight['audience_injection']>;
} {
  const { scored, profile } = input;
  const lowerName = input.name.toLowerCase();
  const leaf = leafOf(input.category).toLowerCase();
  const locations = new Map<string, number>();
  const languages = new Map<string, number>();
  for (const s of scored) {
    if (s.signal.location) locations.set(s.signal.location, (locations.get(s.signal.location) ?? 0) + 1);
    if (s.signal.lang) {
      const lang = s.signal.lang.slice(0, 2).toLowerCase();
      languages.set(lang, (languages.get(lang) ?? 0) + 1);
    }
  }
  const topLocations = topEntries(locations, 5).map(([l]) => l);
  const countries = topLocations.filter((l) => /^[A-Z]{2}$/.test(l));
  const themeKeywords = input.phrases
    .filter((t) => classifySentiment(t).category === 'neutral')
    .map((t) => t.toLowerCase());
  const primaryKeywords = [...new Set([lowerName, ...themeKeywords.slice(0, 4)])];
  const secondaryKeywords = [
    ...new Set([
      ...themeKeywords.slice(4),
      `${lowerName} review`,
      `best ${lowerName}`,
      `${lowerName} news`,
      leaf,
    ]),
  ].filter((k) => !primaryKeywords.includes(k));
  const interestKeywords = [...new Set([lowerName, leaf, ...themeKeywords.slice(0, 6)])];
  const safetyTerms = SAFETY_LEXICONS.filter((l) => input.safetyFlags.includes(l.flag)).flatMap((l) =>
    l.terms.filter((t) => scored.some((s) => new RegExp(`\\b${t}\\b`, 'i').test(s.lower))).slice(0, 3),
  );
  const negativeKeywords = [
    ...new Set([
      ...safetyTerms,
      ...(input.hasComplaints ? ['scam', 'refund'] : []),
      ...GENERIC_NEGATIVE_KEYWORDS,
    ]),
  ];
  const demographics = {
    age_min: profile.ageMin,
    age_max: profile.ageMax,
    summary: profile.demographics,
    top_locations: topLocations,
    languages: topEntries(languages, 3).map(([l]) => l),
    primary_platform: input.primarySource,
  };
  const socialAds: Record<string, unknown> = {
    interests: interestKeywords.slice(0, 6).map((k) => ({ name: k })),
    exclusions: {
      interests: input.safetyFlags
        .filter((f) => EXCLUSION_INTERESTS[f])
        .map((f) => ({ name: EXCLUSION_INTERESTS[f] })),
    },
    age_min: profile.ageMin,
    age_max: profile.ageMax,
  };
  if (countries.length > 0) socialAds.geo_locations = { countries };
  const forumAds = {
    keywords: [...new Set([...primaryKeywords, ...secondaryKeywords])].slice(0, 10),
    communities: communitiesOf(scored, input.category),
    negative_keywords: negativeKeywords,
  };
  return {
    ad_platform_targeting: {
      primary_audience_keywords: primaryKeywords,
      secondary_audience_keywords: secondaryKeywords,
      potential_demographics_summary: profile.demographics,
    },
    audience_injection: {
      demographics,
      interest_keywords: interestKeywords,
      negative_keywords: negativeKeywords,
      platform_payloads: { social_ads: socialAds, forum_ads: forumAds },
    },
  };
}

/**
 * content_brief: audiences from the category (plus the busiest platform's users and, with buying intent,
 * in-market buyers), angles by lifecycle stage and tone, formats that fit the busiest platform, and calls to
 * action. Buying intent = commercial intent ≥ 15 % and a tone that is not negative.
 */
export function contentBriefSection(input: {
  name: string;
  audiences: readonly string[];
  stage: string;
  velocity1h: number;
  sentiment: SentimentCategory;
  phrases: readonly string[];
  complaints: readonly Pick<Complaint, 'label'>[];
  questions: readonly string[];
  commercialIntent: number;
  primarySource: string | null;
  safety: { level: SafetyLevel; flags: readonly string[] };
}): AIInsight['content_brief'] {
  const { name, stage, sentiment, phrases, complaints, primarySource, safety } = input;
  const buying = input.commercialIntent >= 0.15 && sentiment !== 'negative';
  const segments = [
    ...input.audiences,
    ...(primarySource ? [`${primarySource} users discussing ${name}`] : []),
    ...(buying ? [`in-market buyers comparing ${name} options`] : []),
  ];
  const angles: string[] = [];
  if (stage === 'emerging' || stage === 'rising')
    angles.push(
      `Be early: explain what ${name} is and why it is picking up (${input.velocity1h} mentions in the last hour).`,
    );
  else if (stage === 'peaking')
    angles.push(`Ride the peak: a definitive explainer or roundup on ${name} while attention is highest.`);
  else
    angles.push(`Go deeper than the news: an evergreen guide on ${name} for people still searching for it.`);
  if (phrases.length > 0)
    angles.push(`Connect ${name} with what people are talking about: ${phrases.slice(0, 3).join(', ')}.`);
  if (sentiment === 'negative' || sentiment === 'mixed')
    angles.push(
      complaints.length > 0
        ? `Address the frustration head-on (${complaints[0]!.label}) with facts and what is being done.`
        : `Acknowledge the criticism of ${name} and answer it with facts.`,
    );
  else if (sentiment === 'positive')
    angles.push(`Amplify the enthusiasm: user stories and examples of ${name} in use.`);
  else
    angles.push(`Inform rather than persuade: a plain explainer of ${name} with the facts people ask about.`);
  if (buying) angles.push(`Meet buying intent: comparisons, pricing and honest reviews of ${name}.`);
  const formats = [
    ...new Set([
      ...(primarySource ? (PLATFORM_FORMATS[primarySource] ?? []) : []),
      ...(stage === 'emerging' || stage === 'rising'
        ? ['quick-turnaround social posts']
        : ['explainer article']),
      input.questions.length > 0 ? 'FAQ answering the most common questions' : 'short explainer',
    ]),
  ];
  const ctas: string[] = [];
  if (sentiment === 'negative' || sentiment === 'mixed') {
    ctas.push(`Publish a clear status or response on ${name} and point people to it.`);
    ctas.push('Route affected customers to a dedicated support page or contact form.');
  }
  if (buying) ctas.push(`Offer a comparison guide or trial for people researching ${name}.`);
  ctas.push(`Invite followers to share their take on ${name} (poll or reply prompt).`);
  ctas.push(`Subscribe to updates on ${name}: turn the interest into newsletter or follow sign-ups.`);
  if (safety.level !== 'safe')
    ctas.push(`Review brand-safety flags (${safety.flags.join(', ')}) before running paid placements.`);
  return {
    target_audience_segments: segments,
    key_angles_for_content: angles,
    suggested_content_formats: formats,
    call_to_action_ideas: ctas,
  };
}

/** crm_and_support_insights: complaint topics with their share and an example, the questions, and replies. */
export function crmSection(input: {
  name: string;
  scored: readonly Pick<ScoredSignal, 'category'>[];
  complaints: readonly Complaint[];
  questions: readonly string[];
}): AIInsight['crm_and_support_insights'] {
  const { name, complaints, questions } = input;
  const n = input.scored.length;
  const neg = input.scored.filter((s) => s.category === 'negative').length;
  const commonComplaints =
    complaints.length > 0
      ? complaints
          .slice(0, 5)
          .map((c) => `${c.label}: ${c.count} of ${n} mentions (${pct(c.count, n)} %), e.g. “${c.example}”`)
      : [
          `No recurring complaint: ${neg} of ${n} mentions read as negative and none share a complaint topic.`,
        ];
  const responses = [
    ...complaints.slice(0, 3).map((c) => `On ${c.label}: ${c.response}`),
    ...questions.slice(0, 2).map((q) => `Answer “${clip(q, 80)}” in a pinned FAQ or a short reply template.`),
  ];
  if (responses.length === 0)
    responses.push(
      `Thank people for their interest in ${name} and point them to a clear source of information.`,
    );
  return {
    common_complaints: commonComplaints,
    common_questions: [...questions],
    suggested_responses: responses,
  };
}

export function analyzeOffline(input: AnalyzerInput): AIInsight {
  const { trend, metrics } = input;
  const name = trend.title;
  const profile = profileFor(trend.category);
  const scored = scoreSignals(input.signals);
  const n = scored.length;

  const sentiment = sentimentSection(scored, name, input.windowDays);
  const sentimentCategory = sentiment.sentiment_category;
  const phrases = recurringPhrases(scored, trend.key);
  const complaints = complaintsOf(scored);
  const questions = questionsOf(scored, name);
  const trendMetrics = trendMetricsSection(metrics, scored, profile.baseCpcUsd);
  const platformCounts = platformCountsOf(metrics.platforms, scored);
  const platformSignal = platformSignalSection(platformCounts);
  const primarySource = platformSignal.primary_source;
  const safety = brandSafetySection(scored);
  const audience = audienceSections({
    name,
    category: trend.category,
    profile,
    phrases,
    scored,
    safetyFlags: safety.flags,
    hasComplaints: complaints.length > 0,
    primarySource,
  });
  const stage = metrics.lifecycle_stage;

  const sources = Object.keys(platformCounts).length;
  const analysisNotes =
    `Offline analyzer ${OFFLINE_VERSION}: ${n} mentions of ${name} from the last ${input.windowDays} days ` +
    `(${sources} platform${sources === 1 ? '' : 's'}, the most recent matching mentions, capped at 500); ` +
    'sentiment = each mention classified by VADER with the complaint layer (alone where the layer applied, ' +
    'else averaged with wink-nlp); shares = mentions by category, a mention written to an account counted as ' +
    'the label shares of labelled posts that read like it, re-weighted to these mentions’ estimated mix; the ' +
    'category from those shares; themes = key phrases by number of ' +
    'mentions; commercial intent = share of mentions with buying modifiers; predicted CPC = category base CPC ' +
    `$${profile.baseCpcUsd.toFixed(2)} × (0.6 + 1.4 × intent); brand safety = obscenity profanity matcher plus category lexicons ` +
    `(a flag needs ≥ 2 mentions and ≥ 5 %). Metrics: volume ${metrics.volume} over 24 h, velocity score ${metrics.velocity_score}, ${stage}.`;

  return {
    trend_id: trend.id,
    trend_name: name,
    sentiment_summary: sentiment.sentiment_summary,
    sentiment_category: sentimentCategory,
    key_themes: keyThemesSection({
      name,
      category: trend.category,
      sentiment: sentimentCategory,
      phrases,
      complaints,
    }),
    content_brief: contentBriefSection({
      name,
      audiences: profile.audiences,
      stage,
      velocity1h: metrics.velocity_1h,
      sentiment: sentimentCategory,
      phrases,
      complaints,
      questions,
      commercialIntent: trendMetrics.commercial_intent,
      primarySource,
      safety,
    }),
    ad_platform_targeting: audience.ad_platform_targeting,
    trend_metrics: trendMetrics,
    platform_signal: platformSignal,
    audience_injection: audience.audience_injection,
    brand_safety: safety,
    crm_and_support_insights: crmSection({ name, scored, complaints, questions }),
    overall_topic_category_llm: trend.category,
    analysis_notes: analysisNotes,
    llm_model_used: OFFLINE_MODEL,
    generated_at: new Date(input.now).toISOString(),
    usage_count: null,
    usage_limit: null,
  };
}

/** Next steps a webhook alert or a workflow can show for an insight (at most 5). */
export function recommendedNextSteps(insight: AIInsight | null): string[] {
  if (!insight) return [];
  const steps: string[] = [];
  const safety = insight.brand_safety;
  if (safety?.level && safety.level !== 'safe')
    steps.push(
      `Check brand safety before promoting: ${safety.level} (${safety.flags.join(', ') || 'flagged'}).`,
    );
  const ctas = insight.content_brief?.call_to_action_ideas;
  if (Array.isArray(ctas)) for (const c of ctas) if (typeof c === 'string') steps.push(c);
  const angles = insight.content_brief?.key_angles_for_content;
  if (Array.isArray(angles) && typeof angles[0] === 'string') steps.push(angles[0]);
  return [...new Set(steps)].slice(0, 5);
}
