// Child process entry for benchmark targets (started by startTarget in bench/lib.ts): builds one server,
// listens on 127.0.0.1 on a free port, reports its URL over IPC and closes cleanly when told to.
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { tuneRuntime } from '../src/platform/runtime.ts';
import type { FromTarget, TargetSpec, ToTarget } from './lib.ts';

const name = process.argv[2] ?? 'target';
// Tuned as `npm start` tunes the service (src/main.ts), so the bench measures what runs.
tuneRuntime();

function send(message: FromTarget): void {
  if (process.connected) process.send?.(message);
}

/** A bare Fastify 5 app, no plugins, one GET route answering with a payload held in memory. */
async function staticJson(path: string, payload: unknown): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.get(path, async () => payload);
  await app.ready();
  return app;
}

async function build(spec: TargetSpec): Promise<FastifyInstance> {
  switch (spec.kind) {
    case 'static-json':
      return staticJson(spec.path, spec.payload);
    case 'crestwatch':
      return (await buildApp(loadConfig(spec.env), {
        logger: false,
        background: true,
      })) as unknown as FastifyInstance;
  }
}

let app: FastifyInstance | undefined;
let closing = false;

async function shutdown(code: number): Promise<void> {
  if (closing) return;
  closing = true;
  try {
    await app?.close();
  } catch (error) {
    process.stderr.write(`${name}: close failed: ${(error as Error).stack ?? error}\n`);
    code = 1;
  }
  // process.exit (not a signal) so --cpu-prof still writes its profile.
  process.exit(code);
}

process.on('message', (message: ToTarget) => {
  if (message.type === 'close') {
    void shutdown(0);
    return;
  }
  if (message.type !== 'start' || app) return;
  build(message.spec)
    .then(async (built) => {
      app = built;
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as AddressInfo;
      send({ type: 'ready', url: `http://127.0.0.1:${port}` });
    })
    .catch((error: Error) => {
      send({ type: 'error', message: error.stack ?? String(error) });
      void shutdown(1);
    });
});

// The parent went away without saying goodbye: do not linger.
process.on('disconnect', () => void shutdown(0));
