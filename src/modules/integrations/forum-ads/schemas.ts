import Type from 'typebox';
import { DateTime, Nullable, StrictObject } from '../../../platform/schemas.ts';

const Id = (description: string) =>
  Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$', description });

export const ForumAdsSelection = Type.Object(
  {
    account_id: Id('The ad account id.'),
    pixel_id: Id('The pixel conversions are sent to.'),
    event_name: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Default event name, e.g. `Purchase`, `Lead`, `SignUp`, or a custom name.',
    }),
  },
  { title: 'ForumAdsSelection' },
);

export const ForumAdsSelectionBody = StrictObject(ForumAdsSelection.properties);

export const ForumAdsPushBody = StrictObject({
  event_name: Type.String({
    minLength: 1,
    maxLength: 100,
    description:
      'A standard tracking type (PageVisit, ViewContent, Search, AddToCart, AddToWishlist, Purchase, Lead, ' +
      'SignUp; any case) or a custom event name.',
  }),
  data: Type.Object(
    {
      value: Type.Number({ minimum: 0, maximum: 1e12, description: 'Conversion value (≥ 0).' }),
      currency: Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217 code, e.g. `USD`.' }),
      item_count: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    },
    {
      additionalProperties: true,
      description:
        'Free-form; `value`, `currency` and `item_count` are sent to the provider, other keys are kept here.',
    },
  ),
});

export const QueuedResponse = Type.Object({ id: Type.Integer(), status: Type.Literal('queued') });

export const DeliveriesQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) },
  { additionalProperties: false },
);

export const DeliveryList = Type.Object({
  deliveries: Type.Array(
    Type.Object({
      id: Type.Integer(),
      event_name: Type.String(),
      status: Type.Enum(['queued', 'delivered', 'failed']),
      attempts: Type.Integer(),
      response_status: Nullable(Type.Integer()),
      error: Nullable(Type.String()),
      created_at: DateTime(),
      delivered_at: Nullable(DateTime()),
    }),
  ),
});

export const ForumAdsStatus = Type.Object(
  {
    is_active: Type.Boolean({
      description: 'Connected and the token works (false when not connected or broken).',
    }),
    connected: Type.Boolean({ description: 'Tokens are stored (true also while broken).' }),
    account_id: Nullable(Type.String()),
    pixel_id: Nullable(Type.String()),
    event_name: Nullable(Type.String()),
  },
  { title: 'ForumAdsStatus' },
);
