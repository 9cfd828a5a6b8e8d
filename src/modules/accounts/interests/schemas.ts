// Topic interests: what a user follows (trend filter, alerts, crisis watch).
import Type from 'typebox';
import { DateTime, IdParam, Nullable, StrictObject } from '../../../platform/schemas.ts';

export const ALERT_CONDITIONS = ['volume_above', 'growth_above', 'crisis'] as const;
export type AlertCondition = (typeof ALERT_CONDITIONS)[number];

export const TopicInterestSchema = Type.Object(
  {
    id: Type.Integer(),
    user_id: Type.Integer(),
    keyword: Type.String(),
    alert_condition_type: Type.Enum([...ALERT_CONDITIONS]),
    volume_threshold_value: Nullable(
      Type.Integer({ description: 'Mentions in 24 h; set for volume_above.' }),
    ),
    percentage_growth_value: Nullable(Type.Number({ description: 'Growth in %; set for growth_above.' })),
    created_at: DateTime(),
    status: Type.Enum(['active', 'paused']),
  },
  { title: 'TopicInterest' },
);

export const CreateInterestBody = StrictObject({
  keyword: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'A word, phrase, hashtag or name; matched against trend names as whole words.',
  }),
  alert_condition_type: Type.Optional(
    Type.Enum([...ALERT_CONDITIONS], {
      default: 'crisis',
      description:
        '`volume_above` needs `volume_threshold_value`, `growth_above` needs `percentage_growth_value`; ' +
        '`crisis` (default) watches for negative surges.',
    }),
  ),
  volume_threshold_value: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
  percentage_growth_value: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 })),
});

export const InterestListResponse = Type.Array(TopicInterestSchema, {
  description: 'A bare array, as upstream answers; oldest first.',
});

export const InterestIdParams = IdParam('interest_id', 'The interest id.');
