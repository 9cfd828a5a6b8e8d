// The live stream module's public entry: its factory, and the hub (its type for the app's services).
export { StreamHub } from './hub.ts';
export { createStreamModule, type StreamModule } from './module.ts';
