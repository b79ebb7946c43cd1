import {
  ServiceMetrics,
  connectMongo,
  createLogger,
  createQueue,
  createRedis,
  createServiceApp,
  loadConfigOrExit,
  mongoHealthCheck,
  redisHealthCheck,
  runUntilSignalled,
  watchQueueDepth,
} from '@lsp/service-kit';
import { z } from 'zod';
import { notificationsConfigSchema, smtpUrlFor } from './config';
import { EMAIL_QUEUE } from './email-jobs';
import { createMailTransport, startEmailWorker } from './email-worker';

/** The worker listens only for /alive, /health and /metrics, on its own port. */
const workerConfigSchema = notificationsConfigSchema.extend({
  SERVICE_NAME: z.string().default('email-worker'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4015),
});

/** The email worker process: takes jobs from the `email` queue and sends them over SMTP. */
async function main() {
  const config = loadConfigOrExit(workerConfigSchema);
  const logger = createLogger('email-worker', config.LOG_LEVEL);
  const metrics = new ServiceMetrics('email-worker');
  const mongo = await connectMongo(config.MONGO_URL, config.DB_NAME, logger);
  const redis = createRedis(config.REDIS_URL, 'producer');
  const queue = createQueue(EMAIL_QUEUE, config.REDIS_URL, config.QUEUE_PREFIX);
  watchQueueDepth(metrics, queue);
  const transport = createMailTransport(config);
  const worker = startEmailWorker({ config, logger, mongo, transport });
  const app = createServiceApp({
    name: 'email-worker',
    logger,
    metrics,
    healthChecks: [mongoHealthCheck(mongo), redisHealthCheck(redis)],
  });
  await worker.waitUntilReady();
  const address = await runUntilSignalled(app, {
    host: config.HOST,
    port: config.PORT,
    logger,
    // worker.close() lets the sends in progress finish; jobs not started stay queued for the next worker.
    closers: [
      { name: 'email-worker', close: () => worker.close() },
      { name: 'smtp', close: async () => transport.close() },
      { name: 'email-queue', close: () => queue.close() },
      { name: 'redis', close: () => redis.quit() },
      { name: 'mongodb', close: () => mongo.close() },
    ],
  });
  logger.info({ address, smtp: new URL(smtpUrlFor(config)).host }, 'email worker ready');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
