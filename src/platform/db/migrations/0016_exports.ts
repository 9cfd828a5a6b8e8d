import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// The exports module's tables.
export function dataExports(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
