export {
  type Job,
  JobQueue,
  jobBackoffMs,
} from './queue.ts';
export {
  DeferJobError,
  type JobContext,
  JobWorker,
  RetryLaterError,
} from './worker.ts';
