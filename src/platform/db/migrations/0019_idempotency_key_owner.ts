import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// An idempotent response is replayed only to a key that could have made the first request: the record keeps
// which key that was. Records written before this migration have none (they expire within 24 h).
export function idempotencyKeyOwner(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('idempotency_keys').addColumn('key_id', 'bigint').execute();
    },
  };
}
