// Hazard events: stores what the USGS and Environment Agency feeds observed, then turns each pending
// observation into an event (opened, escalated, resolved) for every user whose resilience location it
// matches. Every state change records its domain event in the same transaction.
import type { Clock } from '../../platform/clock.ts';
import {
  CRISIS_EVENT_ESCALATED,
  CRISIS_EVENT_OPENED,
  CRISIS_EVENT_RESOLVED,
  type CrisisEventType,
} from './events.ts';
import { contentHash, evidenceVersion } from './hashing.ts';
import { type HazardObservation, hazardMatches, type LocationQuery, parseLocationQuery } from './hazards.ts';
import type { CrisisOutbox } from './outbox.ts';
import {
  COMPLETENESS_MEANING,
  FRESHNESS_WINDOWS_MS,
  freshness,
  HAZARD_COMPLETENESS_METHOD,
  HAZARD_METHOD,
  HAZARD_METHOD_VERSION,
  hazardCompleteness,
  hazardSeverityBasis,
  reviewStatusAfter,
  SEVERITIES,
  severityRank,
} from './scoring.ts';
import type { CrisisStore, HazardRow } from './store.ts';

const PENDING_PER_PASS = 200;

const HAZARD_LIMITATIONS = [
  "The provider's record can be revised or withdrawn; each evidence item is the version retrieved then.",
  "Matching uses the feed's own place and area names or a radius around a point; actual impact on your sites is not assessed.",
];

export class HazardEvents {
  constructor(
    private readonly store: CrisisStore,
    private readonly outbox: CrisisOutbox,
    private readonly clock: Clock,
  ) {}

  /** Stores what a hazard feed observed (the source adapters' sink); matching happens in the next pass. */
  async record(observations: HazardObservation[]): Promise<void> {
    const now = this.clock.now();
    for (const o of observations) {
      await this.store.upsertHazard({
        source: o.source,
        reference_id: o.reference_id,
        revision_hash: contentHash(`${o.excerpt}\n${o.provider_severity}\n${o.source_state}`),
        title: o.title,
        place: o.place,
        areas: JSON.stringify(o.areas),
        latitude: o.latitude,
        longitude: o.longitude,
        magnitude: o.magnitude,
        alert: o.alert,
        provider_severity: o.provider_severity,
        severity: o.severity,
        source_state: o.source_state,
        url: o.url,
        excerpt: o.excerpt,
        attribution: o.attribution,
        licence_url: o.licence_url,
        observed_at: o.observed_at,
        retrieved_at: now,
        pending: 1,
      });
    }
  }

  /** Matches pending observations against every user's location; returns the domain events recorded. */
  async processPending(): Promise<number> {
    const pending = await this.store.pendingHazards(PENDING_PER_PASS);
    if (pending.length === 0) return 0;
    const settings = (await this.store.locationSettings()).flatMap((s) => {
      const query = s.location_query === null ? null : parseLocationQuery(s.location_query);
      return query && !('error' in query) ? [{ userId: s.user_id, raw: s.location_query!, query }] : [];
    });
    let recorded = 0;
    for (const hazard of pending) {
      for (const s of settings) recorded += await this.apply(hazard, s.userId, s.raw, s.query);
      await this.store.markHazardDone(hazard.id, hazard.revision_hash);
    }
    return recorded;
  }

  /** Re-matches recent hazards for one user (after they change their location). */
  async rematchUser(userId: number, raw: string, query: LocationQuery): Promise<number> {
    const since = this.clock.now() - FRESHNESS_WINDOWS_MS.usgs;
    let recorded = 0;
    for (const hazard of await this.store.hazardsSince(since)) {
      if (hazard.pending === 1) continue;
      recorded += await this.apply(hazard, userId, raw, query, true);
    }
    return recorded;
  }

