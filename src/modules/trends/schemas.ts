// Schemas of the trend routes.
import Type from 'typebox';
import { DateOnly, DateTime, IdParam, Nullable, Pagination, StrictObject } from '../../platform/schemas.ts';
import { VELOCITY_WINDOWS } from './metrics.ts';

export const TrendItemSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String({ description: 'The most frequent way the trend is written.' }),
    volume: Type.Integer({ description: 'Mentions in the period.' }),
    timestamp: DateTime({ description: 'When the trend was last observed.' }),
    category: Type.String({ description: 'Slash path in the taxonomy, e.g. `Technology/AI`.' }),
    sentiment: Nullable(
      Type.String({
        description:
          'Mean VADER compound score over the period, e.g. "-0.42"; null when the period has no mentions.',
      }),
    ),
    sentiment_category: Type.Enum(['positive', 'negative', 'neutral', 'mixed']),
    type: Type.Enum(['hashtag', 'keyword', 'entity', 'query', 'hazard']),
    meta_description: Type.String(),
    growth: Nullable(Type.Number({ description: '% vs the previous equal period; null when that was 0.' })),
    previous_volume: Type.Integer(),
    absolute_change: Type.Integer(),
    average_velocity: Type.Number({ description: 'Mentions per hour over the period.' }),
    trend_stability: Type.Number({ description: 'Standard deviation of hourly volume over the period.' }),
    overall_trend: Type.Enum(['growing', 'declining', 'stable']),
    velocity_score: Type.Number({
      minimum: 0,
      maximum: 100,
      description:
        'Surprise of the recent independent posts against the trend’s own baseline, 0–100: the strongest of ' +
        'the last 1 hour, 6 hours and 24 hours (`velocity_window` says which; docs/metrics.md).',
    }),
    velocity_1h: Type.Integer({ description: 'Mentions in the last 60 minutes.' }),
    lifecycle_stage: Type.Enum(['emerging', 'rising', 'peaking', 'declining', 'stable']),
    platforms: Type.Record(Type.String(), Type.Integer(), {
      description: 'Mentions by platform over the period.',
    }),
    velocity_window: Type.Enum([...VELOCITY_WINDOWS], {
      description:
        'The window `velocity_score` comes from: `1h` the last 60 minutes, `6h` and `24h` the current hour ' +
        'and the 5 or 23 before it, each against the same span before it (a burst too sparse for one hour ' +
        'shows in a longer window). `1h` when every window scores 0. Independent of `period`.',
    }),
    aliases: Type.Array(Type.String(), {
      description:
        'Phrases folded into this trend, as written: parts of the same mentions (a sub-phrase or a ' +
        'near-duplicate named in mostly the same posts, docs/metrics.md). `search` matches them. At most 20.',
    }),
  },
  { $id: 'TrendItem', title: 'TrendItem' },
);

export const TrendIdParams = IdParam('trend_id', 'The trend id.');

export const CategoryListResponse = Type.Object(
  {
    categories: Type.Array(
      Type.Object(
        {
          name: Type.String({ description: 'Slash path, e.g. `Technology/AI`.' }),
          trend_count: Type.Integer({
            default: 0,
            description: 'Trends in the category (a parent counts its children).',
          }),
          id: Nullable(
            Type.Integer({
              description:
                'Always null: categories are a fixed taxonomy, identified by `name` or `slug` (both accepted ' +
                'by the `category` filter).',
            }),
          ),
          slug: Nullable(Type.String()),
          description: Nullable(Type.String()),
        },
        { title: 'CategoryInfo' },
      ),
    ),
  },
  { title: 'CategoryListResponse' },
);

const PeriodParam = Type.Enum(['1h', '24h', '7d', '30d'], {
  description:
    'Window the metrics cover, ending now, in whole UTC hour buckets: the current (partial) hour plus the hours ' +
    'before it (`1h` = the current hour so far; `24h` = it and the 23 before). The previous period is the same ' +
    'number of buckets just before. Replaced by `start_date`/`end_date` when given.',
});
const DateRange = {
  start_date: Type.Optional(
    DateOnly({ description: 'First UTC day of a custom range (inclusive); replaces `period`.' }),
  ),
  end_date: Type.Optional(
    DateOnly({
      description: 'Last UTC day of a custom range (inclusive; default today); replaces `period`.',
    }),
  ),
};

