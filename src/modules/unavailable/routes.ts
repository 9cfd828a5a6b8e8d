// Upstream (TrendsAGI) capabilities that make no sense for a self-hosted service. They answer 503
// `CAPABILITY_UNAVAILABLE` rather than 404, so upstream's SDK raises its unavailable-capability error. They are
// public (limited per client IP like other public routes): nobody's quota pays for something that does not exist.
import { ApiError } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { CAPABILITY_UNAVAILABLE, UnavailableResponse } from './schemas.ts';

interface Capability {
  method: 'GET' | 'POST';
  url: string;
  summary: string;
  /** The answer's `detail`. */
  detail: string;
}

const NOT_OFFERED = 'is not offered by a self-hosted Crestwatch';

const CAPABILITIES: Capability[] = [
  {
    method: 'POST',
    url: '/api/billing/create-portal-session',
    summary: 'Billing portal (not offered)',
    detail:
      `The billing portal ${NOT_OFFERED}: nobody is billed. Plans are assigned by the operator ` +
      '(`PATCH /api/admin/users/{id}` or `crestwatch users`); see `GET /api/plans`.',
  },
  {
    method: 'GET',
    url: '/api/intelligence/financial-data',
    summary: 'Financial market data (not offered)',
    detail:
      `Financial market data ${NOT_OFFERED}: it has no market data feed. ` +
      'Use `GET /api/trends` and `GET /api/intelligence/crisis-events` for the signals it collects.',
  },
  {
    method: 'GET',
    url: '/api/public/homepage-data',
    summary: 'Public financial homepage data (not offered)',
    detail:
      `Public financial homepage data ${NOT_OFFERED}: it has no market data feed. ` +
      'Its public data is at `GET /api/blog/posts`, `GET /api/releases` and `GET /status`.',
  },
  {
    method: 'POST',
    url: '/api/events/track',
    summary: 'Visitor tracking (not offered)',
    detail:
      `Visitor tracking ${NOT_OFFERED}: it keeps no visitor analytics. ` +
      'Track your site’s visitors with your own analytics tool.',
  },
  {
    method: 'GET',
    url: '/ws/finance',
    summary: 'Financial stream (not offered)',
    detail:
      `The financial stream ${NOT_OFFERED}: it has no market data feed. ` +
      'For live trend messages connect to `/ws/trends` (or `/ws/trends-live`).',
  },
];

export async function unavailableRoutes(app: App): Promise<void> {
  await app.register(async (scope) => {
    // Whatever body is sent is read and dropped, so the answer is this 503, never a 400 or 415 first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
    for (const capability of CAPABILITIES) {
      const schema = {
        tags: ['compatibility'],
        summary: capability.summary,
        description:
          `Upstream (TrendsAGI) route kept so its clients get a clear answer. ${capability.detail} ` +
          'Always 503 `CAPABILITY_UNAVAILABLE`, without a key' +
          (capability.method === 'POST' ? '; any body is ignored.' : '.'),
        // Tools reading the document can tell these operations never succeed.
        'x-capability-unavailable': true,
        response: { 503: UnavailableResponse },
      };
      scope.route({
        method: capability.method,
        url: capability.url,
        config: { access: 'public', ignoresInput: true },
        schema,
        // A WebSocket upgrade to /ws/finance gets this answer too; the platform's upgrade guard then closes it.
        handler: async () => {
          throw new ApiError(503, CAPABILITY_UNAVAILABLE, capability.detail);
        },
      });
    }
  });
}
