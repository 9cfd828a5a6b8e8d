// The notifications module's public entry.
export { notificationRoutes } from './routes.ts';
export { NotificationsService } from './service.ts';
