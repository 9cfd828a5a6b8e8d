// Where signal analysis runs: worker threads (piscina) so a long ingest never stalls request handling, or
// the calling thread (tests, tiny deployments: NLP_WORKER_THREADS=0).
import { Piscina } from 'piscina';
import { analyseBatch, type BatchAnalysis, joinAnalyses } from './analysis.ts';
import type { SignalText } from './extraction.ts';

export interface NlpPool {
  analyse(signals: SignalText[]): Promise<BatchAnalysis>;
  /**
   * Starts the threads and loads the language model now, so that the first batch does not wait for them (the
   * server calls it at start; a CLI command does not). Resolves once they are ready.
   */
  warm(): Promise<void>;
  close(): Promise<void>;
}

/** What a warm-up analyses: enough to run the whole analysis once. */
const WARM_UP_SIGNAL: SignalText = {
  text: 'Warm-up text about Crestwatch',
  title: null,
  keywords: null,
  lang: 'en',
};

export class InProcessNlp implements NlpPool {
  /** Keys analysed before (analysis.ts `analyseBatch`), as each worker thread keeps its own. */
  private readonly seenKeys = new Set<string>();

  async analyse(signals: SignalText[]): Promise<BatchAnalysis> {
    return analyseBatch(signals, this.seenKeys);
  }

  /** Analysis in the calling thread loads the model with its first batch: warming would block this thread. */
  async warm(): Promise<void> {}

  async close(): Promise<void> {}
}

/**
 * Splits each batch over the threads so they work on it together. The threads start with the first batch:
 * a process that never analyses (a CLI command failing early, a plain import) loads no model, and is never
 * torn down while its workers are still loading.
 */
export class ThreadedNlp implements NlpPool {
  private pool: Piscina | null = null;
  private warming: Promise<void> | null = null;

  constructor(private readonly threads: number) {}

  warm(): Promise<void> {
    // One task per thread: each is answered once a thread has loaded the model.
    this.warming ??= this.analyse(Array.from({ length: this.threads }, () => WARM_UP_SIGNAL)).then(
      () => undefined,
    );
    return this.warming;
  }

  async analyse(signals: SignalText[]): Promise<BatchAnalysis> {
    if (signals.length === 0) return analyseBatch([]);
    this.pool ??= new Piscina({
      filename: new URL('./nlp-worker.mjs', import.meta.url).href,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
    });
    const size = Math.ceil(signals.length / this.threads);
    const parts: Promise<BatchAnalysis>[] = [];
    for (let i = 0; i < signals.length; i += size) parts.push(this.pool.run(signals.slice(i, i + size)));
    return joinAnalyses(await Promise.all(parts));
  }

  async close(): Promise<void> {
    // Threads are never torn down while loading (that can end the process by a signal).
    await this.warming?.catch(() => undefined);
    await this.pool?.destroy();
    this.pool = null;
    this.warming = null;
  }
}

export function createNlpPool(threads: number): NlpPool {
  return threads > 0 ? new ThreadedNlp(threads) : new InProcessNlp();
}
