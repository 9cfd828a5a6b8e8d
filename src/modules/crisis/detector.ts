// The crisis detector: one pass after each trend-engine pass. It reads new signals past its own cursor in
// bounded batches, keeps negative mentions of watched interest keys, opens, grows and subsides social surge
// events, and turns pending hazard observations into events for users whose location they concern. Every
// state change records its domain event in the same transaction.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import { isoString } from '../../platform/clock.ts';
import type { DB } from '../../platform/db/index.ts';
import type { DomainEvents } from '../../platform/events.ts';
import { normaliseTokens } from '../trends/extraction.ts';
import { compound } from '../trends/sentiment.ts';
import {
  CRISIS_EVENT_ESCALATED,
  CRISIS_EVENT_OPENED,
  CRISIS_EVENT_RESOLVED,
  type CrisisDomainEventData,
  type CrisisEventType,
} from './events.ts';
import { contentHash, evidenceVersion } from './hashing.ts';
import { type HazardObservation, hazardMatches, type LocationQuery, parseLocationQuery } from './hazards.ts';
import {
  BASELINE_MS,
  baseline,
  COMPLETENESS_MEANING,
  countIndependent,
  FRESHNESS_WINDOWS_MS,
  freshness,
  HAZARD_COMPLETENESS_METHOD,
  HAZARD_METHOD,
  HAZARD_METHOD_VERSION,
  hasSubsided,
  hazardCompleteness,
  isSurge,
  NEGATIVE_COMPOUND,
  SENTIMENT_MODEL,
  SEVERITIES,
  type SeverityBasis,
  SOCIAL_COMPLETENESS_METHOD,
  SOCIAL_METHOD,
  SOCIAL_METHOD_VERSION,
  severityRank,
  socialCompleteness,
  socialSeverity,
  WINDOW_MS,
  type WindowMention,
  zScore,
} from './scoring.ts';
import { simhashHex } from './simhash.ts';
import type { CrisisStore, EventRow, HazardRow, MentionRow, SignalRow } from './store.ts';

const BATCH = 500;
const MAX_BATCHES_PER_PASS = 8;
const MAX_EVIDENCE_PER_EVENT = 50;
export const EXCERPT_MAX = 500;
const MENTION_RETENTION_MS = BASELINE_MS + 2 * WINDOW_MS + 3600_000;
const IDLE_EVALUATION_MS = 60_000;
/** A detector instance that stops renewing its lease hands over after this long. */
const LEASE_MS = 30_000;
const HAZARD_SOURCES = new Set(['usgs', 'environment_agency']);
/** Sources whose items are web pages: the independent origin is the page's domain, not the platform. */
const WEB_SOURCES = /^(news|rss|web|blog)/;

export const SOCIAL_LIMITATIONS = [
  'Counts only signals Crestwatch ingested; platforms and communities it does not watch are invisible.',
  'Sentiment is VADER (English social-media lexicon): sarcasm, irony, quotes and other languages are misread.',
  'Independent sources are platforms or web domains; one actor posting on several platforms is not detected.',
  'Mentions without an http(s) link count towards detection but cannot be evidence items.',
];
export const HAZARD_LIMITATIONS = [
  "The provider's record can be revised or withdrawn; each evidence item is the version retrieved then.",
  "Matching uses the feed's own place and area names or a radius around a point; actual impact on your sites is not assessed.",
];

interface Watcher {
  user_id: number;
  keyword: string;
}

export function originOf(source: string, url: string | null): string {
  if (url && WEB_SOURCES.test(source)) {
    try {
      return new URL(url).hostname.replace(/^www\./, '').toLowerCase();
    } catch {
      // fall through
    }
  }
  return source;
}

function engagementTotal(raw: string | null): number {
  if (!raw) return 0;
  try {
    const e = JSON.parse(raw) as Record<string, unknown>;
    let n = 0;
    for (const k of ['likes', 'shares', 'comments']) if (typeof e[k] === 'number') n += e[k] as number;
    return Math.max(0, Math.round(n));
  } catch {
    return 0;
  }
}

const isHttp = (url: string | null): url is string => url !== null && /^https?:\/\//i.test(url);

