// The report routes: custom reports, session info and the public demo signals.
import { requirePrincipal } from '../../platform/auth.ts';
import type { App } from '../../platform/http.ts';
import {
  CustomReport,
  DemoSignalsQuery,
  DemoSignalsResponse,
  ReportRequest,
  SessionInfoQuery,
  SessionInfoResponse,
} from './schemas.ts';
import type { ReportsService } from './service.ts';

export async function reportRoutes(app: App, { reports }: { reports: ReportsService }): Promise<void> {
  const read = { access: { permission: 'read' as const } };

  app.post(
    '/api/reports/custom',
    {
      // A report reads and computes; nothing is stored or changed, so a read-only key may run one.
      config: { ...read, optionalBody: true },
      schema: {
        tags: ['reports'],
        summary: 'Generate a custom report from dimensions, metrics and filters',
        description:
          'Groups trends (the shared feed) or your own crisis events by `dimensions` and computes `metrics` for ' +
          'each group over a window (`time_period`, or `start_date`/`end_date` in whole UTC days, at most 400). ' +
          'Trend numbers use the formulas of `GET /api/trends` over the same hour buckets, so a row per trend ' +
          'shows what the list shows for it, and `day`/`hour` rows add up to what `GET /api/trends/{id}/analytics` ' +
          'plots. Needs `read` (a report changes nothing). Unknown dimensions, metrics, filters or `sort_by` are ' +
          'a 400 naming them, as are combinations without an honest meaning (e.g. `growth` by `day`). At most ' +
          '10,000 rows (`meta.limit_applied` says when rows were cut); a report that would read more than 20,000 ' +
          'trends or split into more than 200,000 buckets is refused with 400 `report_too_large`. An empty body ' +
          'gives the total volume of the last 24 hours.',
        body: ReportRequest,
        response: { 200: CustomReport },
      },
    },
    async (request) => reports.custom(requirePrincipal(request).userId, request.body ?? {}),
  );

  app.get(
    '/api/user/session-info',
    {
      config: read,
      schema: {
        tags: ['account'],
        summary: 'Session information: the country',
        description:
          '`country` is the deployment’s configured default (`DEFAULT_COUNTRY`, ISO 3166-1 alpha-2, default `US`): ' +
          'Crestwatch looks nothing up from your address.',
        querystring: SessionInfoQuery,
        response: { 200: SessionInfoResponse },
      },
    },
    async () => reports.sessionInfo(),
  );

  app.get(
    '/api/v1/public/demo-signals',
    {
      config: { access: 'public' },
      schema: {
        tags: ['public'],
        summary: 'A public, dated sample of recent observations',
        description:
          'Public (no key; limited per client IP). Up to 3 of the newest observations Crestwatch holds that link ' +
          'to their source, from the last 48 hours: posts and news items (`paid-media`, the default) or USGS and ' +
          'Environment Agency hazard records (`resilience`), preferring different sources. Each says whether it ' +
          'is still within its source’s freshness window and what it cannot show; demo-simulator data says so. ' +
          'Answers are reused for 60 s. Empty when there is nothing.',
        querystring: DemoSignalsQuery,
        response: { 200: DemoSignalsResponse },
      },
    },
    async (request) => reports.demoSignals(request.query.mode ?? 'paid-media'),
  );
}
