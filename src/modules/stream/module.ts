// The live stream module: the WebSocket route and its fan-out. It turns domain events into alerts on the
// stream and the trends module's recomputed snapshots into `trend.update` messages.
import type { Clock } from '../../platform/clock.ts';
import type { EventSubscriber } from '../../platform/events.ts';
import { type Module, routes } from '../../platform/module.ts';
import type { PubSub } from '../../platform/pubsub.ts';
import type { AlertEvents } from '../alerts/index.ts';
import type { TrendsModule } from '../trends/index.ts';
import { registerStreamEvents, trendUpdates } from './events.ts';
import { StreamHub } from './hub.ts';
import { streamRoutes } from './routes.ts';

interface StreamModuleDeps {
  pubsub: PubSub;
  clock: Clock;
  events: EventSubscriber<AlertEvents>;
  publicBaseUrl: string;
  log: { warn(details: object, message: string): void };
  trends: Pick<TrendsModule['api'], 'onSnapshots'>;
}

export type StreamModule = Module<{ hub: StreamHub }, 'stream'>;

/** Async: the hub subscribes to pub/sub before the module is used. */
export async function createStreamModule(deps: StreamModuleDeps): Promise<StreamModule> {
  const { log } = deps;
  const hub = new StreamHub(deps.pubsub, deps.clock);
  await hub.start();
  registerStreamEvents(deps.events, hub, deps.publicBaseUrl);
  deps.trends.onSnapshots((views) =>
    hub
      .publishMany(trendUpdates(views))
      .catch((error) => log.warn({ err: error }, 'trend updates not published')),
  );
  return {
    api: { hub },
    routes: { stream: routes(streamRoutes, { hub }) },
  };
}
