import Type from 'typebox';
import { Nullable, StrictObject } from '../../../platform/schemas.ts';
import { SEVERITIES } from '../../alerts/index.ts';

export const AuthResponse = Type.Object(
  {
    authorization_url: Type.String({ description: 'Open this in a browser to authorise the provider.' }),
    state: Type.String({ description: 'Random, single use, valid for 10 minutes; echoed to the callback.' }),
  },
  { title: 'OAuthAuthorization' },
);

export const ChannelList = Type.Object({
  channels: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), is_private: Type.Boolean() })),
});

export const SaveChannelBody = StrictObject({
  channel_id: Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[A-Za-z0-9_-]+$',
    examples: ['C0123ABCDEF'],
  }),
  channel_name: Type.String({ minLength: 1, maxLength: 200 }),
});

export const ChatSettings = Type.Object(
  {
    new_trend_alerts: Type.Boolean({
      description: 'Post when a trend crosses `velocity_threshold` or changes stage.',
    }),
    crisis_alerts: Type.Boolean({ description: 'Post your crisis events of at least `min_severity`.' }),
    min_severity: Type.Enum([...SEVERITIES]),
    velocity_threshold: Type.Number({ minimum: 0, maximum: 100, description: 'velocity_score (0–100).' }),
  },
  { title: 'ChatSettings' },
);

export const ChatSettingsBody = StrictObject(ChatSettings.properties);

export const ChatStatus = Type.Object(
  {
    is_active: Type.Boolean({
      description: 'Connected and the token works (false when not connected or broken).',
    }),
    team_name: Nullable(Type.String()),
    channel: Nullable(Type.String({ description: 'The saved alert channel’s name.' })),
    channel_id: Nullable(Type.String()),
    configuration_url: Nullable(Type.String()),
    new_trend_alerts: Type.Boolean(),
  },
  { title: 'ChatStatus' },
);
