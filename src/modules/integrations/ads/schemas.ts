import Type from 'typebox';
import { DateTime, FreeForm, StrictObject } from '../../../platform/schemas.ts';

export const PlatformParams = Type.Object(
  { platform: Type.String({ minLength: 1, maxLength: 64, description: 'Ad provider id (`social_ads`).' }) },
  { additionalProperties: false },
);

export const ProvidersResponse = Type.Object({
  providers: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      connected: Type.Boolean(),
      capabilities: Type.Array(Type.String()),
    }),
  ),
});

const AdId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

export const AdsSelection = Type.Object(
  {
    ad_account_id: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      examples: ['act_1234567890'],
    }),
    ad_set_ids: Type.Array(AdId, {
      minItems: 1,
      maxItems: 50,
      description: 'Ad sets whose targeting previews change.',
    }),
    trend_category: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'A taxonomy category (name or slug); previews of trends outside it (and its children) are blocked.',
    }),
    strict_safety: Type.Boolean({
      description: 'Block previews of trends whose brand safety is not `safe`.',
    }),
  },
  { title: 'AdsSelection' },
);

export const AdsSelectionBody = StrictObject(AdsSelection.properties);

const Change = Type.Object({
  ad_set_id: Type.String(),
  before: FreeForm({ description: 'The ad set’s targeting as read from the provider.' }),
  after: FreeForm({ description: 'The targeting apply writes.' }),
});

export const PreviewBody = StrictObject({
  trend_id: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }),
});

export const PreviewResponse = Type.Object(
  {
    preview_id: Type.Integer(),
    trend_id: Type.Integer(),
    changes: Type.Array(Change),
    blocked: Type.Boolean(),
    blocked_reasons: Type.Array(Type.String()),
    expires_at: DateTime(),
  },
  { title: 'AdsTargetingPreview' },
);

export const ApplyBody = StrictObject({
  preview_id: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }),
});

export const ApplyResponse = Type.Object(
  {
    apply_id: Type.Integer(),
    preview_id: Type.Integer(),
    status: Type.Enum(['applied', 'rolled_back'], {
      description: '`rolled_back` when a repeat finds it rolled back.',
    }),
    changes: Type.Array(Change),
  },
  { title: 'AdsApply' },
);

export const RollbackBody = StrictObject({
  apply_id: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }),
});

export const RollbackResponse = Type.Object({
  apply_id: Type.Integer(),
  status: Type.Literal('rolled_back'),
  changes: Type.Array(Change),
});
