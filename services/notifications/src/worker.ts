import { createLogger, connectMongo, loadConfigOrExit } from '@lsp/service-kit';
import { notificationsConfigSchema, smtpUrlFor } from './config';
import { createMailTransport, startEmailWorker } from './email-worker';

/** The email worker process: takes jobs from the `email` queue and sends them over SMTP. */
async function main() {
  const config = loadConfigOrExit(notificationsConfigSchema);
  const logger = createLogger('email-worker', config.LOG_LEVEL);
  const mongo = await connectMongo(config.MONGO_URL, config.DB_NAME, logger);
  const transport = createMailTransport(config);
  const worker = startEmailWorker({ config, logger, mongo, transport });
  await worker.waitUntilReady();
  logger.info({ smtp: new URL(smtpUrlFor(config)).host }, 'email worker ready');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'email worker stopping');
    // Lets the sends in progress finish; jobs not started stay queued for the next worker.
    await worker.close();
    transport.close();
    await mongo.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
