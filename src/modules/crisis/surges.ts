// Social surges: reads new signals past the detector's cursor in bounded batches, keeps negative mentions of
// watched interest keys, and opens, grows and subsides each watcher's surge event. Every state change records
// its domain event in the same transaction.

import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import { compound, normaliseTokens } from '../trends/index.ts';
import { CRISIS_EVENT_ESCALATED, CRISIS_EVENT_OPENED, CRISIS_EVENT_RESOLVED } from './events.ts';
import { contentHash, evidenceVersion } from './hashing.ts';
import type { CrisisOutbox } from './outbox.ts';
import {
  BASELINE_MS,
  baseline,
  COMPLETENESS_MEANING,
  countIndependent,
  FRESHNESS_WINDOWS_MS,
  freshness,
  hasSubsided,
  isSurge,
  NEGATIVE_COMPOUND,
  reviewStatusAfter,
  SENTIMENT_MODEL,
  SEVERITIES,
  type SeverityBasis,
  SOCIAL_COMPLETENESS_METHOD,
  SOCIAL_METHOD,
  SOCIAL_METHOD_VERSION,
  severityRank,
  socialCompleteness,
  socialSeverity,
  socialSeverityBasis,
  socialSummary,
  WINDOW_MS,
  type WindowMention,
  zScore,
} from './scoring.ts';
import { simhashHex } from './simhash.ts';
import type { CrisisStore, EventRow, MentionRow, SignalRow } from './store.ts';

const BATCH = 500;
const MAX_BATCHES_PER_PASS = 8;
const MAX_EVIDENCE_PER_EVENT = 50;
const EXCERPT_MAX = 500;
const MENTION_RETENTION_MS = BASELINE_MS + 2 * WINDOW_MS + 3600_000;
const IDLE_EVALUATION_MS = 60_000;
/** Hazard feeds also arrive as signals; their events come from the hazard observations instead. */
const HAZARD_SOURCES = new Set(['usgs', 'environment_agency']);
/** Sources whose items are web pages: the independent origin is the page's domain, not the platform. */
const WEB_SOURCES = /^(news|rss|web|blog)/;

const SOCIAL_LIMITATIONS = [
  'Counts only signals Crestwatch ingested; platforms and communities it does not watch are invisible.',
  'Sentiment is VADER (English social-media lexicon): sarcasm, irony, quotes and other languages are misread.',
  'Independent sources are platforms or web domains; one actor posting on several platforms is not detected.',
  'Mentions without an http(s) link count towards detection but cannot be evidence items.',
];

interface Watcher {
  user_id: number;
  keyword: string;
}

function originOf(source: string, url: string | null): string {
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

export class SurgeDetector {
  private lastPruneHour = -1;
  private readonly lastEvaluated = new Map<string, number>();

  constructor(
    private readonly store: CrisisStore,
    private readonly outbox: CrisisOutbox,
    private readonly config: Pick<Config, 'publicBaseUrl'>,
  ) {}

  /** One pass at `now`; returns the number of domain events recorded. */
  async detect(now: number): Promise<number> {
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
    for (const userId of await this.store.surgingUsers(key)) if (!users.has(userId)) users.set(userId, null);
    for (const [userId, watcher] of users) {
      recorded += await this.store.transaction(async (trx) => {
        const open = await this.store.openFor(userId, 'social', key, trx);
        if (open && subsided) return this.subside(open, now, trx);
        if (open) return this.grow(open, counted, count.origins, basis, severity, now, trx);
        if (surge && watcher) {
          return this.open(userId, key, watcher.keyword, counted, count.origins, basis, severity, now, trx);
        }
        return 0;
      });
    }
    return recorded;
  }

  private trendLink(trendId: number): string {
    return `${this.config.publicBaseUrl}/api/trends/${trendId}`;
  }

  private async open(
    userId: number,
    key: string,
    keyword: string,
    counted: MentionRow[],
    origins: string[],
    basis: SeverityBasis,
    severity: string,
    now: number,
    trx: DB,
  ): Promise<number> {
    const trend = await this.store.trendForKey(key, trx);
    const row = await this.store.insertEvent(
      {
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
        trend_snapshot_link: trend ? this.trendLink(trend.id) : null,
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
        detected_at: now,
        created_at: now,
        updated_at: now,
      },
      trx,
    );
    await this.grow(row, counted, origins, basis, severity, now, trx, true);
    return 1;
  }

  /** Adds new evidence and refreshes the numbers; records `escalated` when severity goes up. */
  private async grow(
    event: EventRow,
    counted: MentionRow[],
    origins: string[],
    basis: SeverityBasis,
    severity: string,
    now: number,
    trx: DB,
    opening = false,
  ): Promise<number> {
    const existing = await this.store.evidence(event.id, trx);
    const room = MAX_EVIDENCE_PER_EVENT - existing.length;
    const have = new Set(existing.map((e) => `${e.source_id}\u0000${e.reference_id}`));
    const linked = counted.filter((m) => isHttp(m.url));
    const fresh = linked
      .filter((m) => !have.has(`${m.source}\u0000${m.external_id}`))
      .slice(0, Math.max(0, room));
    const added = await this.store.addEvidence(
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
      trx,
    );
    // Severity is the surge's peak: it never drops while the surge lasts.
    const rank = Math.max(severityRank(severity), event.severity_rank);
    const peak = SEVERITIES[rank - 1];
    const basisText = socialSeverityBasis(basis, peak !== severity ? peak : undefined);
    if (!opening && added === 0 && rank === event.severity_rank && basisText === event.severity_basis)
      return 0;

    const all = added > 0 || opening ? await this.store.evidence(event.id, trx) : existing;
    const asOf = all.length === 0 ? null : Math.max(...all.map((e) => Number(e.observed_at)));
    const fresher = freshness(asOf, FRESHNESS_WINDOWS_MS.social, now) === 'fresh';
    const completeness = socialCompleteness(
      all.length,
      origins.length,
      counted.length === 0 ? 0 : linked.length / counted.length,
      fresher,
    );
    const trend =
      event.trend_id === null
        ? await this.store.trendForKey(event.watch_key, trx)
        : { id: Number(event.trend_id) };
    const patch = {
      severity: peak,
      severity_rank: rank,
      severity_basis: basisText,
      summary: socialSummary(event.impacted_entity, basis, origins),
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
      review_status: reviewStatusAfter(event.review_status, rank, completeness),
      trend_id: trend?.id ?? null,
      trend_snapshot_link: trend ? this.trendLink(trend.id) : null,
      updated_at: now,
    };
    await this.store.updateEvent(event.id, patch, trx);
    const updated = { ...event, ...patch };
    if (opening) return this.outbox.record(CRISIS_EVENT_OPENED, updated, now, trx);
    if (rank > event.severity_rank) return this.outbox.record(CRISIS_EVENT_ESCALATED, updated, now, trx);
    return 0;
  }

  private async subside(event: EventRow, now: number, trx: DB): Promise<number> {
    const patch = { source_state: 'subsided', updated_at: now };
    await this.store.updateEvent(event.id, patch, trx);
    return this.outbox.record(CRISIS_EVENT_RESOLVED, { ...event, ...patch }, now, trx);
  }
}
