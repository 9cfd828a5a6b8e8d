export {
  type Job,
  JobQueue,
  jobBackoffMs,
} from './queue.ts';
export {
  type JobContext,
  JobWorker,
  RetryLaterError,
} from './worker.ts';
