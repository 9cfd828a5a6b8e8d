// Where signal analysis runs: worker threads (piscina) so a long ingest never stalls request handling, or
// the calling thread (tests, tiny deployments: NLP_WORKER_THREADS=0).
import { Piscina } from 'piscina';
import { analyseBatch, type SignalAnalysis } from './analysis.ts';
import type { SignalText } from './extraction.ts';

export interface NlpPool {
  analyse(signals: SignalText[]): Promise<SignalAnalysis[]>;
  close(): Promise<void>;
}

export class InProcessNlp implements NlpPool {
  async analyse(signals: SignalText[]): Promise<SignalAnalysis[]> {
    return analyseBatch(signals);
  }

  async close(): Promise<void> {}
}

/**
 * Splits each batch over the threads so they work on it together. The threads start with the first batch:
 * a process that never analyses (a CLI command failing early, a plain import) loads no model, and is never
 * torn down while its workers are still loading.
 */
export class ThreadedNlp implements NlpPool {
  private pool: Piscina | null = null;

  constructor(private readonly threads: number) {}

  async analyse(signals: SignalText[]): Promise<SignalAnalysis[]> {
    if (signals.length === 0) return [];
    this.pool ??= new Piscina({
      filename: new URL('./nlp-worker.mjs', import.meta.url).href,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
    });
    const size = Math.ceil(signals.length / this.threads);
    const parts: Promise<SignalAnalysis[]>[] = [];
    for (let i = 0; i < signals.length; i += size) parts.push(this.pool.run(signals.slice(i, i + size)));
    return (await Promise.all(parts)).flat();
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = null;
  }
}

export function createNlpPool(threads: number): NlpPool {
  return threads > 0 ? new ThreadedNlp(threads) : new InProcessNlp();
}
