import { ProcessedEvents, createQueue, openEventBus, defineService, watchQueueDepth } from '@lsp/service-kit';
import { buildApp } from './app';
import { notificationsConfigSchema } from './config';
import { startMailCatcher } from './dev-mail/catcher';
import { EMAIL_QUEUE, type EmailJob } from './email/jobs';
import { unsubscribeKey } from './alerts/unsubscribe-token';
import { AlertStore } from './data/alerts';
import { subscribeToAlertEvents } from './events/alerts';
import { subscribeToIdentityEvents, subscribeToSharingEvents } from './events/consumed';
import { subscribeToWebhookEvents } from './events/webhooks';
import { createOpsConsole } from './ops';
import { WEBHOOK_QUEUE, type WebhookJob } from './webhooks/delivery';
import { WebhookStore } from './webhooks/store';

/** The notifications API process: consumes events into the `email` queue; runs the mail catcher when enabled. */
export const notificationsService = defineService({
  name: 'notifications',
  configSchema: notificationsConfigSchema,
  dbName: (config) => config.DB_NAME,
  build: async (runtime) => {
    const { config, logger, metrics } = runtime;
    // Closed first on shutdown: no event is taken in while the queue it feeds is closing.
    const bus = openEventBus(runtime);
    const processed = await ProcessedEvents.open(runtime.mongo);
    const queue = createQueue<EmailJob>(EMAIL_QUEUE, config.REDIS_URL, config.QUEUE_PREFIX);
    runtime.addCloser({ name: 'email-queue', close: () => queue.close() });
    watchQueueDepth(metrics, queue);
    subscribeToIdentityEvents(bus, processed, queue);
    subscribeToSharingEvents(bus, processed, queue);
    const webhookQueue = createQueue<WebhookJob>(WEBHOOK_QUEUE, config.REDIS_URL, config.QUEUE_PREFIX);
    runtime.addCloser({ name: 'webhook-queue', close: () => webhookQueue.close() });
    watchQueueDepth(metrics, webhookQueue);
    const webhooks = new WebhookStore(runtime.mongo);
    await webhooks.ensureIndexes();
    subscribeToWebhookEvents(bus, { store: webhooks, queue: webhookQueue });
    subscribeToAlertEvents(bus, {
      processed,
      queue,
      alerts: new AlertStore(runtime.mongo),
      unsubscribeKey: unsubscribeKey(config.INTERNAL_SECRET),
      publicUrl: config.PUBLIC_URL,
      logger,
    });
    if (config.MAIL_CATCHER_ENABLED) {
      const catcher = await startMailCatcher({
        port: config.MAIL_CATCHER_SMTP_PORT,
        mongo: runtime.mongo,
        logger,
      });
      runtime.addCloser({ name: 'mail-catcher', close: () => catcher.close() });
      logger.info({ smtp: `smtp://127.0.0.1:${catcher.port}` }, 'mail catcher listening');
    }
    // The operations console: its dead-letter collector subscribes before the bus starts.
    const ops = await createOpsConsole({
      config,
      logger,
      mongo: runtime.mongo,
      bus,
      queues: { email: queue },
    });
    runtime.addCloser({ name: 'ops-console', close: () => ops.close() });
    const app = buildApp({ ...runtime, ops, webhookQueue });
    await bus.start();
    await ops.start();
    return app;
  },
});
