// Domain events: written to the job table (type `domain-event`) in the transaction that makes the change,
// then handed by the job worker to every listener registered for the event's type. A listener that throws
// makes the job retry (at-least-once), so listeners must tolerate seeing an event twice (`id` is stable).
import type { Kysely } from 'kysely';
import type { Database } from './db/index.ts';
import type { JobQueue } from './jobs/queue.ts';

export const DOMAIN_EVENT_JOB = 'domain-event';

export interface DomainEvent {
  /** Stable id for receivers to dedupe on: `<type>:<subject>:<detail>:<occurred_at>`. */
  id: string;
  type: string;
  /** Epoch ms. */
  occurred_at: number;
  data: Record<string, unknown>;
}

export type EventListener = (event: DomainEvent) => Promise<void> | void;

export class DomainEvents {
  private readonly listeners = new Map<string, EventListener[]>();

  constructor(private readonly jobs: JobQueue) {}

  /** Records an event as a job; pass the transaction of the state change. */
  record(executor: Kysely<Database>, event: DomainEvent): Promise<number> {
    return this.jobs.enqueue(executor, { type: DOMAIN_EVENT_JOB, payload: event });
  }

  on(type: string, listener: EventListener): () => void {
    const list = this.listeners.get(type) ?? [];
    list.push(listener);
    this.listeners.set(type, list);
    return () =>
      this.listeners.set(
        type,
        (this.listeners.get(type) ?? []).filter((l) => l !== listener),
      );
  }

  /** The job handler: every listener of the event's type, in registration order. */
  async dispatch(event: DomainEvent): Promise<void> {
    for (const listener of this.listeners.get(event.type) ?? []) await listener(event);
  }
}
