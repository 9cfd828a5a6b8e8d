// The notifications module: the in-app feed fed by domain events (its service subscribes to them) and the
// dashboard overview.
import { type Module, routes } from '../../platform/module.ts';
import { notificationRoutes } from './routes.ts';
import { NotificationsService } from './service.ts';

type NotificationsModuleDeps = ConstructorParameters<typeof NotificationsService>[0];

export type NotificationsModule = Module<{ notifications: NotificationsService }, 'notifications'>;

export function createNotificationsModule(deps: NotificationsModuleDeps): NotificationsModule {
  const notifications = new NotificationsService(deps);
  return {
    api: { notifications },
    routes: { notifications: routes(notificationRoutes, { notifications }) },
  };
}
