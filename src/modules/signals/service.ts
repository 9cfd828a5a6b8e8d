// Ingestion: each item is checked on its own, good items are stored, bad ones are named, duplicates counted.
import type { Clock } from '../../platform/clock.ts';
import { unavailable } from '../../platform/errors.ts';
import { nulPath } from '../../platform/input.ts';
import { TimeSlicer } from '../../platform/scheduling.ts';
import { compileBodyValidator, fieldErrors } from '../../platform/validation.ts';
import { SignalInput } from './schemas.ts';
import type { NewSignal, SignalsStore } from './store.ts';

const validateItem = compileBodyValidator(SignalInput);
// Clocks drift; an item "from the future" beyond this is a mistake, not skew.
const FUTURE_TOLERANCE_MS = 5 * 60_000;
const ROWS_PER_INSERT = 200;
/** How long a count of the pending signals is trusted before it is read again (batches in between add to it). */
const PENDING_COUNT_TTL_MS = 1000;
/** Retry-After of a refused batch: a few passes of the trend engine. */
const BACKLOG_RETRY_AFTER_S = 5;

interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; detail: string }[];
}

/** A stored signal with a link, as the public demo feed reads it. */
export interface LinkedSignal {
  source: string;
  title: string | null;
  text: string;
  url: string;
  observed_at: number;
}

interface SignalItem {
  source: string;
  external_id: string;
  text: string;
  title?: string;
  url?: string;
  author?: string;
  observed_at?: string;
  lang?: string;
  location?: string;
  category?: string;
  keywords?: string[];
  engagement?: Record<string, number>;
}

export class SignalsService {
  constructor(
    private readonly store: SignalsStore,
    private readonly clock: Clock,
    /** Told after signals were stored (the trend engine starts a pass soon). */
    private readonly onStored: () => void = () => undefined,
    /** Signals stored but not yet processed past which a batch is refused (0: no limit). */
    private readonly maxPending = 0,
  ) {}

  /** The pending count as last read, plus what this process stored since (the engine only lowers it). */
  private pending = { count: 0, readAt: Number.NEGATIVE_INFINITY };

  /**
   * Back-pressure for POST /api/signals: while the trend engine is behind by `maxPending` signals or more, a
   * pushed batch is refused whole (503 with Retry-After, nothing stored) instead of growing a backlog without
   * bound. The count is read from the database at most once a second, so every instance sees the backlog all of
   * them share. Polling sources and the CLI are not refused: they pace themselves.
   */
  async refuseWhenBacklogged(): Promise<void> {
    if (this.maxPending <= 0) return;
    const now = this.clock.now();
    if (now - this.pending.readAt >= PENDING_COUNT_TTL_MS) {
      this.pending = { count: await this.store.countPending(this.maxPending), readAt: now };
    }
    if (this.pending.count < this.maxPending) return;
    throw unavailable(
      `The trend engine is behind: at least ${this.maxPending} signals are waiting to be processed ` +
        '(INGEST_MAX_PENDING); nothing from this batch was stored. Retry it unchanged after the Retry-After delay.',
      BACKLOG_RETRY_AFTER_S,
      'ingest_backlog',
    );
  }

  /**
   * The newest stored signals that carry a URL, observed within the last `withinMs`, newest first, leaving out
   * the sources named in `exceptSources` (at most `limit`).
   */
  async recentWithLinks(options: {
    withinMs: number;
    exceptSources: string[];
    limit: number;
  }): Promise<LinkedSignal[]> {
    const now = this.clock.now();
    const rows = await this.store.recentWithUrl({
      since: now - options.withinMs,
      until: now,
      exceptSources: options.exceptSources,
      limit: options.limit,
    });
    return rows.map((row) => ({
      source: row.source,
      title: row.title,
      text: row.text,
      url: row.url ?? '',
      observed_at: Number(row.observed_at),
    }));
  }

  /**
   * Signals observed since `since` whose text, title or keywords contain one of `needles` (lower-case), newest
   * first, at most `limit` (the insights analysis samples a trend's signals with it).
   */
  containing(needles: string[], since: number, limit: number) {
    return this.store.containing(needles, since, limit);
  }

  /**
   * Stores the valid items; an item holding a NUL is refused (PostgreSQL cannot store one). `checkNul: false`:
   * the caller knows no item holds one (the route, whose body parser looked). `validated`: the caller already
   * checked every item against SignalInput with the same validator (the route's body schema, when it reported
   * no error), so they are not checked again.
   */
  async ingest(
    items: unknown[],
    options: { validated?: boolean; checkNul?: boolean } = {},
  ): Promise<IngestResult> {
    const now = this.clock.now();
    const rejected: IngestResult['rejected'] = [];
    const rows: NewSignal[] = [];
    const seen = new Set<string>();
    let duplicatesInBatch = 0;
    items.forEach((item, index) => {
      // First, so a NUL in a field name is named escaped, not echoed by the schema's "not an accepted field".
      const nulAt = options.checkNul !== false ? nulPath(item, `signals[${index}]`) : null;
      if (nulAt !== null) {
        rejected.push({ index, detail: `${nulAt} must not contain NUL (\\u0000) characters` });
        return;
      }
      if (options.validated !== true && !validateItem(item)) {
        const errors = fieldErrors(validateItem.errors ?? [], `signals[${index}]`);
        rejected.push({ index, detail: errors.map((e) => `${e.path} ${e.message}`).join('; ') });
        return;
      }
      const signal = item as SignalItem;
      const observedAt = signal.observed_at === undefined ? now : Date.parse(signal.observed_at);
      if (observedAt > now + FUTURE_TOLERANCE_MS) {
        rejected.push({ index, detail: `signals[${index}].observed_at is in the future` });
        return;
      }
      const dedupKey = `${signal.source}\u0000${signal.external_id}`;
      if (seen.has(dedupKey)) {
        duplicatesInBatch++;
        return;
      }
      seen.add(dedupKey);
      rows.push({
        source: signal.source,
        external_id: signal.external_id,
        text: signal.text,
        title: signal.title ?? null,
        url: signal.url ?? null,
        author: signal.author ?? null,
        lang: signal.lang ?? null,
        location: signal.location ?? null,
        category_hint: signal.category ?? null,
        keywords: signal.keywords ? JSON.stringify(signal.keywords) : null,
        engagement: signal.engagement ? JSON.stringify(signal.engagement) : null,
        observed_at: observedAt,
        received_at: now,
      });
    });
    // A full batch is a few thousand rows' work: insert it in parts, letting other requests in between, in
    // one transaction, so a batch is stored whole or not at all (a crash between parts keeps none of it).
    const slicer = new TimeSlicer();
    const accepted = await this.store.transaction(async (trx) => {
      let inserted = 0;
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        await slicer.maybeYield();
        inserted += await this.store.insertNew(rows.slice(i, i + ROWS_PER_INSERT), trx);
      }
      return inserted;
    });
    this.pending.count += accepted;
    if (accepted > 0) this.onStored();
    return { accepted, duplicates: duplicatesInBatch + (rows.length - accepted), rejected };
  }
}
