import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// AI insights and analysis tasks (issue 4).
export function insights(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
