// SQL of the crisis module. Methods that may run inside a transaction take its executor as their last
// parameter (the store's own connection otherwise).

import { type Insertable, type Selectable, type SqlBool, sql, type Updateable } from 'kysely';
import type { DB } from '../../database.ts';
import { containsPattern } from '../../platform/db/like.ts';
import type {
  CrisisEventsTable,
  CrisisEvidenceTable,
  CrisisHazardsTable,
  CrisisMentionsTable,
  CrisisReviewsTable,
} from './tables.ts';

export type EventRow = Selectable<CrisisEventsTable>;
export type EvidenceRow = Selectable<CrisisEvidenceTable>;
export type ReviewRow = Selectable<CrisisReviewsTable>;
export type MentionRow = Selectable<CrisisMentionsTable>;
export type HazardRow = Selectable<CrisisHazardsTable>;

interface ListFilter {
  userId: number;
  status?: string;
  severity?: string;
  /** 'social', or a source id that must appear in the evidence. */
  source?: string;
  freshness?: 'fresh' | 'stale' | 'missing';
  reviewStatus?: string;
  keyword?: string;
  location?: string;
  detectedFrom?: number;
  detectedTo?: number;
  now: number;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const CHUNK = 200;

export class CrisisStore {
  constructor(private readonly db: DB) {}

  transaction<T>(fn: (trx: DB) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  // --- detector input -------------------------------------------------------------------------------

  async cursor(name: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('crisis_cursor')
      .select('position')
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? Number(row.position) : null;
  }

  async setCursor(name: string, position: number): Promise<void> {
    await this.db
      .insertInto('crisis_cursor')
      .values({ name, position })
      .onConflict((oc) => oc.column('name').doUpdateSet({ position }))
      .execute();
  }

  async insertMentions(rows: Insertable<CrisisMentionsTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.db
        .insertInto('crisis_mentions')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns(['key', 'signal_id']).doNothing())
        .execute();
    }
  }

