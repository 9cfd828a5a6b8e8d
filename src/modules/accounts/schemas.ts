// Request and response schemas of the account and operator routes.
import Type from 'typebox';
import { PLAN_NAMES } from '../../platform/plans.ts';
import { DateTime, IdParam, Nullable, PageMeta, Pagination, StrictObject } from '../../platform/schemas.ts';

const PermissionSchema = Type.Enum(['read', 'write', 'ingest', 'admin'], {
  description:
    '`read` (GET routes), `write` (changes to your own resources), `ingest` (POST /api/signals), `admin` (operator routes).',
});
const PlanNameSchema = Type.Enum([...PLAN_NAMES]);

const ApiKeySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    prefix: Nullable(Type.String({ description: 'The first 11 characters of the key, to recognise it.' })),
    created_at: Nullable(DateTime()),
    last_used_at: Nullable(DateTime({ description: 'May lag by up to a minute.' })),
    expires_at: Nullable(DateTime()),
    permissions: Type.Array(PermissionSchema),
    is_active: Type.Boolean({ default: true, description: 'False once revoked or expired.' }),
    rotated_to_id: Nullable(
      Type.Integer({
        description:
          'Set once the key was rotated: the id of the key that replaced it. The rotated key works until `expires_at` (its grace period), cannot create keys and cannot be rotated again.',
      }),
    ),
  },
  { $id: 'ApiKey', title: 'ApiKey' },
);

export const ApiKeyCreateResponseSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    api_key: Nullable(
      Type.String({ description: 'The key itself (`cw_` + 40 characters). Shown only in this response.' }),
    ),
    prefix: Nullable(Type.String()),
    created_at: Nullable(DateTime()),
    expires_at: Nullable(DateTime()),
    permissions: Type.Array(PermissionSchema),
  },
  { $id: 'ApiKeyCreateResponse', title: 'ApiKeyCreateResponse' },
);

export const ApiKeyListResponseSchema = Type.Object(
  { keys: Type.Array(ApiKeySchema) },
  { title: 'ApiKeyListResponse' },
);

export const CreateKeyBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  permissions: Type.Optional(
    Type.Array(PermissionSchema, {
      maxItems: 4,
      uniqueItems: true,
      description:
        'Absent or empty (`[]`, what the upstream SDK sends) means the default `["read","write"]`. ' +
        'Never wider than the creating key (403 `permission_escalation`), the default included.',
    }),
  ),
  expires_at: Type.Optional(DateTime({ description: 'When the key stops working; must be in the future.' })),
});

export const RotateKeyBody = StrictObject({
  grace_period_seconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 604_800,
      default: 86_400,
      description: 'How long the old key keeps working (default 1 day, at most 7 days).',
    }),
  ),
});

export const KeyIdParams = IdParam('key_id', 'The API key id.');
export const UserIdParams = IdParam('id', 'The user id.');

export const UserProfileSchema = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    full_name: Nullable(Type.String()),
    is_active: Type.Boolean(),
    organization_role: Type.String(),
    subscription: Type.Object({
      plan_name: Type.String(),
      status: Type.String(),
      current_period_end: Nullable(DateTime()),
      cancel_at_period_end: Type.Boolean(),
    }),
    created_at: Nullable(DateTime()),
  },
  { $id: 'UserProfile', title: 'UserProfile' },
);

export const AuditLogQuery = StrictObject({ ...Pagination });
export const AuditLogResponse = Type.Object({
  entries: Type.Array(
    Type.Object({
      id: Type.Integer(),
      action: Type.String({ examples: ['api_key.created'] }),
      target_type: Type.String(),
      target_id: Nullable(Type.String()),
      detail: Nullable(Type.String()),
      request_id: Nullable(Type.String()),
      created_at: DateTime(),
    }),
  ),
  meta: PageMeta,
});

const ApiUsageSummary = Type.Object(
  {
    plan_daily_limit: Type.Optional(
      Nullable(Type.Integer({ description: 'Null on plans without a daily quota.' })),
    ),
    requests_today: Type.Optional(Nullable(Type.Integer())),
    remaining_today: Type.Optional(Nullable(Type.Integer())),
    total_requests_last_30_days: Type.Optional(Nullable(Type.Integer())),
    cost_estimated_today: Type.Optional(Nullable(Type.Number({ description: 'USD, 4 decimals.' }))),
  },
  { title: 'ApiUsageSummary' },
);

export const ApiUsageResponseSchema = Type.Object(
  {
    summary: Type.Optional(Nullable(ApiUsageSummary)),
    daily_usage: Type.Optional(
      Type.Array(
        Type.Object(
          { date: Type.String({ format: 'date' }), request_count: Type.Integer() },
          { title: 'ApiUsageDaily' },
        ),
        {
          description: 'The last 30 UTC days, oldest first.',
        },
      ),
    ),
    total_requests_last_30_days: Type.Optional(Nullable(Type.Integer())),
    cost_estimated_today: Type.Optional(Nullable(Type.Number())),
  },
  { title: 'ApiUsageResponse' },
);

const PLAN_TERMS = {
  daily_quota: Nullable(Type.Integer({ description: 'Counted requests per UTC day; null = unlimited.' })),
  burst_per_second: Type.Integer({ description: 'Requests per second per key.' }),
  insight_generations_per_month: Nullable(
    Type.Integer({ description: 'AI insight generations per UTC calendar month; null = unlimited.' }),
  ),
  live_stream: Type.Boolean({ description: 'Whether the plan may open the live WebSocket stream.' }),
  price_per_1k_requests: Type.Number({ description: 'USD per 1,000 counted requests.' }),
};

const PerRequestPrice = Type.Null({
  description:
    'Always null: Crestwatch plans have no subscription price; they are priced per request ' +
    '(`price_per_1k_requests`).',
});

const SubscriptionPlanSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Stable: 1 developer, 2 advantage, 3 scale, 4 enterprise.' }),
    name: PlanNameSchema,
    description: Type.String({ description: "A sentence summarising the plan's terms." }),
    price_monthly: PerRequestPrice,
    price_yearly: PerRequestPrice,
    is_custom: Type.Boolean({
      description: "True when the operator's `PLANS` setting changed this plan's terms from the defaults.",
    }),
    features: Type.Object(PLAN_TERMS, { description: "The plan's terms." }),
    ...PLAN_TERMS,
  },
  { title: 'SubscriptionPlan' },
);
export const PlansResponse = Type.Array(SubscriptionPlanSchema, {
  description: 'Every plan, in the order developer, advantage, scale, enterprise.',
});

export const AdminCreateUserBody = StrictObject({
  email: Type.String({ format: 'email', maxLength: 320 }),
  full_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  plan: PlanNameSchema,
});
export const AdminUpdateUserBody = StrictObject(
  { plan: Type.Optional(PlanNameSchema), is_active: Type.Optional(Type.Boolean()) },
  { minProperties: 1 },
);
export const AdminListUsersQuery = StrictObject({ ...Pagination });
export const AdminUserListResponse = Type.Object({ users: Type.Array(UserProfileSchema), meta: PageMeta });
export const AdminCreateKeyBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  permissions: CreateKeyBody.properties.permissions,
  expires_at: CreateKeyBody.properties.expires_at,
});
