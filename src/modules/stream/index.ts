// The live stream module's public entry: what the composition root uses from it.
export { registerStreamEvents, trendUpdates } from './events.ts';
export { StreamHub } from './hub.ts';
export { streamRoutes } from './routes.ts';
