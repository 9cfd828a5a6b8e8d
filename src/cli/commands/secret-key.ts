// `crestwatch secret-key rotate`: re-encrypts every stored secret from the old SECRET_KEY to the new one.
// The old key comes from OLD_SECRET_KEY, the new one from SECRET_KEY (the key the service will start with).
import type { Database } from '../../database.ts';
import { migrateAppToLatest } from '../../migrations.ts';
import { SecretBox } from '../../platform/crypto.ts';
import { openDatabase } from '../../platform/db/index.ts';
import { type CommandInput, UsageError, unknownCommand } from '../command.ts';
import { rotateSealedValues } from '../secret-rotation.ts';
import { SealedValuesStore } from '../stores/sealed-values.ts';

export const usage =
  '  secret-key rotate [--dry-run]             re-encrypt stored secrets from OLD_SECRET_KEY to SECRET_KEY';

export async function run({ config, values, positionals, env }: CommandInput): Promise<void> {
  if (positionals[1] !== 'rotate' || positionals.length > 2) throw unknownCommand(positionals);
  const newKey = config.secretKey;
  const oldKey = env.OLD_SECRET_KEY?.trim() || undefined;
  if (newKey === undefined) {
    throw new UsageError('secret-key rotate needs the new key in SECRET_KEY (at least 32 characters)');
  }
  if (oldKey === undefined) {
    throw new UsageError(
      'secret-key rotate needs the key the service ran with in OLD_SECRET_KEY ' +
        '(embedded mode without SECRET_KEY: the contents of secret.key in the data folder)',
    );
  }
  if (oldKey === newKey) throw new UsageError('OLD_SECRET_KEY and SECRET_KEY are the same key');

  const handle = openDatabase<Database>(config.database);
  try {
    await migrateAppToLatest(handle);
    const tallies = await rotateSealedValues(new SealedValuesStore(handle.db), {
      from: new SecretBox(oldKey),
      to: new SecretBox(newKey),
      dryRun: values['dry-run'],
    });
    const verb = values['dry-run'] ? 'would re-encrypt' : 're-encrypted';
    // Columns with nothing stored are left out.
    for (const t of tallies.filter((t) => t.reencrypted + t.current > 0)) {
      console.log(`${t.table}.${t.column}: ${verb} ${t.reencrypted}, already on the new key ${t.current}`);
    }
    const done = tallies.reduce((sum, t) => sum + t.reencrypted, 0);
    const current = tallies.reduce((sum, t) => sum + t.current, 0);
    console.log(
      values['dry-run']
        ? `Dry run: ${done} values would be re-encrypted, ${current} already are; nothing was changed.`
        : `Re-encrypted ${done} values (${current} already were). Start the service with the new SECRET_KEY.`,
    );
  } finally {
    await handle.close();
  }
}
