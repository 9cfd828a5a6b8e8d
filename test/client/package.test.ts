// The SDK as its users install it: built to JavaScript and declarations (packages/client/build.mjs, what the
// package's "exports" name), imported by name from plain Node.js — no TypeScript loader — and type-checked by a
// consumer's own strict tsc.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildTestApp, createUser, type TestContext } from '../helpers/app.ts';

/** Runs a child to its end without blocking this process (the app under test answers it from here). */
async function run(args: string[], env: NodeJS.ProcessEnv = process.env) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, {
      cwd: WORK,
      env,
      encoding: 'utf8',
    });
    return { status: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { status: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLIENT = path.join(ROOT, 'packages/client');
// Under the repository, so the built package finds openapi-fetch in the root node_modules as an install would.
const WORK = path.join(ROOT, '.tmp', `sdk-${randomBytes(4).toString('hex')}`);
const INSTALLED = path.join(WORK, 'node_modules', '@crestwatch', 'client');

const CONSUMER = `
import { createClient, CrestwatchError } from '@crestwatch/client';
const [baseUrl, apiKey] = process.argv.slice(2);
const client = createClient({ baseUrl, apiKey, retries: false });
const { data, error, response } = await client.GET('/api/trends', { params: { query: { limit: 5 } } });
const stranger = createClient({ baseUrl, apiKey: 'cw_not_a_key', retries: false });
let problem = null;
try {
  await stranger.unwrap(stranger.GET('/api/trends', {}));
} catch (e) {
  problem = e instanceof CrestwatchError ? { status: e.status, code: e.code } : String(e);
}
console.log(JSON.stringify({ status: response.status, trends: Array.isArray(data?.trends), error: error ?? null, problem }));
`;

const TYPED_CONSUMER = `
import { createClient, type CrestwatchClient } from '@crestwatch/client';
const client: CrestwatchClient = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'cw_x' });
export async function titles(): Promise<string[]> {
  const { data } = await client.GET('/api/trends', { params: { query: { sort_by: 'velocity', limit: 5 } } });
  return (data?.trends ?? []).map((t) => t.title);
}
`;

let ctx: TestContext;
let baseUrl: string;

before(async () => {
  fs.mkdirSync(INSTALLED, { recursive: true });
  execFileSync(process.execPath, [path.join(CLIENT, 'build.mjs'), path.join(INSTALLED, 'dist')], {
    stdio: 'pipe',
  });
  for (const file of ['package.json', 'README.md'])
    fs.copyFileSync(path.join(CLIENT, file), path.join(INSTALLED, file));
  fs.writeFileSync(path.join(WORK, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  fs.writeFileSync(path.join(WORK, 'consumer.mjs'), CONSUMER);
  fs.writeFileSync(path.join(WORK, 'consumer.ts'), TYPED_CONSUMER);
  ctx = await buildTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});

after(async () => {
  await ctx?.close();
  fs.rmSync(WORK, { recursive: true, force: true });
});

test('the built package imports by name in plain Node.js and calls the API', async () => {
  const user = await createUser(ctx, 'developer', ['read']);
  // No TypeScript loader: NODE_OPTIONS (the test runner's tsx) is not passed on.
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const consumer = await run(['consumer.mjs', baseUrl, user.key], env);
  assert.equal(consumer.status, 0, consumer.stderr);
  assert.deepEqual(JSON.parse(consumer.stdout), {
    status: 200,
    trends: true,
    error: null,
    problem: { status: 401, code: 'invalid_api_key' },
  });
});

test("the package's declarations type-check in a consumer's strict project", async () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  // A consumer's own project: strict, Node.js ESM resolution, no @types beyond what it names.
  const check = (source: string) => {
    const compilerOptions = {
      strict: true,
      noEmit: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      lib: ['es2023', 'dom'],
      types: [],
    };
    fs.writeFileSync(path.join(WORK, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: [source] }));
    return run([tsc, '-p', 'tsconfig.json']);
  };
  const ok = await check('consumer.ts');
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  // The types are real: a field the API does not have is an error.
  fs.writeFileSync(path.join(WORK, 'misuse.ts'), TYPED_CONSUMER.replace('t.title', 't.no_such_field'));
  const misuse = await check('misuse.ts');
  assert.notEqual(misuse.status, 0);
  assert.match(misuse.stdout, /no_such_field/);
});
