// Stored signals → trends: each signal's candidates are grouped under their normalised keys (a longer key that
// contains an established name is counted under that name: keys.ts `nameFor`), and every mention adds to its
// trend's hourly bucket (per platform, with VADER sentiment sums and evidence, see evidence.ts) and minute
// bucket.
// One transaction per batch: a signal is marked processed together with the counts it produced. A batch's
// mentions are added up in memory first, so each trend, surface form, hourly and minute bucket is written
// once per batch, in a few multi-row statements per table (store.ts).

import type { Executor } from '../../database.ts';
import type { Clock } from '../../platform/clock.ts';
import { TimeSlicer, workWhilePending, yieldToEventLoop } from '../../platform/scheduling.ts';
import {
  type BatchAnalysis,
  CANDIDATE_TYPES,
  categorise,
  containedNames,
  InProcessNlp,
  type NlpPool,
  PhraseIndex,
  phraseTokens,
  surfaceOfName,
  type TextHits,
  titleFrom,
  typeForTitle,
  withExtraCandidates,
} from '../text/index.ts';
import {
  type Accumulated,
  addPast,
  type HourlyBucket,
  hourlyBucket,
  keepIndependent,
  ownKeys,
  pastOf,
  SAMPLE_TEXTS,
  TYPE_RANK,
} from './accumulation.ts';
import type { CandidateObservation, CandidatePool, CandidatePost } from './candidates.ts';
import { type EvidenceBatch, EvidenceTracker, type EvidenceUnits, type SharedEvidence } from './evidence.ts';
import { type Fold, Fragments } from './fragments.ts';
import { HOUR_MS, METRIC_CONSTANTS } from './metrics.ts';
import type {
  HourlyIncrement,
  MinuteIncrement,
  SurfaceIncrement,
  TrendAddition,
  TrendsStore,
} from './store.ts';

/** A stored signal not yet turned into trend buckets. */
interface PendingSignal {
  id: number;
  source: string;
  text: string;
  title: string | null;
  keywords: string | null;
  lang: string | null;
  category_hint: string | null;
  author: string | null;
  observed_at: number;
}

/**
 * The signals a batch is read from and claims: the signals module owns them (the composition root gives its
 * store). The claim runs in the batch's transaction, so a signal is marked processed together with the counts
 * it produced.
 */
export interface SignalQueue {
  /** Up to `limit` unprocessed signals after id `afterId`, in id order. */
  unprocessed(limit: number, afterId: number): Promise<PendingSignal[]>;
  /** Takes them off the queue unless another process already did, in `trx`; the ids this call claimed. */
  claimProcessed(ids: number[], trx: Executor): Promise<Set<number>>;
}

const MINUTE_MS = 60_000;
// Minute resolution is only needed for velocity_1h; keep two hours of it.
const MINUTES_KEPT = 120;
/** Keys whose contained names are remembered (keys.ts `containedNames`); the memory is emptied past it. */
const SPANS_KEPT = 50_000;
/**
 * A name is established, so that longer keys containing it are counted under it, once its trend has this many
 * mentions (stored, or in the batch being processed).
 */
const ESTABLISHED_NAME_MENTIONS = 3;
/**
 * Signals per batch: each batch is one transaction. A batch's writes land on pages scattered over the trend and
 * bucket tables (a page per trend touched, whatever the batch size), so larger batches write fewer pages per
 * signal: 1,000 cost the event loop about a quarter less per signal than 500 (measured on the ingest bench).
 */
export const DRAIN_BATCH = 1000;
/** Batches a drain reads ahead of the one it writes. */
const READ_AHEAD = 2;
/**
 * A wait for a batch's analysis longer than this is handed to `whileWaiting`: on the demo signals the threads
 * keep pace and waits are shorter; on real posts they fall behind by about a tenth of a second a batch.
 */
const WAIT_GRACE_MS = 15;
/** Batches read ahead when a drain ends with signals pending, analysed while the pass goes on without them. */
const PASS_END_READ_AHEAD = 4;
/** After the shared evidence fails, batches are judged by this process alone for this long. */
const SHARED_EVIDENCE_PAUSE_MS = 5_000;

interface Prepared {
  pending: PendingSignal[];
  analysis: BatchAnalysis;
}

