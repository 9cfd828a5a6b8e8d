import type { Kysely } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// Changing a location matches the hazards of the last 24 h: crisis_hazards by observed_at.
export function hazardTimeIndex(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('crisis_hazards_observed_idx')
        .on('crisis_hazards')
        .columns(['observed_at', 'id'])
        .execute();
    },
  };
}
