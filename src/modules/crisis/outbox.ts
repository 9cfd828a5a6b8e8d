// A crisis event's lifecycle step (opened, escalated, resolved) as a domain event, recorded in the transaction
// of the change; surges and hazards both report through it.

import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import { isoString } from '../../platform/clock.ts';
import type { EventRecorder } from '../../platform/events.ts';
import type { CrisisDomainEventData, CrisisEvents, CrisisEventType } from './events.ts';
import type { CrisisStore, EventRow } from './store.ts';

export class CrisisOutbox {
  constructor(
    private readonly store: CrisisStore,
    private readonly events: EventRecorder<CrisisEvents>,
    private readonly config: Pick<Config, 'publicBaseUrl'>,
  ) {}

  /** Bumps the event's sequence (the stable id's last part) and records the domain event; returns 1. */
  async record(type: CrisisEventType, event: EventRow, now: number, trx: DB): Promise<number> {
    const seq = event.event_seq + 1;
    await this.store.updateEvent(event.id, { event_seq: seq }, trx);
    const data: CrisisDomainEventData = {
      crisis_event_id: event.id,
      user_id: event.user_id,
      title: event.title,
      severity: event.severity,
      status: event.status,
      impacted_entity: event.impacted_entity,
      detected_at: isoString(event.detected_at)!,
      summary: event.summary,
      source_link: `${this.config.publicBaseUrl}/api/intelligence/crisis-events/${event.id}`,
      trend_id: event.trend_id === null ? null : Number(event.trend_id),
      source_keywords: JSON.parse(event.source_keywords) as string[],
    };
    await this.events.record(trx, { id: `${type}:${event.id}:${seq}`, type, occurred_at: now, data });
    return 1;
  }
}
