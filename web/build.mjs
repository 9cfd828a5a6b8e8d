// Builds the dashboard into web/dist (run by `npm ci` through the root `prepare` script, or `npm run build:web`),
// then writes .br and .gz beside every text asset so the server sends them precompressed. Without Vite
// (`npm ci --omit=dev`) it says so and leaves the API to run without the dashboard.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const ROOT = import.meta.dirname;
const DIST = path.join(ROOT, 'dist');
/** Below this size compression gains nothing worth a second file. */
const MIN_COMPRESS_BYTES = 256;

let vite;
try {
  vite = await import('vite');
} catch {
  console.warn(
    'web/build.mjs: Vite is not installed (dev dependencies omitted); the dashboard is not built.',
  );
  process.exit(0);
}

await vite.build({
  root: ROOT,
  base: '/',
  configFile: false,
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: DIST,
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline polyfill or data: URLs: the page's CSP forbids inline code.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    reportCompressedSize: false,
  },
});

const files = fs.readdirSync(DIST, { recursive: true }).map((f) => path.join(DIST, String(f)));
let firstLoadBrotli = 0;
let firstLoadGzip = 0;
for (const file of files) {
  if (!/\.(html|js|css|svg)$/.test(file) || fs.statSync(file).size < MIN_COMPRESS_BYTES) continue;
  const body = fs.readFileSync(file);
  const br = zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
  const gz = zlib.gzipSync(body, { level: 9 });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, gz);
  firstLoadBrotli += br.length;
  firstLoadGzip += gz.length;
}
console.log(
  `web/dist built: ${(firstLoadBrotli / 1024).toFixed(1)} kB brotli, ${(firstLoadGzip / 1024).toFixed(1)} kB gzip ` +
    '(every asset; the whole app loads on first visit).',
);
