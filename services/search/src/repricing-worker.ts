import { setPriority } from 'node:os';
import { createServiceApp, openEventing, defineService } from '@lsp/service-kit';
import { createRepositories } from './app';
import { repricingWorkerConfigSchema } from './config';
import { PanelStore } from './data/panel-store';
import { RepricingRepository } from './data/repricings';
import { startRepricingWorker } from './use-cases/repricing-job';

/**
 * The re-pricing worker (deployed on its own as `repricing-worker`): after each lender panel
 * activation it re-prices the saved searches of the last 90 days in batches, away from the processes
 * that answer live searches, and publishes search.repriced for those whose offers moved. It serves
 * only /alive, /health and /metrics, on its own port.
 */
export const repricingWorker = defineService({
  name: 'repricing-worker',
  configSchema: repricingWorkerConfigSchema,
  dbName: 'search',
  build: async (runtime) => {
    const { config, logger, metrics, mongo } = runtime;
    // Lowering one's own priority needs no privilege (raising it back would). Beside the live searches
    // in the all-in-one host the priority is the whole process's: the duty cycle alone keeps it polite.
    if (!runtime.sharesProcess) setPriority(config.REPRICING_NICE);
    const { outbox } = await openEventing(runtime);
    const { savedSearches } = createRepositories(mongo, outbox);
    const worker = startRepricingWorker({
      panels: new PanelStore(mongo, logger),
      savedSearches,
      repricings: new RepricingRepository(mongo, outbox),
      batchSize: config.REPRICING_BATCH_SIZE,
      dutyCycle: config.REPRICING_DUTY_CYCLE,
      redisUrl: config.REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      logger,
    });
    // No new jobs, then the batch in progress commits (or, killed, is redone from the last commit).
    runtime.addCloser({ name: 'repricing-worker', close: () => worker.close() });
    await worker.waitUntilReady();
    logger.info('re-pricing worker ready');
    return createServiceApp({
      name: 'repricing-worker',
      logger,
      metrics,
      healthChecks: runtime.healthChecks,
    });
  },
});
