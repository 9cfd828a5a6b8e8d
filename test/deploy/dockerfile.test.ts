// The deployment files, checked without a Docker engine: the Dockerfile passes dockerfile-utils' validator and
// keeps its promises (non-root, health check on /status, no compilers in the final image, started as `npm
// start` starts it); the final stage's files start the service and pass its own health check; compose.yaml's
// configuration is one src/config.ts accepts, with health checks and start order, and nginx reaches both.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { validate } from 'dockerfile-utils';
import { loadConfig } from '../../src/config.ts';
import { parseYamlSubset, type YamlValue } from './yaml-subset.ts';

const DOCKERFILE = fs.readFileSync('Dockerfile', 'utf8');
const PACKAGE = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};

interface Instruction {
  keyword: string;
  args: string;
}

/** Instructions in order, continuation lines joined and comments dropped, grouped by stage (one per FROM). */
function stages(source: string): Instruction[][] {
  const result: Instruction[][] = [];
  let pending = '';
  for (const raw of source.split('\n')) {
    if (/^\s*#/.test(raw)) continue;
    pending += raw.replace(/\\\s*$/, ' ');
    if (/\\\s*$/.test(raw)) continue;
    const text = pending.trim();
    pending = '';
    if (text === '') continue;
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(text)!;
    const instruction = { keyword: keyword!.toUpperCase(), args: args! };
    if (instruction.keyword === 'FROM') result.push([]);
    result.at(-1)!.push(instruction);
  }
  return result;
}

const all = stages(DOCKERFILE);
const build = all[0]!;
const final = all.at(-1)!;
const find = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword);
/** An instruction's exec form (JSON array) after any `--flag=value`s and, for HEALTHCHECK, `CMD`. */
function execForm(instruction: Instruction): string[] {
  const json = instruction.args.slice(instruction.args.indexOf('['));
  return JSON.parse(json) as string[];
}

const BUILD_TOOLS =
  /\b(apt-get|apt|apk|yum|dnf)\b[^&|;]*\binstall\b|\b(python3?|g\+\+|gcc|make|build-essential)\b/;

