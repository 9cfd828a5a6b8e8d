import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

export function signals(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('signals')
        .$call((t) => withId(t, dialect))
        .addColumn('source', 'varchar(32)', (c) => c.notNull())
        .addColumn('external_id', 'varchar(256)', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('title', 'varchar(500)')
        .addColumn('url', 'varchar(2048)')
        .addColumn('author', 'varchar(200)')
        .addColumn('lang', 'varchar(16)')
        .addColumn('location', 'varchar(200)')
        .addColumn('keywords', 'text')
        .addColumn('engagement', 'text')
        .addColumn('observed_at', 'bigint', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('processed_at', 'bigint')
        .addUniqueConstraint('signals_source_external_uq', ['source', 'external_id'])
        .execute();
      await db.schema.createIndex('signals_observed_idx').on('signals').column('observed_at').execute();
      await db.schema
        .createIndex('signals_unprocessed_idx')
        .on('signals')
        .columns(['processed_at', 'id'])
        .execute();
    },
  };
}
