// The notifications module's routes.
import type { App } from '../../platform/http.ts';
import type { NotificationsService } from './service.ts';

export async function notificationRoutes(
  _app: App,
  _options: { notifications: NotificationsService },
): Promise<void> {}
