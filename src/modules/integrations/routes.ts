// Every route of the OAuth integrations.
import type { App } from '../../platform/http.ts';
import { adsRoutes } from './ads/routes.ts';
import type { AdsService } from './ads/service.ts';
import { callbackRoutes } from './callbacks.ts';
import { chatRoutes } from './chat/routes.ts';
import type { ChatService } from './chat/service.ts';
import { forumAdsRoutes } from './forum-ads/routes.ts';
import type { ForumAdsService } from './forum-ads/service.ts';
import type { OAuthService } from './oauth.ts';

/** The services these routes call (index.ts builds them; naming them here keeps index.ts → routes.ts one-way). */
export interface IntegrationServices {
  oauth: OAuthService;
  chat: ChatService;
  forumAds: ForumAdsService;
  ads: AdsService;
}

export async function integrationRoutes(
  app: App,
  { integrations }: { integrations: IntegrationServices },
): Promise<void> {
  await chatRoutes(app, integrations.oauth, integrations.chat);
  await forumAdsRoutes(app, integrations.oauth, integrations.forumAds);
  await adsRoutes(app, integrations.oauth, integrations.ads);
  await callbackRoutes(app, integrations.oauth);
}
