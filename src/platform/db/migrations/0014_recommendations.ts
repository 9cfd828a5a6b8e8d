import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// The recommendations module's tables.
export function recommendations(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
