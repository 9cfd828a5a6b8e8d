// Crisis events for their owner: list, detail, evidence, actions, reviews, export, resilience settings, and
// the gate other modules ask before pushing content about a trend.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import { dayRange } from '../../platform/dates.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { CrisisDetector } from './detector.ts';
import { parseLocationQuery, wordMatch } from './hazards.ts';
import type { CrisisStore, EventRow } from './store.ts';
import { type CrisisEventView, eventView } from './view.ts';

export const CRISIS_STATUSES = ['active', 'acknowledged', 'archived'] as const;
export const REVIEW_STATUSES = [
  'unreviewed',
  'unconfirmed',
  'supported',
  'disputed',
  'needs_review',
] as const;
export const ASSESSMENTS = ['unconfirmed', 'supported', 'disputed'] as const;
export const ACTIONS = ['acknowledge', 'archive', 'reopen'] as const;
export type CrisisAction = (typeof ACTIONS)[number];

/** The contract's transition table. */
const TRANSITIONS: Record<CrisisAction, { from: string[]; to: string }> = {
  acknowledge: { from: ['active'], to: 'acknowledged' },
  archive: { from: ['active', 'acknowledged'], to: 'archived' },
  reopen: { from: ['acknowledged', 'archived'], to: 'active' },
};

