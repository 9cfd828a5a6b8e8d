// Prometheus metrics at /metrics (bearer METRICS_TOKEN when set).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import Type from 'typebox';
import { safeEqual } from './crypto.ts';
import { unauthorized } from './errors.ts';
import { asArray } from './http.ts';

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'crestwatch_http_requests_total',
    help: 'HTTP requests answered, by route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'crestwatch_http_request_duration_seconds',
    help: 'HTTP request duration in seconds.',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, requests, duration };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  // Each route gets its own hook with its label children resolved once, not hashed on every request.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.length !== 1) return;
    const method = methods[0]!;
    const timer = metrics.duration.labels(method, route.url);
    const counters = new Map<number, { inc(): void }>();
    const hook = (_request: unknown, reply: FastifyReply, done: () => void) => {
      let counter = counters.get(reply.statusCode);
      if (!counter) {
        counter = metrics.requests.labels(method, route.url, String(reply.statusCode));
        counters.set(reply.statusCode, counter);
      }
      counter.inc();
      timer.observe(reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = [...asArray(route.onResponse), hook];
  });

  app.get(
    '/metrics',
    {
      config: { access: 'public' },
      schema: {
        tags: ['meta'],
        summary: 'Prometheus metrics',
        description: 'Requires `Authorization: Bearer <METRICS_TOKEN>` when the operator set METRICS_TOKEN.',
        response: {
          200: {
            description: 'Prometheus text format',
            content: { 'text/plain': { schema: Type.String() } },
          },
        },
      },
    },
    async (request, reply) => {
      if (token) {
        const header = request.headers.authorization ?? '';
        if (!header.startsWith('Bearer ') || !safeEqual(header.slice(7).trim(), token)) {
          throw unauthorized(
            'The metrics endpoint needs the METRICS_TOKEN as a bearer token.',
            'invalid_metrics_token',
          );
        }
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  );
}
