// Recommendations: Recommendation with its RecommendationDecisionBrief (upstream's shapes) and the route inputs.
import Type from 'typebox';
import { DateTime, IdParam, Nullable, Pagination, StrictObject } from '../../platform/schemas.ts';
import { PRIORITIES, RECOMMENDATION_TYPES } from './facts.ts';
import { STATUSES } from './service.ts';

export const RecommendationEvidenceSchema = Type.Object(
  {
    metric: Type.String({ description: 'What was measured, e.g. `velocity_score`, `volume`, `severity`.' }),
    label: Type.String(),
    value: Type.Unknown({
      description:
        'The measured value exactly as the source reports it (a number, a string, a list or null).',
    }),
    unit: Nullable(Type.String()),
    interpretation: Nullable(Type.String()),
    source: Type.String({ description: '`crestwatch`: Crestwatch’s own trend, crisis and insight data.' }),
    source_url: Nullable(Type.String({ description: 'The API resource the value comes from.' })),
    observed_at: Nullable(DateTime({ description: 'When the value was observed.' })),
  },
  {
    $id: 'RecommendationEvidence',
    title: 'RecommendationEvidence',
    description: 'A measured or structured signal supporting a recommendation.',
  },
);

export const RecommendationConfidenceSchema = Type.Object(
  {
    score: Type.Integer({
      minimum: 0,
      maximum: 100,
      description: 'The weight of the signals present among those the rule needs (0–100).',
    }),
    level: Type.String({ enum: ['high', 'medium', 'low'], description: 'high ≥ 75, medium ≥ 50.' }),
    method: Type.String({ description: '`evidence_completeness_v1`.' }),
    reasons: Type.Array(Type.String()),
    missing_signals: Type.Array(Type.String()),
  },
  {
    $id: 'RecommendationConfidence',
    title: 'RecommendationConfidence',
    description: 'Evidence completeness metadata, not a predicted outcome probability.',
  },
);

export const RecommendationExpectedBenefitSchema = Type.Object(
  { outcome: Type.String(), basis: Type.String(), measurement: Type.String() },
  { $id: 'RecommendationExpectedBenefit', title: 'RecommendationExpectedBenefit' },
);

export const RecommendationUrgencySchema = Type.Object(
  {
    level: Type.String({
      description: '`act_now`, `this_week`, `monitor`, or `verify_first` while the brief is not actionable.',
    }),
    window: Type.String(),
    reason: Type.String(),
  },
  { $id: 'RecommendationUrgency', title: 'RecommendationUrgency' },
);

export const RecommendationDataQualitySchema = Type.Object(
  {
    status: Type.String({
      description:
        '`strong` (confidence ≥ 75), `partial` (≥ 50), `weak`, or `lapsed` when the trigger ended.',
    }),
    freshness: Type.String({
      enum: ['fresh', 'stale', 'missing'],
      description: 'Judged when read: fresh while the newest evidence is within its window.',
    }),
    snapshot_at: Nullable(DateTime()),
    evidence_count: Type.Integer({ minimum: 0 }),
    missing_signals: Type.Array(Type.String()),
  },
  { $id: 'RecommendationDataQuality', title: 'RecommendationDataQuality' },
);

export const RecommendationDecisionBriefSchema = Type.Object(
  {
    why_now: Type.String(),
    evidence: Type.Array(Type.Ref('RecommendationEvidence')),
    confidence: Type.Ref('RecommendationConfidence'),
    expected_benefit: Type.Ref('RecommendationExpectedBenefit'),
    urgency: Type.Ref('RecommendationUrgency'),
    next_steps: Type.Array(Type.String()),
    data_quality: Type.Ref('RecommendationDataQuality'),
    actionable: Type.Boolean({
      description:
        'Fresh evidence, a trigger that still holds and nothing blocking it (e.g. an open crisis).',
    }),
  },
  {
    $id: 'RecommendationDecisionBrief',
    title: 'RecommendationDecisionBrief',
    description: 'The recommendation’s evidence, timing, expected value, and next actions.',
  },
);

export const RecommendationSchema = Type.Object(
  {
    id: Type.Integer(),
    user_id: Type.Integer(),
    type: Type.String({ enum: [...RECOMMENDATION_TYPES] }),
    title: Type.String(),
    details: Type.String(),
    source_trend_id: Nullable(
      Type.String({ description: 'The trend’s id as a string (upstream’s current form); null if none.' }),
    ),
    source_trend_name: Nullable(
      Type.String({ description: 'The trend’s name, or the crisis event’s impacted entity.' }),
    ),
    priority: Type.String({ enum: [...PRIORITIES] }),
    status: Type.String({ enum: [...STATUSES] }),
    created_at: DateTime(),
    updated_at: DateTime({ description: 'Last change: a refreshed brief, an action or feedback.' }),
    user_feedback: Nullable(Type.String()),
    decision_brief: Type.Ref('RecommendationDecisionBrief'),
  },
  { $id: 'Recommendation', title: 'Recommendation' },
);

const S = Nullable(Type.String());
export const RecommendationListResponse = Type.Object(
  {
    recommendations: Type.Array(Type.Ref('Recommendation')),
    meta: Type.Object(
      {
        total: Type.Integer(),
        limit: Type.Integer(),
        offset: Type.Integer(),
        sort_by: Type.String({ description: 'The `sort` applied.' }),
        order: Type.String({ description: 'Always `desc`: highest priority, or newest, first.' }),
        search: S,
        type: Type.String(),
        sourceTrendQ: S,
        priority: Type.String(),
        status: Type.String(),
        match_user_interests: Type.Boolean(),
      },
      { title: 'RecommendationListMeta', description: 'PaginationMeta with the filters applied.' },
    ),
  },
  { title: 'RecommendationListResponse' },
);

export const RecommendationListQuery = StrictObject({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 20,
      description: 'Page size; values above 100 are capped at 100 (as upstream does).',
      'x-page-size-cap': 100,
    }),
  ),
  offset: Pagination.offset,
  type: Type.Optional(
    Type.String({
      enum: ['all', ...RECOMMENDATION_TYPES],
      default: 'all',
      description: 'Recommendation type.',
    }),
  ),
  sourceTrendQ: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Substring of the source trend’s name (case-insensitive); blank means no filter.',
    }),
  ),
  priority: Type.Optional(Type.String({ enum: ['all', ...PRIORITIES], default: 'all' })),
  status: Type.Optional(
    Type.String({
      enum: ['all', ...STATUSES],
      default: 'new',
      description: 'Workflow state (default `new`).',
    }),
  ),
  match_user_interests: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'Only recommendations whose source (trend name, crisis keywords) matches one of your active interests.',
    }),
  ),
  sort: Type.Optional(
    Type.String({
      enum: ['priority', 'newest'],
      default: 'priority',
      description:
        '`priority`: critical first, then newest; `newest`: by creation, newest first. Ties by id.',
    }),
  ),
});

export const RecommendationIdParams = IdParam('recommendation_id', 'The recommendation id.');

export const RecommendationActionBody = StrictObject(
  {
    action: Type.Optional(
      Type.String({
        enum: [...STATUSES],
        description: 'The new workflow state. `actioned` needs an actionable decision brief (409 otherwise).',
      }),
    ),
    feedback: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'Your note on the recommendation (at most 500 characters).',
      }),
    ),
  },
  { description: 'Exactly one of `action` or `feedback`.' },
);
