// The web dashboard at `/`: the single page Vite builds into web/dist, served with a strict CSP. Browsers (Accept
// naming text/html) get the page; API clients keep the problem+json 404 `/` always answered.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { App } from '../../platform/http.ts';
import { DASHBOARD_CSP, IMMUTABLE_CACHE, isAssetName, REVALIDATE_CACHE, wantsDashboard } from './policy.ts';

/** Where `npm ci` (the `prepare` script, web/build.mjs) writes the build. */
const DEFAULT_DIST_DIR = path.resolve(import.meta.dirname, '../../../web/dist');

interface WebOptions {
  /** The built dashboard (index.html and assets/); tests point it elsewhere. */
  distDir?: string;
}

const publicRoute = { config: { access: 'public' as const }, schema: { hide: true } };

const MISSING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Crestwatch: dashboard not built</title></head>
<body><h1>The web dashboard has not been built</h1>
<p>This installation has no built dashboard (<code>web/dist</code> is missing, for instance after
<code>npm ci --ignore-scripts</code>). Run <code>npm run build:web</code> and restart Crestwatch.</p>
<p>The API is unaffected: its description is at <a href="/api/openapi.json">/api/openapi.json</a> and
<a href="/docs">/docs</a>.</p></body></html>
`;

/** Headers every dashboard HTML answer carries. */
function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', DASHBOARD_CSP)
    .header('Referrer-Policy', 'no-referrer')
    .header('Cross-Origin-Opener-Policy', 'same-origin')
    .header('Vary', 'Accept, Accept-Encoding');
}

export async function webRoutes(app: App, options: WebOptions = {}): Promise<void> {
  const distDir = options.distDir ?? DEFAULT_DIST_DIR;
  const built = fs.existsSync(path.join(distDir, 'index.html'));
  const assetsDir = path.join(distDir, 'assets');

  if (built) {
    // Routes are ours (declared below); the plugin only lends reply.sendFile with .br/.gz negotiation.
    await app.register(fastifyStatic, { root: distDir, serve: false, preCompressed: true });
  }

  app.get('/', publicRoute, async (request, reply) => {
    if (!wantsDashboard(request.headers.accept)) return reply.callNotFound();
    if (!built) {
      return pageHeaders(reply)
        .code(503)
        .header('Cache-Control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(MISSING_PAGE);
    }
    pageHeaders(reply).header('Cache-Control', REVALIDATE_CACHE);
    return reply.sendFile('index.html', distDir, { cacheControl: false });
  });

  app.get<{ Params: { file: string } }>('/assets/:file', publicRoute, async (request, reply) => {
    const { file } = request.params;
    if (!built || !isAssetName(file) || !fs.existsSync(path.join(assetsDir, file))) {
      return reply.callNotFound();
    }
    reply.header('Cache-Control', IMMUTABLE_CACHE).header('Content-Security-Policy', DASHBOARD_CSP);
    return reply.sendFile(file, assetsDir, { cacheControl: false });
  });
}
