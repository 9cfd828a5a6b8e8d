import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// Integration connections, OAuth states and provider deliveries (issue 7).
export function integrations(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
