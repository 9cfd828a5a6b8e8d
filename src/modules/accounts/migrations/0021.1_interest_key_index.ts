import type { Kysely } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// Delivering a trend reads every user's active interests with its key: topic_interests by key, not by user.
export function interestKeyIndex(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('topic_interests_key_idx')
        .on('topic_interests')
        .columns(['key', 'status'])
        .execute();
    },
  };
}
