// Alert bodies built from domain events: the one shape webhooks deliver and the live stream sends, plus the
// severity scale alerts are filtered on. Pure functions.
import { createHash } from 'node:crypto';
import { isoString } from '../../platform/clock.ts';
import type { DomainEvent, EventOf } from '../../platform/events.ts';
import {
  CRISIS_EVENT_ESCALATED,
  CRISIS_EVENT_OPENED,
  CRISIS_EVENT_RESOLVED,
  type CrisisDomainEventData,
  type CrisisEvents,
} from '../crisis/index.ts';
import type { LifecycleChangedData, TrendEvents, VelocityCrossedData } from '../trends/index.ts';

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The `event` of a trend alert body (raised by the trend module's velocity crossing). */
export const TREND_ALERT_EVENT = 'trend.alert.created';
/** The `event` of a lifecycle body. */
export const TREND_LIFECYCLE_ALERT_EVENT = 'trend.lifecycle.changed';
/** The crisis module's events; each becomes an alert of the same name for the crisis's owner. */
export const CRISIS_EVENT_TYPES = [
  CRISIS_EVENT_OPENED,
  CRISIS_EVENT_ESCALATED,
  CRISIS_EVENT_RESOLVED,
] as const;

/** The domain events alerts are made from: the trends module's and the crisis module's. */
export type AlertEvents = TrendEvents & CrisisEvents;
/** One of them, by name. */
export type AlertEvent<K extends keyof AlertEvents = keyof AlertEvents> = EventOf<AlertEvents, K>;
export type VelocityData = VelocityCrossedData;
export type LifecycleData = LifecycleChangedData;
export type CrisisData = CrisisDomainEventData;
/** What a body takes from its event (also a sample event, for the webhook test payload). */
type EventStamp = Pick<DomainEvent, 'type' | 'occurred_at'>;

/** A stable message id: the same inputs give the same id (at-least-once listeners, retries, redeliveries). */
export function messageId(...parts: (string | number)[]): string {
  return `msg_${createHash('sha256').update(parts.join('|')).digest('hex').slice(0, 32)}`;
}

export function severityOfVelocity(velocity: number): Severity {
  if (velocity >= 90) return 'critical';
  if (velocity >= 75) return 'high';
  if (velocity >= 50) return 'medium';
  return 'low';
}

/** 1 (low) … 4 (critical); 0 for anything else, so an unknown severity passes no minimum. */
export function severityRank(severity: string): number {
  const i = (SEVERITIES as readonly string[]).indexOf(severity);
  return i < 0 ? 0 : i + 1;
}

interface TrendContext {
  lifecycle_stage?: string | null;
  sentiment_category?: string | null;
}

const round = (n: number) => Math.round(n * 10) / 10;

const WINDOW_WORDS: Record<string, string> = { '1h': 'hour', '6h': '6 hours', '24h': '24 hours' };

/** " (measured over the last 6 hours)"; nothing for events recorded before velocity had windows. */
function windowNote(window: string | undefined): string {
  const words = window === undefined ? undefined : WINDOW_WORDS[window];
  return words === undefined ? '' : ` (measured over the last ${words})`;
}

/** Next steps derived from the metrics when the subscriber has no insight for the trend. */
export function derivedNextSteps(
  data: { trend_name: string; category: string; velocity: number },
  context: TrendContext,
): string[] {
  const name = `“${data.trend_name}”`;
  const steps: string[] = [];
  if (data.velocity >= 75)
    steps.push(`Publish or schedule content about ${name} within hours, while attention is at its height.`);
  else if (data.velocity >= 50) steps.push(`Prepare content on ${name} now: it is gaining momentum.`);
  else steps.push(`Add ${name} to your watch list and check its velocity again in a few hours.`);
  switch (context.lifecycle_stage) {
    case 'emerging':
    case 'rising':
      steps.push(`Move early: the trend is ${context.lifecycle_stage}, so first movers get the most reach.`);
      break;
    case 'peaking':
      steps.push('It is peaking: plan a follow-up angle rather than a fresh launch.');
      break;
    case 'declining':
      steps.push('It is declining: avoid new spend on it.');
      break;
  }
  switch (context.sentiment_category) {
    case 'negative':
      steps.push('Sentiment is negative: review brand safety before associating your brand with it.');
      break;
    case 'mixed':
      steps.push('Sentiment is mixed: read the conversation before committing.');
      break;
    case 'positive':
      steps.push('Sentiment is positive: a good moment for brand engagement.');
      break;
  }
  steps.push(`Share it with whoever covers ${data.category}.`);
  return steps;
}

function trendLink(baseUrl: string, trendId: number): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/trends/${trendId}`;
}

export function alertBody(
  id: string,
  event: EventStamp,
  data: VelocityData,
  baseUrl: string,
  nextSteps: string[],
): Record<string, unknown> {
  return {
    id,
    event: TREND_ALERT_EVENT,
    trend_id: data.trend_id,
    trend_name: data.trend_name,
    category: data.category,
    severity: severityOfVelocity(data.velocity),
    velocity: data.velocity,
    timestamp: isoString(event.occurred_at),
    summary:
      `${data.trend_name} (${data.category}): velocity score rose from ${round(data.from_velocity)} to ` +
      `${round(data.velocity)}${windowNote(data.velocity_window)}, ${data.volume} mentions in 24 hours.`,
    source_link: trendLink(baseUrl, data.trend_id),
    recommended_next_steps: nextSteps,
  };
}

export function lifecycleBody(
  id: string,
  event: EventStamp,
  data: LifecycleData,
  baseUrl: string,
): Record<string, unknown> {
  return {
    id,
    event: TREND_LIFECYCLE_ALERT_EVENT,
    trend_id: data.trend_id,
    trend_name: data.trend_name,
    category: data.category,
    from_stage: data.from_stage,
    to_stage: data.to_stage,
    velocity: data.velocity,
    timestamp: isoString(event.occurred_at),
    source_link: trendLink(baseUrl, data.trend_id),
  };
}

export function crisisBody(id: string, event: EventStamp, data: CrisisData): Record<string, unknown> {
  return {
    id,
    event: event.type,
    crisis_event_id: data.crisis_event_id,
    title: data.title,
    severity: data.severity,
    status: data.status,
    impacted_entity: data.impacted_entity ?? null,
    detected_at: data.detected_at,
    summary: data.summary,
    source_link: data.source_link,
  };
}