  private async apply(
    hazard: HazardRow,
    userId: number,
    raw: string,
    query: LocationQuery,
    onlyNew = false,
  ): Promise<number> {
    const areas = JSON.parse(hazard.areas) as string[];
    const match = hazardMatches(query, {
      place: hazard.place,
      areas,
      latitude: hazard.latitude,
      longitude: hazard.longitude,
    });
    if (!match.match) return 0;
    const now = this.clock.now();
    const watchKey = `${hazard.source}:${hazard.reference_id}`;
    const ended = hazard.source_state === 'deleted' || /no longer in force/i.test(hazard.source_state);
    return this.store.transaction(async (trx) => {
      const existing = await this.store.openFor(userId, 'hazard', watchKey, trx);
      if (existing && onlyNew) return 0;
      if (!existing && ended) return 0;
      const sourceName = hazard.source === 'usgs' ? 'USGS' : 'The Environment Agency';
      const where =
        hazard.latitude !== null && hazard.longitude !== null
          ? `${hazard.place ?? 'unnamed place'} (${hazard.latitude.toFixed(3)}, ${hazard.longitude.toFixed(3)})`
          : [hazard.place, ...areas].filter(Boolean).join('; ');
      const distance =
        match.distanceKm === undefined ? '' : ` ${match.distanceKm} km from your location "${raw}".`;
      const summary = `${sourceName} reports: ${hazard.title}.${distance || ` It matches your location "${raw}".`}`;
      const basis = hazardSeverityBasis(hazard.source, hazard.provider_severity);
      const rank = severityRank(hazard.severity);
      let event = existing;
      let type: CrisisEventType | null = null;
      if (!event) {
        event = await this.store.insertEvent(
          {
            user_id: userId,
            kind: 'hazard',
            watch_key: watchKey,
            title: hazard.title,
            summary,
            severity: hazard.severity,
            severity_rank: rank,
            status: 'active',
            review_status: 'unreviewed',
            source_state: hazard.source_state,
            impacted_entity: raw,
            source_keywords: JSON.stringify([hazard.source === 'usgs' ? 'earthquake' : 'flood']),
            trend_id: null,
            trend_snapshot_link: null,
            detection_method: HAZARD_METHOD,
            method_version: HAZARD_METHOD_VERSION,
            model_version: null,
            provider_severity: hazard.provider_severity,
            location: where,
            severity_basis: basis,
            corroboration: JSON.stringify({
              independent_sources: 1,
              sources: [hazard.source],
              score: 1,
              official: true,
            }),
            evidence_completeness: null,
            limitations: JSON.stringify(HAZARD_LIMITATIONS),
            analysis_status: 'complete',
            evidence_version: null,
            evidence_as_of: null,
            freshness_window_ms: FRESHNESS_WINDOWS_MS[hazard.source] ?? FRESHNESS_WINDOWS_MS.social,
            event_seq: 0,
            detected_at: now,
            created_at: now,
            updated_at: now,
          },
          trx,
        );
        type = CRISIS_EVENT_OPENED;
      } else if (ended && !/no longer in force|deleted/i.test(event.source_state ?? '')) {
        type = CRISIS_EVENT_RESOLVED;
      } else if (rank > event.severity_rank) {
        type = CRISIS_EVENT_ESCALATED;
      }
      await this.store.addEvidence(
        [
          {
            event_id: event.id,
            source_id: hazard.source,
            reference_id: hazard.reference_id,
            source_url: hazard.url,
            observed_at: Number(hazard.observed_at),
            retrieved_at: Number(hazard.retrieved_at),
            excerpt: hazard.excerpt,
            claim: `${sourceName} record ${hazard.reference_id}: ${hazard.provider_severity} (state: ${hazard.source_state}).`,
            content_hash: contentHash(hazard.excerpt),
            attribution: hazard.attribution,
            licence_url: hazard.licence_url,
          },
        ],
        trx,
      );
      const all = await this.store.evidence(event.id, trx);
      const asOf = Math.max(...all.map((e) => Number(e.observed_at)));
      const completeness = hazardCompleteness(
        true,
        true,
        freshness(asOf, Number(event.freshness_window_ms), now) === 'fresh',
      );
      const newRank = Math.max(rank, event.severity_rank);
      const patch = {
        severity: SEVERITIES[newRank - 1],
        severity_rank: newRank,
        provider_severity: hazard.provider_severity,
        source_state: hazard.source_state,
        severity_basis: basis,
        summary,
        evidence_version: evidenceVersion(all.map((e) => e.content_hash)),
        evidence_as_of: asOf,
        evidence_completeness: JSON.stringify({
          score: completeness,
          method: HAZARD_COMPLETENESS_METHOD,
          meaning: COMPLETENESS_MEANING,
        }),
        review_status: reviewStatusAfter(event.review_status, newRank, completeness),
        updated_at: now,
      };
      await this.store.updateEvent(event.id, patch, trx);
      return type ? this.outbox.record(type, { ...event, ...patch }, now, trx) : 0;
    });
  }
}
