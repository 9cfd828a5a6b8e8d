// Crisis events: CrisisEvent, CrisisEvidence, CrisisReview, EvidenceCompleteness and the route bodies.
import Type from 'typebox';
import {
  DateOnly,
  DateTime,
  FreeForm,
  IdParam,
  Nullable,
  Pagination,
  StrictObject,
} from '../../platform/schemas.ts';
import { SEVERITIES } from './scoring.ts';
import { ACTIONS, ASSESSMENTS, CRISIS_STATUSES, REVIEW_STATUSES } from './service.ts';

export const CrisisEvidenceSchema = Type.Object(
  {
    id: Type.Integer(),
    source_id: Type.String({ description: 'usgs, environment_agency, or the platform of a social signal.' }),
    reference_id: Type.String({ description: "The item's id at the source." }),
    source_url: Type.String({ description: 'http(s) link to the original.' }),
    observed_at: DateTime(),
    retrieved_at: DateTime({ description: 'When Crestwatch captured this snapshot.' }),
    excerpt: Type.String({ description: 'The captured text (at most 1,000 characters); never changes.' }),
    claim: Type.String({ description: 'What this item supports.' }),
    content_hash: Type.String({
      description:
        'SHA-256 hex of the excerpt after Unicode NFC, whitespace runs collapsed to one space, trimmed.',
    }),
    attribution: Type.Optional(Nullable(Type.String())),
    licence_url: Type.Optional(Nullable(Type.String())),
  },
  { $id: 'CrisisEvidence', title: 'CrisisEvidence' },
);

export const CrisisReviewSchema = Type.Object(
  {
    id: Type.Integer(),
    reviewer_id: Type.Integer(),
    assessment: Type.String({ enum: [...ASSESSMENTS] }),
    rationale: Type.String(),
    evidence_version: Type.String(),
    created_at: DateTime(),
  },
  { $id: 'CrisisReview', title: 'CrisisReview' },
);

export const EvidenceCompletenessSchema = Type.Object(
  {
    score: Type.Integer({ minimum: 0, maximum: 100 }),
    method: Type.String(),
    meaning: Type.Optional(Nullable(Type.String())),
  },
  { $id: 'EvidenceCompleteness', title: 'EvidenceCompleteness' },
);

export const CrisisEventSchema = Type.Object(
  {
    id: Type.Integer(),
    user_id: Type.Integer(),
    title: Type.String(),
    summary: Type.String(),
    severity: Type.String({ enum: [...SEVERITIES] }),
    status: Type.String({ enum: [...CRISIS_STATUSES] }),
    detected_at: DateTime(),
    created_at: DateTime(),
    updated_at: DateTime(),
    source_keywords: Type.Optional(Nullable(Type.Array(Type.String()))),
    impacted_entity: Type.Optional(Nullable(Type.String())),
    trend_id: Type.Optional(Nullable(Type.Integer())),
    trend_snapshot_link: Type.Optional(Nullable(Type.String())),
    detection_method: Type.Optional(
      Nullable(Type.String({ description: '`negative-surge-z` (social) or `official-hazard-feed`.' })),
    ),
    method_version: Type.Optional(Nullable(Type.String())),
    evidence_as_of: Type.Optional(
      Nullable(DateTime({ description: 'Newest observed_at among the evidence.' })),
    ),
    freshness: Type.Optional(
      Nullable(
        Type.String({
          enum: ['fresh', 'stale', 'missing'],
          description:
            'fresh while evidence_as_of is within 6 h (social), 24 h (usgs) or 12 h (environment_agency).',
        }),
      ),
    ),
    analysis_status: Type.Optional(
      Nullable(
        Type.String({ description: '`complete`, or `partial` when the evidence was capped at 50 items.' }),
      ),
    ),
    severity_basis: Type.Optional(Nullable(Type.String({ description: 'The numbers behind the severity.' }))),
    model_version: Type.Optional(Nullable(Type.String())),
    provider_severity: Type.Optional(Nullable(Type.String())),
    location: Type.Optional(Nullable(Type.String())),
    source_state: Type.Optional(
      Nullable(Type.String({ description: 'social: surging or subsided; hazards: the feed’s own state.' })),
    ),
    review_status: Type.Optional(Nullable(Type.String({ enum: [...REVIEW_STATUSES] }))),
    evidence_version: Type.Optional(Nullable(Type.String())),
    evidence_completeness: Type.Optional(Nullable(Type.Ref('EvidenceCompleteness'))),
    corroboration: Type.Optional(
      Nullable(FreeForm({ description: '{independent_sources, sources, score, …}' })),
    ),
    source_refs: Type.Optional(Type.Array(Type.Ref('CrisisEvidence'))),
    reviews: Type.Optional(Type.Array(Type.Ref('CrisisReview'))),
    limitations: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'CrisisEvent', title: 'CrisisEvent' },
);

