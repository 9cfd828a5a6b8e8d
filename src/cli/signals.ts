// Signals in, trends out: the services `ingest` and `seed` share, and turning pending signals into trends.

import type { Config } from '../config.ts';
import type { Database } from '../database.ts';
import { migrateAppToLatest } from '../migrations.ts';
import { SignalsService, SignalsStore } from '../modules/signals/index.ts';
import { createNlpPool } from '../modules/text/index.ts';
import { RedisEvidence, TrendProcessor, TrendsStore } from '../modules/trends/index.ts';
import { systemClock } from '../platform/clock.ts';
import { openDatabase } from '../platform/db/index.ts';
import { connectRedis } from '../platform/redis.ts';
import { Progress } from './progress.ts';

const MINUTE_MS = 60_000;
// The processor keeps two hours of minute buckets; prune as it does while working through history.
const MINUTES_KEPT = 120;
const PROCESS_BATCH = 1000;
/** How many rejected items a command lists. */
export const SHOWN_REJECTIONS = 20;

export interface SignalTools {
  signals: SignalsService;
  signalsStore: SignalsStore;
  trends: TrendsStore;
  processor: TrendProcessor;
}

export async function withSignals<T>(config: Config, work: (tools: SignalTools) => Promise<T>): Promise<T> {
  const handle = openDatabase<Database>(config.database);
  // Analysis in worker threads, as in the service: the CLI's own thread writes to the database.
  const nlp = createNlpPool(config.nlpWorkerThreads);
  let redis: Awaited<ReturnType<typeof connectRedis>> | undefined;
  try {
    await migrateAppToLatest(handle);
    // Evidence units are shared with running instances through Redis when it is configured, as they share them.
    redis = config.redisUrl ? await connectRedis(config.redisUrl, 'cli') : undefined;
    const trends = new TrendsStore(handle.db, handle.dialect);
    const signalsStore = new SignalsStore(handle.db);
    return await work({
      signals: new SignalsService(signalsStore, systemClock),
      signalsStore,
      trends,
      processor: new TrendProcessor(trends, signalsStore, systemClock, nlp, {
        sharedEvidence: redis ? new RedisEvidence(redis, config.redisKeyPrefix, systemClock) : undefined,
        onSharedEvidenceError: (error) =>
          process.stderr.write(
            `shared evidence (Redis) unavailable, judged by this process alone: ${error}\n`,
          ),
      }),
    });
  } finally {
    await nlp.close();
    redis?.disconnect();
    await handle.close();
  }
}

/** Turns every pending signal into trend counts, showing progress. */
export async function processPending(tools: SignalTools): Promise<{ signals: number; mentions: number }> {
  const progress = new Progress({
    label: 'process',
    total: await tools.signalsStore.countPending(),
    unit: 'signals',
  });
  let signals = 0;
  let mentions = 0;
  for (let batches = 1; ; batches++) {
    const result = await tools.processor.processBatch(PROCESS_BATCH);
    signals += result.signals;
    mentions += result.mentions;
    progress.update(signals, signals);
    if (result.signals < PROCESS_BATCH) break;
    if (batches % 20 === 0) {
      await tools.trends.pruneMinutesBefore(Math.floor(systemClock.now() / MINUTE_MS) - MINUTES_KEPT);
    }
  }
  // Whatever arrived meanwhile; drain also prunes the minute buckets.
  const rest = await tools.processor.drain(PROCESS_BATCH);
  signals += rest.signals;
  mentions += rest.mentions;
  progress.finish(`${mentions.toLocaleString('en-US')} mentions`);
  return { signals, mentions };
}
