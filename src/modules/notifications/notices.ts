// What each domain event (and each expiring key) says in the feed: the notice's type, title, message, data
// and the key it is deduplicated on. Pure functions.
import { DAY_MS, isoString, utcDate } from '../../platform/clock.ts';
import type { EventOf } from '../../platform/events.ts';
import { severityOfVelocity } from '../alerts/index.ts';
import { CRISIS_EVENT_ESCALATED, CRISIS_EVENT_OPENED, type CrisisEvents } from '../crisis/index.ts';
import { EXPORT_RUN_FAILED, type ExportEvents } from '../exports/index.ts';
import type { TREND_VELOCITY_EVENT, TrendEvents } from '../trends/index.ts';

/** The `type` of each kind of notice. */
const NOTICE_TYPES = {
  trendAlert: 'trend.alert.created',
  crisisOpened: 'crisis.event.opened',
  crisisEscalated: 'crisis.event.escalated',
  crisisResolved: 'crisis.event.resolved',
  exportFinished: 'export.run.finished',
  exportFailed: 'export.run.failed',
  keyExpiring: 'api_key.expiring',
} as const;

/**
 * velocity_score levels whose upward crossing is a trend notice (the trends module also raises events at 25
 * and at webhook subscribers' own thresholds; the feed keeps to the levels that mean "rising fast").
 */
const NOTICE_LEVELS = [50, 75, 90] as const;

/** Keys expiring within this window get a notice. */
export const KEY_NOTICE_WINDOW_MS = 7 * DAY_MS;

const HOUR_MS = 3_600_000;
const MAX_TITLE = 200;

export interface Notice {
  type: string;
  title: string;
  message: string;
  data: Record<string, unknown>;
  /** What the user is notified of: a second notice with the same key is never created. */
  dedupeKey: string;
}

function clip(text: string, max = MAX_TITLE): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The highest notice level crossed upward from `from` to `to`, or null when none was. */
export function crossedLevel(from: number, to: number): number | null {
  const crossed = NOTICE_LEVELS.filter((level) => from < level && to >= level);
  return crossed.length === 0 ? null : crossed[crossed.length - 1]!;
}

/** An interest's alert condition against the trend's numbers (`crisis`, the default, asks for none). */
export function conditionMet(
  interest: {
    alert_condition_type: string;
    volume_threshold_value: number | null;
    percentage_growth_value: number | null;
  },
  trend: { volume: number; growth: number | null | undefined },
): boolean {
  switch (interest.alert_condition_type) {
    case 'volume_above':
      return interest.volume_threshold_value === null || trend.volume >= interest.volume_threshold_value;
    case 'growth_above':
      return (
        interest.percentage_growth_value === null ||
        (trend.growth !== null &&
          trend.growth !== undefined &&
          trend.growth >= interest.percentage_growth_value)
      );
    default:
      return true;
  }
}

/**
 * A trend crossing `level`, for a user following `keywords`. One per trend, level and UTC day: a trend that
 * hovers around a level does not notify again the same day.
 */
export function trendAlertNotice(
  event: EventOf<TrendEvents, typeof TREND_VELOCITY_EVENT>,
  level: number,
  keywords: string[],
  baseUrl: string,
): Notice {
  const d = event.data;
  const quoted = keywords.map((k) => `"${k}"`).join(', ');
  return {
    type: NOTICE_TYPES.trendAlert,
    title: clip(`${d.trend_name} is rising fast`),
    message:
      `${d.trend_name} crossed velocity ${level} (score ${d.velocity}, from ${d.from_velocity}) with ` +
      `${d.volume} mentions in 24 hours; it matches your interest${keywords.length > 1 ? 's' : ''} ${quoted}.`,
    data: {
      trend_id: d.trend_id,
      trend_name: d.trend_name,
      category: d.category,
      velocity: d.velocity,
      from_velocity: d.from_velocity,
      level,
      volume: d.volume,
      severity: severityOfVelocity(d.velocity),
      interests: keywords,
      source_link: `${baseUrl.replace(/\/+$/, '')}/api/trends/${d.trend_id}`,
      event_id: event.id,
    },
    dedupeKey: `${NOTICE_TYPES.trendAlert}:${d.trend_id}:${level}:${utcDate(event.occurred_at)}`,
  };
}