const all = <T extends string>(values: T[], description: string) =>
  Type.Optional(Type.String({ enum: ['all', ...values], default: 'all', description }));

export const CrisisListQuery = StrictObject({
  status: all([...CRISIS_STATUSES], 'Event status.'),
  severity: all([...SEVERITIES], 'Severity.'),
  period: Type.Optional(
    Type.String({
      enum: ['1h', '24h', '7d', '30d', 'custom'],
      description:
        'Detected within this window, ending now; `custom` (upstream’s value) takes the window from ' +
        '`start_date`/`end_date`, one of which is then required.',
    }),
  ),
  source: all(
    ['social', 'x', 'reddit', 'bluesky', 'news', 'hackernews', 'usgs', 'environment_agency'],
    '`social`: social surge events; a source id: events with evidence from that source.',
  ),
  freshness: all(['fresh', 'stale', 'missing'], 'Evidence freshness.'),
  review_status: all([...REVIEW_STATUSES], 'Review status.'),
  keyword: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Substring of the title, impacted entity or keywords.',
    }),
  ),
  location: Type.Optional(
    Type.String({ minLength: 1, maxLength: 120, description: 'Substring of the location.' }),
  ),
  start_date: Type.Optional(
    DateOnly({ description: 'First UTC day (inclusive) of detected_at; replaces period.' }),
  ),
  end_date: Type.Optional(
    DateOnly({ description: 'Last UTC day (inclusive) of detected_at; replaces period.' }),
  ),
  order: Type.Optional(
    Type.String({ enum: ['desc', 'asc'], default: 'desc', description: 'By detected_at, then id.' }),
  ),
  ...Pagination,
});

const S = Nullable(Type.String());
export const CrisisListResponse = Type.Object(
  {
    events: Type.Array(Type.Ref('CrisisEvent')),
    meta: Type.Object(
      {
        total: Type.Integer(),
        limit: Type.Integer(),
        offset: Type.Integer(),
        order: Type.String(),
        period: S,
        start_date: S,
        end_date: S,
        status: Type.String(),
        severity: Type.String(),
        source: Type.String(),
        freshness: Type.String(),
        review_status: Type.String(),
        keyword: S,
        location: S,
      },
      { title: 'CrisisEventListMeta' },
    ),
  },
  { title: 'CrisisEventListResponse' },
);

export const CrisisIdParams = IdParam('id', 'The crisis event id.');

export const CrisisActionBody = StrictObject({
  action: Type.String({
    enum: [...ACTIONS],
    description:
      'acknowledge: active → acknowledged; archive: active or acknowledged → archived; reopen: acknowledged or archived → active.',
  }),
});

export const CrisisReviewBody = StrictObject({
  assessment: Type.String({ enum: [...ASSESSMENTS] }),
  rationale: Type.String({
    minLength: 1,
    maxLength: 2000,
    description: 'Why you made this assessment; not only whitespace.',
  }),
  evidence_version: Type.String({
    pattern: '^[0-9a-f]{32}$',
    description: 'The evidence_version you reviewed.',
  }),
});

export const ExportQuery = StrictObject({
  format: Type.Optional(Type.String({ enum: ['json', 'html'], default: 'json' })),
});

export const CrisisExportJson = Type.Object(
  {
    format: Type.String({ enum: ['json'] }),
    exported_at: DateTime(),
    verification: Type.Object({ content_hash: Type.String(), evidence_version: Type.String() }),
    event: Type.Ref('CrisisEvent'),
  },
  { title: 'CrisisEventExport' },
);

export const ResilienceSettingsSchema = Type.Object(
  {
    location_query: Type.String({
      description: 'Where hazard events matter to you; an empty string when none is set.',
    }),
    updated_at: Nullable(DateTime()),
  },
  { title: 'ResilienceSettings' },
);

export const ResilienceSettingsBody = StrictObject({
  location_query: Nullable(
    Type.String({
      maxLength: 120,
      description:
        '`lat,lon,radius_km` (e.g. `35.7,-117.5,100`) or a place name matched as whole words against the feeds’ ' +
        'own place and area names (e.g. `Tadcaster`, `Ridgecrest`); null or empty clears it.',
    }),
  ),
});