/** A batch read from the pending signals and handed to the NLP pool. */
interface ReadBatch {
  pending: PendingSignal[];
  analysis: Promise<BatchAnalysis>;
}

interface ProcessResult {
  signals: number;
  trends: number;
  mentions: number;
}

export interface DrainResult extends ProcessResult {
  /** True when the drain stopped (budget spent, or stopping) with signals still pending. */
  backlog: boolean;
}

interface TrendProcessorOptions {
  /** Evidence units shared with other instances (Redis); without it each process judges by its own memory. */
  sharedEvidence?: SharedEvidence;
  /**
   * Told when the shared evidence cannot be read or written; the batch goes on with this process's memory, and so
   * do the batches of the next 5 s.
   */
  onSharedEvidenceError?: (error: unknown) => void;
  /**
   * Where phrases are held until enough independent posts name them (candidates.ts); without it every phrase is a
   * trend at once (TREND_MIN_POSTS = 1).
   */
  candidates?: { pool: CandidatePool; minPosts: number };
  /**
   * Users' interests (key and keyword as written): a post naming one, whatever its punctuation, case or hashtag
   * spelling (text/phrases.ts), counts towards the interest's trend, which is a trend at once.
   */
  interests?: () => Promise<{ key: string; keyword: string }[]>;
}

/** Interests are read again at most this often. */
const INTERESTS_REFRESH_MS = 30_000;

/** The lexicon hits the NLP threads worked out for a batch's texts (analysis.ts `hitsKnown`), by text. */
function textHitsOf(pending: readonly PendingSignal[], analysis: BatchAnalysis): Map<string, TextHits> {
  const hits = new Map<string, TextHits>();
  const { hitsKnown, hitOffsets } = analysis;
  for (let i = 0; i < pending.length; i++) {
    if (hitsKnown[i]) hits.set(pending[i]!.text, analysis.hits.subarray(hitOffsets[i]!, hitOffsets[i + 1]!));
  }
  return hits;
}

export class TrendProcessor {
  private readonly evidence = new EvidenceTracker();
  private readonly spansByKey = new Map<string, readonly string[]>();
  private sharedEvidencePausedUntil = Number.NEGATIVE_INFINITY;
  private readonly fragments: Fragments;
  /** Users' interests as last read (`options.interests`), by key with the keyword as written. */
  private interests = {
    readAt: Number.NEGATIVE_INFINITY,
    index: new PhraseIndex([]),
    surfaces: new Map<string, string>(),
  };
  /** What the last drain read ahead and did not write, for the next drain with the same batch size. */
  private ahead: { limit: number; batches: ReadBatch[] } = { limit: 0, batches: [] };

  constructor(
    private readonly store: TrendsStore,
    private readonly signals: SignalQueue,
    private readonly clock: Clock,
    private readonly nlp: NlpPool = new InProcessNlp(),
    private readonly options: TrendProcessorOptions = {},
  ) {
    this.fragments = new Fragments({ aliasesAfter: (afterId) => store.aliases.after(afterId) });
  }

  /** Processes up to `limit` pending signals; returns what it did (0 signals = nothing was pending). */
  async processBatch(limit = DRAIN_BATCH): Promise<ProcessResult> {
    return this.commit(await this.prepare(limit, 0));
  }

  /** Reads up to `limit` pending signals after id `afterId` and analyses them (in the NLP pool). */
  private async prepare(limit: number, afterId: number): Promise<Prepared> {
    const pending = await this.signals.unprocessed(limit, afterId);
    return { pending, analysis: await this.analyse(pending) };
  }

  private analyse(pending: PendingSignal[]): Promise<BatchAnalysis> {
    return this.nlp.analyse(
      pending.map((s) => ({
        text: s.text,
        title: s.title,
        keywords: s.keywords ? (JSON.parse(s.keywords) as string[]) : null,
        lang: s.lang,
      })),
    );
  }

