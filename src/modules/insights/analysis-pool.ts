// Where the offline insight analysis runs. It reads up to 500 sample texts (sentiment, phrases, complaint
// topics, brand safety): 150–250 ms of CPU per trend, about a second with the model's first load. In the
// server it runs in a worker thread, so generating an insight or an ad preview never holds the event loop
// (ARCHITECTURE: the event loop stays free); tests and NLP_WORKER_THREADS=0 run it in the calling thread.
import { Piscina } from 'piscina';
import { type AIInsight, type AnalyzerInput, analyzeOffline } from './analyzer.ts';

export interface InsightAnalysis {
  analyze(input: AnalyzerInput): Promise<AIInsight>;
  close(): Promise<void>;
}

class InProcessAnalysis implements InsightAnalysis {
  async analyze(input: AnalyzerInput): Promise<AIInsight> {
    return analyzeOffline(input);
  }

  async close(): Promise<void> {}
}

/** The thread stays this long after its last analysis (its model loaded), then ends until the next one. */
const IDLE_MS = 5 * 60_000;

/** One thread, started by the first analysis; analyses queue for it. */
class ThreadedAnalysis implements InsightAnalysis {
  private pool: Piscina | null = null;
  private readonly running = new Set<Promise<unknown>>();

  analyze(input: AnalyzerInput): Promise<AIInsight> {
    this.pool ??= new Piscina({
      filename: new URL('./analyzer-worker.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: IDLE_MS,
    });
    const run = this.pool.run(input) as Promise<AIInsight>;
    const settled = run.catch(() => undefined).finally(() => this.running.delete(settled));
    this.running.add(settled);
    return run;
  }

  async close(): Promise<void> {
    // A thread is never torn down while it loads (that can end the process by a signal): analyses under way
    // finish first.
    await Promise.all(this.running);
    await this.pool?.destroy();
    this.pool = null;
  }
}

export function createInsightAnalysis(threaded: boolean): InsightAnalysis {
  return threaded ? new ThreadedAnalysis() : new InProcessAnalysis();
}