describe('Dockerfile', () => {
  test("dockerfile-utils' validator finds no problem (and does find one in a broken copy)", () => {
    assert.deepEqual(
      validate(DOCKERFILE).map((d) => `line ${d.range.start.line + 1}: ${d.message}`),
      [],
    );
    const broken = DOCKERFILE.replace('HEALTHCHECK --interval=', 'HEALTHCHECK --intervall=');
    assert.ok(validate(broken).length > 0, 'the validator is not a no-op');
  });

  test('two stages: compilers and the dashboard build in the first, the final one starts from a clean base', () => {
    assert.equal(all.length, 2);
    assert.match(build[0]!.args, /^node:20-bookworm-slim AS build$/i);
    assert.equal(
      final[0]!.args,
      'node:20-bookworm-slim',
      'the final stage does not build on the build stage',
    );
    assert.ok(
      find(build, 'RUN').some((r) => /apt-get install .*python3.*make.*g\+\+/.test(r.args)),
      'the build stage has the compilers better-sqlite3 may need',
    );
    assert.ok(find(build, 'RUN').some((r) => /npm run build:web/.test(r.args)));
    assert.ok(find(build, 'RUN').some((r) => /npm prune --omit=dev/.test(r.args)));
  });

  test('the final stage installs no build tool and copies only from the build stage', () => {
    for (const run of find(final, 'RUN')) assert.doesNotMatch(run.args, BUILD_TOOLS);
    assert.match('RUN apt-get install -y g++', BUILD_TOOLS, 'the pattern catches an install');
    for (const copy of find(final, 'COPY')) assert.match(copy.args, /^--from=build /);
  });

  test('the final stage runs as a user that is not root', () => {
    const users = find(final, 'USER');
    assert.equal(users.length, 1);
    assert.doesNotMatch(users[0]!.args, /^(root|0)(:|$)/);
    const userAt = final.indexOf(users[0]!);
    assert.ok(
      final.findIndex((i) => i.keyword === 'CMD') > userAt,
      'the service starts after USER switches away from root',
    );
  });

  test('started as `npm start` starts it (tsx), with tsx a production dependency the pruned tree keeps', () => {
    assert.equal(PACKAGE.scripts.start, 'tsx src/main.ts');
    assert.ok(PACKAGE.dependencies.tsx, 'tsx is in dependencies, not devDependencies');
    assert.deepEqual(execForm(find(final, 'CMD')[0]!), ['node', '--import', 'tsx', 'src/main.ts']);
  });

  test('the port is exposed and configured, and the data folder is a volume', () => {
    const env = find(final, 'ENV')
      .map((e) => e.args)
      .join(' ');
    assert.match(env, /\bPORT=3000\b/);
    assert.match(env, /\bHOST=0\.0\.0\.0\b/);
    assert.match(env, /\bDATA_DIR=\/data\b/);
    assert.equal(find(final, 'EXPOSE')[0]?.args, '3000');
    assert.deepEqual(execForm(find(final, 'VOLUME')[0]!), ['/data']);
  });

  test('.dockerignore keeps installed, built and local files out of the build context', () => {
    const ignored = fs
      .readFileSync('.dockerignore', 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    for (const entry of ['node_modules', '.git', 'web/dist', 'data', '.env', 'test-results', '*.db']) {
      assert.ok(ignored.includes(entry), `${entry} is ignored`);
    }
    for (const copy of find(final, 'COPY')) {
      const sources = copy.args.split(/\s+/).slice(1, -1);
      for (const source of sources.map((s) => s.replace(/^\/app\//, ''))) {
        if (source === 'node_modules' || source === 'web/dist') continue; // made in the build stage
        assert.ok(!ignored.includes(source), `${source} is copied, so it must reach the build context`);
        assert.ok(fs.existsSync(source), `${source} exists`);
      }
    }
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the final stage, as files', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-image-'));
  let service: ChildProcess | undefined;
  after(() => {
    service?.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('start the service with its CMD and ENV, pass its HEALTHCHECK, and stop on SIGTERM with code 0', async () => {
    // The image's /app: what the final stage copies (node_modules: this checkout's, not the pruned tree).
    const app = path.join(root, 'app');
    fs.mkdirSync(app);
    for (const copy of find(final, 'COPY')) {
      const [dest, ...sources] = copy.args.split(/\s+/).slice(1).reverse();
      for (const source of sources.map((s) => s.replace(/^\/app\//, ''))) {
        const target = dest === './' ? path.join(app, path.basename(source)) : path.join(app, dest!);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        if (source === 'node_modules') fs.symlinkSync(path.resolve(source), target);
        else if (fs.existsSync(source)) fs.cpSync(source, target, { recursive: true });
      }
    }
    const port = await freePort();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      // The ENV of the final stage, then what this test needs: a free port, a temporary /data, no sources.
      HOST: '0.0.0.0',
      PORT: String(port),
      DATA_DIR: path.join(root, 'data'),
      SOURCES: 'none',
      NLP_WORKER_THREADS: '0',
      LOG_LEVEL: 'warn',
    };
    const [command, ...args] = execForm(find(final, 'CMD')[0]!);
    assert.equal(command, 'node');
    let output = '';
    service = spawn(process.execPath, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    service.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    service.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => service!.on('exit', (code) => resolve(code)));

    const check = execForm(find(final, 'HEALTHCHECK')[0]!);
    assert.equal(check[0], 'node', 'node fetches: the slim image has no curl');
    assert.ok(check.join(' ').includes('/status'), 'the health check asks /status');
    const healthCheck = () =>
      spawnSync(process.execPath, check.slice(1), { env, encoding: 'utf8', timeout: 10_000 }).status;
    const deadline = Date.now() + 60_000;
    let status = healthCheck();
    while (status !== 0 && Date.now() < deadline && service.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = healthCheck();
    }
    assert.equal(status, 0, `the health check passes once the service listens\n${output}`);

    service.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    assert.equal(healthCheck(), 1, 'and fails once it has stopped');
  });
});

/** `${NAME:-default}` and `${NAME:?message}` with the values an operator would put in .env. */
function interpolate(value: string, given: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_all, name: string, kind?: string, rest = '') => {
    if (given[name]) return given[name]!;
    if (kind === '?') throw new Error(`${name} is required: ${rest}`);
    return kind === '-' ? rest : '';
  });
}

type Mapping = Record<string, YamlValue>;
const COMPOSE = parseYamlSubset(fs.readFileSync('compose.yaml', 'utf8')) as Mapping;
const services = COMPOSE.services as Record<string, Mapping>;
const instances = Object.keys(services).filter((name) => /^crestwatch-\d+$/.test(name));
const OPERATOR_ENV = { SECRET_KEY: 'a'.repeat(44), POSTGRES_PASSWORD: 'compose-test-password' };

function environmentOf(service: string): Record<string, string> {
  const env = services[service]!.environment as Record<string, string>;
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolate(v, OPERATOR_ENV)]));
}

describe('compose.yaml', () => {
  test('two Crestwatch instances, PostgreSQL, Redis and a load balancer', () => {
    assert.deepEqual(instances, ['crestwatch-1', 'crestwatch-2']);
    assert.match(String(services.postgres?.image), /^postgres:\d+/);
    assert.match(String(services.redis?.image), /^redis:\d+/);
    assert.match(String(services.lb?.image), /^nginx:/);
  });

  test("every variable an instance gets is one src/config.ts reads, and together they're a valid configuration", () => {
    for (const name of instances) {
      const env = environmentOf(name);
      const read = new Set<string>();
      const watched = new Proxy(env, {
        get(target, key) {
          if (typeof key === 'string') read.add(key);
          return target[key as string];
        },
      });
      const config = loadConfig(watched);
      assert.deepEqual(
        Object.keys(env).filter((k) => !read.has(k)),
        [],
        `${name} sets only variables the service reads`,
      );
      assert.equal(config.database.kind, 'postgres');
      assert.equal(new URL(config.redisUrl!).hostname, 'redis');
      assert.equal(new URL((config.database as { url: string }).url).hostname, 'postgres');
      assert.equal(config.trustProxy, 1, 'one proxy (the load balancer) in front');
      assert.equal(config.secretKey, OPERATOR_ENV.SECRET_KEY);
    }
    assert.deepEqual(environmentOf('crestwatch-1'), environmentOf('crestwatch-2'), 'both run the same way');
    const raw = services['crestwatch-1']!.environment as Record<string, string>;
    assert.throws(() => interpolate(raw.SECRET_KEY!, {}), /SECRET_KEY is required/, 'no default secret key');
  });

  test('instances wait for healthy PostgreSQL and Redis, which have health checks; the second for the first', () => {
    for (const name of ['postgres', 'redis']) {
      assert.ok(Array.isArray((services[name]!.healthcheck as Mapping).test), `${name} has a health check`);
    }
    for (const name of instances) {
      const depends = services[name]!.depends_on as Record<string, Mapping>;
      assert.equal(depends.postgres?.condition, 'service_healthy');
      assert.equal(depends.redis?.condition, 'service_healthy');
    }
    const second = services['crestwatch-2']!.depends_on as Record<string, Mapping>;
    assert.equal(second['crestwatch-1']?.condition, 'service_healthy');
    const lb = services.lb!.depends_on as Record<string, Mapping>;
    for (const name of instances) assert.equal(lb[name]?.condition, 'service_healthy');
  });

  test("the load balancer's upstream is every instance on the image's port, and it forwards client addresses", () => {
    const mount = (services.lb!.volumes as string[])[0]!;
    const config = fs.readFileSync(mount.split(':')[0]!, 'utf8');
    const upstream = [...config.matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    const port = find(final, 'EXPOSE')[0]!.args;
    assert.deepEqual(
      upstream,
      instances.map((name) => `${name}:${port}`),
    );
    assert.match(config, /proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });

  test('the subset reader refuses YAML it does not understand rather than misreading it', () => {
    assert.throws(() => parseYamlSubset('a: &anchor\n  b: 1\n'), /unsupported/);
    assert.throws(() => parseYamlSubset('a:\n  - b: 1\n'), /mappings in a sequence/);
    assert.deepEqual(parseYamlSubset('a:\n  b: "x # y" # note\n  c: [1, 2]\n  d:\n    - e:f\n'), {
      a: { b: 'x # y', c: [1, 2] as unknown as YamlValue, d: ['e:f'] },
    });
  });
});
