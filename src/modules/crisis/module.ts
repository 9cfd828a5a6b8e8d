// The crisis module: detection (social surges after each trend engine pass, hazard observations as the
// signals module's sources poll them), evidence, reviews and the push gate.
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import type { Clock } from '../../platform/clock.ts';
import type { EventRecorder } from '../../platform/events.ts';
import { type Module, routes } from '../../platform/module.ts';
import type { TrendsModule } from '../trends/index.ts';
import { CrisisDetector } from './detector.ts';
import type { CrisisEvents } from './events.ts';
import type { HazardSink } from './hazards.ts';
import { crisisRoutes } from './routes.ts';
import { CrisisService } from './service.ts';
import { CrisisStore } from './store.ts';
import type { SurgeSources } from './surges.ts';

/** The detector's loop after each engine pass (one instance at a time). */
const CRISIS_DETECTION_LOOP = 'crisis-detection';

interface CrisisModuleDeps {
  config: Pick<Config, 'publicBaseUrl'>;
  clock: Clock;
  db: DB;
  events: EventRecorder<CrisisEvents>;
  /** Tells the job worker that events were recorded. */
  poke: () => void;
  /** Runs a loop on one instance at a time (the lease's holder). */
  exclusive: <T>(name: string, task: () => Promise<T>) => Promise<T | undefined>;
  // Structural: the signals module imports the hazard types from this one.
  signals: { onHazards(sink: HazardSink): void; store: SurgeSources['signals'] };
  trends: Pick<TrendsModule['api'], 'afterEachPass' | 'trends'>;
  /** The watch list (the accounts module's InterestsService). */
  interests: SurgeSources['interests'];
}

export type CrisisModule = Module<{ crisis: CrisisService }, 'crisis'>;

export function createCrisisModule(deps: CrisisModuleDeps): CrisisModule {
  const { config, clock, exclusive } = deps;
  const store = new CrisisStore(deps.db);
  const detector = new CrisisDetector(store, deps.events, clock, config, {
    signals: deps.signals.store,
    interests: deps.interests,
    trends: deps.trends.trends,
  });
  const crisis = new CrisisService(store, detector, clock, config);
  deps.trends.afterEachPass(async () => {
    if (((await exclusive(CRISIS_DETECTION_LOOP, () => detector.run())) ?? 0) > 0) deps.poke();
  });
  deps.signals.onHazards((observations) => detector.recordHazards(observations));
  return {
    api: { crisis },
    routes: { crisis: routes(crisisRoutes, { crisis }) },
  };
}
