// Social surges: reads new signals past the detector's cursor in bounded batches, keeps the mentions of watched
// interest keys, and on every pass evaluates each touched key over sliding windows (scoring.ts): a surge of
// mentions enough of which are negative (VADER) or alarming (crisis language, alarm.ts) opens, grows and subsides
// each watcher's event. Every state change records its domain event in the same transaction.

import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import { compound, normaliseTokens } from '../trends/index.ts';
import { type Alarm, alarm, isAlarming } from './alarm.ts';
import { CRISIS_EVENT_ESCALATED, CRISIS_EVENT_OPENED, CRISIS_EVENT_RESOLVED } from './events.ts';
import { contentHash, evidenceVersion } from './hashing.ts';
import { HAZARD_SOURCES, linkedDomains, originOf } from './origins.ts';
import type { CrisisOutbox } from './outbox.ts';
import {
  alarmTermCounts,
  COMPLETENESS_MEANING,
  countIndependent,
  FRESHNESS_WINDOWS_MS,
  freshness,
  HISTORY_MS,
  hasSubsided,
  independentEvidence,
  isConcern,
  isSurge,
  LONGEST_WINDOW_MS,
  type MinuteCount,
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
  socialCorroboration,
  socialSeverity,
  socialSeverityBasis,
  socialSummary,
  WINDOWS_MS,
  type WindowMention,
  windowBaseline,
  zScore,
} from './scoring.ts';
import { simhashHex } from './simhash.ts';
import type { CrisisStore, EventRow, MentionRow, SignalRow } from './store.ts';

const BATCH = 500;
const MAX_BATCHES_PER_PASS = 8;
const MAX_EVIDENCE_PER_EVENT = 50;
const EXCERPT_MAX = 500;
const MENTION_RETENTION_MS = HISTORY_MS + LONGEST_WINDOW_MS + 3600_000;
const IDLE_EVALUATION_MS = 60_000;
/**
 * An interest matches a text when all its words occur within a span of (its words + NEAR_SLACK) tokens, in any
 * order: "Spain train" matches "train crash in Spain", "metro north derailment" matches "Metro-North train
 * derailment". A one-word interest is a whole-word match.
 */
const NEAR_SLACK = 4;
/** A hazard feed's record is an official alarm by nature. */
const OFFICIAL_ALARM: Alarm = { score: 1, terms: ['official hazard record'], categories: ['hazard'] };
/** Mentions whose alarm and links were read (by mention id); cleared when it grows past the bound. */
const READ_CACHE_MAX = 50_000;

const SOCIAL_LIMITATIONS = [
  'Counts only signals Crestwatch ingested; platforms and communities it does not watch are invisible.',
  'Sentiment is VADER (English social-media lexicon): sarcasm, irony, quotes and other languages are misread.',
  'Crisis words are a curated lexicon (English and the core hazard words of eight other languages): slang, ' +
    'other languages, drills, fiction and old news are not told apart.',
  'Independent evidence counts accounts, linked domains, official sources and platforms; coordinated accounts ' +
    'writing different texts count as independent.',
  'Mentions without an http(s) link count towards detection but cannot be evidence items.',
];

interface Watcher {
  user_id: number;
  keyword: string;
}

interface Candidate {
  key: string;
  tokens: string[];
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

/** Whether every word of `key` occurs in `tokens` within a span of key.length + NEAR_SLACK tokens. */
export function matchesNear(tokens: readonly string[], key: readonly string[]): boolean {
  if (key.length === 1) return tokens.includes(key[0]);
  const words = new Set(key);
  const span = key.length + NEAR_SLACK;
  for (let i = 0; i < tokens.length; i++) {
    if (!words.has(tokens[i])) continue;
    const seen = new Set<string>();
    for (let j = i; j < Math.min(tokens.length, i + span); j++) if (words.has(tokens[j])) seen.add(tokens[j]);
    if (seen.size === words.size) return true;
  }
  return false;
}

interface Reading {
  /** The longest window's counted mentions of concern (evidence items come from them). */
  counted: MentionRow[];
  /** Origins, numbers and alarm terms of the window that carried the surge. */
  origins: string[];
  basis: SeverityBasis;
  severity: string;
  terms: Record<string, number>;
}

/** An evidence item's claim: what made the mention count. */
function claimOf(m: MentionRow, entity: string | null, a: Alarm): string {
  const why: string[] = [];
  if (m.compound <= NEGATIVE_COMPOUND) why.push(`negative, VADER compound ${m.compound.toFixed(2)}`);
  if (isAlarming(a)) why.push(`alarming: ${a.terms.slice(0, 5).join(', ')}`);
  return `A mention of "${entity}" on ${m.origin} (${why.join('; ') || 'counted'}).`;
}

interface WindowState {
  windowMs: number;
  count: ReturnType<typeof countIndependent>;
  z: number;
  holds: boolean;
  subsided: boolean;
  severity: ReturnType<typeof socialSeverity>;
}

export class SurgeDetector {
  private lastPruneHour = -1;
  private readonly lastEvaluated = new Map<string, number>();
  /** What each stored mention's excerpt says (alarm, linked domains), read once per mention id. */
  private readonly reads = new Map<number, { alarm: Alarm; domains: string[] }>();

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
    if (this.reads.size > READ_CACHE_MAX) this.reads.clear();
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
    const byFirst = new Map<string, Candidate[]>();
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

