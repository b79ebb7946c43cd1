/**
 * `npm run bench -- dip`: the DIP's costs that people feel.
 *   - DIP creation through the gateway (saved search → DIP), p50/p99, and CPU per creation.
 *   - The PDF: the first render (Chromium starting), warm renders, a GridFS hit, 20 distinct DIPs
 *     requested at once through the queue, and how the worker's memory (Node + Chromium) moves
 *     between 10 and 500 renders.
 * Aims (service README): warm p50 < 150 ms, hit p50 < 10 ms, RSS growth < 50 MB, create p50 < 20 ms.
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Outbox, createQueue, createRedis } from '@lsp/service-kit';
import { leaseRedisDb, silentLogger, startTestMongo } from '@lsp/testing';
import { QueueEvents } from 'bullmq';
import mongoose from 'mongoose';
import {
  DipPdfs,
  PDF_QUEUE,
  type PdfDip,
  PdfRenderer,
  PdfStore,
  renderDipHtml,
  startPdfWorker,
} from '../src/pdf';
import { startDipHarness } from '../test/dip-harness';
import { pdfDip } from '../test/fixtures';

const RENDERS = Number(process.env.BENCH_PDF_RENDERS ?? 500);
const CREATES = Number(process.env.BENCH_DIP_CREATES ?? 300);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** RSS in MB of a process and all its descendants (Chromium runs as a tree of processes). */
function treeRssMb(pid: number): number {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss='], { encoding: 'utf8' });
  const rows = out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [p, parent] of rows)
      if (tree.has(parent) && !tree.has(p)) {
        tree.add(p);
        grew = true;
      }
  }
  return rows.filter(([p]) => tree.has(p)).reduce((sum, [, , rss]) => sum + rss, 0) / 1024;
}

function cpuMsOfThisProcess(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

async function benchCreate() {
  const h = await startDipHarness({ pdfs: { get: async () => Buffer.from('%PDF-') } });
  try {
    const { client, user } = await h.signedIn();
    const searchId = await h.savedSearch(client, user.userId);
    for (let i = 0; i < 20; i++)
      await client.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 });
    const times: number[] = [];
    const cpuBefore = cpuMsOfThisProcess();
    for (let i = 0; i < CREATES; i++) {
      const started = performance.now();
      const res = await client.post(`/api/online-dip/create/${searchId}/${i % 3}`, { validHours: 48 });
      times.push(performance.now() - started);
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${res.text}`);
    }
    const cpu = (cpuMsOfThisProcess() - cpuBefore) / CREATES;
    process.stdout.write(
      `DIP create through the gateway (${CREATES}): p50 ${ms(pct(times, 50))}, p99 ${ms(pct(times, 99))}; ` +
        `CPU ${cpu.toFixed(2)} ms per creation (gateway + dip + embedded MongoDB, one process here)\n`,
    );
  } finally {
    await h.close();
  }
}

/** A fresh DIP to render, dated now (the fixture's snapshot). */
const sampleDip = (id: string): PdfDip => ({
  ...pdfDip(id),
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 48 * 3600_000).toISOString(),
});

async function benchPdf() {
  const renderer = new PdfRenderer({ executablePath: CHROMIUM, concurrency: 2, logger: silentLogger() });
  const testMongo = await startTestMongo();
  const redis = await leaseRedisDb();
  const mongo = mongoose.createConnection(testMongo.url, { dbName: 'dip' });
  await mongo.asPromise();
  const prefix = `bench-${Date.now()}`;
  const queue = createQueue(PDF_QUEUE, redis.url, prefix);
  const events = new QueueEvents(PDF_QUEUE, { connection: createRedis(redis.url, 'worker'), prefix });
  const worker = startPdfWorker({
    mongo,
    outbox: await Outbox.open(mongo),
    renderer,
    redisUrl: redis.url,
    prefix,
    concurrency: 2,
    logger: silentLogger(),
  });
  try {
    const html = renderDipHtml(sampleDip('00000000-0000-4000-8000-000000000000'));
    let started = performance.now();
    await renderer.render(html);
    process.stdout.write(`PDF first render (Chromium starting): ${ms(performance.now() - started)}\n`);

    const warm: number[] = [];
    let rssAfter10 = 0;
    for (let i = 0; i < RENDERS; i++) {
      started = performance.now();
      await renderer.render(html);
      warm.push(performance.now() - started);
      if (i === 9) rssAfter10 = treeRssMb(process.pid);
    }
    const rssAfterAll = treeRssMb(process.pid);
    process.stdout.write(
      `PDF warm render (${RENDERS}): p50 ${ms(pct(warm, 50))}, p99 ${ms(pct(warm, 99))}\n` +
        `worker RSS (Node + Chromium): ${rssAfter10.toFixed(0)} MB after 10 renders, ` +
        `${rssAfterAll.toFixed(0)} MB after ${RENDERS} (growth ${(rssAfterAll - rssAfter10).toFixed(0)} MB)\n`,
    );

    const store = new PdfStore(mongo);
    await store.ensureIndexes();
    const pdfs = new DipPdfs(store, queue as never, events, 60000);
    const first = sampleDip('11111111-1111-4111-8111-111111111111');
    await pdfs.get(first);
    const hits: number[] = [];
    for (let i = 0; i < 200; i++) {
      started = performance.now();
      await pdfs.get(first);
      hits.push(performance.now() - started);
    }
    process.stdout.write(`PDF GridFS hit (200): p50 ${ms(pct(hits, 50))}, p99 ${ms(pct(hits, 99))}\n`);

    started = performance.now();
    const distinct = Array.from({ length: 20 }, (_, i) =>
      sampleDip(`22222222-2222-4222-8222-${String(i).padStart(12, '0')}`),
    );
    const results = await Promise.allSettled(distinct.map((d) => pdfs.get(d)));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    process.stdout.write(
      `PDF 20 distinct DIPs at once through the queue: ${ok}/20 succeeded in ${ms(performance.now() - started)}\n`,
    );
  } finally {
    await worker.close();
    await renderer.close();
    await events.close();
    await queue.close();
    await mongo.close();
    await redis.release();
    await testMongo.stop();
  }
}

async function main() {
  await benchCreate();
  await benchPdf();
}

main().catch((err) => {
  process.stderr.write(`dip bench failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
