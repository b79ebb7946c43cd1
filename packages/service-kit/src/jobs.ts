import type { Job, JobsOptions, Queue, QueueEvents, Worker, WorkerOptions } from 'bullmq';
import type { Logger } from 'pino';
import { serviceUnavailable } from './errors';
import type { ServiceMetrics } from './metrics';
import { createRedis } from './redis';
import { bullmqTelemetry } from './tracing/context';

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

/**
 * BullMQ leaves open a connection it was handed (it may be shared); the queues and workers made here
 * own theirs, so their close() ends it too, and nothing keeps a stopping process or a test run alive.
 */
function closingItsConnection<T extends { close(...args: never[]): Promise<void> }>(
  owner: T,
  connection: ReturnType<typeof createRedis>,
): T {
  const close = owner.close.bind(owner) as (...args: unknown[]) => Promise<void>;
  owner.close = (async (...args: unknown[]) => {
    try {
      await close(...args);
    } finally {
      await connection.quit().catch(() => connection.disconnect());
    }
  }) as T['close'];
  return owner;
}

export function createQueue<T = unknown>(name: string, redisUrl: string, prefix = 'bull'): Queue<T> {
  const { Queue } = bullmq();
  const connection = createRedis(redisUrl, 'producer');
  const queue = new Queue<T>(name, {
    connection,
    prefix,
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
    telemetry: bullmqTelemetry(),
  });
  return closingItsConnection(queue as Queue<T>, connection);
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

/** A queue's event stream (completed, failed…), for a request that waits on its job; close() ends its connection. */
export function createQueueEvents(name: string, redisUrl: string, prefix = 'bull'): QueueEvents {
  const { QueueEvents } = bullmq();
  const connection = createRedis(redisUrl, 'worker');
  return closingItsConnection(new QueueEvents(name, { connection, prefix }), connection);
}

export function createWorker<T = unknown, R = unknown>(
  name: string,
  processor: (job: Job<T>) => Promise<R>,
  redisUrl: string,
  logger: Logger,
  opts: Partial<WorkerOptions> & { prefix?: string } = {},
): Worker<T, R> {
  const { Worker } = bullmq();
  const connection = createRedis(redisUrl, 'worker');
  const worker = closingItsConnection(
    new Worker<T, R>(name, processor, {
      connection,
      concurrency: 4,
      // An idle worker's long poll, in seconds (BullMQ's default 5): a new job ends it at once, so it
      // only sets how often an idle worker wakes Redis. 10 is the longest BullMQ itself blocks on
      // Redis, for the sake of reconnections.
      drainDelay: 10,
      prefix: opts.prefix ?? 'bull',
      telemetry: bullmqTelemetry(),
      ...opts,
    }),
    connection,
  );
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