  /**
   * Adds a prepared batch's mentions to the buckets and marks its signals processed, in one transaction:
   * a few statements per table (a batch's rows take a few milliseconds), with the event loop handed back
   * between them, so requests are not held up behind a batch (reads use their own connection on SQLite).
   */
  private async commit(prepared: Prepared): Promise<ProcessResult> {
    const { pending } = prepared;
    if (pending.length === 0) return { signals: 0, trends: 0, mentions: 0 };
    const analysis = await this.withInterests(pending, prepared.analysis);
    const slicer = new TimeSlicer();
    const names = await this.namesFor(analysis);
    let batch = this.evidence.batch();
    let byKey = this.accumulate(pending, analysis, names, batch);
    // Units another instance counted meanwhile make their mentions no evidence here: the batch is built again.
    const elsewhere = await this.countedElsewhere(batch.staged);
    if (elsewhere.size > 0) {
      batch = this.evidence.batch(elsewhere);
      byKey = this.accumulate(pending, analysis, names, batch);
    }
    const now = this.clock.now();
    const pool = this.options.candidates?.pool;
    let folds: Fold[] = [];
    try {
      await this.store.transaction(async (trx) => {
        // Claim first: a signal another process counted meanwhile must not be counted twice.
        const claimed = await this.signals.claimProcessed(
          pending.map((s) => s.id),
          trx,
        );
        if (claimed.size < pending.length) {
          batch = this.evidence.batch(batch.elsewhere);
          byKey = this.accumulate(pending, analysis, names, batch, (signal) => claimed.has(signal.id));
        }
        await slicer.maybeYield();
        const known = await this.store.trendsByKey([...byKey.keys()], trx);
        // Claimed first: only the posts this process counts are candidates' evidence.
        folds = await this.promote(byKey, known, now);
        const knownHits = textHitsOf(pending, analysis);
        const trends: TrendAddition[] = [];
        for (const [key, acc] of byKey) {
          // Only a new trend is categorised (lexicons over sample texts); an existing one keeps its category.
          if (!known.has(key)) await slicer.maybeYield();
          const title = titleFrom(acc.surfaces);
          trends.push({
            key,
            title,
            type: typeForTitle(acc.type, title),
            category: known.has(key)
              ? ''
              : categorise({
                  key,
                  surfaceForms: [...acc.surfaces.keys()],
                  texts: acc.texts,
                  knownHits,
                  hints: acc.hints,
                }),
            first_seen_at: acc.firstSeen,
            last_seen_at: acc.lastSeen,
            mentions: acc.mentions,
          });
        }
        // Rows are locked in the order written: known trends by id, as every writer of trend rows locks them
        // (stores/dirty.ts), then new keys in key order, so that two instances' batches never deadlock.
        trends.sort((a, b) => {
          const idA = known.get(a.key)?.id ?? Number.POSITIVE_INFINITY;
          const idB = known.get(b.key)?.id ?? Number.POSITIVE_INFINITY;
          return idA !== idB ? idA - idB : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
        });
        await slicer.maybeYield();
        const ids = await this.store.upsertTrends(trends, trx);
        if (folds.length > 0) {
          const missing = folds.map((f) => f.target).filter((key) => !ids.has(key));
          const found = missing.length > 0 ? await this.store.trendsByKey(missing, trx) : new Map();
          await this.store.aliases.add(
            folds.flatMap((f) => {
              const trendId = ids.get(f.target) ?? found.get(f.target)?.id;
              return trendId === undefined ? [] : [{ trendId, key: f.key, alias: f.alias }];
            }),
            trx,
          );
        }
        const hourly: HourlyIncrement[] = [];
        const minutes: MinuteIncrement[] = [];
        const surfaces: SurfaceIncrement[] = [];
        // Existing trends whose title this batch may change: those it mentions in a form other than the title.
        const retitle: { id: number; title: string; type: string }[] = [];
        for (const [key, acc] of byKey) {
          const id = ids.get(key)!;
          for (const [surface, count] of acc.surfaces) surfaces.push({ trend_id: id, surface, count });
          for (const first of acc.hourly.values()) {
            for (let bucket: HourlyBucket | undefined = first; bucket !== undefined; bucket = bucket.next) {
              const { platform, hour, mentions, sentiment_sum, positive, negative, evidence } = bucket;
              hourly.push({
                trend_id: id,
                platform,
                hour,
                mentions,
                sentiment_sum,
                positive,
                negative,
                evidence,
              });
            }
          }
          for (const [minute, count] of acc.minutes) minutes.push({ trend_id: id, minute, ...count });
          const trend = known.get(key);
          if (trend && (acc.surfaces.size > 1 || !acc.surfaces.has(trend.title))) retitle.push(trend);
        }
        await slicer.maybeYield();
        await this.store.addSurfaces(surfaces, trx);
        await slicer.maybeYield();
        await this.store.addHourly(hourly, trx);
        await slicer.maybeYield();
        await this.store.addMinutely(minutes, trx);
        // The title is the most frequent surface form over the trend's whole history. A batch that only adds
        // to a trend's current title keeps it the most frequent (it already won every tie), so only the
        // trends mentioned in other forms are read again.
        await slicer.maybeYield();
        const forms = await this.store.surfacesOf(
          retitle.map((t) => t.id),
          trx,
        );
        for (const trend of retitle) {
          const title = titleFrom(forms.get(trend.id) ?? new Map());
          if (title !== '' && title !== trend.title) {
            await this.store.setTitle(trend.id, title, typeForTitle(trend.type, title), trx);
          }
        }
      });
    } catch (error) {
      pool?.rollback();
      throw error;
    }
    pool?.commit();
    this.fragments.remember(folds);
    // Only a committed batch's units are remembered: a rolled-back one counts nothing twice.
    this.evidence.commit(batch);
    await this.shareEvidence(batch.staged);
    let mentions = 0;
    for (const acc of byKey.values()) mentions += acc.mentions;
    return { signals: pending.length, trends: byKey.size, mentions };
  }

