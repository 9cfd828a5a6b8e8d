// Every route of the OAuth integrations.
import type { App } from '../../platform/http.ts';
import { adsRoutes } from './ads/routes.ts';
import { callbackRoutes } from './callbacks.ts';
import { chatRoutes } from './chat/routes.ts';
import { forumAdsRoutes } from './forum-ads/routes.ts';
import type { Integrations } from './index.ts';

export async function integrationRoutes(
  app: App,
  { integrations }: { integrations: Integrations },
): Promise<void> {
  await chatRoutes(app, integrations.oauth, integrations.chat);
  await forumAdsRoutes(app, integrations.oauth, integrations.forumAds);
  await adsRoutes(app, integrations.oauth, integrations.ads);
  await callbackRoutes(app, integrations.oauth);
}