/** Whether `tokens` contains `key` as a contiguous run of whole tokens. */
function containsRun(tokens: string[], key: string[]): boolean {
  outer: for (let i = 0; i + key.length <= tokens.length; i++) {
    for (let j = 0; j < key.length; j++) if (tokens[i + j] !== key[j]) continue outer;
    return true;
  }
  return false;
}

export class CrisisDetector {
  private lastPruneHour = -1;
  private readonly lastEvaluated = new Map<string, number>();
  private readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(
    private readonly store: CrisisStore,
    private readonly events: DomainEvents,
    private readonly clock: Clock,
    private readonly config: Pick<Config, 'publicBaseUrl'>,
  ) {}

  /** Gives the lease up (shutdown), so another instance takes over at once. */
  release(): Promise<void> {
    return this.store.release(this.holder);
  }

  private get db(): DB {
    return this.store.db;
  }

  /** One detection pass; returns the number of domain events recorded (0 while another instance detects). */
  async run(): Promise<number> {
    const now = this.clock.now();
    if (!(await this.store.lease(this.holder, now, now + LEASE_MS))) return 0;
    const watchers = new Map<string, Watcher[]>();
    for (const row of await this.store.watchedInterests()) {
      const list = watchers.get(row.key) ?? [];
      list.push({ user_id: row.user_id, keyword: row.keyword });
      watchers.set(row.key, list);
    }
    const touched = await this.readSignals(watchers);
    let recorded = 0;
    // Keys with new mentions now; surging keys without any at most once a minute (to notice them subside).
    const keys = new Set(touched);
    for (const { watch_key } of await this.store.surgingSocialKeys()) {
      if (now - (this.lastEvaluated.get(watch_key) ?? 0) >= IDLE_EVALUATION_MS) keys.add(watch_key);
    }
    for (const key of keys) {
      this.lastEvaluated.set(key, now);
      recorded += await this.evaluate(key, watchers.get(key) ?? [], now);
    }
    if (this.lastEvaluated.size > 10_000) this.lastEvaluated.clear();
    recorded += await this.processHazards();
    const hour = Math.floor(now / 3600_000);
    if (hour !== this.lastPruneHour) {
      this.lastPruneHour = hour;
      await this.store.pruneMentions(now - MENTION_RETENTION_MS);
    }
    return recorded;
  }

