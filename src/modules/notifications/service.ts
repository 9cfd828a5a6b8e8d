// The in-app notification feed, fed by domain events; and the dashboard overview.
//
// Listeners (registered when the service is built) turn the trends module's velocity crossings, the crisis
// module's event steps and the exports module's run results into notices for the users they concern; the
// hourly `checkExpiringKeys` adds notices for keys about to expire. Every notice carries a dedupe key claimed
// in the same transaction as its insert, so at-least-once events and repeated checks never notify twice.
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import { type Clock, DAY_MS, isoString, nextUtcMidnight } from '../../platform/clock.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import type { EventOf, EventSubscriber } from '../../platform/events.ts';
import type { AccountsService, InterestsService } from '../accounts/index.ts';
import {
  CRISIS_EVENT_ESCALATED,
  CRISIS_EVENT_OPENED,
  CRISIS_EVENT_RESOLVED,
  type CrisisEvents,
} from '../crisis/index.ts';
import { EXPORT_RUN_FAILED, EXPORT_RUN_FINISHED, type ExportEvents } from '../exports/index.ts';
import { TREND_VELOCITY_EVENT, type TrendEvents, type TrendsService } from '../trends/index.ts';
import {
  conditionMet,
  crisisNotice,
  crossedLevel,
  exportNotice,
  KEY_NOTICE_WINDOW_MS,
  keyExpiringNotice,
  type Notice,
  trendAlertNotice,
} from './notices.ts';
import { type NotificationRow, NotificationsStore } from './store.ts';

/** The feed keeps each user's newest notices up to this many… */
const MAX_NOTICES_PER_USER = 1000;
/** …and none older than this. */
const RETENTION_MS = 90 * DAY_MS;
/**
 * What a user was notified of is remembered this long, beyond the notices themselves (a notice dropped from a
 * full feed is not created again by a late replay or by the next hourly key check).
 */
const DEDUPE_RETENTION_MS = 120 * DAY_MS;
const TOP_TRENDS = 5;
const RECENT_ALERTS = 5;
const KEY_PAGE = 500;
const PRUNE_BATCH = 1000;
/** Batches one hourly prune may delete per table; the rest waits for the next hour. */
const PRUNE_ROUNDS = 50;

type NoticeEvents = TrendEvents & CrisisEvents & ExportEvents;

interface NotificationsDeps {
  config: Pick<Config, 'publicBaseUrl'>;
  clock: Clock;
  db: DB;
  events: EventSubscriber<NoticeEvents>;
  accounts: Pick<AccountsService, 'keysExpiringWithin'>;
  interests: Pick<InterestsService, 'list' | 'matchingTrend'>;
  trends: Pick<TrendsService, 'list' | 'get'>;
}

interface NotificationView {
  id: number;
  title: string;
  message: string;
  type: string;
  is_read: boolean;
  created_at: string;
  status: 'read' | 'unread';
  read_at: string | null;
  data: Record<string, unknown>;
}

function view(row: NotificationRow): NotificationView {
  const read = row.is_read === 1;
  let data: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(row.data) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      data = parsed as Record<string, unknown>;
  } catch {
    // Unreadable data shows as an empty object.
  }
  return {
    id: Number(row.id),
    title: row.title,
    message: row.message,
    type: row.type,
    is_read: read,
    created_at: isoString(row.created_at)!,
    status: read ? 'read' : 'unread',
    read_at: isoString(row.read_at),
    data,
  };
}

/** Mean of the known values, rounded to 2 decimals; null when there is none. */
export function meanGrowth(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (known.length === 0) return null;
  return Math.round((known.reduce((a, b) => a + b, 0) / known.length) * 100) / 100;
}

export class NotificationsService {
  private readonly store: NotificationsStore;

  constructor(private readonly deps: NotificationsDeps) {
    this.store = new NotificationsStore(deps.db);
    const { events } = deps;
    events.on(TREND_VELOCITY_EVENT, (event) => this.onTrendVelocity(event));
    for (const type of [CRISIS_EVENT_OPENED, CRISIS_EVENT_ESCALATED, CRISIS_EVENT_RESOLVED] as const) {
      events.on(type, (event) => this.onCrisis(event));
    }
    for (const type of [EXPORT_RUN_FINISHED, EXPORT_RUN_FAILED] as const) {
      events.on(type, (event) => this.onExportRun(event));
    }
  }

  // ---------- the feed

  async recent(userId: number, limit = 10) {
    const [rows, unread] = await Promise.all([
      this.store.recent(userId, limit),
      this.store.unreadCount(userId),
    ]);
    return { notifications: rows.map(view), unread_count: unread };
  }

  /**
   * Marks the user's notices read. Every id must be one of the user's notices (another user's, or one no
   * longer kept → 404 naming them, and nothing is marked); ids already read are fine and not counted.
   */
  /** Marks the given notices read, all or nothing; no ids marks every unread notice of the user read. */
  async markRead(userId: number, ids: number[]) {
    const unique = [...new Set(ids)];
    const now = this.deps.clock.now();
    return this.store.transaction(async (trx) => {
      if (unique.length === 0) {
        const updated = await this.store.markAllRead(userId, now, trx);
        return { success: true, updated, unread_count: await this.store.unreadCount(userId, trx) };
      }
      const owned = await this.store.ownedIds(userId, unique, trx);
      const missing = unique.filter((id) => !owned.has(id));
      if (missing.length > 0) {
        const shown = missing.slice(0, 10).join(', ');
        const more = missing.length > 10 ? ` and ${missing.length - 10} more` : '';
        throw notFound(
          `You have no notification with id ${shown}${more}; nothing was marked read.`,
          'notification_not_found',
        );
      }
      const updated = await this.store.markRead(userId, unique, now, trx);
      return { success: true, updated, unread_count: await this.store.unreadCount(userId, trx) };
    });
  }

