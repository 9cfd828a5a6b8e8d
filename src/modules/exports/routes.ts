// /api/user/export: scheduled export configurations, run-now and the run history (upstream's paths and shapes).
import { actorOf } from '../../platform/audit.ts';
import { requirePrincipal } from '../../platform/auth.ts';
import type { App } from '../../platform/http.ts';
import { NoContent } from '../../platform/schemas.ts';
import {
  ExportConfigList,
  ExportConfigParams,
  ExportConfigSchema,
  ExportHistoryListResponse,
  ExportRunResponse,
  HistoryQuery,
  SaveExportBody,
} from './schemas.ts';
import type { ExportsService } from './service.ts';

const tags = ['exports'];
const read = { access: { permission: 'read' as const } };
const write = { access: { permission: 'write' as const } };

export async function exportRoutes(
  app: App,
  { dataExports }: { dataExports: ExportsService },
): Promise<void> {
  app.addSchema(ExportConfigSchema);
  const exportConfig = { $ref: 'ExportConfig#' } as unknown as typeof ExportConfigSchema;

  app.get(
    '/api/user/export/settings',
    {
      config: read,
      schema: {
        tags,
        summary: 'Your scheduled exports',
        description:
          'Every export configuration of yours, oldest first, as a bare array (upstream’s shape). Secrets ' +
          '(`secret_access_key`, `password`) are never returned: `config` shows them as `••••`.',
        response: { 200: ExportConfigList },
      },
    },
    async (request) => dataExports.list(requirePrincipal(request).userId),
  );

  app.post(
    '/api/user/export/settings',
    {
      config: write,
      schema: {
        tags,
        summary: 'Save (create or update) an export of trends',
        description:
          'Saves a new export (201): the trends `GET /api/trends` answers for `config.filters`, with the ' +
          '`selected_fields` as columns, written as CSV (RFC 4180, a header row) or JSON Lines, and sent ' +
          '`daily` or `weekly` at `schedule_time` (UTC) — or, with `schedule: "none"`, only when run-now ' +
          'runs it — to an S3 bucket (`aws`: AWS or any S3-compatible endpoint), a Cloud Storage bucket ' +
          '(`gcp`, HMAC keys) or by e-mail (`email`, the file attached). With `id` (upstream’s `config_id`) ' +
          'it replaces that configuration of yours in place and answers 200: the same checks, the secret sent ' +
          'again, omitted fields take their defaults; its history stays with it, `next_run_at` is computed ' +
          'afresh when the schedule, time, weekday or `is_active` changes, and a run already queued is not ' +
          'cancelled. Another user’s or an unknown `id` → 404, nothing changed. Unknown `config` keys and ' +
          'unknown fields → 400 naming them. A user-given `endpoint` or SMTP `host` must pass the outbound ' +
          'guard (400 `destination_not_allowed`; checked again at every run). Secrets are stored encrypted. ' +
          'At most 20 configurations per user (409 `export_limit_reached`; an update does not count).',
        body: SaveExportBody,
        response: { 200: exportConfig, 201: exportConfig },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const saved = await dataExports.save(principal.userId, actorOf(principal, request.id), request.body);
      return reply.code(saved.created ? 201 : 200).send(saved.config);
    },
  );

  app.delete(
    '/api/user/export/settings/:config_id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a scheduled export',
        description: 'Stops its schedule; its history stays with `config_id` null. Another user’s id → 404.',
        params: ExportConfigParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      await dataExports.remove(principal.userId, actorOf(principal, request.id), request.params.config_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/user/export/configurations/:config_id/run-now',
    {
      config: { ...write, optionalBody: true },
      schema: {
        tags,
        summary: 'Run a scheduled export now',
        description:
          'Queues one run at once (inactive configurations too) and returns its history id as ' +
          '`execution_log_id`; `GET /api/user/export/history` shows how it went. A run of the same ' +
          'configuration that is not over yet (queued, running or waiting for a retry) → 409 ' +
          '`export_run_in_progress`.',
        params: ExportConfigParams,
        response: { 202: ExportRunResponse },
      },
    },
    async (request, reply) => {
      const result = await dataExports.runNow(requirePrincipal(request).userId, request.params.config_id);
      return reply.code(202).send(result);
    },
  );

  app.get(
    '/api/user/export/history',
    {
      config: read,
      schema: {
        tags,
        summary: 'Your export runs, newest first',
        description:
          'One row per run (scheduled or run-now): `queued` → `running` → `succeeded` or `failed`. A failing ' +
          'destination is retried with exponential backoff (8 attempts over about an hour); until the last ' +
          'attempt the row stays `failed` with `next_attempt_at` set and `completed_at` null. `error_message` ' +
          'says why in words, never the provider’s answer or a secret. `config_id` filters by configuration.',
        querystring: HistoryQuery,
        response: { 200: ExportHistoryListResponse },
      },
    },
    async (request) => dataExports.history(requirePrincipal(request).userId, request.query),
  );
}
