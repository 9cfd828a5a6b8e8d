// The offline analyzer: a complete AIInsight from a trend's metrics and a sample of its recent signals,
// with no model and no network. Pure: everything it needs comes in `AnalyzerInput`.
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { extractCandidates } from '../trends/extraction.ts';
import {
  CATEGORY_COMMUNITIES,
  COMMERCIAL,
  COMPLAINT_TOPICS,
  GENERIC_NEGATIVE_KEYWORDS,
  PLATFORM_FORMATS,
  profileFor,
  SAFETY_LEXICONS,
} from './lexicons.ts';
import { classifySentiment } from './sentiment.ts';

export const OFFLINE_VERSION = '1.0';
export const OFFLINE_MODEL = `crestwatch-offline/${OFFLINE_VERSION}`;

export type SentimentCategory = 'positive' | 'negative' | 'neutral' | 'mixed';
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
const MIXED_SHARE = 0.3;
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

function topEntries(counts: Map<string, number>, limit: number): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit);
}

interface Scored {
  signal: AnalyzerSignal;
  full: string;
  lower: string;
  score: number;
  category: 'positive' | 'negative' | 'neutral';
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

function keyThemes(scored: Scored[], trendKey: string): string[] {
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

function questionsOf(scored: Scored[]): string[] {
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
  return [...counts.values()]
    .sort((a, b) => b.n - a.n || a.text.localeCompare(b.text))
    .slice(0, MAX_QUESTIONS)
    .map((q) => q.text);
}

interface Complaint {
  label: string;
  response: string;
  count: number;
  example: string;
}

function complaintsOf(scored: Scored[]): Complaint[] {
  const negatives = scored.filter((s) => s.category === 'negative');
  const found = COMPLAINT_TOPICS.map((topic) => ({
    topic,
    hits: negatives.filter((s) => topic.matcher.test(s.lower)).sort((a, b) => a.score - b.score),
  }))
    .filter((t) => t.hits.length > 0)
    .sort((a, b) => b.hits.length - a.hits.length || a.topic.label.localeCompare(b.topic.label));
  // Each topic quotes the most negative mention not already quoted for a bigger topic.
  const used = new Set<Scored>();
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

function brandSafety(scored: Scored[]): {
  level: SafetyLevel;
  flags: string[];
  shares: Record<string, number>;
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
  return { level: flags.length > 0 ? level : 'safe', flags, shares };
}

const EXCLUSION_INTERESTS: Record<string, string> = {
  adult: 'Adult entertainment',
  drugs: 'Recreational drug use',
  violence: 'Weapons',
  hate: 'Extremism',
};

function communitiesOf(scored: Scored[], category: string): string[] {
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

export function analyzeOffline(input: AnalyzerInput): AIInsight {
  const { trend, metrics } = input;
  const name = trend.title;
  const lowerName = name.toLowerCase();
  const profile = profileFor(trend.category);
  const leaf = trend.category.split('/').at(-1) ?? trend.category;

  const scored: Scored[] = input.signals.map((signal) => {
    const full = signal.title ? `${signal.title}. ${signal.text}` : signal.text;
    const { score, category } = classifySentiment(full);
    return { signal, full, lower: full.toLowerCase(), score, category };
  });
  const n = scored.length;

  // Sentiment
  const pos = scored.filter((s) => s.category === 'positive').length;
  const neg = scored.filter((s) => s.category === 'negative').length;
  const neu = n - pos - neg;
  const mean = n === 0 ? 0 : scored.reduce((sum, s) => sum + s.score, 0) / n;
  let sentimentCategory: SentimentCategory = 'neutral';
  if (n > 0 && pos / n >= MIXED_SHARE && neg / n >= MIXED_SHARE) sentimentCategory = 'mixed';
  else if (mean >= 0.05) sentimentCategory = 'positive';
  else if (mean <= -0.05) sentimentCategory = 'negative';
  const sentimentSummary =
    n === 0
      ? `No recent mentions of ${name} were available to score; sentiment is treated as neutral until signals arrive.`
      : `Sentiment around ${name} is ${sentimentCategory}: of ${n} mentions in the last ${input.windowDays} days, ` +
        `${pct(pos, n)} % are positive, ${pct(neg, n)} % negative and ${pct(neu, n)} % neutral ` +
        `(mean score ${mean.toFixed(2)} on a −1 to 1 scale).`;

  // Themes, complaints, questions
  const themes = keyThemes(scored, trend.key);
  const complaints = complaintsOf(scored);
  const complaintThemes =
    sentimentCategory === 'negative' || sentimentCategory === 'mixed'
      ? complaints.slice(0, 3).map((c) => `complaints about ${c.label}`)
      : [];
  const keyThemesList = [...complaintThemes, ...themes].slice(0, MAX_THEMES);
  // Too few mentions for recurring phrases: the trend's own name in its category says the most.
  if (keyThemesList.length === 0)
    keyThemesList.push(leaf === 'Other' ? lowerName : `${lowerName} ${leaf.toLowerCase()}`.trim());
  const found = questionsOf(scored);
  const questions =
    found.length > 0
      ? found
      : [
          `What is ${name} and why is it trending now?`,
          `How does ${name} affect me or my business?`,
          `What are the best alternatives to ${name}?`,
        ];

  // Commercial intent and CPC
  const commercialCount = scored.filter((s) => COMMERCIAL.test(s.lower)).length;
  const commercialIntent = n === 0 ? 0 : round(commercialCount / n);
  const predictedCpc = round(profile.baseCpcUsd * (INTENT_FLOOR + INTENT_SLOPE * commercialIntent), 2);

  // Platforms
  let platformCounts = metrics.platforms;
  if (Object.values(platformCounts).every((v) => !v)) {
    platformCounts = {};
    for (const s of scored) platformCounts[s.signal.source] = (platformCounts[s.signal.source] ?? 0) + 1;
  }
  const virality = distribution(platformCounts);
  const primarySource = Object.keys(virality)[0] ?? null;

  // Brand safety
  const safety = brandSafety(scored);

  // Audience
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
  // Opinion phrases ("terrible service") are what people say, not audiences: targeting uses neutral themes.
  const themeKeywords = themes
    .filter((t) => classifySentiment(t).category === 'neutral')
    .map((t) => t.toLowerCase());
  const primaryKeywords = [...new Set([lowerName, ...themeKeywords.slice(0, 4)])];
  const secondaryKeywords = [
    ...new Set([
      ...themeKeywords.slice(4),
      `${lowerName} review`,
      `best ${lowerName}`,
      `${lowerName} news`,
      leaf.toLowerCase(),
    ]),
  ].filter((k) => !primaryKeywords.includes(k));
  const interestKeywords = [...new Set([lowerName, leaf.toLowerCase(), ...themeKeywords.slice(0, 6)])];
  const safetyTerms = SAFETY_LEXICONS.filter((l) => safety.flags.includes(l.flag)).flatMap((l) =>
    l.terms.filter((t) => scored.some((s) => new RegExp(`\\b${t}\\b`, 'i').test(s.lower))).slice(0, 3),
  );
  const negativeKeywords = [
    ...new Set([
      ...safetyTerms,
      ...(complaints.length > 0 ? ['scam', 'refund'] : []),
      ...GENERIC_NEGATIVE_KEYWORDS,
    ]),
  ];
  const demographics = {
    age_min: profile.ageMin,
    age_max: profile.ageMax,
    summary: profile.demographics,
    top_locations: topLocations,
    languages: topEntries(languages, 3).map(([l]) => l),
    primary_platform: primarySource,
  };
  const socialAds: Record<string, unknown> = {
    interests: interestKeywords.slice(0, 6).map((k) => ({ name: k })),
    exclusions: {
      interests: safety.flags
        .filter((f) => EXCLUSION_INTERESTS[f])
        .map((f) => ({ name: EXCLUSION_INTERESTS[f] })),
    },
    age_min: profile.ageMin,
    age_max: profile.ageMax,
  };
  if (countries.length > 0) socialAds.geo_locations = { countries };
  const forumAds = {
    keywords: [...new Set([...primaryKeywords, ...secondaryKeywords])].slice(0, 10),
    communities: communitiesOf(scored, trend.category),
    negative_keywords: negativeKeywords,
  };

  // Content brief
  const stage = metrics.lifecycle_stage;
  const buying = commercialIntent >= 0.15 && sentimentCategory !== 'negative';
  const segments = [
    ...profile.audiences,
    ...(primarySource ? [`${primarySource} users discussing ${name}`] : []),
    ...(buying ? [`in-market buyers comparing ${name} options`] : []),
  ];
  const angles: string[] = [];
  if (stage === 'emerging' || stage === 'rising')
    angles.push(
      `Be early: explain what ${name} is and why it is picking up (${metrics.velocity_1h} mentions in the last hour).`,
    );
  else if (stage === 'peaking')
    angles.push(`Ride the peak: a definitive explainer or roundup on ${name} while attention is highest.`);
  else
    angles.push(`Go deeper than the news: an evergreen guide on ${name} for people still searching for it.`);
  if (themes.length > 0)
    angles.push(`Connect ${name} with what people are talking about: ${themes.slice(0, 3).join(', ')}.`);
  if (sentimentCategory === 'negative' || sentimentCategory === 'mixed')
    angles.push(
      complaints.length > 0
        ? `Address the frustration head-on (${complaints[0]!.label}) with facts and what is being done.`
        : `Acknowledge the criticism of ${name} and answer it with facts.`,
    );
  else if (sentimentCategory === 'positive')
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
      questions.length > 0 ? 'FAQ answering the most common questions' : 'short explainer',
    ]),
  ];
  const ctas: string[] = [];
  if (sentimentCategory === 'negative' || sentimentCategory === 'mixed') {
    ctas.push(`Publish a clear status or response on ${name} and point people to it.`);
    ctas.push('Route affected customers to a dedicated support page or contact form.');
  }
  if (buying) ctas.push(`Offer a comparison guide or trial for people researching ${name}.`);
  ctas.push(`Invite followers to share their take on ${name} (poll or reply prompt).`);
  ctas.push(`Subscribe to updates on ${name}: turn the interest into newsletter or follow sign-ups.`);
  if (safety.level !== 'safe')
    ctas.push(`Review brand-safety flags (${safety.flags.join(', ')}) before running paid placements.`);

  // CRM
  const commonComplaints =
    complaints.length > 0
      ? complaints
          .slice(0, 5)
          .map((c) => `${c.label}: ${c.count} of ${n} mentions (${pct(c.count, n)} %), e.g. “${c.example}”`)
      : [`No recurring complaint: ${neg} of ${n} mentions are negative and none share a complaint topic.`];
  const responses = [
    ...complaints.slice(0, 3).map((c) => `On ${c.label}: ${c.response}`),
    ...questions.slice(0, 2).map((q) => `Answer “${clip(q, 80)}” in a pinned FAQ or a short reply template.`),
  ];
  if (responses.length === 0)
    responses.push(
      `Thank people for their interest in ${name} and point them to a clear source of information.`,
    );

  const sources = Object.keys(platformCounts).length;
  const analysisNotes =
    `Offline analyzer ${OFFLINE_VERSION}: ${n} mentions of ${name} from the last ${input.windowDays} days ` +
    `(${sources} platform${sources === 1 ? '' : 's'}, the most recent matching mentions, capped at 500); ` +
    'sentiment = mean of VADER and wink-nlp lexicon scores per mention; themes = key phrases by number of ' +
    'mentions; commercial intent = share of mentions with buying modifiers; predicted CPC = category base CPC ' +
    `$${profile.baseCpcUsd.toFixed(2)} × (0.6 + 1.4 × intent); brand safety = obscenity profanity matcher plus category lexicons ` +
    `(a flag needs ≥ 2 mentions and ≥ 5 %). Metrics: volume ${metrics.volume} over 24 h, velocity score ${metrics.velocity_score}, ${stage}.`;

  return {
    trend_id: trend.id,
    trend_name: name,
    sentiment_summary: sentimentSummary,
    sentiment_category: sentimentCategory,
    key_themes: keyThemesList,
    content_brief: {
      target_audience_segments: segments,
      key_angles_for_content: angles,
      suggested_content_formats: formats,
      call_to_action_ideas: ctas,
    },
    ad_platform_targeting: {
      primary_audience_keywords: primaryKeywords,
      secondary_audience_keywords: secondaryKeywords,
      potential_demographics_summary: profile.demographics,
    },
    trend_metrics: {
      velocity_score: metrics.velocity_score,
      velocity_1h: metrics.velocity_1h,
      predicted_cpc_usd: predictedCpc,
      commercial_intent: commercialIntent,
    },
    platform_signal: {
      primary_source: primarySource,
      virality_distribution: Object.keys(virality).length > 0 ? virality : { unknown: 1 },
    },
    audience_injection: {
      demographics,
      interest_keywords: interestKeywords,
      negative_keywords: negativeKeywords,
      platform_payloads: { social_ads: socialAds, forum_ads: forumAds },
    },
    brand_safety: { level: safety.level, flags: safety.flags },
    crm_and_support_insights: {
      common_complaints: commonComplaints,
      common_questions: questions,
      suggested_responses: responses,
    },
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
