// /api/intelligence/crisis-events and /api/intelligence/resilience-settings.
import { requirePrincipal } from '../../platform/auth.ts';
import type { App } from '../../platform/http.ts';
import { EXPORT_CSP, exportHtml } from './export-html.ts';
import {
  CrisisActionBody,
  CrisisEventSchema,
  CrisisEvidenceSchema,
  CrisisExportJson,
  CrisisIdParams,
  CrisisListQuery,
  CrisisListResponse,
  CrisisReviewBody,
  CrisisReviewSchema,
  EvidenceCompletenessSchema,
  ExportQuery,
  ResilienceSettingsBody,
  ResilienceSettingsSchema,
} from './schemas.ts';
import type { CrisisAction, CrisisService } from './service.ts';

export async function crisisRoutes(app: App, { crisis }: { crisis: CrisisService }): Promise<void> {
  const read = { access: { permission: 'read' as const } };
  const write = { access: { permission: 'write' as const } };
  const tags = ['crisis'];
  app.addSchema(EvidenceCompletenessSchema);
  app.addSchema(CrisisEvidenceSchema);
  app.addSchema(CrisisReviewSchema);
  app.addSchema(CrisisEventSchema);
  const event = { $ref: 'CrisisEvent#' } as unknown as typeof CrisisEventSchema;

  app.get(
    '/api/intelligence/crisis-events',
    {
      config: read,
      schema: {
        tags,
        summary: 'Your crisis events, filtered and paged',
        description:
          'Social surge events (negative mentions of your interests) and hazard events (USGS, Environment Agency ' +
          'feeds matching your resilience location). `source=social` selects surge events; a source id selects ' +
          'events with evidence from it. `period` and `start_date`/`end_date` filter on detected_at (upstream’s ' +
          '`timeRange`, `startDate` and `endDate` are accepted as their aliases). Newest first.',
        querystring: CrisisListQuery,
        response: { 200: CrisisListResponse },
      },
    },
    // Upstream's `timeRange`, `startDate` and `endDate` arrive as ours (platform/query.ts).
    async (request) => crisis.list(requirePrincipal(request).userId, request.query),
  );

  app.get(
    '/api/intelligence/crisis-events/:id',
    {
      config: read,
      schema: { tags, summary: 'One crisis event', params: CrisisIdParams, response: { 200: event } },
    },
    async (request) => crisis.get(requirePrincipal(request).userId, request.params.id),
  );

  app.post(
    '/api/intelligence/crisis-events/:id/action',
    {
      config: write,
      schema: {
        tags,
        summary: 'Acknowledge, archive or reopen a crisis event',
        description:
          'acknowledge: active → acknowledged; archive: active or acknowledged → archived; reopen: acknowledged ' +
          'or archived → active. Any other combination → 409 `invalid_transition`.',
        params: CrisisIdParams,
        body: CrisisActionBody,
        response: { 200: event },
      },
    },
    async (request) =>
      crisis.action(requirePrincipal(request).userId, request.params.id, request.body.action as CrisisAction),
  );

  app.get(
    '/api/intelligence/crisis-events/:id/evidence',
    {
      config: read,
      schema: {
        tags,
        summary: 'A crisis event with its evidence snapshots and reviews',
        params: CrisisIdParams,
        response: { 200: event },
      },
    },
    async (request) => crisis.evidence(requirePrincipal(request).userId, request.params.id),
  );

  app.post(
    '/api/intelligence/crisis-events/:id/reviews',
    {
      config: write,
      schema: {
        tags,
        summary: 'Record your judgement against one version of the evidence',
        description:
          '`evidence_version` must be the event’s current one (409 `stale_evidence_version` otherwise, e.g. ' +
          'after new evidence arrived). The event’s review_status becomes the assessment. Returns the event ' +
          'with evidence and reviews.',
        params: CrisisIdParams,
        body: CrisisReviewBody,
        response: { 201: event },
      },
    },
    async (request, reply) => {
      const result = await crisis.review(requirePrincipal(request).userId, request.params.id, request.body);
      return reply.code(201).send(result);
    },
  );

  app.get(
    '/api/intelligence/crisis-events/:id/export',
    {
      config: read,
      schema: {
        tags,
        summary: 'Export a crisis event with evidence and reviews',
        description:
          '`format=json` (default): the event with source_refs and reviews, plus how to recompute the hashes. ' +
          '`format=html`: one self-contained page for offline review (no scripts or external resources, every ' +
          'value escaped, strict Content-Security-Policy).',
        params: CrisisIdParams,
        querystring: ExportQuery,
        response: {
          200: {
            description: 'The export',
            content: {
              'application/json': { schema: CrisisExportJson },
              'text/html': { schema: { type: 'string' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const userId = requirePrincipal(request).userId;
      const exported = await crisis.exportJson(userId, request.params.id);
      if (request.query.format === 'html') {
        const html = exportHtml(exported.event, exported.exported_at);
        return reply
          .code(200)
          .header('Content-Security-Policy', EXPORT_CSP)
          .header('Content-Disposition', `inline; filename="crisis-event-${request.params.id}.html"`)
          .type('text/html; charset=utf-8')
          .send(Buffer.from(html, 'utf8') as unknown as string);
      }
      return reply.type('application/json; charset=utf-8').send(exported);
    },
  );

  app.get(
    '/api/intelligence/resilience-settings',
    {
      config: read,
      schema: {
        tags,
        summary: 'Where hazard events matter to you',
        response: { 200: ResilienceSettingsSchema },
      },
    },
    async (request) => crisis.settings(requirePrincipal(request).userId),
  );

  app.put(
    '/api/intelligence/resilience-settings',
    {
      config: write,
      schema: {
        tags,
        summary: 'Set where hazard events matter to you',
        description:
          '`location_query` is `lat,lon,radius_km` (great-circle distance to the quake’s epicentre) or a place ' +
          'name matched as whole words against the feeds’ own place and area names (no geocoder). Hazards of ' +
          'the last 24 hours that match become events at once.',
        body: ResilienceSettingsBody,
        response: { 200: ResilienceSettingsSchema },
      },
    },
    async (request) => crisis.putSettings(requirePrincipal(request).userId, request.body.location_query),
  );
}
