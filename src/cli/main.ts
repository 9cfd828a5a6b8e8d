// `crestwatch` CLI: parses the command line and runs the command it names (one file each in commands/).
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { PLAN_NAMES } from '../platform/plans.ts';
import { type CommandInput, UsageError, unknownCommand } from './command.ts';
import * as backup from './commands/backup.ts';
import * as blog from './commands/blog.ts';
import * as ingest from './commands/ingest.ts';
import * as keys from './commands/keys.ts';
import * as migrate from './commands/migrate.ts';
import * as secretKey from './commands/secret-key.ts';
import * as seed from './commands/seed.ts';
import * as users from './commands/users.ts';

interface Command {
  /** Its lines of the usage text. */
  usage: string;
  run(input: CommandInput): Promise<void>;
}

/** By the first word of the command line, in the order the usage text lists them. */
const COMMANDS: Record<string, Command> = {
  migrate,
  users,
  keys,
  ingest,
  seed,
  blog,
  backup,
  'secret-key': secretKey,
};

const USAGE = `Usage: crestwatch <command> [options]

Commands:
${Object.values(COMMANDS)
  .map((command) => command.usage)
  .join('\n')}

Plans: ${PLAN_NAMES.join(', ')}. Configuration comes from the environment (see .env.example).`;

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
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw unknownCommand(positionals);
  await command.run({ config, values, positionals, env: process.env });
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(78);
  }
  if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    process.stderr.write(`crestwatch: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  const detail = (error as { detail?: string }).detail ?? (error as Error).message;
  process.stderr.write(`crestwatch: ${detail}\n`);
  process.exit(1);
}
