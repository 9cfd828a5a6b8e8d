// `crestwatch backup <file>`: an online, consistent copy of the embedded SQLite database (PostgreSQL: pg_dump).
import path from 'node:path';
import { backupSqlite } from '../../platform/db/backup.ts';
import { type CommandInput, UsageError } from '../command.ts';
import { Progress } from '../progress.ts';

export const usage =
  '  backup <file>                             copy the SQLite database, consistently, while it runs';

export async function run({ config, positionals }: CommandInput): Promise<void> {
  if (positionals.length !== 2) throw new UsageError('backup needs one argument: the file to write');
  if (config.database.kind !== 'sqlite' || config.database.path === ':memory:') {
    throw new Error(
      'backup copies the embedded SQLite database; on PostgreSQL use pg_dump (docs/operations.md, "Backups").',
    );
  }
  const destination = path.resolve(positionals[1]!);
  let progress: Progress | undefined;
  const result = await backupSqlite(config.database.path, destination, (copied, total) => {
    progress ??= new Progress({ label: 'backup', total, unit: 'pages' });
    progress.update(copied, copied);
  });
  progress?.finish();
  if (result.integrity !== 'ok') throw new Error(`the copy failed its integrity check: ${result.integrity}`);
  console.log(
    `Backed up ${config.database.path} to ${destination} (${(result.bytes / 1_048_576).toFixed(1)} MiB, ` +
      `${result.pages} pages, integrity ok). Keep SECRET_KEY (or secret.key) with it, apart from it.`,
  );
}
