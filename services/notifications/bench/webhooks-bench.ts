// Webhook delivery: the cost of signing one body, then N deliveries through the `webhook` queue and
// its worker (the endpoint's lookup, the address check, the signed POST, the try's record) to a
// loopback receiver, at the worker's default concurrency. Prints CPU µs per signature, deliveries per
// second, the receipt lag after enqueueing (p50/p99) and this process's CPU per delivery. Asserts nothing.
//   BENCH_WEBHOOKS (1000), BENCH_WEBHOOK_CONCURRENCY (8)
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createQueue } from '@lsp/service-kit';
import { leaseRedisDb, silentLogger, startTestMongo } from '@lsp/testing';
import { AlertStore } from '../src/data/alerts';
import { EMAIL_QUEUE } from '../src/email/jobs';
import { WEBHOOK_QUEUE, type WebhookJob, enqueueWebhook, startWebhookWorker } from '../src/webhooks/delivery';
import { signWebhook } from '../src/webhooks/signing';
import { WebhookStore, newWebhookSecret } from '../src/webhooks/store';

const N = Number(process.env.BENCH_WEBHOOKS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 8);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main() {
  const body = JSON.stringify({
    type: 'dip.created',
    timestamp: new Date().toISOString(),
    data: { filler: randomBytes(384).toString('hex') },
  });
  const secret = newWebhookSecret();
  for (let i = 0; i < 2000; i++) signWebhook(secret, 'warm', 1, body);
  const signs = 20_000;
  // CPU time, not wall time: the figure holds on a machine other processes keep busy.
  const signCpu = process.cpuUsage();
  for (let i = 0; i < signs; i++) signWebhook(secret, `msg_${i}`, 1_700_000_000, body);
  const { user, system } = process.cpuUsage(signCpu);
  console.log(
    `sign (HMAC-SHA256 of a ${body.length}-byte body): ${((user + system) / signs).toFixed(2)} µs CPU`,
  );

  const received = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.set(String(req.headers['webhook-id']), performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const mongo = await startTestMongo();
  const redis = await leaseRedisDb();
  const db = await mongo.database('notifications');
  const store = new WebhookStore(db);
  await store.ensureIndexes();
  await store.create({
    _id: 'wh_bench',
    userId: 'bench',
    url,
    events: ['dip.created'],
    secret,
    status: 'enabled',
    createdAt: new Date(),
    disabledAt: null,
  });
  const queue = createQueue<WebhookJob>(WEBHOOK_QUEUE, redis.url);
  const emailQueue = createQueue(EMAIL_QUEUE, redis.url);
  const worker = startWebhookWorker({
    store,
    alerts: new AlertStore(db),
    emailQueue: emailQueue as never,
    logger: silentLogger(),
    redisUrl: redis.url,
    prefix: 'bull',
    concurrency: CONCURRENCY,
    allowPrivateTargets: true,
    publicUrl: 'http://localhost:8080',
  });
  await worker.waitUntilReady();
  const queuedAt = new Map<string, number>();
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const id = `evt-${i}`;
    queuedAt.set(id, performance.now());
    await enqueueWebhook(queue, 'wh_bench', id, JSON.parse(body));
  }
  while (received.size < N) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const lags = [...received].map(([id, at]) => at - queuedAt.get(id)!).sort((a, b) => a - b);
  console.log(
    `deliveries: ${N} at concurrency ${CONCURRENCY} in ${seconds.toFixed(1)} s = ${(N / seconds).toFixed(0)}/s; ` +
      `enqueue-to-receipt p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${percentile(lags, 99).toFixed(0)} ms; ` +
      `CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms per delivery (producer, worker, embedded MongoDB and receiver in this process)`,
  );
  await worker.close();
  await queue.close();
  await emailQueue.close();
  await redis.release();
  await mongo.stop();
  server.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
