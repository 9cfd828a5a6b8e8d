import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// The organisations module's tables.
export function organisations(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
