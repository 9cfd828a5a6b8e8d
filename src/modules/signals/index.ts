// The signals module's public entry: what the composition root, the CLI and other modules may use from it.
export { createSignalsModule, type SignalsModule } from './module.ts';
export { type LinkedSignal, SignalsService } from './service.ts';
export { demoSignals } from './sources/demo.ts';
export { parseFeed } from './sources/rss.ts';
export { retryDelayMs, SourceRunner, type SourceView, toIngestItem } from './sources/runner.ts';
export { SourceStateStore } from './sources/store.ts';
export { ensureOk, hostOf, httpGet, sha256 } from './sources/text.ts';
export type { SourceSignal } from './sources/types.ts';
export { SignalsStore } from './store.ts';
