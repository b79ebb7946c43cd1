import { ProcessedEvents, createQueue, openEventBus, serveService, watchQueueDepth } from '@lsp/service-kit';
import { buildApp } from './app';
import { notificationsConfigSchema } from './config';
import { EMAIL_QUEUE, type EmailJob, subscribeToIdentityEvents } from './email-jobs';
import { startMailCatcher } from './mail-catcher';
import { subscribeToSharingEvents } from './sharing-email-jobs';

/** The notifications API process: consumes events into the `email` queue; runs the mail catcher when enabled. */
serveService({
  name: 'notifications',
  configSchema: notificationsConfigSchema,
  dbName: notificationsConfigSchema.shape.DB_NAME.parse(process.env.DB_NAME),
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
    if (config.MAIL_CATCHER_ENABLED) {
      const catcher = await startMailCatcher({
        port: config.MAIL_CATCHER_SMTP_PORT,
        mongo: runtime.mongo,
        logger,
      });
      runtime.addCloser({ name: 'mail-catcher', close: () => catcher.close() });
      logger.info({ smtp: `smtp://127.0.0.1:${catcher.port}` }, 'mail catcher listening');
    }
    const app = buildApp(runtime);
    await bus.start();
    return app;
  },
});