  /** Stores negative mentions of watched keys from new signals; returns the keys that got some. */
  private async readSignals(watchers: Map<string, Watcher[]>): Promise<Set<string>> {
    const touched = new Set<string>();
    let cursor = (await this.store.cursor('signals')) ?? 0;
    if (watchers.size === 0) {
      // Nothing to watch: skip ahead, so a later interest only sees signals from its creation on.
      const max = await this.store.maxSignalId();
      if (max > cursor) await this.store.setCursor('signals', max);
      return touched;
    }
    const byFirst = new Map<string, { key: string; tokens: string[] }[]>();
    for (const key of watchers.keys()) {
      const tokens = key.split(' ');
      const list = byFirst.get(tokens[0]) ?? [];
      list.push({ key, tokens });
      byFirst.set(tokens[0], list);
    }
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch++) {
      const signals = await this.store.signalsAfter(cursor, BATCH);
      if (signals.length === 0) break;
      const mentions = signals.flatMap((s) => this.mentionsOf(s, byFirst));
      await this.store.insertMentions(mentions);
      for (const m of mentions) touched.add(m.key);
      cursor = signals[signals.length - 1].id;
      await this.store.setCursor('signals', cursor);
      if (signals.length < BATCH) break;
    }
    return touched;
  }

  private mentionsOf(signal: SignalRow, byFirst: Map<string, { key: string; tokens: string[] }[]>) {
    if (HAZARD_SOURCES.has(signal.source)) return [];
    const full =
      signal.title && !signal.text.startsWith(signal.title) ? `${signal.title}\n${signal.text}` : signal.text;
    const tokens = normaliseTokens(full);
    const keys = new Set<string>();
    for (const token of new Set(tokens)) {
      for (const candidate of byFirst.get(token) ?? []) {
        if (containsRun(tokens, candidate.tokens)) keys.add(candidate.key);
      }
    }
    if (keys.size === 0) return [];
    const score = compound(full);
    if (score > NEGATIVE_COMPOUND) return [];
    const excerpt = [...full.replace(/\s+/g, ' ').trim()].slice(0, EXCERPT_MAX).join('');
    const hash = simhashHex(full);
    return [...keys].map((key) => ({
      key,
      signal_id: signal.id,
      source: signal.source,
      origin: originOf(signal.source, signal.url),
      author: signal.author,
      external_id: signal.external_id,
      url: signal.url,
      excerpt,
      compound: score,
      engagement: engagementTotal(signal.engagement),
      simhash: hash,
      observed_at: Number(signal.observed_at),
    }));
  }

  /** Surge state of one key now, then open, grow or subside each watcher's event. */
  private async evaluate(key: string, watchers: Watcher[], now: number): Promise<number> {
    const windowStart = now - WINDOW_MS;
    const rows = await this.store.mentionsBetween(key, windowStart, now);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const mentions: WindowMention[] = rows.map((r) => ({
      id: r.id,
      origin: r.origin,
      source: r.source,
      author: r.author,
      compound: r.compound,
      engagement: Number(r.engagement),
      simhash: BigInt(`0x${r.simhash}`),
      observed_at: Number(r.observed_at),
    }));
    const count = countIndependent(mentions);
    const times = await this.store.mentionTimes(key, windowStart - BASELINE_MS, windowStart);
    const base = baseline(times, windowStart - BASELINE_MS, windowStart);
    const z = zScore(count.counted.length, base);
    const surge = isSurge(count, z);
    const subsided = hasSubsided(count, z);
    const counted = count.counted.map((m) => byId.get(m.id)!);
    const { severity, basis } = socialSeverity(count, z, base);

    let recorded = 0;
    const users = new Map<number, Watcher | null>(watchers.map((w) => [w.user_id, w]));
    const surging = await this.db
      .selectFrom('crisis_events')
      .select('user_id')
      .where('kind', '=', 'social')
      .where('watch_key', '=', key)
      .where('source_state', '=', 'surging')
      .execute();
    for (const row of surging) if (!users.has(row.user_id)) users.set(row.user_id, null);
    for (const [userId, watcher] of users) {
      recorded += await this.db.transaction().execute(async (trx) => {
        const open = await this.store.openFor(trx, userId, 'social', key);
        if (open && subsided) return this.subside(trx, open, now);
        if (open) return this.growSocial(trx, open, counted, count.origins, basis, severity, now);
        if (surge && watcher) {
          return this.openSocial(
            trx,
            userId,
            key,
            watcher.keyword,
            counted,
            count.origins,
            basis,
            severity,
            now,
          );
        }
        return 0;
      });
    }
    return recorded;
  }

  private async openSocial(
    trx: DB,
    userId: number,
    key: string,
    keyword: string,
    counted: MentionRow[],
    origins: string[],
    basis: SeverityBasis,
    severity: string,
    now: number,
  ): Promise<number> {
    const trend = await this.store.trendForKey(trx, key);
    const detectedAt = now;
    const row = await this.store.insertEvent(trx, {
      user_id: userId,
      kind: 'social',
      watch_key: key,
      title: `Negative surge around "${keyword}"`,
      summary: '',
      severity,
      severity_rank: severityRank(severity),
      status: 'active',
      review_status: 'unreviewed',
      source_state: 'surging',
      impacted_entity: keyword,
      source_keywords: JSON.stringify([keyword]),
      trend_id: trend?.id ?? null,
      trend_snapshot_link: trend ? `${this.config.publicBaseUrl}/api/trends/${trend.id}` : null,
      detection_method: SOCIAL_METHOD,
      method_version: SOCIAL_METHOD_VERSION,
      model_version: SENTIMENT_MODEL,
      provider_severity: null,
      location: null,
      severity_basis: null,
      corroboration: null,
      evidence_completeness: null,
      limitations: JSON.stringify(SOCIAL_LIMITATIONS),
      analysis_status: 'complete',
      evidence_version: null,
      evidence_as_of: null,
      freshness_window_ms: FRESHNESS_WINDOWS_MS.social,
      event_seq: 0,
      detected_at: detectedAt,
      created_at: now,
      updated_at: now,
    });
    await this.growSocial(trx, row, counted, origins, basis, severity, now, true);
    return 1;
  }

  /** Adds new evidence and refreshes the numbers; records `escalated` when severity goes up. */
  private async growSocial(
    trx: DB,
    event: EventRow,
    counted: MentionRow[],
    origins: string[],
    basis: SeverityBasis,
    severity: string,
    now: number,
    opening = false,
  ): Promise<number> {
    const existing = await this.store.evidence(trx, event.id);
    const room = MAX_EVIDENCE_PER_EVENT - existing.length;
    const have = new Set(existing.map((e) => `${e.source_id}\u0000${e.reference_id}`));
    const linked = counted.filter((m) => isHttp(m.url));
    const fresh = linked
      .filter((m) => !have.has(`${m.source}\u0000${m.external_id}`))
      .slice(0, Math.max(0, room));
    const added = await this.store.addEvidence(
      trx,
      fresh.map((m) => ({
        event_id: event.id,
        source_id: m.source,
        reference_id: m.external_id,
        source_url: m.url!,
        observed_at: Number(m.observed_at),
        retrieved_at: now,
        excerpt: m.excerpt,
        claim: `A negative mention (VADER compound ${m.compound.toFixed(2)}) of "${event.impacted_entity}" on ${m.origin}.`,
        content_hash: contentHash(m.excerpt),
        attribution: m.author ? `${m.author} on ${m.source}` : m.source,
        licence_url: null,
      })),
    );
    // Severity is the surge's peak: it never drops while the surge lasts.
    const rank = Math.max(severityRank(severity), event.severity_rank);
    const peak = SEVERITIES[rank - 1];
    const basisText =
      `score ${basis.score} = 100 × (0.35 × surge ${basis.surge} + 0.25 × negativity ${basis.negativity} + ` +
      `0.20 × reach ${basis.reach} + 0.20 × corroboration ${basis.corroboration}); z ${basis.z} over a baseline ` +
      `of ${basis.baseline_mean} negative mentions per 30 min; ${basis.mentions} counted mentions ` +
      `(mean compound ${basis.mean_compound}, engagement ${basis.engagement}) from ${basis.independent_sources} ` +
      `independent sources. Bands: critical ≥ 75, high ≥ 55, medium ≥ 35, else low` +
      (peak !== severity ? `; severity kept at its peak (${peak}).` : '.');
    if (!opening && added === 0 && rank === event.severity_rank && basisText === event.severity_basis)
      return 0;

    const all = added > 0 || opening ? await this.store.evidence(trx, event.id) : existing;
    const asOf = all.length === 0 ? null : Math.max(...all.map((e) => Number(e.observed_at)));
    const fresher = freshness(asOf, FRESHNESS_WINDOWS_MS.social, now) === 'fresh';
    const completeness = socialCompleteness(
      all.length,
      origins.length,
      counted.length === 0 ? 0 : linked.length / counted.length,
      fresher,
    );
    const reviewStatus = ['unreviewed', 'needs_review'].includes(event.review_status)
      ? rank >= 3 || completeness < 60
        ? 'needs_review'
        : 'unreviewed'
      : event.review_status;
    const trend =
      event.trend_id === null
        ? await this.store.trendForKey(trx, event.watch_key)
        : { id: Number(event.trend_id) };
    const patch = {
      severity: peak,
      severity_rank: rank,
      severity_basis: basisText,
      summary:
        `${basis.mentions} negative mentions of "${event.impacted_entity}" in the last 30 minutes from ` +
        `${origins.length} independent sources (${origins.join(', ')}), against a baseline of ` +
        `${basis.baseline_mean} per 30 minutes (z = ${basis.z}).`,
      corroboration: JSON.stringify({
        independent_sources: origins.length,
        sources: origins,
        score: basis.corroboration,
        counted_mentions: basis.mentions,
      }),
      evidence_completeness: JSON.stringify({
        score: completeness,
        method: SOCIAL_COMPLETENESS_METHOD,
        meaning: COMPLETENESS_MEANING,
      }),
      analysis_status: linked.length > all.length ? 'partial' : 'complete',
      evidence_version: evidenceVersion(all.map((e) => e.content_hash)),
      evidence_as_of: asOf,
      review_status: reviewStatus,
      trend_id: trend?.id ?? null,
      trend_snapshot_link: trend ? `${this.config.publicBaseUrl}/api/trends/${trend.id}` : null,
      updated_at: now,
    };
    await this.store.updateEvent(trx, event.id, patch);
    const updated = { ...event, ...patch };
    if (opening) return this.record(trx, CRISIS_EVENT_OPENED, updated, now);
    if (rank > event.severity_rank) return this.record(trx, CRISIS_EVENT_ESCALATED, updated, now);
    return 0;
  }

  private async subside(trx: DB, event: EventRow, now: number): Promise<number> {
    const patch = { source_state: 'subsided', updated_at: now };
    await this.store.updateEvent(trx, event.id, patch);
    return this.record(trx, CRISIS_EVENT_RESOLVED, { ...event, ...patch }, now);
  }

  private async record(trx: DB, type: CrisisEventType, event: EventRow, now: number): Promise<number> {
    const seq = event.event_seq + 1;
    await this.store.updateEvent(trx, event.id, { event_seq: seq });
    const data: CrisisDomainEventData = {
      crisis_event_id: event.id,
      user_id: event.user_id,
      title: event.title,
      severity: event.severity,
      status: event.status,
      impacted_entity: event.impacted_entity,
      detected_at: isoString(event.detected_at)!,
      summary: event.summary,
      source_link: `${this.config.publicBaseUrl}/api/intelligence/crisis-events/${event.id}`,
      trend_id: event.trend_id === null ? null : Number(event.trend_id),
      source_keywords: JSON.parse(event.source_keywords) as string[],
    };
    await this.events.record(trx, {
      id: `${type}:${event.id}:${seq}`,
      type,
      occurred_at: now,
      data: data as unknown as Record<string, unknown>,
    });
    return 1;
  }

  // --- hazards --------------------------------------------------------------------------------------

  /** Stores what a hazard feed observed (the source adapters' sink); matching happens in the next pass. */
  async recordHazards(observations: HazardObservation[]): Promise<void> {
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

  private async processHazards(): Promise<number> {
    const pending = await this.store.pendingHazards(200);
    if (pending.length === 0) return 0;
    const settings = (await this.store.locationSettings()).flatMap((s) => {
      const query = s.location_query === null ? null : parseLocationQuery(s.location_query);
      return query && !('error' in query) ? [{ userId: s.user_id, raw: s.location_query!, query }] : [];
    });
    let recorded = 0;
    for (const hazard of pending) {
      for (const s of settings) recorded += await this.applyHazard(hazard, s.userId, s.raw, s.query);
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
      recorded += await this.applyHazard(hazard, userId, raw, query, true);
    }
    return recorded;
  }

  private async applyHazard(
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
    return this.db.transaction().execute(async (trx) => {
      const existing = await this.store.openFor(trx, userId, 'hazard', watchKey);
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
      const basis =
        hazard.source === 'usgs'
          ? `Provider severity ${hazard.provider_severity}. Mapping: PAGER alert red → critical, orange → high, ` +
            'yellow → medium, green → low (medium from M 6); without an alert M ≥ 7 critical, ≥ 6 high, ≥ 4.5 medium, else low.'
          : `Provider severity ${hazard.provider_severity}. Mapping: level 1 (severe flood warning) → critical, ` +
            '2 (flood warning) → high, 3 (flood alert) → medium, 4 (no longer in force) → low.';
      const rank = severityRank(hazard.severity);
      let event = existing;
      let type: CrisisEventType | null = null;
      if (!event) {
        event = await this.store.insertEvent(trx, {
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
        });
        type = CRISIS_EVENT_OPENED;
      } else if (ended && !/no longer in force|deleted/i.test(event.source_state ?? '')) {
        type = CRISIS_EVENT_RESOLVED;
      } else if (rank > event.severity_rank) {
        type = CRISIS_EVENT_ESCALATED;
      }
      await this.store.addEvidence(trx, [
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
      ]);
      const all = await this.store.evidence(trx, event.id);
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
        review_status: ['unreviewed', 'needs_review'].includes(event.review_status)
          ? newRank >= 3 || completeness < 60
            ? 'needs_review'
            : 'unreviewed'
          : event.review_status,
        updated_at: now,
      };
      await this.store.updateEvent(trx, event.id, patch);
      return type ? this.record(trx, type, { ...event, ...patch }, now) : 0;
    });
  }
}
