import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// The notifications module's tables.
export function notifications(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
