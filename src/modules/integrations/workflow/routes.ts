// /api/integrations/workflow/*: connect (4), workflows (5), selection (6), push (7), status, deliveries and
// disconnect.

import { actorOf } from '../../../platform/audit.ts';
import { requirePrincipal } from '../../../platform/auth.ts';
import type { App } from '../../../platform/http.ts';
import { NoContent } from '../../../platform/schemas.ts';
import {
  ConnectBody,
  ConnectResponse,
  DeliveriesQuery,
  DeliveriesResponse,
  PushBody,
  PushResponse,
  SelectionBody,
  SelectionResponse,
  StatusResponse,
  WorkflowListResponse,
} from './schemas.ts';
import type { WorkflowService } from './service.ts';

const tags = ['integrations'];

export async function workflowRoutes(app: App, { workflow }: { workflow: WorkflowService }): Promise<void> {
  app.post(
    '/api/integrations/workflow/connect',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Connect the workflow tool (n8n)',
        description:
          'Checks the key against the tool (`GET {api_base_url}/api/v1/workflows?limit=1` with `X-N8N-API-KEY`) ' +
          'before saving it encrypted. A refused key → 400 `workflow_key_refused` naming the HTTP status the tool ' +
          'answered; an unreachable tool → 503 `workflow_unreachable`; a private address outside ' +
          '`OUTBOUND_ALLOWLIST` → 400 `destination_not_allowed`. Returns the signing secret of pushes once. ' +
          'Connecting again replaces the key and the secret (the selection is kept when the address is the same).',
        body: ConnectBody,
        response: { 200: ConnectResponse },
      },
    },
    async (request) => workflow.connect(actorOf(requirePrincipal(request), request.id), request.body),
  );

  app.get(
    '/api/integrations/workflow/status',
    {
      config: { access: { permission: 'read' } },
      schema: {
        tags,
        summary: 'Your workflow connection and selection',
        description: 'Never shows the key or the signing secret.',
        response: { 200: StatusResponse },
      },
    },
    async (request) => workflow.status(requirePrincipal(request).userId),
  );

  app.get(
    '/api/integrations/workflow/workflows',
    {
      config: { access: { permission: 'read' } },
      schema: {
        tags,
        summary: "The workflow tool's workflows",
        description:
          'Read from the tool (`GET /api/v1/workflows`, following `nextCursor` up to 1,000 workflows). Not connected ' +
          '→ 409 `workflow_not_connected`; a key the tool no longer accepts → 400 `workflow_key_refused`; ' +
          'unreachable → 503.',
        response: { 200: WorkflowListResponse },
      },
    },
    async (request) => workflow.workflows(requirePrincipal(request).userId),
  );

  app.put(
    '/api/integrations/workflow/selection',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Select the workflow that receives pushes',
        description:
          '`api_base_url` must equal the connected address (400 `api_base_url_mismatch` otherwise; the stored key ' +
          'is never sent anywhere else). The workflow is read from the tool and must have an enabled Webhook ' +
          'trigger node accepting POST (400 naming `workflow_id` otherwise); pushes go to its production URL ' +
          '`{api_base_url}/webhook/{path}`. `default_event` chooses what is pushed automatically.',
        body: SelectionBody,
        response: { 200: SelectionResponse },
      },
    },
    async (request) => workflow.select(requirePrincipal(request).userId, request.body),
  );

  app.post(
    '/api/integrations/workflow/push',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Push an event to the selected workflow',
        description:
          'POSTs `{event, data, sent_at}` (plus `metadata` when the connection has `include_metadata`) to the ' +
          "selected workflow's Webhook trigger, signed with the connection's signing secret like webhook " +
          'deliveries (`webhook-id` = `execution_id`). `delivered` is false when the trigger answered other than ' +
          '2xx (`status_code` says what); an unreachable tool → 503. With `gate`, answers 409 `blocked_by_crisis` ' +
          'while you have an active crisis event of severity high or critical for that trend (unknown trend → ' +
          '404). Not connected or nothing selected → 409.',
        body: PushBody,
        response: { 200: PushResponse },
      },
    },
    async (request) => workflow.push(requirePrincipal(request).userId, request.body),
  );

  app.get(
    '/api/integrations/workflow/deliveries',
    {
      config: { access: { permission: 'read' } },
      schema: {
        tags,
        summary: 'Recent pushes, manual and automatic',
        querystring: DeliveriesQuery,
        response: { 200: DeliveriesResponse },
      },
    },
    async (request) => workflow.deliveries(requirePrincipal(request).userId, request.query.limit ?? 20),
  );

  app.delete(
    '/api/integrations/workflow/connection',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags,
        summary: 'Disconnect the workflow tool',
        description:
          'Forgets the key, the signing secret and the selection (n8n offers no key revocation: revoke the key ' +
          'in n8n too if it should stop working). 404 when nothing is connected.',
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await workflow.disconnect(actorOf(requirePrincipal(request), request.id));
      return reply.code(204).send(null);
    },
  );
}
