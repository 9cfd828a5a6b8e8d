// Generates the TypeScript SDK's types (packages/client/src/schema.d.ts) from the OpenAPI document the app
// serves at /api/openapi.json, so the SDK can never drift from the routes' schemas.
//   npm run client:generate   writes the file
//   npm run client:check      exits 1 when the file differs from what the served document generates (CI)
// The app is built in-process on a throw-away SQLite file with a fixed configuration: the document must not
// depend on whoever runs the script (their PUBLIC_BASE_URL, plans or environment).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCHEMA_FILE = 'packages/client/src/schema.d.ts';
const REGENERATE = 'npm run client:generate';

/** The document the app serves, from an app built on a temporary database that is removed afterwards. */
async function servedDocument(): Promise<OpenAPI3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-client-types-'));
  try {
    const app = await buildApp(
      loadConfig({ DATABASE_URL: `sqlite:${dir}/openapi.db`, DATA_DIR: dir, LOG_LEVEL: 'silent' }),
      { logger: false, background: false },
    );
    try {
      const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${res.statusCode}`);
      return JSON.parse(res.body) as OpenAPI3;
    } finally {
      await app.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The file's text: openapi-typescript's own header, then the generated declarations. */
async function generate(): Promise<string> {
  const document = await servedDocument();
  const ast = await openapiTS(document, { silent: true });
  return COMMENT_HEADER + astToString(ast);
}

/** 1-based number of the first line where the two texts differ, if any. */
function firstDifferentLine(a: string, b: string): number | undefined {
  const left = a.split('\n');
  const right = b.split('\n');
  for (let i = 0; i < Math.max(left.length, right.length); i++) if (left[i] !== right[i]) return i + 1;
  return undefined;
}

const check = process.argv.includes('--check');
const file = path.join(ROOT, SCHEMA_FILE);
const generated = await generate();
if (check) {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (current !== generated) {
    console.error(`${SCHEMA_FILE} is out of date: run ${REGENERATE}`);
    const line = firstDifferentLine(current, generated);
    if (line !== undefined) console.error(`(first difference at line ${line})`);
    process.exit(1);
  }
  console.log(`${SCHEMA_FILE} matches the served OpenAPI document.`);
} else {
  fs.writeFileSync(file, generated);
  console.log(`Wrote ${SCHEMA_FILE} (${generated.length} characters).`);
}
