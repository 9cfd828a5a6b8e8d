// Process entry: load config, build the app, listen, and shut down gracefully on SIGTERM/SIGINT.
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { tuneRuntime } from './platform/runtime.ts';

tuneRuntime();

// A container stop allows 10 s before SIGKILL (docker's default): graceful work gets 9 s, then usage and
// leases get what is left before the process exits anyway.
const SHUTDOWN_DEADLINE_MS = 9000;
const PERSIST_BUDGET_MS = 900;

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(78);
  }
  throw error;
}

let app: Awaited<ReturnType<typeof buildApp>>;
try {
  app = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  const e = error as NodeJS.ErrnoException;
  const reason =
    e.code === 'EADDRINUSE'
      ? `port ${config.port} on ${config.host} is already in use (set PORT)`
      : e.code === 'ECONNREFUSED'
        ? `a dependency refused the connection (${e.message}); check DATABASE_URL and REDIS_URL`
        : e.message;
  process.stderr.write(`Crestwatch could not start: ${reason}\n`);
  process.exit(1);
}

let stopping = false;

/** Exits with `code` once usage and leases are saved, or the persist budget is spent (a dead database). */
async function persistAndExit(code: number): Promise<never> {
  await Promise.race([
    app.persistBeforeExit().catch((error) => app.log.error({ err: error }, 'persisting before exit failed')),
    new Promise((resolve) => setTimeout(resolve, PERSIST_BUDGET_MS).unref()),
  ]);
  process.exit(code);
}

async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down: no new requests, finishing in-flight ones');
  const deadline = setTimeout(() => {
    app.log.error(`shutdown took longer than ${SHUTDOWN_DEADLINE_MS / 1000} s; saving usage, then exiting`);
    void persistAndExit(1);
  }, SHUTDOWN_DEADLINE_MS);
  deadline.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'error during shutdown');
    await persistAndExit(1);
  }
}

process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
