// Webhook subscriptions, executions and the outbound event bodies (the OpenAPI `webhooks` section).
import Type, { type Static } from 'typebox';
import { DateTime, IdParam, Nullable, StrictObject } from '../../platform/schemas.ts';
import { SEVERITIES } from '../alerts/index.ts';

export const TRIGGER_TYPES = ['trend_velocity', 'trend_lifecycle', 'crisis_event'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
export const DELIVERY_MODES = ['instant_stream', 'digest'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
const EXECUTION_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const MAX_COOLDOWN_SECONDS = 86_400;

export const FiltersSchema = StrictObject(
  {
    category: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'A category name (`Technology`, `Technology/AI`) or slug (`technology-ai`), as `category` on ' +
          '`GET /api/trends`; stored as its name; a parent matches its children; an unknown one → 400. Trend ' +
          'subscriptions only: crisis events have no category (400 on a `crisis_event` subscription).',
      }),
    ),
    keywords: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 20,
        description: 'Any of these words or phrases must appear in the trend name (or crisis title).',
      }),
    ),
    min_severity: Type.Optional(
      Type.Enum([...SEVERITIES], {
        description:
          'Lowest severity delivered: a trend alert’s severity comes from its velocity score, a crisis ' +
          'event carries its own.',
      }),
    ),
  },
  { title: 'WebhookFilters' },
);
export type Filters = Static<typeof FiltersSchema>;

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Absolute http(s) URL. Private, loopback and link-local destinations are refused unless ' +
    '`OUTBOUND_ALLOWLIST` covers them; cloud metadata addresses always. Checked again at every delivery.',
});
const Threshold = Type.Number({
  minimum: 0,
  maximum: 1_000_000,
  description:
    '`trend_velocity`: the velocity score (0–100) whose upward crossing fires. `trend_lifecycle`: the ' +
    'lowest velocity score a stage change must have to fire (0 = every change). Ignored for `crisis_event`.',
});
const Cooldown = Type.Integer({
  minimum: 0,
  maximum: MAX_COOLDOWN_SECONDS,
  description:
    'At most one delivery per this many seconds per subscription and trend (or crisis event); for `digest` ' +
    'the length of the batching window.',
});

export const WebhookSubscriptionSchema = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    target_url: Type.String({ description: "Upstream's name for `url`; always equal to it." }),
    events: Type.Array(Type.String(), {
      description:
        'The `event` values of the bodies this subscription receives: `trend_velocity` → ' +
        '`trend.alert.created`; `trend_lifecycle` → `trend.lifecycle.changed`; `crisis_event` → ' +
        '`crisis.event.opened`, `crisis.event.escalated`, `crisis.event.resolved`; with `delivery_mode: ' +
        'digest` only `digest` (whose `events` carry those bodies). The test route sends `webhook.test` to any.',
    }),
    trigger_type: Type.Enum([...TRIGGER_TYPES]),
    delivery_mode: Type.Enum([...DELIVERY_MODES]),
    threshold_value: Type.Number(),
    cooldown_seconds: Type.Integer(),
    filters: Type.Object(
      {
        category: Type.Optional(Type.String()),
        keywords: Type.Optional(Type.Array(Type.String())),
        min_severity: Type.Optional(Type.Enum([...SEVERITIES])),
      },
      { title: 'WebhookFilters' },
    ),
    is_active: Type.Boolean({
      description: 'False after a 410 answer, 24 h of failures, or when you turn it off.',
    }),
    failure_count: Type.Integer({ description: 'Failed attempts since the last success.' }),
    last_delivery_at: Nullable(DateTime({ description: 'Last successful delivery.' })),
    created_at: DateTime(),
  },
  {
    title: 'WebhookSubscription',
    description: 'The signing `secret` is never listed: it appears once, in the create response.',
  },
);

export const WebhookCreatedSchema = Type.Object(
  {
    ...WebhookSubscriptionSchema.properties,
    secret: Type.String({
      description:
        '`whsec_` + base64 of 32 random bytes; shown only here. The signing key is the decoded bytes.',
    }),
  },
  { title: 'WebhookSubscriptionCreated' },
);