const PERIOD_MS: Record<string, number> = {
  '1h': 3600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

interface ListQuery {
  status?: string;
  severity?: string;
  period?: string;
  source?: string;
  freshness?: string;
  review_status?: string;
  keyword?: string;
  location?: string;
  start_date?: string;
  end_date?: string;
  order?: string;
  limit?: number;
  offset?: number;
}

export class CrisisService {
  constructor(
    private readonly store: CrisisStore,
    readonly detector: CrisisDetector,
    private readonly clock: Clock,
    private readonly config: Pick<Config, 'publicBaseUrl'>,
  ) {}

  /** Hazard observations since `since`, oldest first, at most `limit` (the public demo signals show them). */
  hazardsSince(since: number, limit?: number) {
    return this.store.hazardsSince(since, limit);
  }

  async list(userId: number, q: ListQuery) {
    const now = this.clock.now();
    const limit = q.limit ?? 20;
    const offset = q.offset ?? 0;
    let detectedFrom: number | undefined;
    let detectedTo: number | undefined;
    let period: string | null = q.period ?? null;
    if (q.start_date !== undefined || q.end_date !== undefined) {
      const range = dayRange(q.start_date, q.end_date, now);
      detectedFrom = range.startMs;
      detectedTo = range.endMs;
      period = 'custom';
    } else if (q.period === 'custom') {
      throw badRequest('period=custom needs start_date or end_date (the custom range).', 'period');
    } else if (q.period !== undefined) {
      detectedFrom = now - PERIOD_MS[q.period];
    }
    const all = (v: string | undefined) => (v === undefined || v === 'all' ? undefined : v);
    const { rows, total } = await this.store.list({
      userId,
      status: all(q.status),
      severity: all(q.severity),
      source: all(q.source),
      freshness: all(q.freshness) as 'fresh' | 'stale' | 'missing' | undefined,
      reviewStatus: all(q.review_status),
      keyword: q.keyword?.trim() || undefined,
      location: q.location?.trim() || undefined,
      detectedFrom,
      detectedTo,
      now,
      order: q.order === 'asc' ? 'asc' : 'desc',
      limit,
      offset,
    });
    return {
      events: rows.map((row) => eventView(row, now)),
      meta: {
        total,
        limit,
        offset,
        order: q.order ?? 'desc',
        period,
        start_date: q.start_date ?? null,
        end_date: q.end_date ?? null,
        status: q.status ?? 'all',
        severity: q.severity ?? 'all',
        source: q.source ?? 'all',
        freshness: q.freshness ?? 'all',
        review_status: q.review_status ?? 'all',
        keyword: q.keyword ?? null,
        location: q.location ?? null,
      },
    };
  }

  private async row(userId: number, id: number): Promise<EventRow> {
    const row = await this.store.find(userId, id);
    if (!row) throw notFound(`You have no crisis event with id ${id}.`);
    return row;
  }

  async get(userId: number, id: number): Promise<CrisisEventView> {
    return eventView(await this.row(userId, id), this.clock.now());
  }

  async evidence(userId: number, id: number): Promise<CrisisEventView> {
    const row = await this.row(userId, id);
    return eventView(row, this.clock.now(), {
      evidence: await this.store.evidence(id),
      reviews: await this.store.reviews(id),
    });
  }

  async action(userId: number, id: number, action: CrisisAction): Promise<CrisisEventView> {
    const now = this.clock.now();
    await this.store.transaction(async (trx) => {
      const row = await this.store.find(userId, id, trx);
      if (!row) throw notFound(`You have no crisis event with id ${id}.`);
      const rule = TRANSITIONS[action];
      if (!rule.from.includes(row.status)) {
        throw conflict(
          `Cannot ${action} a crisis event that is ${row.status} (allowed from: ${rule.from.join(', ')}).`,
          'invalid_transition',
        );
      }
      await this.store.updateEvent(id, { status: rule.to, updated_at: now }, trx);
    });
    return this.get(userId, id);
  }

  async review(
    userId: number,
    id: number,
    body: { assessment: string; rationale: string; evidence_version: string },
  ): Promise<CrisisEventView> {
    // The schema's minLength counts spaces; a review must say why.
    if (body.rationale.trim() === '') {
      throw badRequest('rationale must not be blank: say why you made this assessment.', 'rationale');
    }
    const now = this.clock.now();
    await this.store.transaction(async (trx) => {
      const row = await this.store.find(userId, id, trx);
      if (!row) throw notFound(`You have no crisis event with id ${id}.`);
      if (row.evidence_version === null || row.evidence_version !== body.evidence_version) {
        throw conflict(
          `evidence_version ${body.evidence_version} is not the event's current evidence version ` +
            `(${row.evidence_version ?? 'none: the event has no evidence'}); reload the evidence and review again.`,
          'stale_evidence_version',
        );
      }
      await this.store.insertReview(
        {
          event_id: id,
          reviewer_id: userId,
          assessment: body.assessment,
          rationale: body.rationale,
          evidence_version: body.evidence_version,
          created_at: now,
        },
        trx,
      );
      await this.store.updateEvent(id, { review_status: body.assessment, updated_at: now }, trx);
    });
    return this.evidence(userId, id);
  }

  async exportJson(userId: number, id: number) {
    const event = await this.evidence(userId, id);
    return {
      format: 'json' as const,
      exported_at: new Date(this.clock.now()).toISOString(),
      verification: {
        content_hash:
          'SHA-256 hex of the excerpt after Unicode NFC, whitespace runs collapsed to one space and trimmed.',
        evidence_version:
          'First 32 hex characters of SHA-256 over the content_hash values, sorted and joined with "\\n".',
      },
      event,
    };
  }

  async settings(userId: number) {
    const row = await this.store.settings(userId);
    return {
      // Upstream's model reads a string: '' means none is set.
      location_query: row?.location_query ?? '',
      updated_at: row ? new Date(Number(row.updated_at)).toISOString() : null,
    };
  }

  async putSettings(userId: number, raw: string | null) {
    const text = raw === null ? null : raw.trim() || null;
    if (text !== null) {
      const parsed = parseLocationQuery(text);
      if ('error' in parsed) throw badRequest(`location_query ${parsed.error}.`, 'location_query');
      await this.store.putSettings(userId, text, this.clock.now());
      // Recent hazards that concern the new location become events now, not at the next feed revision.
      await this.detector.rematchUser(userId, text, parsed);
    } else {
      await this.store.putSettings(userId, null, this.clock.now());
    }
    return this.settings(userId);
  }

  /**
   * The caller's active crisis event of severity high or critical about this trend: its `trend_id` is the
   * trend, or one of its `source_keywords` occurs in the trend's title (case-insensitive, whole words).
   */
  async blockingEventFor(
    userId: number,
    trend: { id: number; title: string },
  ): Promise<{ id: number; title: string; severity: string } | null> {
    for (const row of await this.store.activeSevere(userId)) {
      const keywords = JSON.parse(row.source_keywords) as string[];
      if (
        (row.trend_id !== null && Number(row.trend_id) === trend.id) ||
        keywords.some((k) => wordMatch(trend.title, k))
      ) {
        return { id: row.id, title: row.title, severity: row.severity };
      }
    }
    return null;
  }

  /** The link domain events and exports use for an event. */
  link(id: number): string {
    return `${this.config.publicBaseUrl}/api/intelligence/crisis-events/${id}`;
  }
}
