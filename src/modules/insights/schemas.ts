// Schemas of the insight routes; AIInsight follows SPEC.md field by field.
import Type from 'typebox';
import { DateTime, FreeForm, Nullable, Pagination, StrictObject } from '../../platform/schemas.ts';

const NullableNumber = (description: string) => Nullable(Type.Number({ description }));

const TrendMetricsSchema = Type.Object(
  {
    velocity_score: Type.Optional(NullableNumber('Surprise of the last hour, 0–100 (docs/metrics.md).')),
    velocity_1h: Type.Optional(NullableNumber('Mentions in the last 60 minutes.')),
    predicted_cpc_usd: Type.Optional(
      NullableNumber('Heuristic cost per click: category base CPC × (0.6 + 1.4 × commercial_intent).'),
    ),
    commercial_intent: Type.Optional(
      NullableNumber(
        'Share (0–1) of mentions using buying modifiers: best, vs, review, buy, price, discount…',
      ),
    ),
  },
  { title: 'TrendMetrics' },
);

const PlatformSignalSchema = Type.Object(
  {
    primary_source: Type.Optional(Nullable(Type.String({ description: 'The platform with most mentions.' }))),
    virality_distribution: Type.Optional(
      Type.Record(Type.String(), Type.Number(), {
        description: 'Share of mentions per platform; sums to 1.',
      }),
    ),
  },
  { title: 'PlatformSignal' },
);

const AudienceInjectionSchema = Type.Object(
  {
    demographics: Type.Optional(
      FreeForm({
        description: '`age_min`, `age_max`, `summary`, `top_locations`, `languages`, `primary_platform`.',
      }),
    ),
    interest_keywords: Type.Optional(Type.Array(Type.String())),
    negative_keywords: Type.Optional(Type.Array(Type.String())),
    platform_payloads: Type.Optional(
      FreeForm({
        description:
          'Ready targeting per ad platform: `social_ads` `{interests: [{name}], exclusions: {interests: [{name}]}, ' +
          'age_min, age_max, geo_locations?: {countries}}` and `forum_ads` `{keywords, communities, negative_keywords}`.',
      }),
    ),
  },
  { title: 'AudienceInjection' },
);

const BrandSafetySchema = Type.Object(
  {
    level: Type.Optional(Nullable(Type.String({ description: '`safe`, `caution` or `unsafe`.' }))),
    flags: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Why: `profanity`, `adult`, `violence`, `hate`, `tragedy`, `controversy`, `drugs`.',
      }),
    ),
  },
  { title: 'BrandSafety' },
);

export const AIInsightSchema = Type.Object(
  {
    trend_id: Type.Integer(),
    trend_name: Type.Optional(Nullable(Type.String())),
    sentiment_summary: Type.Optional(
      Nullable(
        Type.String({
          description:
            'The shares of mentions that are positive, negative and neutral, and the mean score. Mentions written ' +
            'to an account (an @handle in the text) count as the label shares of labelled posts that read like ' +
            'them, so the shares are estimates; the summary then says so and gives the share read as negative ' +
            'one by one (docs/metrics.md).',
        }),
      ),
    ),
    sentiment_category: Type.Optional(
      Nullable(
        Type.String({
          description:
            '`positive`, `negative`, `neutral` or `mixed`, from the stated shares: a clear majority (≥ 55 % and ' +
            '> 1.5 × the other side) decides, `mixed` when both sides hold ≥ 30 %, else the mean score.',
        }),
      ),
    ),
    key_themes: Type.Optional(
      Type.Array(Type.String(), { description: 'Key phrases, most mentioned first.' }),
    ),
    content_brief: Type.Optional(
      FreeForm({
        description:
          '`target_audience_segments`, `key_angles_for_content`, `suggested_content_formats`, `call_to_action_ideas` (string arrays).',
      }),
    ),
    ad_platform_targeting: Type.Optional(
      FreeForm({
        description:
          '`primary_audience_keywords`, `secondary_audience_keywords`, `potential_demographics_summary`.',
      }),
    ),
    trend_metrics: Type.Optional(Nullable(TrendMetricsSchema)),
    platform_signal: Type.Optional(Nullable(PlatformSignalSchema)),
    audience_injection: Type.Optional(Nullable(AudienceInjectionSchema)),
    brand_safety: Type.Optional(Nullable(BrandSafetySchema)),
    crm_and_support_insights: Type.Optional(
      FreeForm({ description: '`common_complaints`, `common_questions`, `suggested_responses`.' }),
    ),
    overall_topic_category_llm: Type.Optional(Nullable(Type.String())),
    analysis_notes: Type.Optional(Nullable(Type.String({ description: 'Method, window and sample size.' }))),
    llm_model_used: Type.Optional(
      Nullable(Type.String({ description: '`crestwatch-offline/<version>` or the LLM model name.' })),
    ),
    generated_at: Type.Optional(Nullable(DateTime())),
    usage_count: Type.Optional(Nullable(Type.Integer({ description: 'Your generations this UTC month.' }))),
    usage_limit: Type.Optional(
      Nullable(Type.Integer({ description: 'Your plan’s generations per month; null = unlimited.' })),
    ),
  },
  { $id: 'AIInsight', title: 'AIInsight' },
);

