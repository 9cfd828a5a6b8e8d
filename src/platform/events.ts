// Domain events: written to the job table (type `domain-event`) in the transaction that makes the change,
// then handed by the job worker to every listener registered for the event's type. A listener that throws
// makes the job retry (at-least-once), so listeners must tolerate seeing an event twice (`id` is stable).
//
// Events are typed by a catalogue (event name → the data it carries): each recording module declares its own
// (the trends module's TrendEvents, the crisis module's CrisisEvents) and the composition root merges them, so
// a listener receives the data type of the event it subscribed to and a recorder cannot misspell a name.
import type { Kysely, Transaction } from 'kysely';
import type { PlatformTables } from './db/index.ts';
import type { JobQueue } from './jobs/queue.ts';

export const DOMAIN_EVENT_JOB = 'domain-event';

/** Event name → the data it carries (an interface whose keys are the names). */
export type EventCatalogue = object;

export interface DomainEvent<Type extends string = string, Data = unknown> {
  /** Stable id for receivers to dedupe on: `<type>:<subject>:<detail>:<occurred_at>`. */
  id: string;
  type: Type;
  /** Epoch ms. */
  occurred_at: number;
  data: Data;
}

/** Any one event of the catalogue, its data typed by its name. */
export type EventOf<C extends EventCatalogue, K extends keyof C & string = keyof C & string> = {
  [Name in K]: DomainEvent<Name, C[Name]>;
}[K];

type Listener = (event: DomainEvent) => Promise<void> | void;

/** What a module that records events depends on: recording its own catalogue's events. */
export interface EventRecorder<C extends EventCatalogue> {
  record<T extends PlatformTables>(executor: Kysely<T> | Transaction<T>, event: EventOf<C>): Promise<number>;
}

/** What a module that reacts to events depends on: subscribing to the ones it handles. */
export interface EventSubscriber<C extends EventCatalogue> {
  on<K extends keyof C & string>(
    type: K,
    listener: (event: EventOf<C, K>) => Promise<void> | void,
  ): () => void;
}

export class DomainEvents<C extends EventCatalogue> implements EventRecorder<C>, EventSubscriber<C> {
  private readonly listeners = new Map<string, Listener[]>();

  constructor(private readonly jobs: JobQueue) {}

  /** Records an event as a job; pass the transaction of the state change. */
  record<T extends PlatformTables>(executor: Kysely<T> | Transaction<T>, event: EventOf<C>): Promise<number> {
    return this.jobs.enqueue(executor, { type: DOMAIN_EVENT_JOB, payload: event });
  }

  on<K extends keyof C & string>(
    type: K,
    listener: (event: EventOf<C, K>) => Promise<void> | void,
  ): () => void {
    const untyped = listener as Listener;
    const list = this.listeners.get(type) ?? [];
    list.push(untyped);
    this.listeners.set(type, list);
    return () =>
      this.listeners.set(
        type,
        (this.listeners.get(type) ?? []).filter((l) => l !== untyped),
      );
  }

  /** The job handler: every listener of the event's type, in registration order. */
  async dispatch(event: DomainEvent): Promise<void> {
    for (const listener of this.listeners.get(event.type) ?? []) await listener(event);
  }
}
