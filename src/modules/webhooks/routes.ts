// /api/integrations/webhooks: subscriptions, secret rotation, test sends, executions and redelivery.

import { actorOf } from '../../platform/audit.ts';
import { requirePrincipal } from '../../platform/auth.ts';
import type { App } from '../../platform/http.ts';
import { NoContent } from '../../platform/schemas.ts';
import {
  CreateWebhookBody,
  ExecutionListResponse,
  ExecutionParams,
  ExecutionSchema,
  ExecutionsQuery,
  SecretResponse,
  UpdateWebhookBody,
  WebhookCreatedSchema,
  WebhookIdParams,
  WebhookListResponse,
  WebhookSubscriptionSchema,
} from './schemas.ts';
import type { WebhooksService } from './service.ts';

const tags = ['webhooks'];
const read = { access: { permission: 'read' as const } };
const write = { access: { permission: 'write' as const } };

export async function webhookRoutes(app: App, { webhooks }: { webhooks: WebhooksService }): Promise<void> {
  app.post(
    '/api/integrations/webhooks',
    {
      config: write,
      schema: {
        tags,
        summary: 'Subscribe a URL to alerts',
        description:
          'Deliveries are signed POSTs (Standard Webhooks headers and `X-Webhook-Signature`), retried with ' +
          'exponential backoff for up to 24 h. The `secret` is returned only here. The URL must pass the ' +
          'outbound guard (400 `destination_not_allowed`). At most 100 subscriptions per user.',
        body: CreateWebhookBody,
        response: { 201: WebhookCreatedSchema },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const created = await webhooks.create(principal.userId, actorOf(principal, request.id), request.body);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/integrations/webhooks',
    {
      config: read,
      schema: { tags, summary: 'Your webhook subscriptions', response: { 200: WebhookListResponse } },
    },
    async (request) => webhooks.list(requirePrincipal(request).userId),
  );

  app.patch(
    '/api/integrations/webhooks/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a webhook subscription',
        description:
          'Any of `url`, `threshold_value`, `cooldown_seconds`, `filters`, `is_active`; ' +
          're-enabling resets `failure_count`.',
        params: WebhookIdParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookSubscriptionSchema },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      return webhooks.update(
        principal.userId,
        actorOf(principal, request.id),
        request.params.id,
        request.body,
      );
    },
  );

  app.delete(
    '/api/integrations/webhooks/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a webhook subscription',
        description: 'Pending retries are dropped; later calls for this id → 404.',
        params: WebhookIdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      await webhooks.remove(principal.userId, actorOf(principal, request.id), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/integrations/webhooks/:id/rotate-secret',
    {
      config: { ...write, optionalBody: true },
      schema: {
        tags,
        summary: 'Rotate the signing secret',
        description:
          'Returns the new secret once. For 24 h every delivery carries signatures from both the new and ' +
          'the previous secret (new first), so receivers can switch at their pace.',
        params: WebhookIdParams,
        response: { 201: SecretResponse },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const result = await webhooks.rotateSecret(
        principal.userId,
        actorOf(principal, request.id),
        request.params.id,
      );
      return reply.code(201).send(result);
    },
  );

  app.post(
    '/api/integrations/webhooks/:id/test',
    {
      config: { ...write, optionalBody: true },
      schema: {
        tags,
        summary: 'Send a test delivery now',
        description:
          'Sends `{id, event: "webhook.test", sample}` (a fixed `trend.alert.created` body) synchronously, ' +
          'signed like every delivery; the same subscription always gets the same bytes. Returns the ' +
          'execution; a test is never retried and does not count towards disabling the subscription.',
        params: WebhookIdParams,
        response: { 200: ExecutionSchema },
      },
    },
    async (request) => webhooks.test(requirePrincipal(request).userId, request.params.id),
  );

  app.get(
    '/api/integrations/webhooks/:id/executions',
    {
      config: read,
      schema: {
        tags,
        summary: 'Delivery attempts, newest first',
        description:
          'One row per attempt: `pending` (scheduled, see `next_attempt_at`), `succeeded` or `failed`.',
        params: WebhookIdParams,
        querystring: ExecutionsQuery,
        response: { 200: ExecutionListResponse },
      },
    },
    async (request) =>
      webhooks.executions(requirePrincipal(request).userId, request.params.id, request.query.limit ?? 20),
  );

  app.post(
    '/api/integrations/webhooks/:id/executions/:execution_id/redeliver',
    {
      config: { ...write, optionalBody: true },
      schema: {
        tags,
        summary: 'Send an execution’s event again',
        description:
          'Queues a new attempt of the same body with the same `webhook-id` (retried like any delivery) ' +
          'and returns it as a pending execution. A disabled subscription → 409 `webhook_inactive`.',
        params: ExecutionParams,
        response: { 202: ExecutionSchema },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const execution = await webhooks.redeliver(
        principal.userId,
        request.params.id,
        request.params.execution_id,
      );
      return reply.code(202).send(execution);
    },
  );
}