  private mentionsOf(signal: SignalRow, byFirst: Map<string, Candidate[]>) {
    const full =
      signal.title && !signal.text.startsWith(signal.title) ? `${signal.title}\n${signal.text}` : signal.text;
    const tokens = normaliseTokens(full);
    const keys = new Set<string>();
    for (const token of new Set(tokens)) {
      for (const candidate of byFirst.get(token) ?? []) {
        if (matchesNear(tokens, candidate.tokens)) keys.add(candidate.key);
      }
    }
    if (keys.size === 0) return [];
    const score = HAZARD_SOURCES.has(signal.source) ? 0 : compound(full);
    const excerpt = [...full.replace(/\s+/g, ' ').trim()].slice(0, EXCERPT_MAX).join('');
    const hash = simhashHex(full);
    // Every mention is kept (the surge counts them all); whether it is of concern is read at evaluation.
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

  /** The alarm and linked domains of a stored mention, read from its excerpt once. */
  private read(row: MentionRow): { alarm: Alarm; domains: string[] } {
    let read = this.reads.get(row.id);
    if (!read) {
      read = {
        alarm: HAZARD_SOURCES.has(row.source) ? OFFICIAL_ALARM : alarm(row.excerpt, row.key),
        domains: linkedDomains(row.excerpt).filter((d) => d !== row.origin),
      };
      this.reads.set(row.id, read);
    }
    return read;
  }

  /** Surge state of one key now over every window, then open, grow or subside each watcher's event. */
  private async evaluate(key: string, watchers: Watcher[], now: number): Promise<number> {
    const rows = await this.store.mentionsBetween(key, now - LONGEST_WINDOW_MS, now);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const mentions: WindowMention[] = rows.map((r) => {
      const read = this.read(r);
      return {
        id: r.id,
        origin: r.origin,
        source: r.source,
        author: r.author,
        compound: r.compound,
        alarm: read.alarm.score,
        terms: read.alarm.terms,
        domains: read.domains,
        engagement: Number(r.engagement),
        simhash: BigInt(`0x${r.simhash}`),
        observed_at: Number(r.observed_at),
      };
    });
    const minutes: MinuteCount[] = await this.store.mentionMinutes(key, now - HISTORY_MS, now);
    const windows: WindowState[] = WINDOWS_MS.map((windowMs) => {
      const count = countIndependent(mentions.filter((m) => m.observed_at > now - windowMs));
      const evidence = independentEvidence(count.counted);
      const base = windowBaseline(minutes, now, windowMs);
      const z = zScore(count.counted.length, base);
      return {
        windowMs,
        count,
        z,
        holds: isSurge(count, evidence, z, windowMs),
        subsided: hasSubsided(count, z),
        severity: socialSeverity(count, evidence, z, base, windowMs),
      };
    });
    const surge = windows.some((w) => w.holds);
    const subsided = windows.every((w) => w.subsided);
    // The numbers an event shows: the window holding the surge with the highest score (else the highest score).
    const pool = surge ? windows.filter((w) => w.holds) : windows;
    const chosen = pool.reduce((best, w) => (w.severity.basis.score > best.severity.basis.score ? w : best));
    const { severity, basis } = chosen.severity;
    const terms = alarmTermCounts(chosen.count.counted);
    // Evidence items: the longest window's counted mentions of concern (it holds every shorter window's).
    const longest = windows[windows.length - 1];
    const counted = longest.count.counted.filter(isConcern).map((m) => byId.get(m.id)!);
    const reading: Reading = { counted, origins: chosen.count.origins, basis, severity, terms };

    let recorded = 0;
    const users = new Map<number, Watcher | null>(watchers.map((w) => [w.user_id, w]));
    for (const userId of await this.store.surgingUsers(key)) if (!users.has(userId)) users.set(userId, null);
    for (const [userId, watcher] of users) {
      recorded += await this.store.transaction(async (trx) => {
        const open = await this.store.openFor(userId, 'social', key, trx);
        if (open && subsided) return this.subside(open, now, trx);
        if (open) return this.grow(open, reading, now, trx);
        if (surge && watcher) return this.open(userId, key, watcher.keyword, reading, now, trx);
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
    reading: Reading,
    now: number,
    trx: DB,
  ): Promise<number> {
    const { basis, severity } = reading;
    const trend = await this.store.trendForKey(key, trx);
    const row = await this.store.insertEvent(
      {
        user_id: userId,
        kind: 'social',
        watch_key: key,
        title:
          basis.alarming > basis.negative
            ? `Alarming surge around "${keyword}"`
            : `Negative surge around "${keyword}"`,
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
    await this.grow(row, reading, now, trx, true);
    return 1;
  }

  /** Adds new evidence and refreshes the numbers; records `escalated` when severity goes up. */
  private async grow(
    event: EventRow,
    reading: Reading,
    now: number,
    trx: DB,
    opening = false,
  ): Promise<number> {
    const { counted, origins, basis, severity, terms } = reading;
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
        claim: claimOf(m, event.impacted_entity, this.read(m).alarm),
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
      summary: socialSummary(event.impacted_entity, basis, terms),
      corroboration: JSON.stringify(socialCorroboration(basis, origins, terms)),
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
