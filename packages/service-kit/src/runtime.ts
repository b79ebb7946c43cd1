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
  /**
   * True when the service runs in the all-in-one host beside the others: what belongs to the whole
   * process (its priority, its signals, its exit) is then the host's, not the service's.
   */
  sharesProcess: boolean;
}

/**
 * One process of the platform (a service's API or one of its workers), as its own entry point runs it
 * alone and as the all-in-one host runs it beside the others: its name, its configuration, the
 * database it owns and how its app is built from its runtime.
 */
export interface ServiceDefinition<S extends z.ZodType<BaseConfig> = z.ZodType<BaseConfig>> {
  name: string;
  configSchema: S;
  /** The database it owns, or how its configuration names it. */
  dbName: string | ((config: z.infer<S>) => string);
  build: (runtime: ServiceRuntime<z.infer<S>>) => Promise<FastifyInstance> | FastifyInstance;
}

/** Types a service definition (its config's type flows from the schema into `build`). */
export function defineService<S extends z.ZodType<BaseConfig>>(definition: ServiceDefinition<S>) {
  return definition;
}

export async function openServiceRuntime<S extends z.ZodType<BaseConfig>>(opts: {
  name: string;
  configSchema: S;
  dbName: string | ((config: z.infer<S>) => string);
  /** Where the configuration is read from: the process's environment unless the host gives one. */
  env?: NodeJS.ProcessEnv;
  sharesProcess?: boolean;
  /**
   * The service's database on a client the host shares among its services (one pool and one server
   * monitor instead of one per service); the host closes that client, after every service.
   */
  database?: (dbName: string) => Connection;
}): Promise<ServiceRuntime<z.infer<S>>> {
  const config = loadConfigOrExit(opts.configSchema, opts.env ?? process.env);
  const logger = createLogger(opts.name, config.LOG_LEVEL);
  // Beside others in the host, the process's own figures are the host's (the gateway reports them).
  const metrics = new ServiceMetrics(opts.name, { processMetrics: !opts.sharesProcess });
  const redis = createRedis(config.REDIS_URL, 'producer', (err) =>
    logger.debug({ err }, 'redis connection error'),
  );
  const dbName = typeof opts.dbName === 'function' ? opts.dbName(config) : opts.dbName;
  const mongo = opts.database ? opts.database(dbName) : await connectMongo(config.MONGO_URL, dbName, logger);
  const registered: Closer[] = [];
  const connections: Closer[] = [
    { name: 'redis', close: () => redis.quit() },
    ...(opts.database ? [] : [{ name: 'mongodb', close: () => mongo.close() }]),
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
    sharesProcess: opts.sharesProcess ?? false,
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

/** A service's app, built and ready to listen, with everything to close when it stops. */
export interface BuiltService {
  name: string;
  app: FastifyInstance;
  runtime: ServiceRuntime;
}

/**
 * Opens a service's runtime and builds its app (consumers and workers started), without listening:
 * its own entry point then listens alone; the all-in-one host listens beside the others.
 */
export async function buildService<S extends z.ZodType<BaseConfig>>(
  definition: ServiceDefinition<S>,
  opts: { env?: NodeJS.ProcessEnv; sharesProcess?: boolean; database?: (dbName: string) => Connection } = {},
): Promise<BuiltService> {
  const runtime = await openServiceRuntime({ ...definition, ...opts });
  try {
    const app = await definition.build(runtime);
    return { name: definition.name, app, runtime: runtime as ServiceRuntime };
  } catch (err) {
    // What the build opened (consumers, queues, connections) closes again: in a host the others run on.
    for (const closer of runtime.closers) await closer.close().catch(() => undefined);
    throw err;
  }
}

/**
 * The whole entry point of a service: open the runtime, let the service build its app (and start
 * consumers or workers, adding their closers), listen, and shut down gracefully on SIGTERM.
 */
export function serveService<S extends z.ZodType<BaseConfig>>(opts: ServiceDefinition<S>): void {
  const main = async () => {
    const { app, runtime } = await buildService(opts);
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
