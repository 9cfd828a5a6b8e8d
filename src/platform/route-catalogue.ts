// Every route's method, URL, schemas and access as registered, for code that derives something from the routes
// (the MCP tools take their input schemas from the routes they wrap, so the two cannot drift apart).
import type { RouteOptions } from 'fastify';
import type { Access } from './auth.ts';

interface CatalogueEntry {
  method: string;
  url: string;
  access: Access | undefined;
  schema: {
    params?: unknown;
    querystring?: unknown;
    body?: unknown;
    summary?: string;
    description?: string;
  };
}

export class RouteCatalogue {
  private readonly routes = new Map<string, CatalogueEntry>();

  /** An `onRoute` hook: registered before the modules, it sees every route. */
  record(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      this.routes.set(`${method} ${route.url}`, {
        method,
        url: route.url,
        access: (route.config as { access?: Access } | undefined)?.access,
        schema: (route.schema ?? {}) as CatalogueEntry['schema'],
      });
    }
  }

  find(method: string, url: string): CatalogueEntry | undefined {
    return this.routes.get(`${method} ${url}`);
  }
}