  /**
   * Keys of the batch that are not trends yet, and not named by a post's own keywords, are candidates: those now
   * named by enough independent posts are promoted (with what their posts added while held), the others are held
   * and leave the batch.
   */
  private async promote(
    byKey: Map<string, Accumulated>,
    known: ReadonlyMap<string, unknown>,
    now: number,
  ): Promise<Fold[]> {
    const candidates = this.options.candidates;
    if (!candidates || candidates.minPosts <= 1) return [];
    const observations: CandidateObservation[] = [];
    const held: Accumulated[] = [];
    for (const [key, acc] of byKey) {
      if (known.has(key) || acc.forced || this.interests.surfaces.has(key)) continue;
      observations.push({ key, posts: acc.posts, past: pastOf(acc) });
      held.push(acc);
    }
    if (observations.length === 0) return [];
    const outcomes = await candidates.pool.observe(observations, now);
    const promoted: Accumulated[] = [];
    outcomes.forEach((outcome, i) => {
      const acc = held[i]!;
      if (!outcome.promoted) byKey.delete(acc.key);
      else {
        for (const earlier of outcome.earlier) addPast(acc, earlier);
        promoted.push(acc);
      }
    });
    return this.fragments.fold(promoted, byKey, known);
  }

  /** The batch's analysis with the interests each post names (as keyword candidates). */
  private async withInterests(pending: PendingSignal[], analysis: BatchAnalysis): Promise<BatchAnalysis> {
    const read = this.options.interests;
    if (!read) return analysis;
    if (
      this.clock.now() >= this.interests.readAt + INTERESTS_REFRESH_MS ||
      this.clock.now() < this.interests.readAt
    ) {
      const rows = await read();
      const surfaces = new Map<string, string>();
      for (const row of rows) if (!surfaces.has(row.key)) surfaces.set(row.key, row.keyword.trim());
      this.interests = { readAt: this.clock.now(), index: new PhraseIndex([...surfaces.keys()]), surfaces };
    }
    const { index, surfaces } = this.interests;
    if (index.keys.length === 0) return analysis;
    const extra = new Map<number, { key: string; surface: string }[]>();
    for (let i = 0; i < pending.length; i++) {
      const signal = pending[i]!;
      const named = index.matches(
        phraseTokens(signal.title ? `${signal.title} ${signal.text}` : signal.text),
      );
      if (named.length > 0)
        extra.set(
          i,
          named.map((key) => ({ key, surface: surfaces.get(key) ?? key })),
        );
    }
    return withExtraCandidates(analysis, extra, (i) => pending[i]!);
  }

  /** The shared evidence, unless it failed within the last SHARED_EVIDENCE_PAUSE_MS. */
  private sharedEvidence(): SharedEvidence | undefined {
    return this.clock.now() < this.sharedEvidencePausedUntil ? undefined : this.options.sharedEvidence;
  }

