import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// Pending signals are the ids in `signal_queue`, not rows of `signals` whose processed_at is null. Marking a
// signal processed used to rewrite its whole row (text included) and, on PostgreSQL, every index of it again:
// the pending index's predicate read processed_at, so no such update could be HOT (about 540 bytes of WAL per
// post on the shared real posts, as much as the insert). A queue row is an id: added with the signal, deleted
// when the trend processor claims it; the signal row is written once.
export function signalQueue(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('signal_queue')
        // SQLite: the rowid itself, so a queue row is its key and nothing else.
        .addColumn('id', dialect === 'sqlite' ? 'integer' : 'bigint', (c) => c.primaryKey())
        .execute();
      await sql`insert into signal_queue (id) select id from signals where processed_at is null`.execute(db);
      await db.schema.dropIndex('signals_pending_idx').execute();
      await db.schema.alterTable('signals').dropColumn('processed_at').execute();
    },
  };
}
