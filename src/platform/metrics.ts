// Prometheus metrics at /metrics (bearer METRICS_TOKEN when set). HTTP counts and durations are kept in plain
// per-route structures and rendered at scrape time: prom-client would hash the label set on every request.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { collectDefaultMetrics, Registry } from 'prom-client';
import Type from 'typebox';
import { safeEqual } from './crypto.ts';
import { unauthorized } from './errors.ts';
import { asArray } from './http.ts';

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

class RouteStats {
  readonly byStatus = new Map<number, number>();
  readonly buckets = new Array<number>(BUCKETS.length).fill(0);
  count = 0;
  sum = 0;

  constructor(
    readonly method: string,
    readonly route: string,
  ) {}

  record(status: number, seconds: number): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    this.count++;
    this.sum += seconds;
    const i = BUCKETS.findIndex((le) => seconds <= le);
    if (i >= 0) this.buckets[i]!++;
  }
}

function label(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

export class Metrics {
  readonly registry = new Registry();
  private readonly routes: RouteStats[] = [];

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  route(method: string, route: string): RouteStats {
    const stats = new RouteStats(method, route);
    this.routes.push(stats);
    return stats;
  }

  renderHttp(): string {
    const lines = [
      '# HELP crestwatch_http_requests_total HTTP requests answered, by route pattern and status.',
      '# TYPE crestwatch_http_requests_total counter',
    ];
    for (const r of this.routes) {
      for (const [status, n] of [...r.byStatus].sort(([a], [b]) => a - b)) {
        lines.push(
          `crestwatch_http_requests_total{method="${r.method}",route="${label(r.route)}",status="${status}"} ${n}`,
        );
      }
    }
    lines.push(
      '# HELP crestwatch_http_request_duration_seconds HTTP request duration in seconds.',
      '# TYPE crestwatch_http_request_duration_seconds histogram',
    );
    for (const r of this.routes) {
      if (r.count === 0) continue;
      const labels = `method="${r.method}",route="${label(r.route)}"`;
      let cumulative = 0;
      BUCKETS.forEach((le, i) => {
        cumulative += r.buckets[i]!;
        lines.push(`crestwatch_http_request_duration_seconds_bucket{${labels},le="${le}"} ${cumulative}`);
      });
      lines.push(`crestwatch_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${r.count}`);
      lines.push(`crestwatch_http_request_duration_seconds_sum{${labels}} ${r.sum}`);
      lines.push(`crestwatch_http_request_duration_seconds_count{${labels}} ${r.count}`);
    }
    return `${lines.join('\n')}\n`;
  }

  async render(): Promise<string> {
    return this.renderHttp() + (await this.registry.metrics());
  }
}

export function createMetrics(): Metrics {
  return new Metrics();
}

export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  // Each route gets its own recorder, so nothing is looked up per request.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.length !== 1) return;
    const stats = metrics.route(methods[0]!, route.url);
    const hook = (_request: unknown, reply: FastifyReply, done: () => void) => {
      stats.record(reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = [...asArray(route.onResponse), hook];
  });

  app.get(
    '/metrics',
    {
      config: { access: 'public', healthCheck: true },
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
      return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await metrics.render());
    },
  );
}
