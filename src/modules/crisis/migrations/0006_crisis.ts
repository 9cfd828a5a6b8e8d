import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// Crisis events, evidence, reviews and resilience settings (issue 5), plus the detector's own inputs:
// negative mentions of watched keys, hazard observations and the signal cursor.
export function crisis(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('crisis_events')
        .$call((t) => withId(t, dialect))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('watch_key', 'varchar(300)', (c) => c.notNull())
        .addColumn('title', 'varchar(500)', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('severity', 'varchar(16)', (c) => c.notNull())
        .addColumn('severity_rank', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('review_status', 'varchar(16)', (c) => c.notNull())
        .addColumn('source_state', 'varchar(64)')
        .addColumn('impacted_entity', 'varchar(300)')
        .addColumn('source_keywords', 'text', (c) => c.notNull())
        .addColumn('trend_id', 'bigint')
        .addColumn('trend_snapshot_link', 'varchar(2048)')
        .addColumn('detection_method', 'varchar(64)', (c) => c.notNull())
        .addColumn('method_version', 'varchar(32)', (c) => c.notNull())
        .addColumn('model_version', 'varchar(64)')
        .addColumn('provider_severity', 'varchar(200)')
        .addColumn('location', 'varchar(500)')
        .addColumn('severity_basis', 'text')
        .addColumn('corroboration', 'text')
        .addColumn('evidence_completeness', 'text')
        .addColumn('limitations', 'text', (c) => c.notNull())
        .addColumn('analysis_status', 'varchar(32)')
        .addColumn('evidence_version', 'varchar(32)')
        .addColumn('evidence_as_of', 'bigint')
        .addColumn('freshness_window_ms', 'bigint', (c) => c.notNull())
        .addColumn('event_seq', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('detected_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('crisis_events_user_idx')
        .on('crisis_events')
        .columns(['user_id', 'detected_at', 'id'])
        .execute();
      await db.schema
        .createIndex('crisis_events_watch_idx')
        .on('crisis_events')
        .columns(['kind', 'watch_key', 'source_state'])
        .execute();

      await db.schema
        .createTable('crisis_evidence')
        .$call((t) => withId(t, dialect))
        .addColumn('event_id', 'bigint', (c) =>
          c.notNull().references('crisis_events.id').onDelete('cascade'),
        )
        .addColumn('source_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('reference_id', 'varchar(300)', (c) => c.notNull())
        .addColumn('source_url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('observed_at', 'bigint', (c) => c.notNull())
        .addColumn('retrieved_at', 'bigint', (c) => c.notNull())
        .addColumn('excerpt', 'text', (c) => c.notNull())
        .addColumn('claim', 'text', (c) => c.notNull())
        .addColumn('content_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('attribution', 'varchar(300)')
        .addColumn('licence_url', 'varchar(2048)')
        .addUniqueConstraint('crisis_evidence_item_uq', [
          'event_id',
          'source_id',
          'reference_id',
          'content_hash',
        ])
        .execute();
      await db.schema
        .createIndex('crisis_evidence_source_idx')
        .on('crisis_evidence')
        .columns(['source_id', 'event_id'])
        .execute();

      await db.schema
        .createTable('crisis_reviews')
        .$call((t) => withId(t, dialect))
        .addColumn('event_id', 'bigint', (c) =>
          c.notNull().references('crisis_events.id').onDelete('cascade'),
        )
        .addColumn('reviewer_id', 'bigint', (c) => c.notNull())
        .addColumn('assessment', 'varchar(16)', (c) => c.notNull())
        .addColumn('rationale', 'text', (c) => c.notNull())
        .addColumn('evidence_version', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('crisis_reviews_event_idx')
        .on('crisis_reviews')
        .columns(['event_id', 'id'])
        .execute();

      await db.schema
        .createTable('resilience_settings')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('location_query', 'varchar(120)')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('crisis_mentions')
        .$call((t) => withId(t, dialect))
        .addColumn('key', 'varchar(200)', (c) => c.notNull())
        .addColumn('signal_id', 'bigint', (c) => c.notNull())
        .addColumn('source', 'varchar(32)', (c) => c.notNull())
        .addColumn('origin', 'varchar(300)', (c) => c.notNull())
        .addColumn('author', 'varchar(200)')
        .addColumn('external_id', 'varchar(256)', (c) => c.notNull())
        .addColumn('url', 'varchar(2048)')
        .addColumn('excerpt', 'text', (c) => c.notNull())
        .addColumn('compound', 'double precision', (c) => c.notNull())
        .addColumn('engagement', 'bigint', (c) => c.notNull())
        .addColumn('simhash', 'varchar(16)', (c) => c.notNull())
        .addColumn('observed_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('crisis_mentions_key_signal_uq', ['key', 'signal_id'])
        .execute();
      await db.schema
        .createIndex('crisis_mentions_key_time_idx')
        .on('crisis_mentions')
        .columns(['key', 'observed_at'])
        .execute();

      await db.schema
        .createTable('crisis_hazards')
        .$call((t) => withId(t, dialect))
        .addColumn('source', 'varchar(32)', (c) => c.notNull())
        .addColumn('reference_id', 'varchar(300)', (c) => c.notNull())
        .addColumn('revision_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('title', 'varchar(500)', (c) => c.notNull())
        .addColumn('place', 'varchar(500)')
        .addColumn('areas', 'text', (c) => c.notNull())
        .addColumn('latitude', 'double precision')
        .addColumn('longitude', 'double precision')
        .addColumn('magnitude', 'double precision')
        .addColumn('alert', 'varchar(32)')
        .addColumn('provider_severity', 'varchar(200)', (c) => c.notNull())
        .addColumn('severity', 'varchar(16)', (c) => c.notNull())
        .addColumn('source_state', 'varchar(64)', (c) => c.notNull())
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('excerpt', 'text', (c) => c.notNull())
        .addColumn('attribution', 'varchar(300)', (c) => c.notNull())
        .addColumn('licence_url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('observed_at', 'bigint', (c) => c.notNull())
        .addColumn('retrieved_at', 'bigint', (c) => c.notNull())
        .addColumn('pending', 'integer', (c) => c.notNull())
        .addUniqueConstraint('crisis_hazards_ref_uq', ['source', 'reference_id'])
        .execute();
      await db.schema
        .createIndex('crisis_hazards_pending_idx')
        .on('crisis_hazards')
        .columns(['pending', 'id'])
        .execute();

      await db.schema
        .createTable('crisis_cursor')
        .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('position', 'bigint', (c) => c.notNull())
        .addColumn('holder', 'varchar(100)')
        .execute();
    },
  };
}
