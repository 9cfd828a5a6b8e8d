// Lints the generated OpenAPI document: valid OpenAPI 3.1, version 0.10.0, both servers and security schemes,
// and every operation with a summary, a success response schema and problem+json error responses.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-openapi-'));
const app = await buildApp(
  loadConfig({
    DATABASE_URL: `sqlite:${dir}/openapi.db`,
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    STAGING_BASE_URL: 'https://staging.example.com',
  }),
  { logger: false, background: false },
);
const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
await app.close();
fs.rmSync(dir, { recursive: true, force: true });

const doc = JSON.parse(res.body);
const problems: string[] = [];
const validator = new Validator();
const result = await validator.validate(structuredClone(doc));
if (!result.valid) problems.push(`not valid OpenAPI: ${JSON.stringify(result.errors).slice(0, 2000)}`);
if (!String(doc.openapi).startsWith('3.1')) problems.push(`openapi is ${doc.openapi}, expected 3.1.x`);
if (doc.info?.version !== '0.10.0') problems.push(`info.version is ${doc.info?.version}, expected 0.10.0`);
if ((doc.servers ?? []).length < 2) problems.push('expected production and staging servers');
for (const scheme of ['bearerAuth', 'apiKeyHeader']) {
  if (!doc.components?.securitySchemes?.[scheme]) problems.push(`missing security scheme ${scheme}`);
}
let operations = 0;
for (const [route, item] of Object.entries<Record<string, Record<string, unknown>>>(doc.paths ?? {})) {
  for (const [method, op] of Object.entries(item)) {
    if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
    operations++;
    const where = `${method.toUpperCase()} ${route}`;
    const responses = (op.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
    if (!op.summary) problems.push(`${where}: no summary`);
    // Upstream capabilities a self-hosted service lacks never succeed: their documented answer is the 503.
    if (op['x-capability-unavailable'] === true) {
      if (!responses['503']?.content?.['application/problem+json'])
        problems.push(`${where}: an unavailable capability without its 503 problem response`);
    } else if (!Object.keys(responses).some((s) => s.startsWith('2')))
      problems.push(`${where}: no success response`);
    for (const status of ['404', '500']) {
      if (!responses[status]?.content?.['application/problem+json'])
        problems.push(`${where}: no ${status} problem response`);
    }
    if (Array.isArray(op.security) && op.security.length > 0 && !responses['401']) {
      problems.push(`${where}: authenticated but no 401 response`);
    }
  }
}
if (problems.length > 0) {
  console.error(`OpenAPI lint failed (${problems.length}):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `OpenAPI lint passed: ${operations} operations, OpenAPI ${doc.openapi}, version ${doc.info.version}.`,
);
