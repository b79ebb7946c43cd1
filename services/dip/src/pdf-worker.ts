import {
  createQueue,
  createServiceApp,
  openEventing,
  defineService,
  watchQueueDepth,
} from '@lsp/service-kit';
import { pdfWorkerConfigSchema } from './config';
import { PDF_QUEUE, PdfRenderer, PdfStore, startPdfWorker } from './pdf';

/**
 * The PDF worker process (deployed on its own as `pdf-worker`): takes jobs from the `pdf` queue,
 * renders them in one long-lived Chromium, stores them in GridFS and publishes dip.pdf.rendered.
 * It serves only /alive, /health and /metrics, on its own port.
 */
export const pdfWorker = defineService({
  name: 'pdf-worker',
  configSchema: pdfWorkerConfigSchema,
  dbName: 'dip',
  build: async (runtime) => {
    const { config, logger, metrics } = runtime;
    const { outbox } = await openEventing(runtime);
    await new PdfStore(runtime.mongo).ensureIndexes();
    const renderer = new PdfRenderer({
      executablePath: config.CHROMIUM_PATH,
      concurrency: config.PDF_CONCURRENCY,
      logger,
    });
    const queue = createQueue(PDF_QUEUE, config.REDIS_URL, config.QUEUE_PREFIX);
    watchQueueDepth(metrics, queue);
    const worker = startPdfWorker({
      mongo: runtime.mongo,
      outbox,
      renderer,
      redisUrl: config.REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      concurrency: config.PDF_CONCURRENCY,
      lockDuration: config.PDF_JOB_LOCK_MS,
      stalledInterval: config.PDF_STALLED_CHECK_MS,
      logger,
    });
    // Closed in this order: no new jobs, renders in progress finish, then Chromium goes.
    runtime.addCloser({ name: 'pdf-worker', close: () => worker.close() });
    runtime.addCloser({ name: 'chromium', close: () => renderer.close() });
    runtime.addCloser({ name: 'pdf-queue', close: () => queue.close() });
    await worker.waitUntilReady();
    logger.info({ chromium: config.CHROMIUM_PATH }, 'PDF worker ready');
    return createServiceApp({ name: 'pdf-worker', logger, metrics, healthChecks: runtime.healthChecks });
  },
});
