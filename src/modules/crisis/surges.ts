// Social surges: reads new signals past the detector's cursor in bounded batches, keeps the mentions of watched
// interest keys, and on every pass evaluates, for each user with a touched key, the subject it belongs to
// (subjects.ts: the user's keys that share posts) over sliding windows (scoring.ts) — each key alone and the
// subject's keys pooled: a surge of mentions enough of which are negative (VADER) or alarming (crisis language,
// alarm.ts) opens, grows and subsides the user's event. Every state change records its domain event in the same
// transaction.

import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import { compound, normaliseTokens, simhashHex } from '../text/index.ts';
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
  type SubjectLink,
  severityRank,
  socialCompleteness,
  socialCorroboration,
  socialSeverity,
  socialSeverityBasis,
  socialSummary,
  WINDOWS_MS,
  windowBaseline,
  zScore,
} from './scoring.ts';
import type { CrisisStore, EventRow, MentionRow } from './store.ts';
import { type KeyedMention, linkSubjects, poolMentions, type Subject } from './subjects.ts';

/** A stored signal as a pass reads it. */
interface SignalRow {
  id: number;
  source: string;
  external_id: string;
  text: string;
  title: string | null;
  url: string | null;
  author: string | null;
  engagement: string | null;
  observed_at: number;
}

/**
 * What a pass reads of other modules' data, from their owners (the composition root gives the signals store, the
 * interests service and the trends service).
 */
export interface SurgeSources {
  signals: {
    /** The highest signal id stored (0 when none). */
    maxId(): Promise<number>;
    /** The highest signal id with no insert of a lower one under way; null when that cannot be known now. */
    settledMaxId(): Promise<number | null>;
    /** Signals after id `id` up to id `through`, in id order, at most `limit`. */
    between(id: number, through: number, limit: number): Promise<SignalRow[]>;
  };
  /** Every user's active interests (the watch list), in the order they were created. */
  interests: { watched(): Promise<{ user_id: number; keyword: string; key: string }[]> };
  /** The best trend for an interest key, read in the event's transaction. */
  trends: { trendForKey(key: string, executor: DB): Promise<{ id: number; title: string } | null> };
}

const BATCH = 500;
const MAX_BATCHES_PER_PASS = 8;
const MAX_EVIDENCE_PER_EVENT = 50;
const EXCERPT_MAX = 500;
const MENTION_RETENTION_MS = HISTORY_MS + LONGEST_WINDOW_MS + 3600_000;
const IDLE_EVALUATION_MS = 60_000;
/**
 * An interest matches a text when all its words occur in it, in any order. In a post (at most POST_TOKENS word
 * tokens: X, Bluesky and Mastodon posts are 280–500 characters) the words may stand anywhere, as keyword tracking
 * on social platforms matches them ("manila flood" matches "If floods end up hitting my Manila"); in a longer
 * text (a news article, a long forum post) they must occur within a span of (its words + NEAR_SLACK) tokens:
 * "Spain train" matches "train crash in Spain", "metro north derailment" matches "Metro-North train derailment".
 * A one-word interest is a whole-word match. Words are compared without accents ("Lac Mégantic" =
 * "Lac Megantic"), and a hashtag matches however it is cased: the interest "#SGHaze" (words "sg haze") matches
 * "#sghaze", and "#rescueph" matches "#RescuePH" (split into "rescue ph") — an interest's words glued together
 * equal one token, or consecutive tokens (at most MAX_GLUED) glued together equal its one word.
 */
const POST_TOKENS = 80;
const NEAR_SLACK = 4;
const MAX_GLUED = 4;
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
  "A user's interests count together only when posts from two accounts mention both within the hour; keys of " +
    'one crisis that never meet in a post are counted apart.',
  `A post (up to ${POST_TOKENS} words) mentions an interest when all the interest's words occur in it, anywhere, as keyword ` +
    'tracking on social platforms matches them: a post that uses the words about something else counts too.',
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

/** A token without accents (NFKD, combining marks removed). */
export const foldAccents = (token: string) =>
  /[^\p{ASCII}]/u.test(token) ? token.normalize('NFKD').replace(/\p{M}+/gu, '') : token;

