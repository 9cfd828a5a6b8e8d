// The crisis detector: one pass after each trend-engine pass, by one instance at a time (a lease in the
// database). Social surges (surges.ts) and hazard feeds (hazard-events.ts) each open, grow and resolve their
// own events; this class holds the lease and runs both.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { EventRecorder } from '../../platform/events.ts';
import type { CrisisEvents } from './events.ts';
import { HazardEvents } from './hazard-events.ts';
import type { HazardObservation, LocationQuery } from './hazards.ts';
import { CrisisOutbox } from './outbox.ts';
import type { CrisisStore } from './store.ts';
import { SurgeDetector } from './surges.ts';

/** A detector instance that stops renewing its lease hands over after this long. */
const LEASE_MS = 30_000;

export class CrisisDetector {
  private readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly surges: SurgeDetector;
  private readonly hazards: HazardEvents;

  constructor(
    private readonly store: CrisisStore,
    events: EventRecorder<CrisisEvents>,
    private readonly clock: Clock,
    config: Pick<Config, 'publicBaseUrl'>,
  ) {
    const outbox = new CrisisOutbox(store, events, config);
    this.surges = new SurgeDetector(store, outbox, config);
    this.hazards = new HazardEvents(store, outbox, clock);
  }

  /** Gives the lease up (shutdown), so another instance takes over at once. */
  release(): Promise<void> {
    return this.store.release(this.holder);
  }

  /** One detection pass; returns the number of domain events recorded (0 while another instance detects). */
  async run(): Promise<number> {
    const now = this.clock.now();
    if (!(await this.store.lease(this.holder, now, now + LEASE_MS))) return 0;
    return (await this.surges.detect(now)) + (await this.hazards.processPending());
  }

  /** Stores what a hazard feed observed (the source adapters' sink); matching happens in the next pass. */
  recordHazards(observations: HazardObservation[]): Promise<void> {
    return this.hazards.record(observations);
  }

  /** Re-matches recent hazards for one user (after they change their location). */
  rematchUser(userId: number, raw: string, query: LocationQuery): Promise<number> {
    return this.hazards.rematchUser(userId, raw, query);
  }
}
