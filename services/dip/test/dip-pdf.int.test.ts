import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Outbox, createQueue, createQueueEvents } from '@lsp/service-kit';
import {
  TEST_SECRETS,
  type TestMongo,
  type TestRedis,
  leaseRedisDb,
  silentLogger,
  startTestMongo,
  processAlive,
} from '@lsp/testing';
import type { QueueEvents, Worker } from 'bullmq';
import mongoose, { type Connection } from 'mongoose';
import {
  DipPdfs,
  PDF_QUEUE,
  PdfRenderer,
  PdfStore,
  PdfUnavailableError,
  pdfJobId,
  renderDipHtml,
  startPdfWorker,
} from '../src/pdf';
import { pdfDip } from './fixtures';

const ROOT = path.resolve(__dirname, '../../..');
const RESULTS = path.join(ROOT, 'test-results');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });

describe('the DIP PDF', () => {
  let testMongo: TestMongo;
  let redis: TestRedis;
  let mongo: Connection;
  let dir: string;

  beforeAll(async () => {
    testMongo = await startTestMongo();
    redis = await leaseRedisDb();
    mongo = mongoose.createConnection(testMongo.url, { dbName: 'dip' });
    await mongo.asPromise();
    await new PdfStore(mongo).ensureIndexes();
    dir = mkdtempSync(path.join(tmpdir(), 'dip-pdf-'));
    mkdirSync(RESULTS, { recursive: true });
  });

  afterAll(async () => {
    await mongo?.close();
    await redis?.release();
    await testMongo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads back as a lender’s document: every section, the figures as the spec formats them, text not markup', async () => {
    const renderer = new PdfRenderer({ executablePath: CHROMIUM, concurrency: 1, logger: silentLogger() });
    try {
      const pdf = await renderer.render(renderDipHtml(pdfDip('7d0b6a54-2a3c-4f57-9a55-3d2f0a7b8c11')));
      const file = path.join(dir, 'dip.pdf');
      writeFileSync(file, pdf);
      const text = pdfText(file);
      for (const expected of [
        'Decision in Principle',
        'K7MQ-X9PA',
        'Ember Lane Credit',
        '£1,934,999',
        '11.25% pa',
        '0.94% pm',
        '70.7%',
        'Borrower',
        'Property',
        'Loan Details',
        'Financial Summary',
        'Important Notice',
        'subject to underwriting,',
        '2 March 2026',
        'Riverside <Mews> & Co',
        'zero broker fees for 6 months',
      ])
        expect(text).toContain(expected);
      const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
      expect(info).toMatch(/Page size:\s+59[45](\.\d+)? x 841(\.\d+)? pts \(A4\)/);
      const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
      expect(fonts).toMatch(/Liberation|DejaVu/);
      // A picture of page 1 for a person to look at.
      execFileSync('pdftoppm', [
        '-png',
        '-r',
        '80',
        '-f',
        '1',
        '-l',
        '1',
        '-singlefile',
        file,
        path.join(RESULTS, 'dip-pdf-page1'),
      ]);
    } finally {
      await renderer.close();
    }
  });

  it('starts a new Chromium for the next render when the one it had was killed', async () => {
    const renderer = new PdfRenderer({ executablePath: CHROMIUM, concurrency: 1, logger: silentLogger() });
    const html = renderDipHtml(pdfDip('5f1e2d3c-4b5a-4c6d-8e7f-0a1b2c3d4e5f'));
    try {
      expect((await renderer.render(html)).subarray(0, 5).toString()).toBe('%PDF-');
      const first = await renderer.chromiumPid();
      expect(first).toBeDefined();
      process.kill(first!, 'SIGKILL');
      for (let i = 0; i < 100 && processAlive(first!); i++) await new Promise((r) => setTimeout(r, 20));
      // The render right after the crash may be the one that finds Chromium gone; the next succeeds.
      let pdf: Buffer | null = null;
      for (let attempt = 0; attempt < 2 && !pdf; attempt++)
        pdf = await renderer.render(html).catch(() => null);
      expect(pdf?.subarray(0, 5).toString()).toBe('%PDF-');
      const second = await renderer.chromiumPid();
      expect(second).toBeDefined();
      expect(second).not.toBe(first);
    } finally {
      const pid = await renderer.chromiumPid();
      await renderer.close();
      if (pid) expect(processAlive(pid)).toBe(false);
    }
  });

  describe('through the pdf queue', () => {
    let queue: ReturnType<typeof createQueue>;
    let events: QueueEvents;
    let renderer: PdfRenderer;
    let worker: Worker;
    let renders = 0;
    const prefix = `bull-${Date.now()}`;

    beforeAll(async () => {
      queue = createQueue(PDF_QUEUE, redis.url, prefix);
      events = createQueueEvents(PDF_QUEUE, redis.url, prefix);
      await events.waitUntilReady();
      renderer = new PdfRenderer({ executablePath: CHROMIUM, concurrency: 2, logger: silentLogger() });
      const counting = Object.assign(Object.create(renderer), {
        render: (html: string) => {
          renders += 1;
          return renderer.render(html);
        },
      }) as PdfRenderer;
      worker = startPdfWorker({
        mongo,
        outbox: await Outbox.open(mongo),
        renderer: counting,
        redisUrl: redis.url,
        prefix,
        concurrency: 2,
        logger: silentLogger(),
      });
      await worker.waitUntilReady();
    });

    afterAll(async () => {
      await worker?.close();
      const pid = await renderer?.chromiumPid();
      await renderer?.close();
      await events?.close();
      await queue?.close();
      // No Chromium outlives the worker that started it.
      if (pid) expect(processAlive(pid)).toBe(false);
    });

    it('renders once per DIP version: concurrent requests share the render, the next one is a GridFS hit', async () => {
      const pdfs = new DipPdfs(new PdfStore(mongo), queue as never, events, 20000);
      const dip = pdfDip('0b9a3c2e-1d4f-4e6a-8b7c-9d0e1f2a3b4c');
      renders = 0;
      const results = await Promise.all(Array.from({ length: 5 }, () => pdfs.get(dip)));
      expect(results.every((r) => r.subarray(0, 5).toString() === '%PDF-')).toBe(true);
      expect(renders).toBe(1);
      const again = await pdfs.get(dip);
      expect(again.equals(results[0])).toBe(true);
      expect(renders).toBe(1);
      const next = await pdfs.get({ ...dip, version: 2 });
      expect(next.equals(results[0])).toBe(false);
      expect(renders).toBe(2);
      const outbox = await mongo
        .collection('outbox')
        .find({ type: 'dip.pdf.rendered', subject: dip.id })
        .toArray();
      expect(outbox.map((e) => JSON.parse(e.payload).data.version).sort()).toEqual([1, 2]);
    });

    it('answers a clear 503 when no worker finishes in time', async () => {
      const idleQueue = createQueue(PDF_QUEUE, redis.url, `${prefix}-idle`);
      const idleEvents = createQueueEvents(PDF_QUEUE, redis.url, `${prefix}-idle`);
      try {
        const pdfs = new DipPdfs(new PdfStore(mongo), idleQueue as never, idleEvents, 1000);
        const err = await pdfs.get(pdfDip('5f6e7d8c-9b0a-4c1d-8e2f-3a4b5c6d7e8f')).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PdfUnavailableError);
        expect((err as PdfUnavailableError).statusCode).toBe(503);
        expect((err as Error).message).toMatch(/try again/i);
      } finally {
        await idleEvents.close();
        await idleQueue.close();
      }
    });
  });

  it.each([
    [1, '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
    // What the all-in-one host meets when it is killed twice in one render.
    [2, '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'],
  ])(
    'survives %i SIGKILL(s) of its worker mid-render: the next worker finishes the job and leaves no Chromium behind',
    async (kills, dipId) => {
      const prefix = `bull-kill-${kills}-${Date.now()}`;
      const env = {
        ...process.env,
        ...TEST_SECRETS,
        MONGO_URL: testMongo.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: prefix,
        EVENT_STREAM_PREFIX: `${prefix}:`,
        PORT: '0',
        LOG_LEVEL: 'info',
        PDF_JOB_LOCK_MS: '2000',
        PDF_STALLED_CHECK_MS: '1000',
      };
      const chromiumPids: number[] = [];
      const startWorker = () => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'services/dip/src/worker.ts'], {
          cwd: ROOT,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const ready = new Promise<void>((resolve, reject) => {
          readline.createInterface({ input: child.stdout! }).on('line', (line) => {
            if (line.includes('PDF worker ready')) resolve();
            const pid = /"chromiumPid":(\d+)/.exec(line)?.[1];
            if (pid) chromiumPids.push(Number(pid));
          });
          child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
        });
        return { child, ready };
      };
      const queue = createQueue(PDF_QUEUE, redis.url, prefix);
      const events = createQueueEvents(PDF_QUEUE, redis.url, prefix);
      let second: ChildProcess | undefined;
      try {
        let worker = startWorker();
        await worker.ready;
        const pdfs = new DipPdfs(new PdfStore(mongo), queue as never, events, 60000);
        const dip = pdfDip(dipId);
        const pending = pdfs.get(dip);
        for (let kill = 0; kill < kills; kill++) {
          // Killed as soon as the job is taken (again, after the last kill's stall was noticed): the
          // render is under way or about to start.
          const taken = async () => {
            const job = await queue.getJob(pdfJobId(dip.id, dip.version));
            return job !== undefined && job.stalledCounter >= kill && (await job.isActive());
          };
          for (let i = 0; i < 400 && !(await taken()); i++) await new Promise((r) => setTimeout(r, 25));
          const killed = worker.child;
          killed.kill('SIGKILL');
          await new Promise((resolve) => killed.once('exit', resolve));
          worker = startWorker();
          second = worker.child;
          await worker.ready;
        }
        const pdf = await pending;
        expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
        expect(await new DipPdfs(new PdfStore(mongo), queue as never, events, 5000).get(dip)).toEqual(pdf);
        const last = worker.child;
        last.kill('SIGTERM');
        await new Promise((resolve) => last.once('exit', resolve));
        // A Chromium whose worker was killed outright goes with its pipe; the stopped worker closed its own.
        await new Promise((r) => setTimeout(r, 1000));
        for (const pid of chromiumPids) expect(processAlive(pid)).toBe(false);
      } finally {
        if (second && second.exitCode === null) second.kill('SIGKILL');
        await events.close();
        await queue.close();
      }
    },
  );
});