/** Whether consecutive tokens glued together spell `word` ("rescue", "ph" → "rescueph"). */
function spelled(tokens: readonly string[], word: string): boolean {
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].length >= word.length || !word.startsWith(tokens[i])) continue;
    let glued = tokens[i];
    for (let j = i + 1; j < Math.min(tokens.length, i + MAX_GLUED); j++) {
      glued += tokens[j];
      if (glued === word) return true;
      if (!word.startsWith(glued)) break;
    }
  }
  return false;
}

/**
 * Whether every word of `key` occurs in `tokens` — anywhere in a post of at most POST_TOKENS tokens, within a span
 * of key.length + NEAR_SLACK tokens in a longer text — or the key is the same hashtag cased another way
 * (MAX_GLUED). Both sides accent-folded (foldAccents).
 */
export function matchesNear(tokens: readonly string[], key: readonly string[]): boolean {
  if (key.length === 1) return tokens.includes(key[0]) || spelled(tokens, key[0]);
  if (tokens.includes(key.join(''))) return true;
  const words = new Set(key);
  if (tokens.length <= POST_TOKENS) {
    for (const word of words) if (!tokens.includes(word)) return false;
    return true;
  }
  const span = key.length + NEAR_SLACK;
  for (let i = 0; i < tokens.length; i++) {
    if (!words.has(tokens[i])) continue;
    const seen = new Set<string>();
    for (let j = i; j < Math.min(tokens.length, i + span); j++) if (words.has(tokens[j])) seen.add(tokens[j]);
    if (seen.size === words.size) return true;
  }
  return false;
}

/** The surge state of one interest key, or of a subject's keys pooled, at one pass. */
interface Reading {
  /** The interest keys it counts: one, or a subject's keys pooled. */
  keys: string[];
  /** Some window holds a surge; every window has subsided. */
  surge: boolean;
  subsided: boolean;
  /** The longest window's counted mentions of concern (evidence items come from them). */
  counted: MentionRow[];
  /** The keys each counted post mentions (by signal id). */
  keysOf: Map<number, string[]>;
  /** Origins, numbers and alarm terms of the window that carried the surge. */
  origins: string[];
  basis: SeverityBasis;
  severity: string;
  terms: Record<string, number>;
}

/** One pass's reads, shared by every user and subject it evaluates. */
interface Pass {
  now: number;
  windows: Map<string, Promise<{ rows: MentionRow[]; mentions: KeyedMention[] }>>;
  readings: Map<string, Promise<Reading>>;
}

/** The reading with the highest severity score among those holding a surge (else among all). */
function strongest(readings: readonly Reading[]): Reading {
  const holding = readings.filter((r) => r.surge);
  const pool = holding.length > 0 ? holding : readings;
  return pool.reduce((best, r) => (r.basis.score > best.basis.score ? r : best));
}

