// Request and response schemas of the workflow integration (routes 4–7 and their companions).
import Type from 'typebox';
import { DateTime, FreeForm, Nullable, StrictObject } from '../../../platform/schemas.ts';
import { DEFAULT_EVENT_NAMES } from './service.ts';

const BaseUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    "The workflow tool's address (n8n), e.g. `https://n8n.example.com`; its public API is `{api_base_url}/api/v1`.",
  examples: ['https://n8n.example.com'],
});

const DefaultEventSchema = Type.Enum([...DEFAULT_EVENT_NAMES], {
  description:
    'What is pushed automatically: `trend_lifecycle` (every `trend.lifecycle.changed`), `trend_velocity` ' +
    '(every `trend.velocity.crossed`), `crisis_event` (your crisis events opening, escalating or subsiding).',
});

export const ConnectBody = StrictObject({
  api_key: Type.String({
    minLength: 1,
    maxLength: 4096,
    pattern: '^[\\x21-\\x7e]+$',
    description:
      "The workflow tool's API key (n8n: Settings → n8n API). Stored encrypted, never shown again.",
  }),
  api_base_url: BaseUrl,
  include_metadata: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Add `metadata` `{source, version, user_id, delivery_id, origin}` to every push.',
    }),
  ),
});

export const ConnectResponse = Type.Object({
  connected: Type.Literal(true),
  api_base_url: Type.String({ description: 'The connected address as stored (no trailing slash).' }),
  include_metadata: Type.Boolean(),
  signing_secret: Type.String({
    description:
      'Shown once. Pushes carry `webhook-signature` (Standard Webhooks) and `X-Webhook-Signature` made with it.',
  }),
});

const SelectionView = Type.Object({
  workflow_id: Type.String(),
  workflow_name: Type.String(),
  default_event: DefaultEventSchema,
  webhook_url: Type.String({ description: "The workflow's Webhook trigger production URL." }),
  selected_at: DateTime(),
});

export const StatusResponse = Type.Object({
  connected: Type.Boolean(),
  api_base_url: Nullable(Type.String()),
  include_metadata: Type.Boolean(),
  selection: Nullable(SelectionView),
  connected_at: Nullable(
    DateTime({ description: 'When you last connected; saving a selection does not change it.' }),
  ),
});

export const WorkflowListResponse = Type.Object({
  workflows: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), active: Type.Boolean() })),
});

export const SelectionBody = StrictObject({
  workflow_id: Type.String({ minLength: 1, maxLength: 64, description: "The tool's workflow id." }),
  workflow_name: Type.String({ minLength: 1, maxLength: 200 }),
  default_event: DefaultEventSchema,
  api_base_url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'Must equal the connected address; another tool needs its own connect first.',
  }),
});

export const SelectionResponse = Type.Object({
  workflow_id: Type.String(),
  workflow_name: Type.String(),
  default_event: DefaultEventSchema,
  webhook_url: Type.String(),
  selected_at: DateTime(),
  api_base_url: Type.String(),
  active: Type.Boolean({
    description:
      'Whether the workflow is active in the tool (n8n serves production webhooks of active workflows only).',
  }),
});

export const PushBody = StrictObject({
  event: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^[A-Za-z0-9_.:-]+$',
    description: 'An event name such as `trend_lifecycle`.',
  }),
  data: FreeForm({ description: 'Forwarded as is.' }),
  gate: Type.Optional(
    StrictObject(
      {
        trend_id: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }),
      },
      {
        description:
          'Hold the push back (409 `blocked_by_crisis`) while you have an active crisis event of severity ' +
          'high or critical whose trend is this one or whose keywords match its title.',
      },
    ),
  ),
});

export const PushResponse = Type.Object({
  delivered: Type.Boolean({ description: 'The Webhook trigger answered 2xx.' }),
  status_code: Nullable(Type.Integer({ description: 'The HTTP status the Webhook trigger answered.' })),
  execution_id: Type.Integer({
    description:
      "Crestwatch's delivery id (an integer, like every resource id; `id` in GET /api/integrations/workflow/deliveries); " +
      "its decimal string is the push's `webhook-id` header.",
  }),
});

export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);

export const DeliveriesResponse = Type.Object({
  deliveries: Type.Array(
    Type.Object({
      id: Type.Integer({ description: 'The push’s `execution_id`.' }),
      event: Type.String(),
      origin: Type.Enum(['manual', 'automatic']),
      status: Type.Enum(['queued', 'delivered', 'failed']),
      attempts: Type.Integer(),
      response_status: Nullable(Type.Integer()),
      error: Nullable(Type.String()),
      created_at: DateTime(),
      delivered_at: Nullable(DateTime()),
    }),
  ),
});
