// The signals module: `POST /api/signals`, the sources and their runner. It publishes that signals were stored
// (the trend engine starts a pass) and hands hazard observations its sources poll to whoever takes them.
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Singletons } from '../../platform/leases.ts';
import { Hooks, Listeners, type Module, routes } from '../../platform/module.ts';
import type { HazardObservation, HazardSink } from '../crisis/index.ts';
import { signalRoutes } from './routes.ts';
import { SignalsService } from './service.ts';
import { createSources } from './sources/index.ts';
import { SourceRunner } from './sources/runner.ts';
import { SourceStateStore } from './sources/store.ts';
import { SignalsStore } from './store.ts';

interface SignalsModuleDeps {
  config: Config;
  clock: Clock;
  db: DB;
  /** The connection for reads that serve requests and the pipeline's reads of pending signals. */
  reader: DB;
  leases: Singletons;
  log: { warn(details: object, message: string): void; info(details: object, message: string): void };
}

export type SignalsModule = Module<
  {
    signals: SignalsService;
    sources: SourceRunner;
    /**
     * The signals table's queries other modules' ports read: the trend processor's SignalQueue (pending
     * signals, claimed in its batch's transaction) and the crisis detector's SurgeSources.
     */
    store: SignalsStore;
    /** `listener` is told (no data) after signals were stored. */
    onPending(listener: () => void): () => void;
    /** Adds a step the hazard sources await with each poll's observations (its failure fails the poll). */
    onHazards(sink: HazardSink): void;
    /** Deletes processed signals observed before `before` (retention). */
    pruneProcessedBefore(before: number): Promise<number>;
  },
  'signals'
>;

export function createSignalsModule(deps: SignalsModuleDeps): SignalsModule {
  const { config, clock, db, log } = deps;
  const store = new SignalsStore(db, deps.reader);
  const pending = new Listeners((error) => log.warn({ err: error }, 'a listener of stored signals failed'));
  const hazards = new Hooks<HazardObservation[]>();
  const signals = new SignalsService(store, clock, () => pending.notify(), config.ingestMaxPending);
  const sources = new SourceRunner({
    sources: createSources(config, clock.now(), { hazards: (observations) => hazards.run(observations) }),
    store: new SourceStateStore(db),
    signals,
    clock,
    leases: deps.leases,
    log,
  });
  return {
    api: {
      signals,
      sources,
      store,
      onPending: (listener) => pending.subscribe(listener),
      onHazards: (sink) => hazards.add(sink),
      pruneProcessedBefore: (before) => store.pruneProcessedBefore(before),
    },
    routes: { signals: routes(signalRoutes, { signals, sources }) },
  };
}
