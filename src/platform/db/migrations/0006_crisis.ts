import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// Crisis events, evidence, reviews and resilience settings (issue 5).
export function crisis(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
