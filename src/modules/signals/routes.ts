// Signal ingestion.
import type { FastifySchemaValidationError } from 'fastify';
import type { App } from '../../platform/http.ts';
import { IngestBody, IngestResponse, MAX_BATCH, SourceListResponse } from './schemas.ts';
import type { SignalsService } from './service.ts';
import type { SourceRunner } from './sources/runner.ts';

const TEN_MIB = 10 * 1024 * 1024;
const ITEM_PATH = /^\/signals\/\d+(\/|$)/;

interface SignalRoutesOptions {
  signals: SignalsService;
  sources: SourceRunner;
}

export async function signalRoutes(app: App, { signals, sources }: SignalRoutesOptions): Promise<void> {
  app.get(
    '/api/intelligence/sources',
    {
      config: { access: { permission: 'read' } },
      schema: {
        tags: ['signals'],
        summary: 'Configured signal sources and their health',
        description:
          'The sources named by `SOURCES`, in that order. A failing source is `degraded` and retried with ' +
          'backoff (interval × 2^failures, at most 1 h) while the others keep ingesting.',
        response: { 200: SourceListResponse },
      },
    },
    async () => ({ sources: await sources.list() }),
  );

  app.post(
    '/api/signals',
    {
      config: { access: { permission: 'ingest' }, nulRejectsItem: 'signals' },
      bodyLimit: TEN_MIB,
      // Item errors do not fail the batch: they are reported per item. Anything else is still a 400.
      attachValidation: true,
      // Batch-level mistakes are refused here, before the idempotency check (a later preHandler): a bad
      // request is a 400 whatever key it carries, and is never stored.
      preHandler: (request, _reply, done) => {
        const failure = request.validationError;
        if (failure) {
          const errors = (failure as { validation?: FastifySchemaValidationError[] }).validation ?? [];
          if (errors.length === 0 || !errors.every((e) => ITEM_PATH.test(e.instancePath)))
            return done(failure);
        }
        done();
      },
      schema: {
        tags: ['signals'],
        summary: 'Ingest signals',
        description:
          `Up to ${MAX_BATCH} signals per call (body up to 10 MiB), permission \`ingest\`. Each item is validated on ` +
          'its own: invalid items (a NUL in any of their strings included) are listed in `rejected` with their index ' +
          'and reason, the others are stored. ' +
          'The same (source, external_id) is stored once; repeats count as `duplicates`. While `INGEST_MAX_PENDING` ' +
          'or more stored signals wait to be processed, a batch answers 503 `ingest_backlog` with `Retry-After` and ' +
          'nothing of it is stored.',
        body: IngestBody,
        response: { 202: IngestResponse },
      },
    },
    async (request, reply) => {
      const body = request.body as { signals: unknown[] };
      await signals.refuseWhenBacklogged();
      // Without a validation error, the route's schema has already checked every item.
      const validated = request.validationError === undefined;
      return reply
        .code(202)
        .send(await signals.ingest(body.signals, { validated, checkNul: request.bodyHasNul }));
    },
  );
}
