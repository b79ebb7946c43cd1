// The operations console's server side: the event tap and live feed, the correlation
// view, dead letters, the BullMQ queues and the health grid, all under /api/ops behind the `ops` role.
import { hostname } from 'node:os';
import { type CallerIdentity, type EventBus, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { Queue } from 'bullmq';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { NotificationsConfig } from '../config';
import { KafkaOutcomeReader, type OutcomeReader, RedisOutcomeReader, correlationChain } from './chain';
import { DeadLetters } from './dead-letters';
import { HealthGrid, kafkaConsumerLag, opsTargets, redisConsumerLag } from './health';
import { KafkaTap, type KafkaTapOptions } from './kafka-tap';
import { OpsQueues } from './queues';
import { RedisStreamsTap } from './redis-tap';
import { type StreamTimings, registerEventStream } from './stream';
import { EventTap } from './tap';

export { DeadLetters, DEAD_LETTER_GROUP } from './dead-letters';
export { EventTap } from './tap';
export { HealthGrid, opsTargets } from './health';
export { OpsQueues } from './queues';

export type OpsConfig = Pick<
  NotificationsConfig,
  | 'EVENT_BUS'
  | 'REDIS_URL'
  | 'KAFKA_BROKERS'
  | 'EVENT_STREAM_PREFIX'
  | 'SERVICE_NAME'
  | 'QUEUE_PREFIX'
  | 'INTERNAL_SECRET'
  | 'METRICS_TOKEN'
  | 'OPS_TAP_BUFFER'
  | 'OPS_FEED_CLIENT_BUFFER'
  | 'OPS_TARGETS'
  | 'IDENTITY_URL'
  | 'SEARCH_URL'
  | 'DIP_URL'
  | 'SHARING_URL'
  | 'NOTIFICATIONS_URL'
  | 'PUBLIC_URL'
>;

export interface OpsConsole {
  tap: EventTap;
  deadLetters: DeadLetters;
  queues: OpsQueues;
  grid: HealthGrid;
  outcomes(): OutcomeReader;
  /** Starts the tap; never throws (a broker that is down is retried in the background). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the console. The dead-letter collector subscribes to `bus` here, so call this before
 * `bus.start()`; then `start()` the console (the tap reads the broker on its own connections).
 */
export async function createOpsConsole(opts: {
  config: OpsConfig;
  logger: Logger;
  mongo: Connection;
  bus: EventBus;
  /** Queues this process already holds (the `email` queue), reused rather than opened again. */
  queues?: Partial<Record<'email' | 'pdf', Queue<any>>>;
  instance?: string;
  kafka?: Pick<KafkaTapOptions, 'consumerConfig' | 'backfillPerPartition'>;
  /** Dead-letter topics collected; every catalogue type by default. */
  deadLetterTypes?: readonly string[];
}): Promise<OpsConsole> {
  const { config, logger } = opts;
  const instance = opts.instance ?? `${hostname()}-${process.pid}`;
  const log = logger.child({ component: 'ops' });
  let redisTap: RedisStreamsTap | undefined;
  let kafkaTap: KafkaTap | undefined;
  if (config.EVENT_BUS === 'kafka') {
    kafkaTap = new KafkaTap({
      brokers: (config.KAFKA_BROKERS ?? '')
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean),
      clientId: config.SERVICE_NAME,
      instance,
      logger: log,
      ...opts.kafka,
    });
  } else {
    redisTap = new RedisStreamsTap({
      redisUrl: config.REDIS_URL,
      prefix: config.EVENT_STREAM_PREFIX,
      logger: log,
    });
  }
  const tap = new EventTap((redisTap ?? kafkaTap)!, {
    ringSize: config.OPS_TAP_BUFFER,
    clientBuffer: config.OPS_FEED_CLIENT_BUFFER,
    logger: log,
    instance,
  });
  const deadLetters = await DeadLetters.open(opts.mongo, opts.bus);
  deadLetters.subscribe(opts.deadLetterTypes);
  const queues = new OpsQueues(config.REDIS_URL, config.QUEUE_PREFIX, opts.queues);
  const grid = new HealthGrid({
    targets: opsTargets(config as NotificationsConfig),
    internalSecret: config.INTERNAL_SECRET,
    metricsToken: config.METRICS_TOKEN,
    eventBus: config.EVENT_BUS,
    lag: () =>
      redisTap
        ? redisConsumerLag(redisTap.commands, redisTap.streamKeys(), config.EVENT_STREAM_PREFIX)
        : kafkaConsumerLag(kafkaTap!),
  });

  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const startTap = async (): Promise<void> => {
    try {
      await tap.start();
    } catch (err) {
      if (stopped) return;
      log.warn({ err }, 'ops tap could not start; retrying in 5 s');
      await tap.source.stop().catch(() => undefined);
      retry = setTimeout(() => void startTap(), 5000);
    }
  };

  return {
    tap,
    deadLetters,
    queues,
    grid,
    outcomes: () =>
      redisTap
        ? new RedisOutcomeReader(redisTap.commands, config.EVENT_STREAM_PREFIX)
        : new KafkaOutcomeReader(kafkaTap!),
    start: startTap,
    async close() {
      stopped = true;
      clearTimeout(retry);
      await tap.stop().catch(() => undefined);
      await queues.close().catch(() => undefined);
    },
  };
}

/** Who did it, for the kept record of a replay or a discard. */
const actorOf = (caller: CallerIdentity) => caller.email || caller.userId;

export function registerOpsRoutes(app: FastifyInstance, ops: OpsConsole, timings?: StreamTimings): void {
  const noStore = { 'cache-control': 'no-store' };

  registerEventStream(app, ops.tap, timings);

  declareRoute(app, 'getOpsFeedStats', async (request, reply) => {
    reply.headers(noStore);
    return ops.tap.hub.stats(ops.tap.instance);
  });

  declareRoute(app, 'getCorrelationChain', async (request, reply) => {
    const { correlationId } = request.query;
    reply.headers(noStore);
    return correlationChain({
      correlationId,
      tap: ops.tap,
      outcomes: ops.outcomes(),
      deadLetters: ops.deadLetters,
      queues: ops.queues,
    });
  });

  declareRoute(app, 'listDeadLetters', async (request, reply) => {
    const { query } = request;
    reply.headers(noStore);
    return ops.deadLetters.list(query);
  });

  declareRoute(app, 'replayDeadLetters', async (request) => {
    const by = actorOf(request.caller);
    const { topic } = request.body;
    return ops.deadLetters.replayAll(topic, by);
  });

  declareRoute(app, 'replayDeadLetter', async (request) => {
    const by = actorOf(request.caller);
    const replayed = await ops.deadLetters.replay(request.params.id, by);
    return { replayed: 1, ids: [replayed.id] };
  });

  declareRoute(app, 'discardDeadLetter', async (request) => {
    const by = actorOf(request.caller);
    const { reason } = request.body;
    return ops.deadLetters.discard(request.params.id, reason, by);
  });

  declareRoute(app, 'listQueues', async (request, reply) => {
    reply.headers(noStore);
    return { queues: await ops.queues.overview() };
  });

  declareRoute(app, 'retryQueueJob', async (request) => {
    await ops.queues.retry(request.params.queue, request.params.jobId);
    return { ok: true as const, queue: request.params.queue, jobId: request.params.jobId };
  });

  declareRoute(app, 'getPlatformHealth', async (request, reply) => {
    reply.headers(noStore);
    return ops.grid.check();
  });
}
