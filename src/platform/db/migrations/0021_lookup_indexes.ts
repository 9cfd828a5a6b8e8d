import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// Lookups that scanned whole tables: delivering a trend reads every user's active interests with its key
// (topic_interests by key, not by user), and changing a location matches the hazards of the last 24 h
// (crisis_hazards by observed_at).
export function lookupIndexes(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('topic_interests_key_idx')
        .on('topic_interests')
        .columns(['key', 'status'])
        .execute();
      await db.schema
        .createIndex('crisis_hazards_observed_idx')
        .on('crisis_hazards')
        .columns(['observed_at', 'id'])
        .execute();
    },
  };
}
