// GET /ws/trends-live and /ws/trends (upstream's path): the live WebSocket stream. Authentication, permission
// and the plan's `live_stream` entitlement are checked before the upgrade, so a refused client gets an ordinary
// problem+json answer.
import websocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import { requirePrincipal } from '../../platform/auth.ts';
import { ApiError, badRequest, unauthorized } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { parseTrendFilter, type StreamHub } from './hub.ts';

const MAX_INBOUND_BYTES = 4096;
/** Crestwatch's path first, then upstream's (TrendsAGI clients connect to `/ws/trends`). */
const STREAM_PATHS = ['/ws/trends-live', '/ws/trends'];
/** The query parameters the upgrade takes. */
const STREAM_PARAMETERS = new Set(['token', 'trends']);

/** Browsers cannot set headers on a WebSocket: they may send the key as `?token=` (never logged). */
function tokenAsHeader(request: FastifyRequest, _reply: unknown, done: (error?: Error) => void): void {
  const token = (request.query as { token?: unknown } | undefined)?.token;
  const authorization = request.headers.authorization;
  const apiKey = request.headers['x-api-key'];
  if (typeof token !== 'string' || token.length === 0) {
    done();
  } else if (authorization === undefined && apiKey === undefined) {
    request.headers.authorization = `Bearer ${token}`;
    done();
  } else {
    // A key in a header too: it must be the same key, as with the two headers (never a silent choice).
    const headerKey =
      typeof authorization === 'string'
        ? authorization.replace(/^Bearer\s+/i, '').trim()
        : String(apiKey).trim();
    done(
      headerKey === token.trim()
        ? undefined
        : unauthorized(
            'The token query parameter and the key header carry different keys; send one key (the same key in both is fine).',
            'conflicting_api_keys',
          ),
    );
  }
}

export async function streamRoutes(app: App, { hub }: { hub: StreamHub }): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(websocket, { options: { maxPayload: MAX_INBOUND_BYTES } });
    // Scope hooks run before the route's own (the access check), so the token is seen as a key.
    scope.addHook('onRequest', tokenAsHeader);
    // One definition; a fresh options object per path, since registering a route mutates its options.
    const access = { permission: 'read', entitlement: 'live_stream' } as const;
    for (const url of STREAM_PATHS) {
      scope.route({
        method: 'GET',
        url,
        config: { access },
        schema: { hide: true },
        preHandler: (request, _reply, done) => {
          // As on every route, an unknown parameter is refused, never ignored (a misspelled `trend=` would
          // otherwise stream every trend).
          const unknown = Object.keys(request.query as object).find((name) => !STREAM_PARAMETERS.has(name));
          if (unknown !== undefined) {
            return done(
              badRequest(
                `query.${unknown} is not an accepted field.`,
                `query.${unknown}`,
                'validation_failed',
              ),
            );
          }
          const filter = parseTrendFilter((request.query as { trends?: unknown }).trends);
          if (filter === 'invalid') {
            return done(
              badRequest(
                'trends must be a comma-separated list of at most 50 trend names (each ≤ 100 characters).',
                'trends',
              ),
            );
          }
          done();
        },
        // A plain GET (no upgrade) is told what to do instead of getting an empty 404.
        handler: async () => {
          throw new ApiError(
            426,
            'upgrade_required',
            'This is a WebSocket endpoint: connect with a WebSocket client (Upgrade: websocket).',
            { headers: { Upgrade: 'websocket' } },
          );
        },
        wsHandler: (socket, request) => {
          const principal = requirePrincipal(request);
          const filter = parseTrendFilter((request.query as { trends?: unknown }).trends);
          hub.add({
            socket,
            userId: principal.userId,
            trends: filter === 'invalid' ? new Set() : filter,
            alive: true,
            recheck: () => app.recheckAccess(request, access),
          });
          // The stream is one-way; anything a client sends is ignored.
          socket.on('message', () => {});
        },
      });
    }
  });
}
