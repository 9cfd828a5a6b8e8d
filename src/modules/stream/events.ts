// Turns domain events into live-stream messages (published once; every process fans out to its clients).
import type { EventSubscriber } from '../../platform/events.ts';
import {
  type AlertEvents,
  alertBody,
  CRISIS_EVENT_TYPES,
  crisisBody,
  derivedNextSteps,
  lifecycleBody,
  messageId,
  TREND_ALERT_EVENT,
  TREND_LIFECYCLE_ALERT_EVENT,
} from '../alerts/index.ts';
import { TREND_LIFECYCLE_EVENT, TREND_VELOCITY_EVENT, type TrendItemView } from '../trends/index.ts';
import { type StreamEnvelope, type StreamHub, trendKeysOf } from './hub.ts';

/** `trend.update` messages for freshly recomputed trends (24-hour snapshot). */
export function trendUpdates(views: TrendItemView[]): StreamEnvelope[] {
  return views.map((view) => ({
    type: 'trend.update',
    data: {
      trend_id: view.id,
      trend_name: view.title,
      category: view.category,
      volume: view.volume,
      velocity: view.velocity_score,
      velocity_window: view.velocity_window,
      velocity_1h: view.velocity_1h,
      growth: view.growth,
      lifecycle_stage: view.lifecycle_stage,
      sentiment: view.sentiment,
      sentiment_category: view.sentiment_category,
      timestamp: view.timestamp,
    },
    trend_keys: trendKeysOf(view.title),
  }));
}

export function registerStreamEvents(
  events: EventSubscriber<AlertEvents>,
  hub: StreamHub,
  baseUrl: string,
): void {
  events.on(TREND_VELOCITY_EVENT, async (event) => {
    const { data } = event;
    const trend_keys = trendKeysOf(data.trend_name);
    const body = alertBody(messageId(event.id), event, data, baseUrl, derivedNextSteps(data, {}));
    await hub.publish({ type: TREND_ALERT_EVENT, data: body, trend_keys });
  });
  events.on(TREND_LIFECYCLE_EVENT, async (event) => {
    const { data } = event;
    const trend_keys = trendKeysOf(data.trend_name);
    await hub.publish({
      type: TREND_LIFECYCLE_ALERT_EVENT,
      data: lifecycleBody(messageId(event.id), event, data, baseUrl),
      trend_keys,
    });
  });
  for (const type of CRISIS_EVENT_TYPES) {
    events.on(type, async (event) => {
      const { data } = event;
      if (!Number.isInteger(data.user_id)) return;
      await hub.publish({
        type: event.type,
        data: crisisBody(messageId(event.id), event, data),
        user_id: data.user_id,
      });
    });
  }
}
