// Pure rules for serving the dashboard: which clients get HTML, the Content-Security-Policy, cache lifetimes.

/**
 * The dashboard's policy: scripts, styles, images and fonts from this origin only, no inline code of any kind
 * (Vite emits external files only), API calls and the live stream to this origin, no framing, forms posting
 * only here. `connect-src 'self'` covers ws:/wss: to the same host in current browsers.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite names every built asset `name-<hash>.ext`: its content never changes under that name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** index.html names the current hashes, so a browser must revalidate it every time. */
export const REVALIDATE_CACHE = 'no-cache';

/** A Vite asset name: letters, digits, `_`, `-` and `.` only (no path), ending in a known type. */
const ASSET_NAME = /^[A-Za-z0-9_.-]+\.(js|css|svg|png|woff2|ico|map)$/;

export function isAssetName(name: string): boolean {
  return ASSET_NAME.test(name) && !name.startsWith('.') && !name.includes('..');
}

/** q-value of one media range in an Accept header: 1 when absent, 0 when unparsable or absent from the list. */
function qualityOf(accept: string, type: string): number {
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    if (range?.trim() !== type) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (!q) return 1;
    const value = Number(q.slice(2));
    return Number.isFinite(value) ? value : 0;
  }
  return 0;
}

/**
 * Whether a request for `/` should get the dashboard's HTML: only when the client names `text/html` itself
 * (browsers do) and does not prefer JSON. `*\/*` alone, no Accept header, or JSON first → the API's answer.
 */
export function wantsDashboard(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = qualityOf(accept, 'text/html');
  return html > 0 && html >= qualityOf(accept, 'application/json');
}