  private sharedEvidenceFailed(error: unknown): void {
    // A Redis that hangs costs its command timeout per call: batches go on without it for a while.
    this.sharedEvidencePausedUntil = this.clock.now() + SHARED_EVIDENCE_PAUSE_MS;
    this.options.onSharedEvidenceError?.(error);
  }

  private async countedElsewhere(units: EvidenceUnits): Promise<EvidenceUnits> {
    const shared = this.sharedEvidence();
    if (!shared || units.size === 0) return new Map();
    try {
      return await shared.counted(units);
    } catch (error) {
      this.sharedEvidenceFailed(error);
      return new Map();
    }
  }

  private async shareEvidence(units: EvidenceUnits): Promise<void> {
    const shared = this.sharedEvidence();
    if (!shared || units.size === 0) return;
    try {
      await shared.share(units);
    } catch (error) {
      this.sharedEvidenceFailed(error);
    }
  }

  /**
   * Processes until nothing is pending, or until `budgetMs` has passed or `stop()` says so (the batch under
   * way is finished, the rest waits for the next pass); prunes minute buckets older than two hours.
   *
   * Batches are read READ_AHEAD ahead of the one being written, so the NLP threads analyse the next ones
   * meanwhile and never wait for a write; what a drain read ahead and did not write (budget spent) is written
   * first by the next drain, so the threads keep working while the pass recomputes snapshots in between.
   */
  async drain(
    limit = DRAIN_BATCH,
    options: {
      budgetMs?: number;
      stop?: () => boolean;
      /**
       * Called while the next batch's analysis is not ready (the NLP threads are behind), again until it is or
       * until this answers false (nothing to do): the engine recomputes snapshots there.
       */
      whileWaiting?: () => Promise<boolean>;
    } = {},
  ): Promise<DrainResult> {
    const total: DrainResult = { signals: 0, trends: 0, mentions: 0, backlog: false };
    const deadline = performance.now() + (options.budgetMs ?? Number.POSITIVE_INFINITY);
    const stopping = () => options.stop?.() === true;
    // Taken now: if this drain fails, what it had read ahead is dropped and the next drain reads again.
    const queue = this.ahead.limit === limit ? this.ahead.batches : [];
    this.ahead = { limit, batches: [] };
    // Reading starts at the lowest pending id even after a read-ahead: a signal whose insert committed late
    // (PostgreSQL hands out ids before commit) is behind the batches read ahead, which are skipped here.
    const queued = new Set<number>();
    for (const batch of queue) for (const signal of batch.pending) queued.add(signal.id);
    let lastRead = 0;
    let exhausted = false;
    // A first batch is read and written whatever the budget; later ones are read while it lasts.
    let firstRead = queue.length === 0;
    const readAhead = async (depth = READ_AHEAD, pastDeadline = false) => {
      while (
        queue.length < depth &&
        !exhausted &&
        (firstRead || pastDeadline || (performance.now() < deadline && !stopping()))
      ) {
        firstRead = false;
        const read = await this.signals.unprocessed(limit, lastRead);
        exhausted = read.length < limit;
        if (read.length === 0) break;
        lastRead = read.at(-1)!.id;
        const pending = queued.size === 0 ? read : read.filter((signal) => !queued.has(signal.id));
        if (pending.length === 0) continue;
        const analysis = this.analyse(pending);
        analysis.catch(() => undefined); // awaited below; a failure is reported there
        queue.push({ pending, analysis });
      }
    };
    await readAhead();
    for (let first = true; queue.length > 0; first = false) {
      if (!first && (performance.now() >= deadline || stopping())) break;
      const batch = queue.shift()!;
      if (options.whileWaiting) await workWhilePending(batch.analysis, options.whileWaiting, WAIT_GRACE_MS);
      const analysis = await batch.analysis;
      // The following batches are read and analysed (in worker threads) while this one is written.
      await readAhead();
      const result = await this.commit({ pending: batch.pending, analysis });
      await yieldToEventLoop();
      total.signals += result.signals;
      total.trends += result.trends;
      total.mentions += result.mentions;
    }
    // The budget is spent with signals pending: the threads get enough to analyse while the pass recomputes
    // snapshots, which on a large ingest takes longer than the READ_AHEAD batches in flight.
    if (!stopping()) await readAhead(PASS_END_READ_AHEAD, true);
    total.backlog = queue.length > 0 || !exhausted;
    // A shutdown drops what was read ahead (its signals stay pending); otherwise the next drain starts with it.
    if (!stopping()) this.ahead = { limit, batches: queue };
    await this.store.pruneMinutesBefore(Math.floor(this.clock.now() / MINUTE_MS) - MINUTES_KEPT);
    return total;
  }

