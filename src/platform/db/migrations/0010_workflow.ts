import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// The workflow-automation integration: connection, selection and pushes (issue 7).
export function workflow(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
