// Stored signals → trends: each signal's candidates are grouped under their normalised keys, and every
// mention adds to its trend's hourly bucket (per platform, with VADER sentiment sums) and minute bucket.
// One transaction per batch: a signal is marked processed together with the counts it produced.
import type { Clock } from '../../platform/clock.ts';
import { categorise } from './categories.ts';
import { extractCandidates, titleFrom } from './extraction.ts';
import { HOUR_MS, METRIC_CONSTANTS } from './metrics.ts';
import { compound } from './sentiment.ts';
import type { HourlyIncrement, PendingSignal, TrendsStore } from './store.ts';

const MINUTE_MS = 60_000;
// Minute resolution is only needed for velocity_1h; keep two hours of it.
const MINUTES_KEPT = 120;
const SAMPLE_TEXTS = 20;
const TYPE_RANK: Record<string, number> = { hashtag: 3, entity: 2, keyword: 1 };

interface Accumulated {
  type: string;
  surfaces: Map<string, number>;
  texts: string[];
  mentions: number;
  firstSeen: number;
  lastSeen: number;
  hourly: Map<string, HourlyIncrement>;
  minutes: Map<number, number>;
}

export interface ProcessResult {
  signals: number;
  trends: number;
  mentions: number;
}

export class TrendProcessor {
  constructor(
    private readonly store: TrendsStore,
    private readonly clock: Clock,
  ) {}

  /** Processes up to `limit` pending signals; returns what it did (0 signals = nothing was pending). */
  async processBatch(limit = 500): Promise<ProcessResult> {
    const pending = await this.store.pendingSignals(limit);
    if (pending.length === 0) return { signals: 0, trends: 0, mentions: 0 };
    const byKey = this.accumulate(pending);
    const now = this.clock.now();
    await this.store.transaction(async (trx) => {
      const ids = await this.store.idsByKey(trx, [...byKey.keys()]);
      const hourly: HourlyIncrement[] = [];
      const minutes: { trend_id: number; minute: number; mentions: number }[] = [];
      const surfaces: { trend_id: number; surface: string; count: number }[] = [];
      for (const [key, acc] of byKey) {
        let id = ids.get(key);
        if (id === undefined) {
          id = await this.store.insertTrend(trx, {
            key,
            title: titleFrom(acc.surfaces),
            type: acc.type,
            category: categorise({ key, surfaceForms: [...acc.surfaces.keys()], texts: acc.texts }),
            first_seen_at: acc.firstSeen,
            last_seen_at: acc.lastSeen,
          });
          ids.set(key, id);
        }
        await this.store.touchTrend(trx, id, acc.mentions, acc.firstSeen, acc.lastSeen);
        for (const [surface, count] of acc.surfaces) surfaces.push({ trend_id: id, surface, count });
        for (const increment of acc.hourly.values()) hourly.push({ ...increment, trend_id: id });
        for (const [minute, count] of acc.minutes) minutes.push({ trend_id: id, minute, mentions: count });
      }
      await this.store.addSurfaces(trx, surfaces);
      await this.store.addHourly(trx, hourly);
      await this.store.addMinutely(trx, minutes);
      // The title is the most frequent surface form over the trend's whole history.
      const forms = await this.store.surfacesOf(trx, [...ids.values()]);
      for (const [id, counts] of forms) await this.store.setTitle(trx, id, titleFrom(counts));
      await this.store.markProcessed(
        trx,
        pending.map((s) => s.id),
        now,
      );
    });
    let mentions = 0;
    for (const acc of byKey.values()) mentions += acc.mentions;
    return { signals: pending.length, trends: byKey.size, mentions };
  }

  /** Processes until nothing is pending; prunes minute buckets older than two hours. */
  async drain(limit = 500): Promise<ProcessResult> {
    const total: ProcessResult = { signals: 0, trends: 0, mentions: 0 };
    for (;;) {
      const result = await this.processBatch(limit);
      total.signals += result.signals;
      total.trends += result.trends;
      total.mentions += result.mentions;
      if (result.signals < limit) break;
    }
    await this.store.pruneMinutesBefore(Math.floor(this.clock.now() / MINUTE_MS) - MINUTES_KEPT);
    return total;
  }

  private accumulate(pending: PendingSignal[]): Map<string, Accumulated> {
    const byKey = new Map<string, Accumulated>();
    for (const signal of pending) {
      const keywords = signal.keywords ? (JSON.parse(signal.keywords) as string[]) : null;
      const candidates = extractCandidates({
        text: signal.text,
        title: signal.title,
        keywords,
        lang: signal.lang,
      });
      if (candidates.length === 0) continue;
      const score = compound(signal.title ? `${signal.title}. ${signal.text}` : signal.text);
      const hour = Math.floor(signal.observed_at / HOUR_MS);
      const minute = Math.floor(signal.observed_at / MINUTE_MS);
      for (const candidate of candidates) {
        let acc = byKey.get(candidate.key);
        if (!acc) {
          acc = {
            type: candidate.type,
            surfaces: new Map(),
            texts: [],
            mentions: 0,
            firstSeen: signal.observed_at,
            lastSeen: signal.observed_at,
            hourly: new Map(),
            minutes: new Map(),
          };
          byKey.set(candidate.key, acc);
        }
        if ((TYPE_RANK[candidate.type] ?? 0) > (TYPE_RANK[acc.type] ?? 0)) acc.type = candidate.type;
        acc.surfaces.set(candidate.surface, (acc.surfaces.get(candidate.surface) ?? 0) + 1);
        if (acc.texts.length < SAMPLE_TEXTS) acc.texts.push(signal.text);
        acc.mentions++;
        acc.firstSeen = Math.min(acc.firstSeen, signal.observed_at);
        acc.lastSeen = Math.max(acc.lastSeen, signal.observed_at);
        const bucketKey = `${signal.source}|${hour}`;
        let bucket = acc.hourly.get(bucketKey);
        if (!bucket) {
          bucket = {
            trend_id: 0,
            platform: signal.source,
            hour,
            mentions: 0,
            sentiment_sum: 0,
            positive: 0,
            negative: 0,
          };
          acc.hourly.set(bucketKey, bucket);
        }
        bucket.mentions++;
        bucket.sentiment_sum += score;
        if (score >= METRIC_CONSTANTS.sentimentPositive) bucket.positive++;
        if (score <= METRIC_CONSTANTS.sentimentNegative) bucket.negative++;
        acc.minutes.set(minute, (acc.minutes.get(minute) ?? 0) + 1);
      }
    }
    return byKey;
  }
}
