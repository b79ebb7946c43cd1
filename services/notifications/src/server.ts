import { createQueue, openServiceRuntime, runUntilSignalled, watchQueueDepth } from '@lsp/service-kit';
import {
  ProcessedEvents,
  createEventBus,
  eventBusConfigFromEnv,
  eventBusHealthCheck,
} from '@lsp/service-kit/src/events';
import { buildApp } from './app';
import { notificationsConfigSchema } from './config';
import { EMAIL_QUEUE, type EmailJob, subscribeToIdentityEvents } from './email-jobs';
import { startMailCatcher } from './mail-catcher';

/** The notifications API process: consumes events into the `email` queue; runs the mail catcher when enabled. */
async function main() {
  const runtime = await openServiceRuntime({
    name: 'notifications',
    configSchema: notificationsConfigSchema,
    dbName: notificationsConfigSchema.shape.DB_NAME.parse(process.env.DB_NAME),
  });
  const { config, logger, metrics } = runtime;
  const bus = createEventBus(eventBusConfigFromEnv(config, { metrics: metrics.eventHooks, logger }));
  const processed = await ProcessedEvents.open(runtime.mongo);
  const queue = createQueue<EmailJob>(EMAIL_QUEUE, config.REDIS_URL, config.QUEUE_PREFIX);
  watchQueueDepth(metrics, queue);
  subscribeToIdentityEvents(bus, processed, queue);
  const catcher = config.MAIL_CATCHER_ENABLED
    ? await startMailCatcher({ port: config.MAIL_CATCHER_SMTP_PORT, mongo: runtime.mongo, logger })
    : null;
  const app = buildApp({ ...runtime, healthChecks: [...runtime.healthChecks, eventBusHealthCheck(bus)] });
  await bus.start();
  const address = await runUntilSignalled(app, {
    host: config.HOST,
    port: config.PORT,
    logger,
    closers: [
      { name: 'event-bus', close: () => bus.close() },
      { name: 'email-queue', close: () => queue.close() },
      ...(catcher ? [{ name: 'mail-catcher', close: () => catcher.close() }] : []),
      ...runtime.closers,
    ],
  });
  logger.info({ address, mailCatcher: catcher ? `smtp://127.0.0.1:${catcher.port}` : 'off' }, 'notifications listening');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
