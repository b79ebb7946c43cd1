import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import type { z } from 'zod';
import { type BaseConfig, loadConfigOrExit } from './config';
import {
  type EventBus,
  Outbox,
  OutboxRelay,
  createEventBus,
  eventBusConfigFromEnv,
  eventBusHealthCheck,
} from './events';
import type { HealthCheck } from './http';
import { type Closer, runUntilSignalled } from './lifecycle';
import { type Logger, createLogger } from './logger';
import { ServiceMetrics } from './metrics';
import { connectMongo, mongoHealthCheck } from './mongo';
import { createRedis, redisHealthCheck } from './redis';

/** What every domain service process holds: its config, logger, metrics and connections. */
export interface ServiceRuntime<C extends BaseConfig = BaseConfig> {
  name: string;
  config: C;
  logger: Logger;
  metrics: ServiceMetrics;
  mongo: Connection;
  redis: Redis;
  healthChecks: HealthCheck[];
  /** Registers something to close on shutdown; closed in registration order, before MongoDB and Redis. */
  addCloser(closer: Closer): void;
  /** Everything to close on shutdown, in order: what was registered, then the connections. */
  readonly closers: Closer[];
}

export async function openServiceRuntime<S extends z.ZodType<BaseConfig>>(opts: {
  name: string;
  configSchema: S;
  dbName: string;
}): Promise<ServiceRuntime<z.infer<S>>> {
  const config = loadConfigOrExit(opts.configSchema);
  const logger = createLogger(opts.name, config.LOG_LEVEL);
  const metrics = new ServiceMetrics(opts.name);
  const redis = createRedis(config.REDIS_URL, 'producer', (err) =>
    logger.debug({ err }, 'redis connection error'),
  );
  const mongo = await connectMongo(config.MONGO_URL, opts.dbName, logger);
  const registered: Closer[] = [];
  const connections: Closer[] = [
    { name: 'redis', close: () => redis.quit() },
    { name: 'mongodb', close: () => mongo.close() },
  ];
  return {
    name: opts.name,
    config,
    logger,
    metrics,
    mongo,
    redis,
    healthChecks: [mongoHealthCheck(mongo), redisHealthCheck(redis)],
    addCloser: (closer) => void registered.push(closer),
    get closers() {
      return [...registered, ...connections];
    },
  };
}

export interface ServiceEventing {
  bus: EventBus;
  outbox: Outbox;
  relay: OutboxRelay;
}

/** The event bus for a service that consumes events: health and metrics wired, closed on shutdown. */
export function openEventBus(runtime: ServiceRuntime, opts: { closeOnShutdown?: boolean } = {}): EventBus {
  const { config, logger, metrics } = runtime;
  const bus = createEventBus(eventBusConfigFromEnv(config, { metrics: metrics.eventHooks, logger }));
  runtime.healthChecks.push(eventBusHealthCheck(bus));
  if (opts.closeOnShutdown !== false) runtime.addCloser({ name: 'event-bus', close: () => bus.close() });
  return bus;
}

/**
 * The event bus and transactional outbox of a service that produces events, with the relay
 * publishing what the outbox holds. On shutdown the relay stops first (its publish in flight
 * completes), then the bus, then the connections.
 */
export async function openEventing(runtime: ServiceRuntime): Promise<ServiceEventing> {
  const bus = openEventBus(runtime, { closeOnShutdown: false });
  const outbox = await Outbox.open(runtime.mongo);
  outbox.publishAtCommit({
    bus,
    logger: runtime.logger,
    onPublished: (type, delayMs) => runtime.metrics.eventPublishDelay.observe({ type }, delayMs / 1000),
  });
  const relay = new OutboxRelay({
    outbox,
    bus,
    logger: runtime.logger,
    pollIntervalMs: runtime.config.OUTBOX_POLL_MS,
  });
  runtime.metrics.addQueueDepthSource(async () => [
    { queue: 'outbox', state: 'pending', count: await outbox.countPending() },
  ]);
  runtime.addCloser({ name: 'outbox-relay', close: () => relay.stop() });
  runtime.addCloser({ name: 'outbox-publishing', close: () => outbox.drain() });
  runtime.addCloser({ name: 'event-bus', close: () => bus.close() });
  relay.start();
  return { bus, outbox, relay };
}

/**
 * The whole entry point of a service: open the runtime, let the service build its app (and start
 * consumers or workers, adding their closers), listen, and shut down gracefully on SIGTERM.
 */
export function serveService<S extends z.ZodType<BaseConfig>>(opts: {
  name: string;
  configSchema: S;
  dbName: string;
  build: (runtime: ServiceRuntime<z.infer<S>>) => Promise<FastifyInstance> | FastifyInstance;
}): void {
  const main = async () => {
    const runtime = await openServiceRuntime(opts);
    const app = await opts.build(runtime);
    const address = await runUntilSignalled(app, {
      host: runtime.config.HOST,
      port: runtime.config.PORT,
      logger: runtime.logger,
      closers: runtime.closers,
    });
    runtime.logger.info({ address }, `${opts.name} listening`);
  };
  main().catch((err) => {
    process.stderr.write(`${opts.name} failed to start: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