export const CreateWebhookBody = StrictObject({
  url: Url,
  trigger_type: Type.Enum([...TRIGGER_TYPES]),
  delivery_mode: Type.Enum([...DELIVERY_MODES], {
    description: '`instant_stream`: one POST per event at once; `digest`: one POST per cooldown window.',
  }),
  threshold_value: Threshold,
  cooldown_seconds: Cooldown,
  filters: Type.Optional(FiltersSchema),
});
export type CreateWebhookInput = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = StrictObject({
  url: Type.Optional(Url),
  threshold_value: Type.Optional(Threshold),
  cooldown_seconds: Type.Optional(Cooldown),
  filters: Type.Optional(FiltersSchema),
  is_active: Type.Optional(Type.Boolean({ description: 'Re-enabling resets `failure_count`.' })),
});
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>;

export const WebhookListResponse = Type.Object({ webhooks: Type.Array(WebhookSubscriptionSchema) });
export const SecretResponse = Type.Object({
  secret: Type.String({
    description: 'The new secret, shown once. For 24 h deliveries carry signatures from both secrets.',
  }),
});

export const ExecutionSchema = Type.Object(
  {
    id: Type.Integer(),
    event_id: Type.String({ description: 'The body’s `id` and the `webhook-id` header.' }),
    event: Type.String(),
    attempt: Type.Integer({ description: '1 for the first attempt; retries and redeliveries count on.' }),
    status: Type.Enum([...EXECUTION_STATUSES]),
    response_status: Nullable(Type.Integer({ description: 'The receiver’s HTTP status, when it answered.' })),
    duration_ms: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    created_at: DateTime(),
    next_attempt_at: Nullable(DateTime({ description: 'When the next retry is scheduled.' })),
  },
  { title: 'WebhookExecution' },
);
export const ExecutionListResponse = Type.Object({ executions: Type.Array(ExecutionSchema) });

export const WebhookIdParams = IdParam('id', 'The webhook subscription id.');
export const ExecutionParams = Type.Object(
  {
    id: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }),
    execution_id: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }),
  },
  { additionalProperties: false },
);
export const ExecutionsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'How many, newest first (1–100).' }),
    ),
  },
  { additionalProperties: false },
);

// ---------- outbound bodies (documented in the OpenAPI `webhooks` section)

const EventBase = {
  id: Type.String({ description: 'Stable across retries and redeliveries; equals the `webhook-id` header.' }),
};

export const TrendAlertBody = Type.Object(
  {
    ...EventBase,
    event: Type.Literal('trend.alert.created'),
    trend_id: Type.Integer(),
    trend_name: Type.String(),
    category: Type.String({ description: 'Slash path, e.g. `Technology/AI`.' }),
    severity: Type.Enum([...SEVERITIES], {
      description: 'From velocity: critical ≥ 90, high ≥ 75, medium ≥ 50, low below.',
    }),
    velocity: Type.Number({ description: 'The trend’s velocity_score (0–100).' }),
    timestamp: DateTime(),
    summary: Type.String(),
    source_link: Type.String({ format: 'uri' }),
    recommended_next_steps: Type.Array(Type.String()),
  },
  { title: 'TrendAlertCreatedEvent' },
);

export const TrendLifecycleBody = Type.Object(
  {
    ...EventBase,
    event: Type.Literal('trend.lifecycle.changed'),
    trend_id: Type.Integer(),
    trend_name: Type.String(),
    category: Type.String(),
    from_stage: Nullable(Type.String()),
    to_stage: Type.String(),
    velocity: Type.Number(),
    timestamp: DateTime(),
    source_link: Type.String({ format: 'uri' }),
  },
  { title: 'TrendLifecycleChangedEvent' },
);

export const CrisisBody = Type.Object(
  {
    ...EventBase,
    event: Type.Enum(['crisis.event.opened', 'crisis.event.escalated', 'crisis.event.resolved']),
    crisis_event_id: Type.Integer(),
    title: Type.String(),
    severity: Type.Enum([...SEVERITIES]),
    status: Type.String(),
    impacted_entity: Nullable(Type.String()),
    detected_at: DateTime(),
    summary: Type.String(),
    source_link: Type.String({ format: 'uri' }),
  },
  { title: 'CrisisEventWebhook' },
);

export const DigestBody = Type.Object(
  {
    ...EventBase,
    event: Type.Literal('digest'),
    window_start: DateTime(),
    window_end: DateTime(),
    events: Type.Array(Type.Object({}, { additionalProperties: true }), {
      description: 'The bodies that matched in the window, oldest first.',
    }),
  },
  { title: 'DigestEvent' },
);

export const TestBody = Type.Object(
  {
    ...EventBase,
    event: Type.Literal('webhook.test'),
    sample: TrendAlertBody,
  },
  { title: 'WebhookTestEvent' },
);