export const MaybeInsight = Type.Unsafe<unknown>({
  anyOf: [{ $ref: 'AIInsight#' }, { type: 'null' }],
  description: 'Your latest insight for the trend, or null when you have not generated one.',
});

export const TaskAcceptedSchema = Type.Object(
  {
    task_id: Type.String(),
    status: Type.Enum(['queued', 'running']),
    message: Type.String(),
  },
  { title: 'AIInsightTaskAccepted' },
);

export const AnalysisResponseSchema = Type.Object(
  {
    task_id: Type.String(),
    status: Type.String({ description: '`queued` (or `running` for a pending re-analysis returned again).' }),
  },
  { title: 'AnalysisResponse' },
);

export const TaskStatusSchema = Type.Object(
  {
    status: Type.String({ enum: ['queued', 'running', 'succeeded', 'failed'] }),
    error: Type.Optional(Nullable(Type.String({ description: 'Why the task failed.' }))),
  },
  { title: 'AIInsightTaskStatus' },
);

export const TaskIdParams = Type.Object(
  { task_id: Type.String({ minLength: 1, maxLength: 64, description: 'The task id.' }) },
  { additionalProperties: false },
);

const Filter = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }));

export const SearchQuery = StrictObject({
  q: Filter('Text contained in the trend name, a key theme or an audience keyword (case-insensitive).'),
  key_theme: Filter('Text contained in one of the key themes (case-insensitive).'),
  audience_keyword: Filter('Text contained in an audience or targeting keyword (case-insensitive).'),
  sentiment_category: Type.Optional(Type.Enum(['positive', 'negative', 'neutral', 'mixed'])),
  topic_category: Filter(
    'A category name (`Technology/AI`) or slug (`technology-ai`), as `category` on `GET /api/trends`; a parent ' +
      'matches its children; an unknown category is a 400.',
  ),
  trend_name: Filter('Text contained in the trend name (case-insensitive).'),
  ...Pagination,
});

export const SearchResponse = Type.Object(
  {
    trends: Type.Array(
      Type.Intersect([
        Type.Unsafe<unknown>({ $ref: 'AIInsight#' }),
        Type.Object({
          id: Type.Integer({ description: 'The trend id (upstream clients read results as trends).' }),
          title: Type.String({ description: 'The trend name, as `trend_name`.' }),
        }),
      ]),
      { description: 'Your latest insight per matching trend, with the trend’s `id` and `title`.' },
    ),
    total: Type.Integer(),
    meta: Type.Object(
      {
        total: Type.Integer(),
        limit: Type.Integer(),
        offset: Type.Integer(),
        q: Nullable(Type.String()),
        key_theme: Nullable(Type.String()),
        audience_keyword: Nullable(Type.String()),
        sentiment_category: Nullable(Type.String()),
        topic_category: Nullable(Type.String()),
        trend_name: Nullable(Type.String()),
      },
      { title: 'InsightSearchMeta' },
    ),
  },
  { title: 'InsightSearchResponse' },
);
