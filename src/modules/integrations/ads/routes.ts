// /api/integrations/ads/*: providers, per-platform OAuth and selection, targeting preview, apply, rollback.

import { actorOf } from '../../../platform/audit.ts';
import { requirePrincipal } from '../../../platform/auth.ts';
import type { App } from '../../../platform/http.ts';
import { NoContent } from '../../../platform/schemas.ts';
import { AuthResponse } from '../chat/schemas.ts';
import type { OAuthService } from '../oauth.ts';
import {
  AdsSelection,
  AdsSelectionBody,
  ApplyBody,
  ApplyResponse,
  PlatformParams,
  PreviewBody,
  PreviewResponse,
  ProvidersResponse,
  RollbackBody,
  RollbackResponse,
} from './schemas.ts';
import type { AdsService } from './service.ts';

const tags = ['integrations'];

export async function adsRoutes(app: App, oauth: OAuthService, ads: AdsService): Promise<void> {
  app.get(
    '/api/integrations/ads/providers',
    {
      config: { access: { permission: 'read' } },
      schema: {
        tags,
        summary: 'Ad providers and whether you connected them',
        response: { 200: ProvidersResponse },
      },
    },
    async (request) => ads.providers(requirePrincipal(request).userId),
  );

  app.get(
    '/api/integrations/ads/:platform/auth',
    {
      config: { access: { permission: 'read' } },
      schema: {
        tags,
        summary: 'Start connecting an ad provider',
        description:
          'The provider redirects to `/api/integrations/ads/{platform}/callback`. Unknown platform → 404; 503 ' +
          '`integration_not_configured` without SOCIAL_ADS_APP_ID / SOCIAL_ADS_APP_SECRET.',
        params: PlatformParams,
        response: { 200: AuthResponse },
      },
    },
    async (request) => oauth.start(requirePrincipal(request).userId, ads.platform(request.params.platform)),
  );

  app.put(
    '/api/integrations/ads/:platform/selection',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Choose the ad account, ad sets, trend category and safety mode',
        params: PlatformParams,
        body: AdsSelectionBody,
        response: { 200: AdsSelection },
      },
    },
    async (request) =>
      ads.saveSelection(requirePrincipal(request).userId, request.params.platform, request.body),
  );

  app.post(
    '/api/integrations/ads/social_ads/preview',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Preview targeting built from a trend’s insight',
        description:
          'Reads each selected ad set’s targeting, looks the insight’s `audience_injection.interest_keywords` up ' +
          'in the provider’s interest search (they become the one `flexible_spec` group) and its ' +
          '`negative_keywords` too (added to `exclusions.interests`); everything else is kept. Blocked, with ' +
          'reasons, when the trend is outside the selected category, has no insight, is not brand-safe while ' +
          '`strict_safety` is on, or is gated by an active crisis event (severity ≥ high). Expires after 30 minutes.',
        body: PreviewBody,
        response: { 200: PreviewResponse },
      },
    },
    async (request) => ads.preview(requirePrincipal(request).userId, request.body.trend_id),
  );

  app.post(
    '/api/integrations/ads/social_ads/apply',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Apply a preview exactly once',
        description:
          'Writes each ad set’s previewed `after`, keeping `before` for rollback. A repeat returns the first result. ' +
          '409 `preview_blocked`, `preview_expired`, or `targeting_changed` (an ad set no longer matches the ' +
          'preview’s `before`: nothing is written). Written to the audit log.',
        body: ApplyBody,
        response: { 200: ApplyResponse },
      },
    },
    async (request) =>
      ads.apply(actorOf(requirePrincipal(request), String(request.id)), request.body.preview_id),
  );

  app.post(
    '/api/integrations/ads/:platform/rollback',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Restore the targeting an apply replaced',
        description:
          'Writes each ad set’s `before` back. A repeat returns the same result. Written to the audit log.',
        params: PlatformParams,
        body: RollbackBody,
        response: { 200: RollbackResponse },
      },
    },
    async (request) =>
      ads.rollback(
        actorOf(requirePrincipal(request), String(request.id)),
        request.params.platform,
        request.body.apply_id,
      ),
  );

  app.delete(
    '/api/integrations/ads/:platform/connection',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Disconnect an ad provider',
        description:
          'Forgets the stored token and revokes the app’s permissions at the provider. 404 when not connected.',
        params: PlatformParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const platform = ads.platform(request.params.platform);
      await oauth.disconnect(actorOf(requirePrincipal(request), String(request.id)), platform);
      return reply.code(204).send(null);
    },
  );
}