  mentionsBetween(key: string, from: number, to: number, limit = 5000): Promise<MentionRow[]> {
    return this.db
      .selectFrom('crisis_mentions')
      .selectAll()
      .where('key', '=', key)
      .where('observed_at', '>', from)
      .where('observed_at', '<=', to)
      .orderBy('observed_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Stored mentions per minute (epoch minutes) over [from, to) of one key, or of several pooled (a post that
   * mentions several of them counts once): the input of their baselines.
   */
  async mentionMinutes(
    keys: readonly string[],
    from: number,
    to: number,
  ): Promise<{ minute: number; n: number }[]> {
    if (keys.length === 0) return [];
    const minute = sql<number>`cast(observed_at / 60000 as bigint)`;
    const rows = await this.db
      .selectFrom('crisis_mentions')
      .select([
        minute.as('minute'),
        (eb) =>
          keys.length === 1
            ? eb.fn.countAll<number>().as('n')
            : eb.fn.count<number>('signal_id').distinct().as('n'),
      ])
      .where('key', 'in', keys)
      .where('observed_at', '>=', from)
      .where('observed_at', '<', to)
      .groupBy(minute)
      .execute();
    return rows.map((r) => ({ minute: Number(r.minute), n: Number(r.n) }));
  }

  /** Which of these keys have a stored mention after `since`. */
  async activeKeys(keys: readonly string[], since: number): Promise<Set<string>> {
    const active = new Set<string>();
    for (let i = 0; i < keys.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('crisis_mentions')
        .select('key')
        .distinct()
        .where('key', 'in', keys.slice(i, i + CHUNK))
        .where('observed_at', '>', since)
        .execute();
      for (const r of rows) active.add(r.key);
    }
    return active;
  }

  async pruneMentions(before: number): Promise<void> {
    await this.db.deleteFrom('crisis_mentions').where('observed_at', '<', before).execute();
  }

  // --- hazards --------------------------------------------------------------------------------------

  async upsertHazard(row: Insertable<CrisisHazardsTable>): Promise<void> {
    await this.db
      .insertInto('crisis_hazards')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['source', 'reference_id'])
          .doUpdateSet((eb) => ({
            revision_hash: eb.ref('excluded.revision_hash'),
            title: eb.ref('excluded.title'),
            place: eb.ref('excluded.place'),
            areas: eb.ref('excluded.areas'),
            latitude: eb.ref('excluded.latitude'),
            longitude: eb.ref('excluded.longitude'),
            magnitude: eb.ref('excluded.magnitude'),
            alert: eb.ref('excluded.alert'),
            provider_severity: eb.ref('excluded.provider_severity'),
            severity: eb.ref('excluded.severity'),
            source_state: eb.ref('excluded.source_state'),
            url: eb.ref('excluded.url'),
            excerpt: eb.ref('excluded.excerpt'),
            observed_at: eb.ref('excluded.observed_at'),
            retrieved_at: eb.ref('excluded.retrieved_at'),
            pending: 1,
          }))
          .where('crisis_hazards.revision_hash', '<>', row.revision_hash),
      )
      .execute();
  }

  pendingHazards(limit: number): Promise<HazardRow[]> {
    return this.db
      .selectFrom('crisis_hazards')
      .selectAll()
      .where('pending', '=', 1)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  hazardsSince(since: number, limit = 2000): Promise<HazardRow[]> {
    return this.db
      .selectFrom('crisis_hazards')
      .selectAll()
      .where('observed_at', '>=', since)
      .orderBy('observed_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async markHazardDone(id: number, revisionHash: string): Promise<void> {
    await this.db
      .updateTable('crisis_hazards')
      .set({ pending: 0 })
      .where('id', '=', id)
      .where('revision_hash', '=', revisionHash)
      .execute();
  }

  locationSettings(): Promise<{ user_id: number; location_query: string | null }[]> {
    return this.db
      .selectFrom('resilience_settings')
      .select(['user_id', 'location_query'])
      .where('location_query', 'is not', null)
      .execute();
  }

  settings(userId: number) {
    return this.db
      .selectFrom('resilience_settings')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async putSettings(userId: number, locationQuery: string | null, now: number): Promise<void> {
    await this.db
      .insertInto('resilience_settings')
      .values({ user_id: userId, location_query: locationQuery, updated_at: now })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ location_query: locationQuery, updated_at: now }),
      )
      .execute();
  }

  // --- events ---------------------------------------------------------------------------------------

  find(userId: number, id: number, executor: DB = this.db): Promise<EventRow | undefined> {
    return executor
      .selectFrom('crisis_events')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The event a watch (interest key or hazard reference) is growing: social ones only while surging. */
  openFor(
    userId: number,
    kind: string,
    watchKey: string,
    executor: DB = this.db,
  ): Promise<EventRow | undefined> {
    return executor
      .selectFrom('crisis_events')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('watch_key', '=', watchKey)
      .$if(kind === 'social', (qb) => qb.where('source_state', '=', 'surging'))
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** A user's surging social events on any of these interest keys (one subject's), oldest first. */
  surgingFor(userId: number, keys: readonly string[], executor: DB = this.db): Promise<EventRow[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return executor
      .selectFrom('crisis_events')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', 'social')
      .where('watch_key', 'in', keys)
      .where('source_state', '=', 'surging')
      .orderBy('id')
      .execute();
  }

  surgingSocialKeys(): Promise<{ watch_key: string }[]> {
    return this.db
      .selectFrom('crisis_events')
      .select('watch_key')
      .distinct()
      .where('kind', '=', 'social')
      .where('source_state', '=', 'surging')
      .execute();
  }

  /** Users with a surging social event on this key (they may have stopped watching it since). */
  async surgingUsers(key: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('crisis_events')
      .select('user_id')
      .where('kind', '=', 'social')
      .where('watch_key', '=', key)
      .where('source_state', '=', 'surging')
      .execute();
    return rows.map((r) => r.user_id);
  }

  async insertEvent(row: Insertable<CrisisEventsTable>, executor: DB = this.db): Promise<EventRow> {
    return executor.insertInto('crisis_events').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async updateEvent(id: number, patch: Updateable<CrisisEventsTable>, executor: DB = this.db): Promise<void> {
    await executor.updateTable('crisis_events').set(patch).where('id', '=', id).execute();
  }

  /** Inserts evidence items that are new for the event; returns how many were. */
  async addEvidence(rows: Insertable<CrisisEvidenceTable>[], executor: DB = this.db): Promise<number> {
    let added = 0;
    for (let i = 0; i < rows.length; i += CHUNK) {
      const result = await executor
        .insertInto('crisis_evidence')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns(['event_id', 'source_id', 'reference_id', 'content_hash']).doNothing())
        .returning('id')
        .execute();
      added += result.length;
    }
    return added;
  }

  evidence(eventId: number, executor: DB = this.db): Promise<EvidenceRow[]> {
    return executor
      .selectFrom('crisis_evidence')
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('id')
      .execute();
  }

  reviews(eventId: number, executor: DB = this.db): Promise<ReviewRow[]> {
    return executor
      .selectFrom('crisis_reviews')
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('id')
      .execute();
  }

  async insertReview(row: Insertable<CrisisReviewsTable>, executor: DB = this.db): Promise<void> {
    await executor.insertInto('crisis_reviews').values(row).execute();
  }

  async activeSevere(userId: number): Promise<EventRow[]> {
    return this.db
      .selectFrom('crisis_events')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .where('severity_rank', '>=', 3)
      .orderBy('severity_rank', 'desc')
      .orderBy('id')
      .limit(500)
      .execute();
  }

  async list(filter: ListFilter): Promise<{ rows: EventRow[]; total: number }> {
    const base = this.db
      .selectFrom('crisis_events as e')
      .where('e.user_id', '=', filter.userId)
      .$if(filter.status !== undefined, (qb) => qb.where('e.status', '=', filter.status!))
      .$if(filter.severity !== undefined, (qb) => qb.where('e.severity', '=', filter.severity!))
      .$if(filter.reviewStatus !== undefined, (qb) => qb.where('e.review_status', '=', filter.reviewStatus!))
      .$if(filter.detectedFrom !== undefined, (qb) => qb.where('e.detected_at', '>=', filter.detectedFrom!))
      .$if(filter.detectedTo !== undefined, (qb) => qb.where('e.detected_at', '<', filter.detectedTo!))
      .$if(filter.source === 'social', (qb) => qb.where('e.kind', '=', 'social'))
      .$if(filter.source !== undefined && filter.source !== 'social', (qb) =>
        qb.where((eb) =>
          eb.exists(
            eb
              .selectFrom('crisis_evidence as v')
              .select('v.id')
              .whereRef('v.event_id', '=', 'e.id')
              .where('v.source_id', '=', filter.source!),
          ),
        ),
      )
      .$if(filter.freshness === 'missing', (qb) => qb.where('e.evidence_as_of', 'is', null))
      .$if(filter.freshness === 'fresh', (qb) =>
        qb.where(
          sql<SqlBool>`e.evidence_as_of is not null and e.evidence_as_of + e.freshness_window_ms >= ${filter.now}`,
        ),
      )
      .$if(filter.freshness === 'stale', (qb) =>
        qb.where(
          sql<SqlBool>`e.evidence_as_of is not null and e.evidence_as_of + e.freshness_window_ms < ${filter.now}`,
        ),
      )
      .$if(filter.keyword !== undefined, (qb) => {
        const pattern = containsPattern(filter.keyword!);
        return qb.where((eb) =>
          eb.or([
            sql<SqlBool>`lower(e.title) like ${pattern} escape '\\'`,
            sql<SqlBool>`lower(coalesce(e.impacted_entity, '')) like ${pattern} escape '\\'`,
            sql<SqlBool>`lower(e.source_keywords) like ${pattern} escape '\\'`,
          ]),
        );
      })
      .$if(filter.location !== undefined, (qb) => {
        const pattern = containsPattern(filter.location!);
        return qb.where(sql<SqlBool>`lower(coalesce(e.location, '')) like ${pattern} escape '\\'`);
      });
    const totalRow = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll('e')
      .orderBy('e.detected_at', filter.order)
      .orderBy('e.id', filter.order)
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return { rows, total: Number(totalRow.n) };
  }
}