/** An evidence item's claim: what made the mention count. */
function claimOf(m: MentionRow, entity: string, a: Alarm): string {
  const why: string[] = [];
  if (m.compound <= NEGATIVE_COMPOUND) why.push(`negative, VADER compound ${m.compound.toFixed(2)}`);
  if (isAlarming(a)) why.push(`alarming: ${a.terms.slice(0, 5).join(', ')}`);
  return `A mention of ${entity} on ${m.origin} (${why.join('; ') || 'counted'}).`;
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
  /** What a post mentioning several keys of one subject reads as for all of them (by signal and keys). */
  private readonly pooledAlarms = new Map<string, Alarm>();
  /** The highest signal id last known settled (the signals store's `settledMaxId`). */
  private settled = 0;

  constructor(
    private readonly store: CrisisStore,
    private readonly sources: SurgeSources,
    private readonly outbox: CrisisOutbox,
    private readonly config: Pick<Config, 'publicBaseUrl'>,
  ) {}

  /** One pass at `now`; returns the number of domain events recorded. */
  async detect(now: number): Promise<number> {
    const watchers = new Map<string, Watcher[]>();
    // Each user's interests: key → keyword, in the order they were created.
    const interests = new Map<number, Map<string, string>>();
    for (const row of await this.sources.interests.watched()) {
      const list = watchers.get(row.key) ?? [];
      list.push({ user_id: row.user_id, keyword: row.keyword });
      watchers.set(row.key, list);
      const mine = interests.get(row.user_id) ?? new Map<string, string>();
      if (!mine.has(row.key)) mine.set(row.key, row.keyword);
      interests.set(row.user_id, mine);
    }
    const touched = await this.readSignals(watchers);
    let recorded = 0;
    // Keys with new mentions now; surging keys without any at most once a minute (to notice them subside).
    const due = new Set(touched);
    for (const { watch_key } of await this.store.surgingSocialKeys()) {
      if (now - (this.lastEvaluated.get(watch_key) ?? 0) >= IDLE_EVALUATION_MS) due.add(watch_key);
    }
    for (const key of due) this.lastEvaluated.set(key, now);
    const pass: Pass = { now, windows: new Map(), readings: new Map() };
    const users = new Set<number>();
    for (const key of due) for (const w of watchers.get(key) ?? []) users.add(w.user_id);
    const candidates = new Set<string>();
    for (const userId of users) for (const key of interests.get(userId)!.keys()) candidates.add(key);
    const active = await this.store.activeKeys([...candidates], now - LONGEST_WINDOW_MS);
    for (const userId of users) {
      const mine = interests.get(userId)!;
      for (const subject of await this.subjectsOf(mine, active, due, pass)) {
        recorded += await this.evaluate(userId, subject, mine, pass);
      }
    }
    // A surging event on a key its user no longer follows: that key alone, to grow and subside (never to open).
    for (const key of due) {
      for (const userId of await this.store.surgingUsers(key)) {
        if (interests.get(userId)?.has(key)) continue;
        recorded += await this.evaluate(userId, { keys: [key], links: [] }, null, pass);
      }
    }
    if (this.lastEvaluated.size > 10_000) this.lastEvaluated.clear();
    if (this.reads.size > READ_CACHE_MAX) this.reads.clear();
    if (this.pooledAlarms.size > READ_CACHE_MAX) this.pooledAlarms.clear();
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
      const max = await this.sources.signals.maxId();
      if (max > cursor) await this.store.setCursor('signals', max);
      return touched;
    }
    // Candidates by their first word and by their words glued together (a hashtag cased another way).
    const byFirst = new Map<string, Candidate[]>();
    for (const key of watchers.keys()) {
      const tokens = key.split(' ').map(foldAccents);
      for (const entry of new Set([tokens[0], tokens.join('')])) {
        const list = byFirst.get(entry) ?? [];
        list.push({ key, tokens });
        byFirst.set(entry, list);
      }
    }
    // Read no further than the inserts that have ended: a later commit of a lower id must not be skipped.
    const settled = (await this.sources.signals.settledMaxId()) ?? this.settled;
    this.settled = settled;
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch++) {
      const signals = await this.sources.signals.between(cursor, settled, BATCH);
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
    const tokens = normaliseTokens(full).map(foldAccents);
    // Each token, and runs of consecutive tokens glued together, may begin or spell a watched key.
    const entries = new Set<string>();
    for (let i = 0; i < tokens.length; i++) {
      let glued = tokens[i];
      entries.add(glued);
      for (let j = i + 1; j < Math.min(tokens.length, i + MAX_GLUED); j++) {
        glued += tokens[j];
        entries.add(glued);
      }
    }
    const keys = new Set<string>();
    for (const entry of entries) {
      for (const candidate of byFirst.get(entry) ?? []) {
        if (!keys.has(candidate.key) && matchesNear(tokens, candidate.tokens)) keys.add(candidate.key);
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

  /** How alarming a stored mention reads for the keys it mentions (its own, or several of one subject). */
  private alarmFor(row: MentionRow, keys: readonly string[]): Alarm {
    if (keys.length < 2) return this.read(row).alarm;
    const id = `${row.signal_id}\u0000${keys.join('\u0000')}`;
    let a = this.pooledAlarms.get(id);
    if (!a) {
      a = HAZARD_SOURCES.has(row.source) ? OFFICIAL_ALARM : alarm(row.excerpt, keys);
      this.pooledAlarms.set(id, a);
    }
    return a;
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

  /** A key's mentions in the longest window ending now, read once per pass. */
  private windowOf(key: string, pass: Pass) {
    let window = pass.windows.get(key);
    if (!window) {
      window = this.store
        .mentionsBetween(key, pass.now - LONGEST_WINDOW_MS, pass.now)
        .then((rows) => ({ rows, mentions: rows.map((r) => this.windowMention(r)) }));
      pass.windows.set(key, window);
    }
    return window;
  }

  private windowMention(r: MentionRow): KeyedMention {
    const read = this.read(r);
    return {
      id: r.id,
      signal: Number(r.signal_id),
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
  }

  /**
   * The subjects of a user's interests that hold a due key: keys with mentions in the longest window, grouped by
   * the posts they share (subjects.ts); a due key without any (a surge gone quiet) is a subject of its own.
   */
  private async subjectsOf(
    interests: ReadonlyMap<string, string>,
    active: ReadonlySet<string>,
    due: ReadonlySet<string>,
    pass: Pass,
  ): Promise<Subject[]> {
    const byKey = new Map<string, KeyedMention[]>();
    for (const key of interests.keys()) {
      if (active.has(key)) byKey.set(key, (await this.windowOf(key, pass)).mentions);
    }
    const subjects = linkSubjects(byKey);
    for (const key of interests.keys()) {
      if (due.has(key) && !byKey.has(key)) subjects.push({ keys: [key], links: [] });
    }
    return subjects.filter((s) => s.keys.some((k) => due.has(k)));
  }

  /** The surge state now, over every window, of one key or of a subject's keys pooled; once per pass. */
  private reading(keys: string[], links: SubjectLink[], pass: Pass): Promise<Reading> {
    const id = [...keys].sort().join('\u0000');
    let reading = pass.readings.get(id);
    if (!reading) {
      reading = this.computeReading(keys, links, pass);
      pass.readings.set(id, reading);
    }
    return reading;
  }

  private async computeReading(keys: string[], links: SubjectLink[], pass: Pass): Promise<Reading> {
    const { now } = pass;
    const byKey = new Map<string, KeyedMention[]>();
    const byId = new Map<number, MentionRow>();
    for (const key of keys) {
      const window = await this.windowOf(key, pass);
      byKey.set(key, window.mentions);
      for (const r of window.rows) byId.set(r.id, r);
    }
    const pooled = poolMentions(byKey);
    const { keysOf } = pooled;
    // A post mentioning several of the keys is read for alarm against all of them (subjects.ts).
    const mentions = pooled.mentions.map((m) => {
      const mentioned = keysOf.get(m.signal)!;
      if (mentioned.length < 2) return m;
      const a = this.alarmFor(byId.get(m.id)!, mentioned);
      return { ...m, alarm: a.score, terms: a.terms };
    });
    const minutes: MinuteCount[] = await this.store.mentionMinutes(keys, now - HISTORY_MS, now);
    const windows: WindowState[] = WINDOWS_MS.map((windowMs) => {
      const count = countIndependent(mentions.filter((m) => m.observed_at > now - windowMs));
      const evidence = independentEvidence(count.counted);
      const base = windowBaseline(minutes, now, windowMs);
      const z = zScore(count.counted.length, base);
      // Each key's counted posts in this window (a post mentioning several counts for each).
      const interests = keys.map((key) => ({
        key,
        mentions: count.counted.filter((m) => keysOf.get(m.signal)?.includes(key)).length,
      }));
      return {
        windowMs,
        count,
        z,
        holds: isSurge(count, evidence, z, windowMs),
        subsided: hasSubsided(count, z),
        severity: socialSeverity(count, evidence, z, base, windowMs, { interests, links }),
      };
    });
    const surge = windows.some((w) => w.holds);
    // The numbers an event shows: the window holding the surge with the highest score (else the highest score).
    const pool = surge ? windows.filter((w) => w.holds) : windows;
    const chosen = pool.reduce((best, w) => (w.severity.basis.score > best.severity.basis.score ? w : best));
    // Evidence items: the longest window's counted mentions of concern (it holds every shorter window's).
    const longest = windows[windows.length - 1];
    return {
      keys,
      surge,
      subsided: windows.every((w) => w.subsided),
      counted: longest.count.counted.filter(isConcern).map((m) => byId.get(m.id)!),
      keysOf,
      origins: chosen.count.origins,
      basis: chosen.severity.basis,
      severity: chosen.severity.severity,
      terms: alarmTermCounts(chosen.count.counted),
    };
  }

  /**
   * One subject of a user: each key alone and, with several keys, all of them pooled. The user's surging events
   * on any of its keys grow with the strongest reading that counts their own key, or subside when every reading
   * has; without one, a reading that holds a surge opens an event (on the key with the most counted posts), for a
   * user who still follows the keys (`interests`).
   */
  private async evaluate(
    userId: number,
    subject: Subject,
    interests: ReadonlyMap<string, string> | null,
    pass: Pass,
  ): Promise<number> {
    const { now } = pass;
    const readings: Reading[] = [];
    for (const key of subject.keys) readings.push(await this.reading([key], [], pass));
    if (subject.keys.length > 1) readings.push(await this.reading(subject.keys, subject.links, pass));
    const subsided = readings.every((r) => r.subsided);
    const keywordOf = (key: string) => interests?.get(key) ?? key;
    return this.store.transaction(async (trx) => {
      const open = await this.store.surgingFor(userId, subject.keys, trx);
      if (open.length > 0) {
        let recorded = 0;
        for (const event of open) {
          if (subsided) recorded += await this.subside(event, now, trx);
          else {
            const own = strongest(readings.filter((r) => r.keys.includes(event.watch_key)));
            recorded += await this.grow(event, own, keywordOf, now, trx);
          }
        }
        return recorded;
      }
      if (!interests || !readings.some((r) => r.surge)) return 0;
      const chosen = strongest(readings);
      const anchor = chosen.basis.interests.reduce((best, i) => (i.mentions > best.mentions ? i : best)).key;
      return this.open(userId, anchor, keywordOf(anchor), chosen, keywordOf, now, trx);
    });
  }

  private trendLink(trendId: number): string {
    return `${this.config.publicBaseUrl}/api/trends/${trendId}`;
  }

  private async open(
    userId: number,
    key: string,
    keyword: string,
    reading: Reading,
    keywordOf: (key: string) => string,
    now: number,
    trx: DB,
  ): Promise<number> {
    const { basis, severity } = reading;
    const trend = await this.sources.trends.trendForKey(key, trx);
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
    await this.grow(row, reading, keywordOf, now, trx, true);
    return 1;
  }

  /** Adds new evidence and refreshes the numbers; records `escalated` when severity goes up. */
  private async grow(
    event: EventRow,
    reading: Reading,
    keywordOf: (key: string) => string,
    now: number,
    trx: DB,
    opening = false,
  ): Promise<number> {
    const { counted, origins, basis, severity, terms } = reading;
    const quoted = (keys: readonly string[]) => keys.map((k) => `"${keywordOf(k)}"`).join(' and ');
    const mentioned = (m: MentionRow) => reading.keysOf.get(Number(m.signal_id)) ?? [m.key];
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
        claim: claimOf(m, quoted(mentioned(m)), this.alarmFor(m, mentioned(m))),
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
    // The event's keywords: its own and those of the interests whose posts counted with it.
    const keywords = [...JSON.parse(event.source_keywords ?? '[]')] as string[];
    for (const i of basis.interests) {
      const keyword = keywordOf(i.key);
      if (i.mentions > 0 && !keywords.includes(keyword)) keywords.push(keyword);
    }
    const sourceKeywords = JSON.stringify(keywords);
    if (
      !opening &&
      added === 0 &&
      rank === event.severity_rank &&
      basisText === event.severity_basis &&
      sourceKeywords === event.source_keywords
    )
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
        ? await this.sources.trends.trendForKey(event.watch_key, trx)
        : { id: Number(event.trend_id) };
    const patch = {
      severity: peak,
      severity_rank: rank,
      severity_basis: basisText,
      source_keywords: sourceKeywords,
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