/** One of the user's crisis events opened, escalated or subsided: one notice per step. */
export function crisisNotice(event: EventOf<CrisisEvents>): Notice {
  const d = event.data;
  let type: string;
  let title: string;
  let message: string;
  if (event.type === CRISIS_EVENT_OPENED) {
    type = NOTICE_TYPES.crisisOpened;
    title = `Crisis event opened: ${d.title}`;
    message = `Severity ${d.severity}. ${d.summary}`;
  } else if (event.type === CRISIS_EVENT_ESCALATED) {
    type = NOTICE_TYPES.crisisEscalated;
    title = `Crisis event escalated to ${d.severity}: ${d.title}`;
    message = `Severity ${d.severity}. ${d.summary}`;
  } else {
    type = NOTICE_TYPES.crisisResolved;
    title = `Crisis event subsided: ${d.title}`;
    message = `The signals behind it have subsided; its status (${d.status}) stays yours to change. ${d.summary}`;
  }
  return {
    type,
    title: clip(title),
    message,
    data: {
      crisis_event_id: d.crisis_event_id,
      severity: d.severity,
      status: d.status,
      impacted_entity: d.impacted_entity,
      detected_at: d.detected_at,
      source_link: d.source_link,
      event_id: event.id,
    },
    dedupeKey: event.id,
  };
}

/** An export run of the user's ended: one notice per history row and outcome. */
export function exportNotice(event: EventOf<ExportEvents>): Notice {
  const d = event.data;
  const failed = event.type === EXPORT_RUN_FAILED;
  const rows = d.row_count === null ? 'its rows' : `${d.row_count} row${d.row_count === 1 ? '' : 's'}`;
  const config =
    d.config_id === null ? 'A deleted export configuration' : `Export configuration ${d.config_id}`;
  return {
    type: failed ? NOTICE_TYPES.exportFailed : NOTICE_TYPES.exportFinished,
    title: failed ? `Export to ${d.destination} failed` : `Export to ${d.destination} finished`,
    message: failed
      ? `${config} could not deliver to ${d.destination}: ` +
        `${d.error_message ?? 'no reason was recorded'}. GET /api/user/export/history shows the run.`
      : `${config} delivered ${rows} to ${d.destination}.`,
    data: {
      config_id: d.config_id,
      history_id: d.history_id,
      destination: d.destination,
      row_count: d.row_count,
      error_message: d.error_message,
      event_id: event.id,
    },
    dedupeKey: `${event.type}:${d.history_id}`,
  };
}

function timeLeft(ms: number): string {
  if (ms < 2 * HOUR_MS) return 'within 2 hours';
  if (ms < 2 * DAY_MS) return `in about ${Math.round(ms / HOUR_MS)} hours`;
  return `in about ${Math.round(ms / DAY_MS)} days`;
}

/** A key of the user's expiring within the notice window: one notice per key and expiry. */
export function keyExpiringNotice(
  key: { id: number; name: string; prefix: string; expires_at: number },
  now: number,
): Notice {
  const at = isoString(key.expires_at)!;
  return {
    type: NOTICE_TYPES.keyExpiring,
    title: clip(`API key "${key.name}" expires soon`),
    message:
      `Key "${key.name}" (${key.prefix}…) expires at ${at}, ${timeLeft(key.expires_at - now)}. ` +
      'Rotate it (POST /api/user/api-keys/{key_id}/rotate) or create a new key before then to keep access.',
    data: { key_id: key.id, name: key.name, prefix: key.prefix, expires_at: at },
    dedupeKey: `${NOTICE_TYPES.keyExpiring}:${key.id}:${key.expires_at}`,
  };
}
