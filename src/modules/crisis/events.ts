// Domain events the crisis module records (job table, same transaction as the change) for delivery modules.
export const CRISIS_EVENT_OPENED = 'crisis.event.opened';
export const CRISIS_EVENT_ESCALATED = 'crisis.event.escalated';
export const CRISIS_EVENT_RESOLVED = 'crisis.event.resolved';

export type CrisisEventType =
  | typeof CRISIS_EVENT_OPENED
  | typeof CRISIS_EVENT_ESCALATED
  | typeof CRISIS_EVENT_RESOLVED;

/** What a crisis event's lifecycle step carries. */
export interface CrisisDomainEventData {
  crisis_event_id: number;
  user_id: number;
  title: string;
  severity: string;
  status: string;
  impacted_entity: string | null;
  /** ISO 8601. */
  detected_at: string;
  summary: string;
  /** `${PUBLIC_BASE_URL}/api/intelligence/crisis-events/<id>` */
  source_link: string;
  trend_id: number | null;
  source_keywords: string[];
}

export type CrisisEvents = { [Type in CrisisEventType]: CrisisDomainEventData };
