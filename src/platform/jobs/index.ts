export {
  backoffMs,
  DEFAULT_MAX_ATTEMPTS,
  type EnqueueOptions,
  type FailOutcome,
  JOB_STATUSES,
  type Job,
  JobQueue,
  type JobQueueOptions,
  type JobStats,
  type JobStatus,
} from './queue.ts';
export {
  defaultWorkerId,
  type JobContext,
  type JobHandler,
  JobWorker,
  type JobWorkerOptions,
  RetryLaterError,
  type WorkerLog,
} from './worker.ts';
