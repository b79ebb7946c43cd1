import { defaultPortOf } from '@lsp/contracts';
import { createQueue, createServiceApp, defineService, watchQueueDepth } from '@lsp/service-kit';
import { z } from 'zod';
import { notificationsConfigSchema, smtpUrlFor } from './config';
import { EMAIL_QUEUE, type EmailJob } from './email/jobs';
import { createMailTransport, startEmailWorker } from './email/sender';
import { AlertStore } from './data/alerts';
import { WEBHOOK_QUEUE, startWebhookWorker } from './webhooks/delivery';
import { WebhookStore } from './webhooks/store';

/** The worker listens only for /alive, /health and /metrics, on its own port. */
const workerConfigSchema = notificationsConfigSchema.extend({
  SERVICE_NAME: z.string().default('email-worker'),
  PORT: z.coerce.number().int().min(0).max(65535).default(defaultPortOf('email-worker')),
});

/**
 * The email worker process: takes jobs from the `email` queue and sends them over SMTP, and the
 * `webhook` queue's deliveries to webhook endpoints (a disabled endpoint's email goes to `email`).
 */
export const emailWorker = defineService({
  name: 'email-worker',
  configSchema: workerConfigSchema,
  dbName: (config) => config.DB_NAME,
  build: async (runtime) => {
    const { config, logger, metrics } = runtime;
    const queue = createQueue<EmailJob>(EMAIL_QUEUE, config.REDIS_URL, config.QUEUE_PREFIX);
    watchQueueDepth(metrics, queue);
    const webhookQueue = createQueue(WEBHOOK_QUEUE, config.REDIS_URL, config.QUEUE_PREFIX);
    watchQueueDepth(metrics, webhookQueue);
    const webhookWorker = startWebhookWorker({
      store: new WebhookStore(runtime.mongo),
      alerts: new AlertStore(runtime.mongo),
      emailQueue: queue,
      logger,
      redisUrl: config.REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      concurrency: config.WEBHOOK_WORKER_CONCURRENCY,
      allowPrivateTargets: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
      publicUrl: config.PUBLIC_URL,
    });
    // Closed before the email queue it may add a disabled endpoint's email to.
    runtime.addCloser({ name: 'webhook-worker', close: () => webhookWorker.close() });
    runtime.addCloser({ name: 'webhook-queue', close: () => webhookQueue.close() });
    const transport = createMailTransport(config);
    const worker = startEmailWorker({ config, logger, mongo: runtime.mongo, transport });
    // worker.close() lets the sends in progress finish; jobs not started stay queued for the next worker.
    runtime.addCloser({ name: 'email-worker', close: () => worker.close() });
    runtime.addCloser({ name: 'smtp', close: async () => transport.close() });
    runtime.addCloser({ name: 'email-queue', close: () => queue.close() });
    await worker.waitUntilReady();
    await webhookWorker.waitUntilReady();
    logger.info({ smtp: new URL(smtpUrlFor(config)).host }, 'email worker ready');
    return createServiceApp({ name: 'email-worker', logger, metrics, healthChecks: runtime.healthChecks });
  },
});
