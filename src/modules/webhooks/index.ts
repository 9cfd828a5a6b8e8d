// The webhooks module's public entry: what the composition root builds, registers and wires.
export { webhookEventsDocument } from './openapi.ts';
export { webhookRoutes } from './routes.ts';
export { WebhooksService } from './service.ts';
export { WebhooksStore } from './store.ts';
export { registerWebhookHandlers } from './wiring.ts';