export const TrendListQuery = StrictObject({
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Case-insensitive text in the trend name; accents are optional (`Zürich` finds `Zurich`).',
    }),
  ),
  category: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 120,
      description:
        'Category name (`Technology/AI`) or slug (`technology-ai`); a parent matches its children.',
    }),
  ),
  period: Type.Optional({ ...PeriodParam, default: '24h' }),
  interest: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 9_007_199_254_740_991,
      description: 'Id of one of your interests: trends whose name contains its keyword.',
    }),
  ),
  interests: Type.Optional(
    Type.Array(Type.String({ maxLength: 2000 }), {
      maxItems: 20,
      description:
        'Keywords, comma-separated or repeated (`interests=ai,climate`): trends whose name holds any of them as ' +
        'whole words, compared as trend keys are (`#OpenAI` = `openai`). At most 20 keywords of ≤ 100 characters.',
    }),
  ),
  exclude_sentiment: Type.Optional(
    Type.Array(Type.String({ maxLength: 100 }), {
      maxItems: 4,
      description:
        'Sentiment categories to leave out, comma-separated or repeated: `positive`, `negative`, `neutral`, `mixed`.',
    }),
  ),
  min_snapshots: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 10_000,
      description:
        'Only trends observed in at least this many hourly buckets of the period (or date range): leaves out ' +
        'one-off bursts.',
    }),
  ),
  sort_by: Type.Optional(
    Type.Enum(['volume', 'velocity', 'growth', 'timestamp', 'name'], {
      default: 'volume',
      description:
        '`volume` (mentions in the period), `velocity` (velocity_score), `growth` (trends with no previous ' +
        'mentions last), `timestamp` (last observed), `name`. Ties are broken by id in the same direction.',
    }),
  ),
  order: Type.Optional(Type.Enum(['desc', 'asc'], { description: 'Sort direction (default `desc`).' })),
  ...DateRange,
  limit: Pagination.limit,
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'Items to skip (default 0).' }),
  ),
});

export const TrendListResponse = Type.Object(
  {
    trends: Type.Array(Type.Ref('TrendItem')),
    total: Type.Integer({ description: 'Trends matching the filters (with mentions in the period).' }),
    // PaginationMeta plus the one filter it has no field for.
    meta: Type.Intersect([
      Type.Ref('PaginationMeta'),
      Type.Object({
        interest: Nullable(
          Type.Integer({ description: 'The `interest` filter applied (an interest id), or null.' }),
        ),
        interests: Nullable(
          Type.Array(Type.String(), { description: 'The `interests` keywords applied, or null.' }),
        ),
        exclude_sentiment: Nullable(
          Type.Array(Type.String(), { description: 'The sentiment categories left out, or null.' }),
        ),
        min_snapshots: Nullable(
          Type.Integer({ description: 'The `min_snapshots` filter applied, or null.' }),
        ),
      }),
    ]),
  },
  { title: 'TrendListResponse' },
);

export const TrendDetailQuery = StrictObject({ period: Type.Optional({ ...PeriodParam, default: '24h' }) });

export const AnalyticsQuery = StrictObject({
  period: Type.Optional({ ...PeriodParam, default: '7d' }),
  ...DateRange,
});

export const AnalyticsResponse = Type.Object(
  {
    trend_id: Type.Integer(),
    name: Type.String(),
    period: Type.String({ description: 'The period, or `custom` for a date range.' }),
    current_volume: Type.Integer(),
    previous_volume: Type.Integer(),
    volume_change_percent: Nullable(
      Type.Number({ description: 'Growth vs the previous equal window; null when that had none.' }),
    ),
    data: Type.Array(
      Type.Object({
        timestamp: DateTime({
          description: 'Start of the point: a minute (1h), an hour (24h, 7d) or a day.',
        }),
        volume: Type.Integer(),
      }),
    ),
    velocity_per_hour: Type.Number({ description: 'current_volume / hours in the window.' }),
    velocity_trend: Type.Enum(['accelerating', 'decelerating', 'steady'], {
      description: 'Second half of the window vs the first (±10 %).',
    }),
  },
  { title: 'TrendAnalytics' },
);

export const AutocompleteQuery = StrictObject({
  query: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Start of a trend name (this or `q` is required).',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
});

export const AutocompleteResponse = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          category: Nullable(Type.String()),
          volume: Nullable(Type.Integer({ description: 'Mentions in the last 24 hours.' })),
          suggestion: Nullable(Type.String({ description: 'The normalised name, usable as `search`.' })),
        },
        { title: 'AutocompleteResult' },
      ),
    ),
  },
  { title: 'AutocompleteResponse' },
);
