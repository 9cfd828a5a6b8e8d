// The notifications module's public entry.
export { createNotificationsModule, type NotificationsModule } from './module.ts';
export { NotificationsService } from './service.ts';
