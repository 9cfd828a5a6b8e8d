// GET /api/releases: the changelog and configured release feeds, newest first.
import Type from 'typebox';
import type { App } from '../../../platform/http.ts';
import { Nullable } from '../../../platform/schemas.ts';
import type { ReleasesService } from './service.ts';

const CombinedReleaseSchema = Type.Object(
  {
    id: Type.String({ description: '`api:<version>` for the changelog, `<feed>:<hash>` for feed entries.' }),
    title: Type.String(),
    published_at: Type.String({ description: 'ISO 8601 date-time, UTC (changelog dates at 00:00 UTC).' }),
    source: Type.String({ description: '`api` (this service) or the release feed name.' }),
    source_id: Type.Optional(
      Nullable(Type.String({ description: 'The version (changelog) or the feed entry id / link.' })),
    ),
  },
  { $id: 'CombinedReleaseResponse', title: 'CombinedReleaseResponse' },
);

export async function releaseRoutes(app: App, { releases }: { releases: ReleasesService }): Promise<void> {
  app.addSchema(CombinedReleaseSchema);
  app.get(
    '/api/releases',
    {
      config: { access: 'public' },
      schema: {
        tags: ['content'],
        summary: "Releases: this service's changelog and the configured release feeds",
        description:
          'A bare array, newest first. `source: "api"` entries come from the service\'s CHANGELOG.md; the ' +
          'others from the feeds in `RELEASE_FEEDS` (Atom or RSS; `source` = the feed name), read every 15 ' +
          'minutes and cached. A feed that fails keeps its last entries and shows as degraded on `/status`. ' +
          'An entry listed by several feeds, or a feed entry for a version the changelog lists on the same ' +
          'day, appears once.',
        response: { 200: Type.Array(Type.Ref('CombinedReleaseResponse')) },
      },
    },
    async () => releases.list(),
  );
}