  /**
   * The established names longer keys of a batch are counted under (keys.ts `containedNames`, first match
   * with at least ESTABLISHED_NAME_MENTIONS mentions, stored plus the batch's candidates).
   */
  private async namesFor(analysis: BatchAnalysis): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    // A folded phrase counts towards the trend it was folded into.
    await this.fragments.readAliases(this.clock.now());
    if (this.fragments.aliases.size > 0) {
      for (const key of analysis.keys) {
        const target = this.fragments.aliases.get(key);
        if (target !== undefined && target !== key) names.set(key, target);
      }
    }
    // A signal names a key once, so a key's candidates are the batch's signals that mention it.
    const counts = new Uint32Array(analysis.keys.length);
    for (const k of analysis.candidateKeys) counts[k]!++;
    const batchMentions = new Map<string, number>();
    const inside = new Map<string, readonly string[]>();
    const lookup = new Set<string>();
    analysis.keys.forEach((key, k) => {
      batchMentions.set(key, counts[k]!);
      if (!key.includes(' ')) return;
      const spans = this.containedNames(key);
      if (spans.length === 0) return;
      inside.set(key, spans);
      for (const span of spans) lookup.add(span);
    });
    if (lookup.size === 0) return names;
    const stored = await this.store.mentionsByKey([...lookup]);
    const mentions = (key: string) => (stored.get(key) ?? 0) + (batchMentions.get(key) ?? 0);
    for (const [key, spans] of inside) {
      const name = spans.find((span) => mentions(span) >= ESTABLISHED_NAME_MENTIONS);
      if (name !== undefined && !names.has(key)) names.set(key, this.fragments.aliases.get(name) ?? name);
    }
    return names;
  }

  /** keys.ts `containedNames`, remembered: the same keys come back batch after batch. */
  private containedNames(key: string): readonly string[] {
    let spans = this.spansByKey.get(key);
    if (spans === undefined) {
      spans = containedNames(key);
      if (this.spansByKey.size >= SPANS_KEPT) this.spansByKey.clear();
      this.spansByKey.set(key, spans);
    }
    return spans;
  }

  /**
   * A batch's mentions added up per trend key, each trend's hourly (per platform) and minute buckets; `counted`
   * leaves out signals another process claimed. Keys and surface forms are read by their index in the batch's
   * analysis, so a mention costs no string work: a key's trend and a surface form under a name are found once.
   */
  private accumulate(
    pending: PendingSignal[],
    analysis: BatchAnalysis,
    names: ReadonlyMap<string, string>,
    batch: EvidenceBatch,
    counted?: (signal: PendingSignal) => boolean,
  ): Map<string, Accumulated> {
    const byKey = new Map<string, Accumulated>();
    // Minute buckets older than the kept window would only be pruned again (backfills, old imports).
    const firstKeptMinute = Math.floor(this.clock.now() / MINUTE_MS) - MINUTES_KEPT;
    // By key index: the trend it is counted under and the name it contains (undefined: its own key).
    const trendOf: (Accumulated | undefined)[] = new Array(analysis.keys.length);
    const nameOf: (string | undefined)[] = new Array(analysis.keys.length);
    // By surface index: the words of the form that spell the name it is counted under (per name).
    const surfaceUnderName = new Map<string, string | null>();
    const { offsets, candidateKeys, candidateSurfaces, candidateTypes, scores, fingerprints } = analysis;
    const maxPosts = (this.options.candidates?.minPosts ?? 0) > 1 ? this.options.candidates!.minPosts : 0;
    const touched: Accumulated[] = [];
    for (let i = 0; i < pending.length; i++) {
      const from = offsets[i]!;
      const to = offsets[i + 1]!;
      if (from === to) continue;
      const signal = pending[i]!;
      if (counted && !counted(signal)) continue;
      const score = scores[i]!;
      const fingerprint = fingerprints[i]!;
      const hour = Math.floor(signal.observed_at / HOUR_MS);
      const minute = Math.floor(signal.observed_at / MINUTE_MS);
      const hint = signal.category_hint;
      const subreddit = hint ? /^\/?r\//i.test(hint) : false;
      const own = signal.keywords ? ownKeys(signal.keywords) : undefined;
      const post: CandidatePost = {
        account: signal.author || `#${signal.id}`,
        fingerprint,
        at: signal.observed_at,
      };
      touched.length = 0;
      for (let c = from; c < to; c++) {
        const k = candidateKeys[c]!;
        let acc = trendOf[k];
        if (acc === undefined) {
          // A longer key counted under the name it contains.
          const name = names.get(analysis.keys[k]!);
          const key = name ?? analysis.keys[k]!;
          acc = byKey.get(key);
          if (!acc) {
            acc = {
              key,
              type: CANDIDATE_TYPES[candidateTypes[c]!]!,
              mark: -1,
              surfaces: new Map(),
              texts: [],
              hints: { category: [], subreddit: [] },
              mentions: 0,
              firstSeen: signal.observed_at,
              lastSeen: signal.observed_at,
              hourly: new Map(),
              minutes: new Map(),
              forced: false,
              posts: [],
              related: new Map(),
            };
            byKey.set(key, acc);
          }
          trendOf[k] = acc;
          nameOf[k] = name;
        }
        // A signal mentions each trend once.
        if (acc.mark === i) continue;
        acc.mark = i;
        if (maxPosts > 0) touched.push(acc);
        if (own?.has(acc.key)) acc.forced = true;
        if (maxPosts > 0) keepIndependent(acc.posts, post, maxPosts);
        const evidence = this.evidence.admit(batch, acc.key, hour, signal.author, fingerprint) ? 1 : 0;
        const type = CANDIDATE_TYPES[candidateTypes[c]!]!;
        if ((TYPE_RANK[type] ?? 0) > (TYPE_RANK[acc.type] ?? 0)) acc.type = type;
        // Under a name it contains, the mention is recorded as the name's words ("data center" of "data center
        // servers"): the longer phrase is another trend's title.
        let surface: string | null = analysis.surfaces[candidateSurfaces[c]!]!;
        const name = nameOf[k];
        if (name !== undefined) {
          const under = `${name}\u0000${surface}`;
          let words = surfaceUnderName.get(under);
          if (words === undefined) {
            words = surfaceOfName(surface, name);
            surfaceUnderName.set(under, words);
          }
          surface = words;
        }
        if (surface !== null) acc.surfaces.set(surface, (acc.surfaces.get(surface) ?? 0) + 1);
        if (acc.texts.length < SAMPLE_TEXTS) acc.texts.push(signal.text);
        if (hint && acc.hints.category.length + acc.hints.subreddit.length < SAMPLE_TEXTS) {
          if (subreddit) acc.hints.subreddit.push(hint);
          else acc.hints.category.push(hint);
        }
        acc.mentions++;
        if (signal.observed_at < acc.firstSeen) acc.firstSeen = signal.observed_at;
        if (signal.observed_at > acc.lastSeen) acc.lastSeen = signal.observed_at;
        const bucket = hourlyBucket(acc, hour, signal.source);
        bucket.mentions++;
        bucket.evidence += evidence;
        bucket.sentiment_sum += score;
        if (score >= METRIC_CONSTANTS.sentimentPositive) bucket.positive++;
        if (score <= METRIC_CONSTANTS.sentimentNegative) bucket.negative++;
        if (minute >= firstKeptMinute) {
          const counts = acc.minutes.get(minute);
          if (counts) {
            counts.mentions++;
            counts.evidence += evidence;
          } else acc.minutes.set(minute, { mentions: 1, evidence });
        }
      }
      // Phrases of one post that may be fragments of one another: counted for the fold at promotion.
      for (let a = 0; a < touched.length; a++) {
        for (let b = a + 1; b < touched.length; b++) {
          const one = touched[a]!;
          const other = touched[b]!;
          if (!this.fragments.foldable(one.key, other.key)) continue;
          one.related.set(other.key, (one.related.get(other.key) ?? 0) + 1);
          other.related.set(one.key, (other.related.get(one.key) ?? 0) + 1);
        }
      }
    }
    return byKey;
  }
}
