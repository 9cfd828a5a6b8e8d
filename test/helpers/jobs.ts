// Waiting for background work by looking at the job queue rather than sleeping: a check that "nothing
// happened" is only worth something once everything that could have happened has run.
import type { TestContext } from './app.ts';

/**
 * Pokes the (started) job worker until the queue is quiet: no queued job is due, none is running and the
 * worker has no handler in flight. Jobs scheduled for later (retries, digest windows) are not waited for.
 * Quiet must be seen on consecutive reads: `stats()` is two queries, and on PostgreSQL a claim may land
 * between them.
 */
export async function drainJobs(ctx: Pick<TestContext, 'app'>, timeoutMs = 20_000): Promise<void> {
  const { jobs, worker } = ctx.app.services;
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  for (;;) {
    const busy = worker.activeCount;
    const stats = await jobs.stats();
    quiet =
      busy === 0 && worker.activeCount === 0 && stats.oldestDueAgeMs === null && stats.counts.running === 0
        ? quiet + 1
        : 0;
    if (quiet >= 3) return;
    if (Date.now() > deadline) {
      const state = worker.isRunning ? 'running' : 'not started';
      throw new Error(`the job queue did not drain (worker ${state}): ${JSON.stringify(stats)}`);
    }
    worker.poke();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
