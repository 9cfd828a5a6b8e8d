// `crestwatch` CLI: parses the command line and runs the command it names (one file each in commands/).
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { PLAN_NAMES } from '../platform/plans.ts';
import { type CommandInput, UsageError, unknownCommand } from './command.ts';

interface Command {
  /** Its lines of the usage text. */
  usage: string;
  run(input: CommandInput): Promise<void>;
}

/**
 * By the first word of the command line, in the order the usage text lists them. Each is loaded when named:
 * `migrate` or `backup` need not load the modules behind `ingest` (a CLI start took 2.6 s with all of them).
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  migrate: () => import('./commands/migrate.ts'),
  users: () => import('./commands/users.ts'),
  keys: () => import('./commands/keys.ts'),
  ingest: () => import('./commands/ingest.ts'),
  seed: () => import('./commands/seed.ts'),
  blog: () => import('./commands/blog.ts'),
  backup: () => import('./commands/backup.ts'),
  'secret-key': () => import('./commands/secret-key.ts'),
};

async function usage(): Promise<string> {
  const commands = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  return `Usage: crestwatch <command> [options]

Commands:
${commands.map((command) => command.usage).join('\n')}

Plans: ${PLAN_NAMES.join(', ')}. Configuration comes from the environment (see .env.example).`;
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      plan: { type: 'string' },
      name: { type: 'string' },
      user: { type: 'string' },
      permissions: { type: 'string' },
      'expires-at': { type: 'string' },
      id: { type: 'string' },
      batch: { type: 'string' },
      process: { type: 'boolean' },
      demo: { type: 'boolean' },
      hours: { type: 'string' },
      seed: { type: 'string' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [name] = positionals;
  if (values.help || !name) {
    console.log(await usage());
    return;
  }
  const config = loadConfig();
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) throw unknownCommand(positionals);
  await (await load()).run({ config, values, positionals, env: process.env });
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(78);
  }
  if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    process.stderr.write(`crestwatch: ${(error as Error).message}\n\n${await usage()}\n`);
    process.exit(2);
  }
  const detail = (error as { detail?: string }).detail ?? (error as Error).message;
  process.stderr.write(`crestwatch: ${detail}\n`);
  process.exit(1);
}
