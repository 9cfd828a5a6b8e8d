// `crestwatch migrate`: applies the database migrations.
import { migrateAppToLatest } from '../../migrations.ts';
import { openDatabase } from '../../platform/db/index.ts';
import type { CommandInput } from '../command.ts';

export const usage = '  migrate                                   apply database migrations';

export async function run({ config }: CommandInput): Promise<void> {
  const handle = openDatabase(config.database);
  try {
    const applied = await migrateAppToLatest(handle);
    console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
  } finally {
    await handle.close();
  }
}
