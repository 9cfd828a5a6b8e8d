// Compiles the SDK to dist/ (JavaScript, declarations, source maps) and copies the generated schema types,
// which tsc does not emit,
// and points the declarations' relative imports at the .js files. `node build.mjs [outDir]`; the root `prepare` script runs it on `npm ci`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const HERE = import.meta.dirname;
const out = path.resolve(process.argv[2] ?? path.join(HERE, 'dist'));

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.warn(
    'packages/client/build.mjs: TypeScript is not installed (dev dependencies omitted); the SDK is not built.',
  );
  process.exit(0);
}
fs.rmSync(out, { recursive: true, force: true });
const result = spawnSync(
  process.execPath,
  [tsc, '-p', path.join(HERE, 'tsconfig.build.json'), '--outDir', out],
  {
    stdio: 'inherit',
  },
);
if (result.status !== 0) process.exit(result.status ?? 1);
fs.copyFileSync(path.join(HERE, 'src', 'schema.d.ts'), path.join(out, 'schema.d.ts'));
// tsc rewrites `./x.ts` to `./x.js` in JavaScript but not in declarations; consumers' TypeScript needs `.js`.
for (const file of fs.readdirSync(out).filter((f) => f.endsWith('.d.ts'))) {
  const full = path.join(out, file);
  const text = fs.readFileSync(full, 'utf8');
  fs.writeFileSync(full, text.replace(/(from\s+'\.\/[\w-]+)\.ts'/g, "$1.js'"));
}
