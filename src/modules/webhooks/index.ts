// The webhooks module's public entry: its factory, and the webhook payloads' section of the OpenAPI document.
export { createWebhooksModule, type WebhooksModule } from './module.ts';
export { webhookEventsDocument } from './openapi.ts';
export { WebhooksService } from './service.ts';
