// Recommendations with decision briefs, generated per user by the rule engine (rules.ts) from what Crestwatch
// knows: the user's interests, the trends matching them, their open crisis events and their latest insights.
//
// When: on read, for the caller, at most every 30 s per user (the injected clock), and again after 5 s when a
// domain event says an input changed (a trend crossing a velocity level or changing stage, one of the user's
// crisis events opening, escalating or subsiding; the listeners only mark users for regeneration, so the job
// worker does no extra work). Each regeneration is bounded: up to 100 matching trends, 100 active and 100
// acknowledged crisis events, and the user's 50 latest insights.
//
// How the stored rows follow the drafts (one row per user, source and type):
// - a new draft → a row with status `new`;
// - a draft whose content changed (numbers, evidence, wording) → the row is rewritten in place, keeping its
//   status, feedback and creation time;
// - a row whose rule no longer fires → `lapsed` (its brief is no longer actionable); if the rule fires again
//   it is refreshed and un-lapsed; rows lapsed for 30 days are deleted;
// - a dismissed or actioned row comes back as `new` only when its trigger grows stronger than it was when
//   the user acted (velocity 75 → 90, a crisis escalating high → critical, a complaint share 10 % → 25 %…).
import { createHash } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import { type Clock, DAY_MS, isoString } from '../../platform/clock.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { EventSubscriber } from '../../platform/events.ts';
import {
  CRISIS_EVENT_ESCALATED,
  CRISIS_EVENT_OPENED,
  CRISIS_EVENT_RESOLVED,
  type CrisisEvents,
  type CrisisService,
  FRESHNESS_WINDOWS_MS,
} from '../crisis/index.ts';
import type { InsightsService } from '../insights/index.ts';
import { normaliseKey } from '../text/index.ts';
import {
  TREND_LIFECYCLE_EVENT,
  TREND_VELOCITY_EVENT,
  type TrendEvents,
  type TrendsService,
} from '../trends/index.ts';
import { type BriefParts, notActionableReason, present } from './brief.ts';
import {
  type CrisisFacts,
  type Draft,
  type InsightFacts,
  insightFacts,
  priorityRank,
  type TrendFacts,
} from './facts.ts';
import { generate } from './rules.ts';
import { type RecommendationRow, RecommendationsStore } from './store.ts';

export const STATUSES = ['new', 'viewed', 'actioned', 'dismissed'] as const;
type Status = (typeof STATUSES)[number];

/** A user's recommendations are regenerated at most this often… */
const DEBOUNCE_MS = 30_000;
/** …or this often once a domain event said one of their inputs changed. */
const DIRTY_DEBOUNCE_MS = 5_000;
const LAPSED_RETENTION_MS = 30 * DAY_MS;
const MAX_TRENDS = 100;
const MAX_CRISES = 100;
const MAX_INSIGHTS = 50;
/** Users whose last regeneration time is remembered (older entries are dropped beyond this). */
const MAX_REMEMBERED = 50_000;

interface RecommendationsDeps {
  config: Pick<Config, 'publicBaseUrl'>;
  clock: Clock;
  db: DB;
  log: { warn(details: object, message: string): void };
  events: EventSubscriber<TrendEvents & CrisisEvents>;
  interests: { list(userId: number): Promise<{ keyword: string; status: string }[]> };
  trends: Pick<TrendsService, 'list'>;
  insights: Pick<InsightsService, 'search'>;
  crisis: Pick<CrisisService, 'list'>;
}

interface ListQuery {
  limit?: number;
  offset?: number;
  type?: string;
  sourceTrendQ?: string;
  priority?: string;
  status?: string;
  match_user_interests?: boolean;
  sort?: string;
}

type CrisisView = Awaited<ReturnType<CrisisService['list']>>['events'][number];

const all = (v: string | undefined) => (v === undefined || v === 'all' ? undefined : v);

function fingerprint(draft: Draft): string {
  return createHash('sha256').update(JSON.stringify(draft)).digest('hex');
}

