import type { Job, JobsOptions, Queue, Worker, WorkerOptions } from 'bullmq';
import type { Logger } from 'pino';
import { serviceUnavailable } from './errors';
import type { ServiceMetrics } from './metrics';
import { createRedis } from './redis';

/** Retries with exponential backoff; completed jobs kept a day, failed ones a week so they stay visible. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/**
 * BullMQ, loaded by the first queue or worker rather than imported: every process imports service-kit,
 * and only the DIP and notifications services and their workers run queues.
 */
const bullmq = () => require('bullmq') as typeof import('bullmq');

export function createQueue<T = unknown>(name: string, redisUrl: string, prefix = 'bull'): Queue<T> {
  const { Queue } = bullmq();
  return new Queue<T>(name, {
    connection: createRedis(redisUrl, 'producer'),
    prefix,
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
  }) as Queue<T>;
}

/**
 * Adds a job with a deterministic id (so a repeated request or a redelivered event adds it once),
 * turning "Redis is down" into a 503 the caller can show, instead of a hang.
 */
export async function enqueue<T>(
  queue: Queue<T>,
  jobName: string,
  data: T,
  jobId: string,
  opts: JobsOptions = {},
) {
  try {
    return await (queue as Queue).add(jobName, data, { jobId, ...opts });
  } catch (err) {
    throw Object.assign(serviceUnavailable(), { cause: err });
  }
}

export function createWorker<T = unknown, R = unknown>(
  name: string,
  processor: (job: Job<T>) => Promise<R>,
  redisUrl: string,
  logger: Logger,
  opts: Partial<WorkerOptions> & { prefix?: string } = {},
): Worker<T, R> {
  const { Worker } = bullmq();
  const worker = new Worker<T, R>(name, processor, {
    connection: createRedis(redisUrl, 'worker'),
    concurrency: 4,
    prefix: opts.prefix ?? 'bull',
    ...opts,
  });
  worker.on('failed', (job, err) =>
    logger.warn({ queue: name, jobId: job?.id, attempts: job?.attemptsMade, err }, 'job failed'),
  );
  worker.on('error', (err) => logger.error({ queue: name, err }, 'worker error'));
  return worker;
}

/** Reports waiting/active/delayed/failed counts of a queue on /metrics. */
export function watchQueueDepth(metrics: ServiceMetrics, queue: Queue) {
  metrics.addQueueDepthSource(async () => {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
    return Object.entries(counts).map(([state, count]) => ({ queue: queue.name, state, count }));
  });
}
