// The BullMQ queues of the console: notifications' `email` and dip's `pdf`, read by name on the same
// Redis and QUEUE_PREFIX (BullMQ's own API: counts, the failed set, retry).
import {
  OPS_MESSAGES,
  OPS_QUEUES,
  type OpsChainJob,
  type OpsFailedJob,
  type OpsQueue,
  type OpsQueueName,
} from '@lsp/contracts';
import { conflict, createRedis, notFound } from '@lsp/service-kit';
import { type Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { redactValue } from './redact';

const FAILED_SHOWN = 50;

const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : undefined);

export class OpsQueues {
  readonly queues: Map<OpsQueueName, Queue>;
  /** Queues opened here, with their connections (BullMQ leaves a connection it was given open). */
  private readonly owned: Array<{ queue: Queue; connection: Redis }> = [];

  /** `given` queues are used as they are (and not closed here); the others are opened by name. */
  constructor(redisUrl: string, prefix: string, given: Partial<Record<OpsQueueName, Queue<any>>> = {}) {
    this.queues = new Map();
    for (const name of OPS_QUEUES) {
      let queue = given[name] as Queue | undefined;
      if (!queue) {
        // Read-only use: no default job options, a fail-fast connection (a 503 rather than a hang).
        const connection = createRedis(redisUrl, 'producer');
        queue = new Queue(name, { connection, prefix });
        this.owned.push({ queue, connection });
      }
      this.queues.set(name, queue);
    }
  }

  private queue(name: string): Queue {
    const queue = this.queues.get(name as OpsQueueName);
    if (!queue) throw notFound(OPS_MESSAGES.queueNotFound);
    return queue;
  }

  async overview(): Promise<OpsQueue[]> {
    return Promise.all(
      OPS_QUEUES.map(async (name) => {
        const queue = this.queue(name);
        const [counts, failed] = await Promise.all([
          queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed'),
          queue.getFailed(0, FAILED_SHOWN - 1),
        ]);
        return {
          name,
          counts: {
            waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
            active: counts.active ?? 0,
            delayed: counts.delayed ?? 0,
            failed: counts.failed ?? 0,
            completed: counts.completed ?? 0,
          },
          failed: failed
            .filter((job): job is Job => Boolean(job))
            .sort((a, b) => (b.finishedOn ?? b.timestamp) - (a.finishedOn ?? a.timestamp))
            .map(failedJob),
        };
      }),
    );
  }

  /** Moves a failed job back to waiting; 404 unknown queue or job, 409 a job that has not failed. */
  async retry(queueName: string, jobId: string): Promise<void> {
    const queue = this.queue(queueName);
    const job = await queue.getJob(jobId);
    if (!job) throw notFound(OPS_MESSAGES.jobNotFound);
    if ((await job.getState()) !== 'failed') throw conflict(OPS_MESSAGES.jobNotFailed);
    await job.retry('failed');
  }

  /** The email job an event led to (its id is the event id), for the correlation view. */
  async jobsForEvent(eventId: string): Promise<OpsChainJob[]> {
    const found: OpsChainJob[] = [];
    const email = this.queues.get('email');
    const job = email ? await email.getJob(eventId).catch(() => undefined) : undefined;
    if (job) {
      found.push({
        queue: 'email',
        jobId: String(job.id),
        state: await job.getState(),
        attemptsMade: job.attemptsMade,
        ...(job.failedReason ? { failedReason: job.failedReason } : {}),
        ...(job.finishedOn ? { finishedAt: iso(job.finishedOn) } : {}),
      });
    }
    return found;
  }

  async close(): Promise<void> {
    await Promise.all(
      this.owned.map(async ({ queue, connection }) => {
        await queue.close().catch(() => undefined);
        await connection.quit().catch(() => connection.disconnect());
      }),
    );
  }
}

/** A failed job as the console lists it: the email's recipient and subject line data, never a link. */
function failedJob(job: Job): OpsFailedJob {
  return {
    id: String(job.id),
    name: job.name,
    failedReason: job.failedReason ?? '',
    attemptsMade: job.attemptsMade,
    createdAt: new Date(job.timestamp).toISOString(),
    ...(job.finishedOn ? { failedAt: iso(job.finishedOn) } : {}),
    data: redactValue(job.data),
  };
}
