// /api/integrations/chat/*: OAuth start, channels, alert channel, settings, status (also at upstream's
// /api/integrations/slack/status), disconnect.

import { actorOf } from '../../../platform/audit.ts';
import { requirePrincipal } from '../../../platform/auth.ts';
import type { App } from '../../../platform/http.ts';
import { NoContent } from '../../../platform/schemas.ts';
import type { OAuthService } from '../oauth.ts';
import {
  AuthResponse,
  ChannelList,
  ChatSettings,
  ChatSettingsBody,
  ChatStatus,
  SaveChannelBody,
} from './schemas.ts';
import type { ChatService } from './service.ts';

const tags = ['integrations'];

export async function chatRoutes(app: App, oauth: OAuthService, chat: ChatService): Promise<void> {
  app.get(
    '/api/integrations/chat/auth',
    {
      config: { access: { permission: 'read' } },
      schema: {
        tags,
        summary: 'Start connecting the team chat tool',
        description:
          'Returns the provider’s authorization URL (OAuth v2) and its `state`. After the user authorises in a ' +
          'browser, the provider redirects to `/api/integrations/chat/callback`, which asks them to confirm. ' +
          '503 `integration_not_configured` when the operator has not set CHAT_CLIENT_ID / CHAT_CLIENT_SECRET.',
        response: { 200: AuthResponse },
      },
    },
    async (request) => oauth.start(requirePrincipal(request).userId, 'chat'),
  );

  app.get(
    '/api/integrations/chat/channels',
    {
      config: { access: { permission: 'read' } },
      schema: {
        tags,
        summary: 'Channels the connected chat workspace offers',
        description:
          'Read from the chat tool (every page). 409 `integration_not_connected` before connecting; 400 with the ' +
          'tool’s reason when it refuses (a revoked token marks the connection broken); 503 when unreachable or ' +
          'rate limited.',
        response: { 200: ChannelList },
      },
    },
    async (request) => chat.channels(requirePrincipal(request).userId),
  );

  app.post(
    '/api/integrations/chat/save-channel',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Save the channel alerts are posted to',
        body: SaveChannelBody,
        response: { 200: ChatStatus },
      },
    },
    async (request) => chat.saveChannel(requirePrincipal(request).userId, request.body),
  );

  app.put(
    '/api/integrations/chat/settings',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Alert settings',
        description:
          '`new_trend_alerts`: post when a trend’s velocity_score crosses one of 25/50/75/90 at or above ' +
          '`velocity_threshold`, or when a trend at or above it changes lifecycle stage. `crisis_alerts`: post ' +
          'your crisis events (opened, escalated, subsided) of at least `min_severity`. Defaults before the first ' +
          'save: true, true, high, 75.',
        body: ChatSettingsBody,
        response: { 200: ChatSettings },
      },
    },
    async (request) => chat.saveSettings(requirePrincipal(request).userId, request.body),
  );

  const statusDescription =
    '`is_active` is false when not connected, and also when the chat tool revoked the token (then ' +
    '`team_name` is still set: connect again).';
  // Upstream (TrendsAGI) names this route after Slack; its SDK calls that path.
  for (const [url, summary, description] of [
    ['/api/integrations/chat/status', 'What is connected', statusDescription],
    [
      '/api/integrations/slack/status',
      'What is connected (upstream alias)',
      'The upstream (TrendsAGI) name of `GET /api/integrations/chat/status`: the same answer. ' +
        statusDescription,
    ],
  ]) {
    app.get(
      url,
      {
        config: { access: { permission: 'read' } },
        schema: { tags, summary, description, response: { 200: ChatStatus } },
      },
      async (request) => chat.status(requirePrincipal(request).userId),
    );
  }

  app.delete(
    '/api/integrations/chat/connection',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Disconnect the chat tool',
        description:
          'Forgets the stored token and revokes it at the chat tool (`auth.revoke`). 404 when not connected.',
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await oauth.disconnect(actorOf(requirePrincipal(request), String(request.id)), 'chat');
      return reply.code(204).send(null);
    },
  );
}
