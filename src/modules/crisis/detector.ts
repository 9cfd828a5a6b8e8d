// The crisis detector: one pass after each trend-engine pass, by one instance at a time (the app runs it
// under the `crisis-detection` background-loop lease). Social surges (surges.ts) and hazard feeds
// (hazard-events.ts) each open, grow and resolve their own events; this class runs both.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { EventRecorder } from '../../platform/events.ts';
import type { CrisisEvents } from './events.ts';
import { HazardEvents } from './hazard-events.ts';
import type { HazardObservation, LocationQuery } from './hazards.ts';
import { CrisisOutbox } from './outbox.ts';
import type { CrisisStore } from './store.ts';
import { SurgeDetector, type SurgeSources } from './surges.ts';

export class CrisisDetector {
  private readonly surges: SurgeDetector;
  private readonly hazards: HazardEvents;

  constructor(
    store: CrisisStore,
    events: EventRecorder<CrisisEvents>,
    private readonly clock: Clock,
    config: Pick<Config, 'publicBaseUrl'>,
    /** Signals, interests and trends, from their owners. */
    sources: SurgeSources,
  ) {
    const outbox = new CrisisOutbox(store, events, config);
    this.surges = new SurgeDetector(store, sources, outbox, config);
    this.hazards = new HazardEvents(store, outbox, clock);
  }

  /** One detection pass; returns the number of domain events recorded. */
  async run(): Promise<number> {
    const now = this.clock.now();
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