  // ---------- the dashboard

  async overview(userId: number) {
    const now = this.deps.clock.now();
    const startOfDay = nextUtcMidnight(now) - DAY_MS;
    const interests = await this.deps.interests.list(userId);
    const keywords = interests.filter((i) => i.status === 'active').map((i) => i.keyword);
    const base = { period: '24h' as const, sort_by: 'volume' as const, order: 'desc' as const };
    const [all, mine, alertsToday, recent] = await Promise.all([
      this.deps.trends.list({ ...base, limit: TOP_TRENDS }),
      keywords.length > 0
        ? this.deps.trends.list({ ...base, limit: TOP_TRENDS, interests: keywords })
        : Promise.resolve(null),
      this.store.countSince(userId, startOfDay),
      this.store.recent(userId, RECENT_ALERTS),
    ]);
    const top = [...(mine?.trends ?? [])];
    for (const trend of all.trends) {
      if (top.length >= TOP_TRENDS) break;
      if (!top.some((t) => t.id === trend.id)) top.push(trend);
    }
    return {
      stats: {
        active_trends: all.total,
        alerts_today: alertsToday,
        topic_interests: interests.length,
        avg_growth: meanGrowth(top.map((t) => t.growth)),
      },
      top_trends: top,
      recent_alerts: recent.map(view),
    };
  }

  // ---------- producing notices

  /**
   * A trend crossed velocity 50, 75 or 90: one notice for each user with an active interest it matches (whole
   * words, as the trend list's `interest` filter) whose alert condition holds.
   */
  async onTrendVelocity(event: EventOf<TrendEvents, typeof TREND_VELOCITY_EVENT>): Promise<void> {
    const d = event.data;
    const level = crossedLevel(d.from_velocity, d.velocity);
    if (level === null) return;
    const matched = await this.deps.interests.matchingTrend(d.trend_name);
    if (matched.length === 0) return;
    let growth: number | null | undefined;
    const growthOf = async () => {
      if (growth === undefined) {
        // A trend gone since the event has no growth to compare.
        growth = await this.deps.trends.get(d.trend_id, '24h').then(
          (t) => t.growth,
          (error: unknown) => {
            if (error instanceof ApiError && error.status === 404) return null;
            throw error;
          },
        );
      }
      return growth;
    };
    const byUser = new Map<number, string[]>();
    for (const interest of matched) {
      const g = interest.alert_condition_type === 'growth_above' ? await growthOf() : null;
      if (!conditionMet(interest, { volume: d.volume, growth: g })) continue;
      const userId = Number(interest.user_id);
      byUser.set(userId, [...(byUser.get(userId) ?? []), interest.keyword]);
    }
    for (const [userId, keywords] of byUser) {
      await this.notify(userId, trendAlertNotice(event, level, keywords, this.deps.config.publicBaseUrl));
    }
  }

  /** One of the user's crisis events opened, escalated or subsided. */
  async onCrisis(event: EventOf<CrisisEvents>): Promise<void> {
    await this.notify(Number(event.data.user_id), crisisNotice(event));
  }

  /** One of the user's export runs finished or failed. */
  async onExportRun(event: EventOf<ExportEvents>): Promise<void> {
    await this.notify(Number(event.data.user_id), exportNotice(event));
  }

  /**
   * Notices for keys (neither revoked nor rotated away) expiring within 7 days: one per key and expiry. Run
   * hourly; also drops notices past the retention period and old dedupe keys.
   */
  async checkExpiringKeys(): Promise<number> {
    const now = this.deps.clock.now();
    let created = 0;
    let afterId = 0;
    for (;;) {
      const page = await this.deps.accounts.keysExpiringWithin(KEY_NOTICE_WINDOW_MS, afterId, KEY_PAGE);
      for (const key of page) {
        if (await this.notify(Number(key.user_id), keyExpiringNotice(key, now))) created++;
      }
      if (page.length < KEY_PAGE) break;
      afterId = Number(page[page.length - 1]!.id);
    }
    await this.prune(now);
    return created;
  }

  /** Creates the notice unless the user already had one with its dedupe key; true when created. */
  private notify(userId: number, notice: Notice): Promise<boolean> {
    const now = this.deps.clock.now();
    return this.store.transaction(async (trx) => {
      if (!(await this.store.claim(userId, notice.dedupeKey, now, trx))) return false;
      await this.store.insert(
        {
          user_id: userId,
          type: notice.type,
          title: notice.title,
          message: notice.message,
          data: JSON.stringify(notice.data),
          is_read: 0,
          read_at: null,
          created_at: now,
        },
        trx,
      );
      await this.store.pruneUser(userId, MAX_NOTICES_PER_USER, now - RETENTION_MS, trx);
      return true;
    });
  }

  /** Drops every user's notices older than the retention period, and dedupe keys past theirs (bounded). */
  private async prune(now: number): Promise<void> {
    for (let i = 0; i < PRUNE_ROUNDS; i++) {
      if ((await this.store.deleteNoticesBefore(now - RETENTION_MS, PRUNE_BATCH)) < PRUNE_BATCH) break;
    }
    for (let i = 0; i < PRUNE_ROUNDS; i++) {
      if ((await this.store.deleteKeysBefore(now - DEDUPE_RETENTION_MS, PRUNE_BATCH)) < PRUNE_BATCH) break;
    }
  }
}
