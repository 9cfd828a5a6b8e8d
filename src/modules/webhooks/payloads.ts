// Outbound event bodies, built from domain events (pure functions; exported for tests and the stream).
import { createHash } from 'node:crypto';
import { isoString } from '../../platform/clock.ts';
import type { DomainEvent } from '../../platform/events.ts';
import {
  CRISIS_EVENT_ESCALATED,
  CRISIS_EVENT_OPENED,
  CRISIS_EVENT_RESOLVED,
  type CrisisDomainEventData,
} from '../crisis/events.ts';
import type { DeliveryMode, Filters, Severity, TriggerType } from './schemas.ts';
import { SEVERITIES } from './schemas.ts';

export const TREND_ALERT_EVENT = 'trend.alert.created';
export const TREND_LIFECYCLE_OUT = 'trend.lifecycle.changed';
export const DIGEST_EVENT = 'digest';
export const TEST_EVENT = 'webhook.test';

const EVENTS_BY_TRIGGER: Record<TriggerType, readonly string[]> = {
  trend_velocity: [TREND_ALERT_EVENT],
  trend_lifecycle: [TREND_LIFECYCLE_OUT],
  crisis_event: [CRISIS_EVENT_OPENED, CRISIS_EVENT_ESCALATED, CRISIS_EVENT_RESOLVED],
};

/** The `event` values a subscription's bodies carry (upstream's `events`); digests wrap the others. */
export function subscriptionEvents(trigger: TriggerType, mode: DeliveryMode): string[] {
  return mode === 'digest' ? [DIGEST_EVENT] : [...EVENTS_BY_TRIGGER[trigger]];
}

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

export function severityRank(severity: string): number {
  const i = (SEVERITIES as readonly string[]).indexOf(severity);
  return i < 0 ? 0 : i + 1;
}

export interface TrendContext {
  lifecycle_stage?: string | null;
  sentiment_category?: string | null;
}

const round = (n: number) => Math.round(n * 10) / 10;

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

export interface VelocityData {
  trend_id: number;
  trend_name: string;
  category: string;
  velocity: number;
  volume: number;
  from_velocity: number;
  levels?: number[];
}

export interface LifecycleData {
  trend_id: number;
  trend_name: string;
  category: string;
  velocity: number;
  volume: number;
  from_stage: string | null;
  to_stage: string;
}

/** The crisis module's event data, as recorded. */
export type CrisisData = CrisisDomainEventData;

export function trendLink(baseUrl: string, trendId: number): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/trends/${trendId}`;
}

export function alertBody(
  id: string,
  event: DomainEvent,
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
      `${round(data.velocity)}, ${data.volume} mentions in 24 hours.`,
    source_link: trendLink(baseUrl, data.trend_id),
    recommended_next_steps: nextSteps,
  };
}

export function lifecycleBody(
  id: string,
  event: DomainEvent,
  data: LifecycleData,
  baseUrl: string,
): Record<string, unknown> {
  return {
    id,
    event: TREND_LIFECYCLE_OUT,
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

export function crisisBody(id: string, event: DomainEvent, data: CrisisData): Record<string, unknown> {
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

/** The test route's body: fixed content; id and timestamp derived from the subscription, never the clock. */
export function testBody(
  subscriptionId: number,
  createdAt: number,
  baseUrl: string,
): Record<string, unknown> {
  const sampleEvent: DomainEvent = {
    id: 'sample',
    type: 'trend.velocity.crossed',
    occurred_at: createdAt,
    data: {},
  };
  const data: VelocityData = {
    trend_id: 1,
    trend_name: 'Sample trend',
    category: 'Technology/AI',
    velocity: 82,
    volume: 1240,
    from_velocity: 41,
  };
  return {
    id: messageId('webhook.test', subscriptionId, createdAt),
    event: TEST_EVENT,
    sample: alertBody(
      messageId('webhook.test.sample', subscriptionId, createdAt),
      sampleEvent,
      data,
      baseUrl,
      derivedNextSteps(data, { lifecycle_stage: 'rising', sentiment_category: 'positive' }),
    ),
  };
}

const wordsOf = (text: string) =>
  ` ${text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;

/** True when the text contains the keyword as whole words (case, punctuation and `#` ignored). */
export function containsKeyword(text: string, keyword: string): boolean {
  const k = wordsOf(keyword);
  return k.trim().length > 0 && wordsOf(text).includes(k);
}

export function categoryMatches(category: string, filter: string): boolean {
  const c = category.toLowerCase();
  const f = filter.toLowerCase().replace(/\/+$/, '');
  return c === f || c.startsWith(`${f}/`);
}

/** The subscription's filters against one event. */
export function filtersMatch(
  filters: Filters,
  subject: { category?: string | null; text: string; severity: string },
): boolean {
  if (filters.category && !(subject.category && categoryMatches(subject.category, filters.category)))
    return false;
  if (filters.keywords && filters.keywords.length > 0) {
    if (!filters.keywords.some((k) => containsKeyword(subject.text, k))) return false;
  }
  if (filters.min_severity && severityRank(subject.severity) < severityRank(filters.min_severity))
    return false;
  return true;
}
