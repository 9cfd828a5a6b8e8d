import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// Blog posts and release feed cache (issue 8).
export function content(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
