// /api/integrations/forum-ads/*: OAuth start, selection, conversion pushes and their deliveries.

import { actorOf } from '../../../platform/audit.ts';
import { requirePrincipal } from '../../../platform/auth.ts';
import type { App } from '../../../platform/http.ts';
import { NoContent } from '../../../platform/schemas.ts';
import { AuthResponse } from '../chat/schemas.ts';
import type { OAuthService } from '../oauth.ts';
import {
  DeliveriesQuery,
  DeliveryList,
  ForumAdsPushBody,
  ForumAdsSelection,
  ForumAdsSelectionBody,
  ForumAdsStatus,
  QueuedResponse,
} from './schemas.ts';
import type { ForumAdsService } from './service.ts';

const tags = ['integrations'];

export async function forumAdsRoutes(
  app: App,
  oauth: OAuthService,
  forumAds: ForumAdsService,
): Promise<void> {
  app.get(
    '/api/integrations/forum-ads/auth',
    {
      config: { access: { permission: 'read' } },
      schema: {
        tags,
        summary: 'Start connecting the forum ads platform',
        description:
          'OAuth 2.0 code flow with PKCE (S256) and a permanent grant (refresh token). The provider redirects to ' +
          '`/api/integrations/forum-ads/callback`. 503 `integration_not_configured` without FORUM_ADS_CLIENT_ID / ' +
          'FORUM_ADS_CLIENT_SECRET.',
        response: { 200: AuthResponse },
      },
    },
    async (request) => oauth.start(requirePrincipal(request).userId, 'forum_ads'),
  );

  app.put(
    '/api/integrations/forum-ads/selection',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Choose the ad account, pixel and default event',
        description: '409 `integration_not_connected` before the authorization is complete.',
        body: ForumAdsSelectionBody,
        response: { 200: ForumAdsSelection },
      },
    },
    async (request) => forumAds.saveSelection(requirePrincipal(request).userId, request.body),
  );

  app.post(
    '/api/integrations/forum-ads/push',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Queue a conversion event',
        description:
          'Answers 202 at once; the job worker sends the event to the selected pixel’s conversions API ' +
          '(`POST /api/v3/pixels/{pixel_id}/conversion_events`), retrying network errors, 429 (after ' +
          '`Retry-After`) and 5xx with backoff. Every attempt carries the same `metadata.conversion_id`, so the ' +
          'provider counts the conversion once. Follow it at `GET /api/integrations/forum-ads/deliveries`.',
        body: ForumAdsPushBody,
        response: { 202: QueuedResponse },
      },
    },
    async (request, reply) => {
      const queued = await forumAds.push(requirePrincipal(request).userId, request.body);
      return reply.code(202).send(queued);
    },
  );

  app.get(
    '/api/integrations/forum-ads/deliveries',
    {
      config: { access: { permission: 'read' } },
      schema: {
        tags,
        summary: 'Conversion deliveries, newest first',
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList },
      },
    },
    async (request) => forumAds.deliveries(requirePrincipal(request).userId, request.query.limit ?? 20),
  );

  app.get(
    '/api/integrations/forum-ads/status',
    {
      config: { access: { permission: 'read' } },
      schema: { tags, summary: 'What is connected, and the selection', response: { 200: ForumAdsStatus } },
    },
    async (request) => forumAds.status(requirePrincipal(request).userId),
  );

  app.delete(
    '/api/integrations/forum-ads/connection',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Disconnect the forum ads platform',
        description:
          'Forgets the stored tokens and revokes the grant at the provider. 404 when not connected.',
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await oauth.disconnect(actorOf(requirePrincipal(request), String(request.id)), 'forum_ads');
      return reply.code(204).send(null);
    },
  );
}