/** An interest's key, as interests and trends are keyed. */
function keyOf(keyword: string): string | null {
  return normaliseKey(keyword.trim().replace(/^#/, ''));
}

/** How long a crisis event's evidence stays fresh: the crisis module's window for its source. */
function windowOf(event: CrisisView): number {
  if (event.detection_method === 'negative-surge-z') return FRESHNESS_WINDOWS_MS.social!;
  const sources = (event.corroboration as { sources?: unknown } | null)?.sources;
  const first = Array.isArray(sources) && typeof sources[0] === 'string' ? sources[0] : null;
  return (first !== null ? FRESHNESS_WINDOWS_MS[first] : undefined) ?? FRESHNESS_WINDOWS_MS.social!;
}

function crisisFacts(event: CrisisView): CrisisFacts {
  const corroboration = event.corroboration as { independent_sources?: unknown } | null;
  const independent = corroboration?.independent_sources;
  return {
    id: event.id,
    title: event.title,
    summary: event.summary,
    severity: event.severity,
    status: event.status,
    impacted_entity: event.impacted_entity,
    trend_id: event.trend_id === null ? null : Number(event.trend_id),
    source_keywords: event.source_keywords,
    detected_at: event.detected_at,
    evidence_as_of: event.evidence_as_of,
    freshness_window_ms: windowOf(event),
    severity_basis: event.severity_basis,
    evidence_completeness: event.evidence_completeness ? { score: event.evidence_completeness.score } : null,
    independent_sources: typeof independent === 'number' ? independent : null,
    review_status: event.review_status,
    source_state: event.source_state,
    evidence_version: event.evidence_version,
  };
}

function recommendationView(row: RecommendationRow, now: number) {
  const parts = JSON.parse(row.brief) as BriefParts;
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    type: row.type,
    title: row.title,
    details: row.details,
    source_trend_id: row.source_trend_id,
    source_trend_name: row.source_trend_name,
    priority: row.priority,
    status: row.status,
    created_at: isoString(Number(row.created_at))!,
    updated_at: isoString(Number(row.updated_at))!,
    user_feedback: row.user_feedback,
    decision_brief: present(parts, {
      now,
      freshUntil: row.fresh_until === null ? null : Number(row.fresh_until),
      lapsedAt: row.lapsed_at === null ? null : Number(row.lapsed_at),
    }),
  };
}

export class RecommendationsService {
  private readonly store: RecommendationsStore;
  /** userId → clock time of the last regeneration started in this process. */
  private readonly lastRun = new Map<number, number>();
  /** Users one of whose crisis events changed since their last regeneration. */
  private readonly dirty = new Set<number>();
  /** Clock time of the last trend event (it may concern anyone's interests). */
  private trendsChangedAt = Number.NEGATIVE_INFINITY;
  private readonly running = new Map<number, Promise<void>>();

  constructor(private readonly deps: RecommendationsDeps) {
    this.store = new RecommendationsStore(deps.db);
    const trendsChanged = () => {
      this.trendsChangedAt = deps.clock.now();
    };
    deps.events.on(TREND_VELOCITY_EVENT, trendsChanged);
    deps.events.on(TREND_LIFECYCLE_EVENT, trendsChanged);
    for (const type of [CRISIS_EVENT_OPENED, CRISIS_EVENT_ESCALATED, CRISIS_EVENT_RESOLVED] as const) {
      deps.events.on(type, (event) => {
        this.dirty.add(event.data.user_id);
      });
    }
  }

  /** `GET /api/intelligence/recommendations`. */
  async list(userId: number, q: ListQuery) {
    await this.refresh(userId);
    const now = this.deps.clock.now();
    const limit = Math.min(q.limit ?? 20, 100);
    const offset = q.offset ?? 0;
    const search = q.sourceTrendQ?.trim() || undefined;
    const sort = q.sort === 'newest' ? 'newest' : 'priority';
    const match = q.match_user_interests === true;
    const meta = {
      limit,
      offset,
      sort_by: sort,
      order: 'desc',
      search: search ?? null,
      type: q.type ?? 'all',
      sourceTrendQ: search ?? null,
      priority: q.priority ?? 'all',
      status: q.status ?? 'new',
      match_user_interests: match,
    };
    let interestKeys: string[] | undefined;
    if (match) {
      interestKeys = (await this.deps.interests.list(userId))
        .filter((i) => i.status === 'active')
        .map((i) => keyOf(i.keyword))
        .filter((k): k is string => k !== null);
      if (interestKeys.length === 0) return { recommendations: [], meta: { total: 0, ...meta } };
    }
    const { rows, total } = await this.store.list({
      userId,
      type: all(q.type),
      priority: all(q.priority),
      status: all(q.status ?? 'new'),
      search,
      interestKeys,
      sort,
      limit,
      offset,
    });
    return { recommendations: rows.map((row) => recommendationView(row, now)), meta: { total, ...meta } };
  }

  /** `POST …/{id}/action`: exactly one of a workflow state or feedback. */
  async act(userId: number, id: number, body: { action?: string; feedback?: string }) {
    if (body.action !== undefined && body.feedback !== undefined) {
      throw badRequest('Send either action or feedback, not both: they are separate updates.', 'feedback');
    }
    const feedback = body.feedback?.trim();
    if (body.action === undefined && !feedback) {
      throw badRequest(
        body.feedback === undefined
          ? 'Send action (new, viewed, actioned or dismissed) or feedback.'
          : 'feedback is blank; write a note or send an action instead.',
        body.feedback === undefined ? 'action' : 'feedback',
      );
    }
    const now = this.deps.clock.now();
    const row = await this.store.transaction(async (trx) => {
      const current = await this.store.find(userId, id, trx);
      if (!current) throw notFound(`You have no recommendation with id ${id}.`);
      if (feedback) {
        await this.store.update(userId, id, { user_feedback: feedback, updated_at: now }, trx);
      } else {
        const action = body.action as Status;
        if (action === 'actioned') {
          const view = recommendationView(current, now);
          if (!view.decision_brief.actionable) {
            const reason = notActionableReason(
              view.decision_brief,
              JSON.parse(current.brief) as BriefParts,
              current.lapsed_at === null ? null : Number(current.lapsed_at),
            );
            throw conflict(
              `Recommendation ${id} is not actionable now: ${reason}. Refresh it and check its missing evidence ` +
                'before marking it actioned.',
              'recommendation_not_actionable',
            );
          }
        }
        const acted = action === 'actioned' || action === 'dismissed';
        await this.store.update(
          userId,
          id,
          { status: action, acted_level: acted ? current.trigger_level : null, updated_at: now },
          trx,
        );
      }
      return (await this.store.find(userId, id, trx))!;
    });
    return recommendationView(row, now);
  }

  /** Regenerates the user's recommendations unless that happened recently (see the top of this file). */
  private async refresh(userId: number): Promise<void> {
    const now = this.deps.clock.now();
    const last = this.lastRun.get(userId);
    if (last !== undefined && now >= last) {
      const since = now - last;
      const changed = this.dirty.has(userId) || this.trendsChangedAt >= last;
      if (since < DIRTY_DEBOUNCE_MS || (since < DEBOUNCE_MS && !changed)) return;
    }
    const pending = this.running.get(userId);
    if (pending) return pending;
    this.remember(userId, now);
    const run = this.regenerate(userId, now)
      .catch((error: unknown) => {
        // The list still answers from the stored rows; the next read tries again.
        this.lastRun.delete(userId);
        this.deps.log.warn({ err: error, userId }, 'recommendations not regenerated');
      })
      .finally(() => this.running.delete(userId));
    this.running.set(userId, run);
    return run;
  }

  private remember(userId: number, now: number): void {
    this.dirty.delete(userId);
    this.lastRun.set(userId, now);
    if (this.lastRun.size > MAX_REMEMBERED) {
      for (const [user, at] of this.lastRun) if (now - at >= DEBOUNCE_MS) this.lastRun.delete(user);
    }
  }

  /** Reads the user's inputs, runs the rules and brings the stored rows in line with the drafts. */
  private async regenerate(userId: number, now: number): Promise<void> {
    const { interests, trends, crisis, insights, config } = this.deps;
    const active = (await interests.list(userId)).filter((i) => i.status === 'active');
    const matching: TrendFacts[] =
      active.length === 0
        ? []
        : (
            await trends.list({
              interests: active.map((i) => i.keyword),
              period: '24h',
              sort_by: 'velocity',
              order: 'desc',
              limit: MAX_TRENDS,
            })
          ).trends;
    const open = [
      ...(await crisis.list(userId, { status: 'active', limit: MAX_CRISES })).events,
      ...(await crisis.list(userId, { status: 'acknowledged', limit: MAX_CRISES })).events,
    ];
    // The plan only sets the usage numbers attached to each insight, which the rules do not read.
    const latest = await insights.search(userId, 'developer', { limit: MAX_INSIGHTS, offset: 0 });
    const facts: InsightFacts[] = latest.trends.map((insight) =>
      insightFacts(insight, insight.generated_at ? Date.parse(insight.generated_at) : 0),
    );
    const drafts = generate({
      now,
      baseUrl: config.publicBaseUrl,
      interests: active.map((i) => ({ keyword: i.keyword })),
      trends: matching,
      crises: open.map(crisisFacts),
      insights: facts,
    });
    await this.sync(userId, drafts, now);
  }

  private async sync(userId: number, drafts: Draft[], now: number): Promise<void> {
    await this.store.transaction(async (trx) => {
      const heads = new Map<string, Awaited<ReturnType<RecommendationsStore['heads']>>[number]>();
      for (const head of await this.store.heads(userId, trx))
        heads.set(`${head.source_key}|${head.type}`, head);
      for (const draft of drafts) {
        const key = `${draft.source_key}|${draft.type}`;
        const head = heads.get(key);
        heads.delete(key);
        const print = fingerprint(draft);
        const content = {
          source_trend_id: draft.source_trend_id,
          source_trend_name: draft.source_trend_name,
          source_words: draft.source_words,
          title: draft.title,
          details: draft.details,
          priority: draft.priority,
          priority_rank: priorityRank(draft.priority),
          brief: JSON.stringify(draft.parts),
          fingerprint: print,
          trigger_level: draft.trigger_level,
          fresh_until: draft.fresh_until,
          lapsed_at: null,
          updated_at: now,
        };
        if (!head) {
          await this.store.insert(
            {
              ...content,
              user_id: userId,
              type: draft.type,
              source_key: draft.source_key,
              status: 'new',
              user_feedback: null,
              acted_level: null,
              created_at: now,
            },
            trx,
          );
          continue;
        }
        const acted = head.status === 'dismissed' || head.status === 'actioned';
        const stronger = acted && draft.trigger_level > Number(head.acted_level ?? head.trigger_level);
        if (head.fingerprint === print && head.lapsed_at === null) continue;
        await this.store.update(
          userId,
          Number(head.id),
          stronger ? { ...content, status: 'new', acted_level: null } : content,
          trx,
        );
      }
      const lapsing = [...heads.values()].filter((h) => h.lapsed_at === null).map((h) => Number(h.id));
      await this.store.markLapsed(userId, lapsing, now, trx);
      await this.store.deleteLapsedBefore(userId, now - LAPSED_RETENTION_MS, trx);
    });
  }
}
