// The public status page and its 30-day history.
import Type from 'typebox';
import type { App } from '../../../platform/http.ts';
import { DateTime, Nullable } from '../../../platform/schemas.ts';
import type { StatusService } from './service.ts';

const State = Type.Enum(['operational', 'degraded', 'outage']);

const ComponentStatus = Type.Object(
  {
    name: Type.String(),
    status: Type.String({ enum: ['operational', 'degraded', 'outage'] }),
    description: Type.Optional(Nullable(Type.String())),
  },
  { title: 'ComponentStatus' },
);

const StatusResponse = Type.Object({
  overall_status: State,
  last_updated: DateTime(),
  components: Type.Array(ComponentStatus),
});

const HistoryResponse = Type.Object({
  uptime_percentages: Type.Record(Type.String(), Type.Number(), {
    description:
      'Per component: share of stored checks in the last 30 days that were not an outage, in percent.',
  }),
  daily_statuses: Type.Record(Type.String(), Type.Record(Type.String(), State), {
    description:
      "Per UTC date, per component: outage when at least half that day's checks were outages, degraded when any " +
      'check was not operational, else operational.',
  }),
});

export async function statusRoutes(app: App, { status }: { status: StatusService }): Promise<void> {
  app.get(
    '/status',
    {
      config: { access: 'public', healthCheck: true },
      schema: {
        tags: ['meta'],
        summary: 'Live status of each component',
        description:
          'Checks run live (cached for 2 s): `api`, `database`, `jobs` (queue lag), `redis` (when configured), ' +
          'each configured signal source by id and each release feed by name (degraded while failing), and ' +
          '`llm` when an LLM provider is configured (its `/models`, asked at most every 30 s). The overall ' +
          'status is the worst component status, except that a Redis outage makes it `degraded` (routes with ' +
          'limits answer 503 with `Retry-After` until Redis returns; this page keeps answering).',
        response: { 200: StatusResponse },
      },
    },
    async () => status.current(),
  );

  app.get(
    '/status/history',
    {
      config: { access: 'public' },
      schema: {
        tags: ['meta'],
        summary: 'Uptime and daily status over 30 days',
        description:
          'Built from the checks stored every minute (`STATUS_CHECK_INTERVAL_SECONDS`) over the last 30 UTC days (today included). A day or ' +
          'component without stored checks (before the first check ran) is absent rather than guessed.',
        response: { 200: HistoryResponse },
      },
    },
    async () => status.history(),
  );
}
