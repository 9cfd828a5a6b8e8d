// Bodies only webhooks send (test sends, digests) and the `event` values a subscription's bodies carry; the alert
// bodies themselves are the alerts module's.
import { isoString } from '../../platform/clock.ts';
import type { DomainEvent } from '../../platform/events.ts';
import {
  alertBody,
  CRISIS_EVENT_TYPES,
  derivedNextSteps,
  messageId,
  TREND_ALERT_EVENT,
  TREND_LIFECYCLE_ALERT_EVENT,
  type VelocityData,
} from '../alerts/index.ts';
import type { DeliveryMode, TriggerType } from './schemas.ts';

// test/e2e/alert-chain.test.ts reads it from here.
export { derivedNextSteps };

export const DIGEST_EVENT = 'digest';
export const TEST_EVENT = 'webhook.test';

const EVENTS_BY_TRIGGER: Record<TriggerType, readonly string[]> = {
  trend_velocity: [TREND_ALERT_EVENT],
  trend_lifecycle: [TREND_LIFECYCLE_ALERT_EVENT],
  crisis_event: CRISIS_EVENT_TYPES,
};

/** The `event` values a subscription's bodies carry (upstream's `events`); digests wrap the others. */
export function subscriptionEvents(trigger: TriggerType, mode: DeliveryMode): string[] {
  return mode === 'digest' ? [DIGEST_EVENT] : [...EVENTS_BY_TRIGGER[trigger]];
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

/** One POST with every body that matched during a digest window (each as it would have been sent alone). */
export function digestBody(subscriptionId: number, windowStart: number, windowEnd: number, bodies: string[]) {
  return {
    id: messageId('digest', subscriptionId, windowStart),
    event: DIGEST_EVENT,
    window_start: isoString(windowStart),
    window_end: isoString(windowEnd),
    events: bodies.map((body) => JSON.parse(body) as unknown),
  };
}
