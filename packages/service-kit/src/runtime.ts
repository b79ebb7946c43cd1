import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import type { z } from 'zod';
import { type BaseConfig, loadConfigOrExit } from './config';
import type { HealthCheck } from './http';
import type { Closer } from './lifecycle';
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
  /** In the order they must close on shutdown. */
  closers: Closer[];
}

export async function openServiceRuntime<S extends z.ZodType<BaseConfig>>(opts: {
  name: string;
  configSchema: S;
  dbName: string;
}): Promise<ServiceRuntime<z.infer<S>>> {
  const config = loadConfigOrExit(opts.configSchema);
  const logger = createLogger(opts.name, config.LOG_LEVEL);
  const metrics = new ServiceMetrics(opts.name);
  const redis = createRedis(config.REDIS_URL, 'producer');
  const mongo = await connectMongo(config.MONGO_URL, opts.dbName, logger);
  return {
    name: opts.name,
    config,
    logger,
    metrics,
    mongo,
    redis,
    healthChecks: [mongoHealthCheck(mongo), redisHealthCheck(redis)],
    closers: [
      { name: 'redis', close: () => redis.quit() },
      { name: 'mongodb', close: () => mongo.close() },
    ],
  };
}
