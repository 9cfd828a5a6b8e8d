// Schemas of the trend routes.
import Type from 'typebox';
import { DateTime, IdParam, Nullable } from '../../platform/schemas.ts';

export const TrendItemSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String({ description: 'The most frequent way the trend is written.' }),
    volume: Type.Integer({ description: 'Mentions in the period.' }),
    timestamp: DateTime({ description: 'When the trend was last observed.' }),
    category: Type.String({ description: 'Slash path in the taxonomy, e.g. `Technology/AI`.' }),
    sentiment: Nullable(
      Type.String({ description: 'Mean VADER compound score over the period, e.g. "-0.42".' }),
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
      description: 'Surprise of the last hour (docs/metrics.md).',
    }),
    velocity_1h: Type.Integer({ description: 'Mentions in the last 60 minutes.' }),
    lifecycle_stage: Type.Enum(['emerging', 'rising', 'peaking', 'declining', 'stable']),
    platforms: Type.Record(Type.String(), Type.Integer(), {
      description: 'Mentions by platform over the period.',
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
          id: Nullable(Type.Integer()),
          slug: Nullable(Type.String()),
          description: Nullable(Type.String()),
        },
        { title: 'CategoryInfo' },
      ),
    ),
  },
  { title: 'CategoryListResponse' },
);
