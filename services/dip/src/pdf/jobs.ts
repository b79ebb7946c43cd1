import { DIP_MESSAGES, DIP_EVENTS } from '@lsp/contracts';
import {
  HttpError,
  type Logger,
  type Outbox,
  type ServiceRuntime,
  createQueue,
  createQueueEvents,
  createWorker,
  watchQueueDepth,
} from '@lsp/service-kit';
import type { Job, Queue, QueueEvents, Worker } from 'bullmq';
import type { Connection } from 'mongoose';
import type { DipConfig } from '../config';
import type { PdfRenderer } from './renderer';
import { PdfStore } from './store';
import { type PdfDip, renderDipHtml } from './template';

export const PDF_QUEUE = 'pdf';
export const pdfJobId = (dipId: string, version: number) => `${dipId}-v${version}`;

/** 503 with words a person can act on: the render did not finish in time, or the queue is down. */
export class PdfUnavailableError extends HttpError {
  constructor(message: string = DIP_MESSAGES.pdfBusy) {
    super(503, message, { title: 'PDF Generation Failed' });
    this.name = 'PdfUnavailableError';
  }
}

/**
 * The dip service's side of the PDFs: a PDF already rendered for this DIP version comes from GridFS;
 * otherwise a render is queued (job id = DIP id + version, so concurrent requests share one render)
 * and awaited up to the timeout.
 */
export class DipPdfs {
  constructor(
    private readonly store: PdfStore,
    private readonly queue: Queue<PdfDip>,
    private readonly events: QueueEvents,
    private readonly timeoutMs: number,
  ) {
    // Every request waiting for a render listens on the queue and its events until its job finishes.
    events.setMaxListeners(1000);
    queue.setMaxListeners(1000);
  }

  async get(dip: PdfDip): Promise<Buffer> {
    const cached = await this.store.find(dip.id, dip.version);
    if (cached) return cached;
    try {
      const jobId = pdfJobId(dip.id, dip.version);
      let job = await this.queue.add('render', dip, { jobId });
      // A job that failed for good earlier under this id is tried again rather than answered from its failure.
      if ((await job.getState()) === 'failed') {
        await job.retry('failed');
        job = (await this.queue.getJob(jobId)) ?? job;
      }
      await job.waitUntilFinished(this.events, this.timeoutMs);
    } catch (err) {
      throw Object.assign(new PdfUnavailableError(), { cause: err });
    }
    const rendered = await this.store.find(dip.id, dip.version);
    if (!rendered) throw new PdfUnavailableError(DIP_MESSAGES.pdfFailed);
    return rendered;
  }
}

/** The queue, its events and the store for the dip API process, closed on shutdown. */
export async function openDipPdfs(runtime: ServiceRuntime<DipConfig>): Promise<DipPdfs> {
  const { config } = runtime;
  const queue = createQueue<PdfDip>(PDF_QUEUE, config.REDIS_URL, config.QUEUE_PREFIX);
  const events = createQueueEvents(PDF_QUEUE, config.REDIS_URL, config.QUEUE_PREFIX);
  runtime.addCloser({ name: 'pdf-queue-events', close: () => events.close() });
  runtime.addCloser({ name: 'pdf-queue', close: () => queue.close() });
  watchQueueDepth(runtime.metrics, queue);
  const store = new PdfStore(runtime.mongo);
  await store.ensureIndexes();
  return new DipPdfs(store, queue, events, config.PDF_TIMEOUT_MS);
}

/**
 * The worker's processor: render, store, and publish dip.pdf.rendered with the store in one step of
 * the outbox. A retried job finds the file there and renders nothing.
 */
/**
 * How many times a render may be taken over from a worker that died in it before the job fails for
 * good. A render is safe to redo (one record per DIP version), and where every service shares one
 * process (the all-in-one host) each crash of that process stops the render in progress: BullMQ's
 * default of one would fail a PDF whose worker died twice in it.
 */
export const PDF_MAX_STALLS = 5;

export function startPdfWorker(deps: {
  mongo: Connection;
  outbox: Pick<Outbox, 'add'>;
  renderer: PdfRenderer;
  redisUrl: string;
  prefix: string;
  concurrency: number;
  lockDuration?: number;
  stalledInterval?: number;
  logger: Logger;
}): Worker<PdfDip> {
  const store = new PdfStore(deps.mongo);
  /** One record per version, written with the event: a job retried after a crash publishes it once. */
  const published = deps.mongo.collection<{ _id: string; publishedAt: Date }>('pdf_renders');
  const processor = async (job: Job<PdfDip>) => {
    const dip = job.data;
    const key = pdfJobId(dip.id, dip.version);
    if (await published.findOne({ _id: key })) return { cached: true };
    const started = performance.now();
    let pdf = await store.find(dip.id, dip.version);
    pdf ??= await deps.renderer.render(renderDipHtml(dip));
    const renderMs = Math.round(performance.now() - started);
    const fileId = await store.save(dip.id, dip.version, pdf);
    await deps.mongo.transaction(async (session) => {
      await published.insertOne({ _id: key, publishedAt: new Date() }, { session });
      await deps.outbox.add(
        [
          DIP_EVENTS.pdfRendered.envelope({
            dipId: dip.id,
            ownerUserId: dip.ownerUserId,
            version: dip.version,
            fileId,
            bytes: pdf.length,
            renderMs,
            renderedAt: new Date().toISOString(),
          }),
        ],
        session,
      );
    });
    deps.logger.info({ dipId: dip.id, version: dip.version, bytes: pdf.length, renderMs }, 'PDF rendered');
    return { fileId, bytes: pdf.length, renderMs };
  };
  return createWorker<PdfDip>(PDF_QUEUE, processor, deps.redisUrl, deps.logger, {
    prefix: deps.prefix,
    concurrency: deps.concurrency,
    ...(deps.lockDuration ? { lockDuration: deps.lockDuration } : {}),
    ...(deps.stalledInterval ? { stalledInterval: deps.stalledInterval } : {}),
    maxStalledCount: PDF_MAX_STALLS,
  });
}
