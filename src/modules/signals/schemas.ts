// POST /api/signals: one signal per item; items are validated one by one so a batch can partly succeed.
import Type from 'typebox';
import { DateTime, Nullable, StrictObject } from '../../platform/schemas.ts';

export const MAX_BATCH = 1000;

export const SignalInput = StrictObject(
  {
    source: Type.String({
      minLength: 1,
      maxLength: 32,
      pattern: '^[a-z0-9][a-z0-9_.-]*$',
      description: 'Platform, e.g. reddit, x, news, hackernews, bluesky, search (lowercase).',
    }),
    external_id: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The item id at the source; dedup key with `source`.',
    }),
    text: Type.String({ minLength: 1, maxLength: 10_000 }),
    title: Type.Optional(Type.String({ maxLength: 500 })),
    url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://' })),
    author: Type.Optional(Type.String({ maxLength: 200 })),
    observed_at: Type.Optional(DateTime({ description: 'When the item was published; defaults to now.' })),
    lang: Type.Optional(
      Type.String({ minLength: 2, maxLength: 16, pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$' }),
    ),
    location: Type.Optional(Type.String({ maxLength: 200 })),
    category: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'A category hint: a taxonomy name or slug (`Technology/AI`, `sports`), a section name (`Business`) or a ' +
          'subreddit (`r/soccer`). New trends from this signal are filed under it when it resolves to the ' +
          'taxonomy; otherwise it is ignored and the keyword lexicons decide.',
      }),
    ),
    keywords: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
    engagement: Type.Optional(
      StrictObject({
        likes: Type.Optional(Type.Integer({ minimum: 0 })),
        shares: Type.Optional(Type.Integer({ minimum: 0 })),
        comments: Type.Optional(Type.Integer({ minimum: 0 })),
        views: Type.Optional(Type.Integer({ minimum: 0 })),
      }),
    ),
  },
  { title: 'SignalInput' },
);

export const IngestBody = StrictObject({
  signals: Type.Array(SignalInput, {
    minItems: 1,
    maxItems: MAX_BATCH,
    description: 'Up to 1,000 signals. Invalid items are listed in `rejected`; the others are stored.',
  }),
});

export const IngestResponse = Type.Object({
  accepted: Type.Integer({ description: 'New signals stored.' }),
  duplicates: Type.Integer({
    description: 'Signals already stored (same source and external_id), counted once.',
  }),
  rejected: Type.Array(Type.Object({ index: Type.Integer(), detail: Type.String() }), {
    description: 'Items refused, by their index in `signals`, with the reason.',
  }),
});

export const SourceListResponse = Type.Object(
  {
    sources: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          attribution: Type.String({ description: 'Who the data comes from; show it with the data.' }),
          licence_url: Nullable(
            Type.String({ description: 'The terms the data is used under, when published.' }),
          ),
          coverage: Type.String(),
          status: Type.Enum(['pending', 'healthy', 'degraded'], {
            description: '`pending` before the first attempt; `degraded` while the last attempt failed.',
          }),
          last_attempt_at: Nullable(DateTime()),
          last_success_at: Nullable(DateTime()),
          observation_count: Type.Integer({ description: 'New signals stored from the source so far.' }),
          fetch_duration_ms: Nullable(Type.Integer()),
          last_error: Nullable(
            Type.String({ description: 'Why the last attempt failed (status code, no body).' }),
          ),
        },
        { title: 'SignalSource' },
      ),
    ),
  },
  { title: 'SourceListResponse' },
);
