// The dashboard copies no API shape by hand (structure rule web-shapes-from-sdk, scripts/structure/web-shapes.ts):
// web/src holds it, a planted copy is caught, and the names the rule guards are the served document's schemas.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { violations } from '../../scripts/lint-structure.ts';
import { SHAPE_NAMES } from '../../scripts/structure/web-shapes.ts';
import { build, call } from '../helpers/app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WEB = path.join(ROOT, 'web/src');

function webFiles(dir = WEB): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return webFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The structure rules (scripts/lint-structure.ts) on `files`, in this process. */
function structure(files: string[]) {
  const found = violations(files);
  const text = found.join('\n');
  return { status: found.length > 0 ? 1 : 0, stdout: text, stderr: text };
}

/** Writes `files` (relative path → text), runs `check`, and removes them whatever happens. */
function planted<T>(files: Record<string, string>, check: (written: string[]) => T): T {
  const written: string[] = [];
  try {
    for (const [rel, text] of Object.entries(files)) {
      const full = path.join(ROOT, rel);
      fs.writeFileSync(full, text);
      written.push(full);
    }
    return check(written);
  } finally {
    for (const full of written) fs.rmSync(full, { force: true });
  }
}

test('web/src declares no API shape by hand', () => {
  const result = structure(webFiles());
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test('a planted interface or hand-written alias named like a schema or an SDK type is caught', () => {
  const result = planted(
    {
      'web/src/__planted_shapes.ts':
        "import type { Schema } from '@crestwatch/client';\n" +
        'export interface TrendItem { id: number; title: string }\n' +
        'export type Problem = { detail: string };\n' +
        "export type TrendUpdate = Schema<'TrendItem'> & { velocity: number };\n" +
        "export type CrisisEvent = Schema<'CrisisEvent'>;\n",
      'web/src/__planted_page.tsx':
        'export function Page() {\n' +
        '  interface Recommendation { id: number }\n' +
        '  const r: Recommendation = { id: 1 };\n  return <p>{r.id}</p>;\n}\n',
    },
    (files) => structure(files),
  );
  assert.equal(result.status, 1, result.stdout + result.stderr);
  const found = result.stderr.match(/__planted_\w+\.tsx?:\d+ web-shapes-from-sdk: \w+ \w+/g);
  assert.deepEqual(found, [
    '__planted_shapes.ts:2 web-shapes-from-sdk: interface TrendItem',
    '__planted_shapes.ts:3 web-shapes-from-sdk: type Problem',
    '__planted_shapes.ts:4 web-shapes-from-sdk: type TrendUpdate',
    '__planted_page.tsx:2 web-shapes-from-sdk: interface Recommendation',
  ]);
});

test("the names guarded include every schema of the served document's components", async (t) => {
  const ctx = await build(t);
  const doc = await call(ctx.app, 'GET', '/api/openapi.json');
  assert.equal(doc.statusCode, 200);
  const schemas = Object.keys(doc.data.components.schemas);
  assert.ok(schemas.includes('TrendItem'), 'the document names its schemas');
  assert.deepEqual(
    schemas.filter((name) => !SHAPE_NAMES.has(name)),
    [],
  );
});
