import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// The reports module's tables.
export function reports(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
