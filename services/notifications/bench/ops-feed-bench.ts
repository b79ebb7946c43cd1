// The operations feed under load: events published on Redis Streams at a fixed rate while 20 viewers
// hold `GET /api/ops/events/stream` open, one of them deliberately slow (it never reads). Prints the
// delivery lag (publish time to a fast viewer's receipt, p50/p99), the CPU and RSS of the process that
// serves the feed (a child process, read from /proc), and what the slow viewer lost. Asserts nothing.
//   BENCH_FEED_RATE (2000 events/s), BENCH_FEED_SECONDS (10), BENCH_FEED_VIEWERS (20)
import { createEnvelope } from '@lsp/contracts';
import { RedisStreamsEventBus, identityHeaders } from '@lsp/service-kit';
import { TEST_SECRETS, leaseRedisDb, listen, startTestMongo } from '@lsp/testing';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { notificationsConfigSchema } from '../src/config';
import { buildAppWithOpsConsole } from '../test/ops-helpers';

const RATE = Number(process.env.BENCH_FEED_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_FEED_SECONDS ?? 10);
const VIEWERS = Number(process.env.BENCH_FEED_VIEWERS ?? 20);
/** Catalogue types, whose streams the tap reads from its start (a new type is found by a scan every 10 s). */
const TYPES = ['search.completed', 'dip.created', 'share.viewed'];
const FILTER = TYPES.map((type) => `type=${type}`).join('&');
const OPS = identityHeaders(
  { userId: 'ops-bench', email: 'ops@bench.example', name: 'Ops', verified: true, roles: ['ops'] },
  TEST_SECRETS.INTERNAL_SECRET,
);

/** The child: the notifications app with its ops console, nothing else; prints its URL and waits. */
async function serve(redisUrl: string): Promise<void> {
  const mongo = await startTestMongo();
  const db = await mongo.database('notifications');
  const bus = new RedisStreamsEventBus({ redisUrl });
  const { ops, app } = await buildAppWithOpsConsole({
    mongoUrl: mongo.url,
    db,
    redisUrl,
    bus,
    env: { OPS_TARGETS: 'none=http://127.0.0.1:9' },
    console: { instance: 'bench' },
  });
  await bus.start();
  await ops.start();
  const { url } = await listen(app);
  console.log(JSON.stringify({ url }));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** CPU milliseconds (user + system) and RSS in MB of a process, from /proc. */
function usage(pid: number): { cpuMs: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuMs: (ticks * 1000) / 100, rssMb: rssKb / 1024 };
}

interface Viewer {
  received: number;
  lags: number[];
  close(): void;
}

/** An SSE viewer that reads everything and records each event's lag; or, `slow`, one that never reads. */
function openViewer(url: string, slow: boolean): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const viewer: Viewer = { received: 0, lags: [], close: () => undefined };
    const request = http.get(`${url}/api/ops/events/stream?${FILTER}`, { headers: OPS }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      viewer.close = () => request.destroy();
      if (slow) {
        res.pause();
        return resolve(viewer);
      }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (!data || frame.includes('event: ')) continue;
          // The viewers share this process with the publisher: read the one field, not the whole envelope.
          const sentAt = Number(/"sentAt":(\d+)/.exec(data)?.[1]);
          viewer.received += 1;
          viewer.lags.push(Date.now() - sentAt);
        }
      });
      resolve(viewer);
    });
    request.on('error', reject);
  });
}

async function main(): Promise<void> {
  if (process.argv[2] === '--serve') return serve(process.argv[3]!);
  const redis = await leaseRedisDb();
  let child: ChildProcess | undefined;
  try {
    child = spawn(process.execPath, ['--import', 'tsx', __filename, '--serve', redis.url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const { url } = JSON.parse(
      await new Promise<string>((resolve) =>
        createInterface({ input: child!.stdout! }).once('line', resolve),
      ),
    ) as { url: string };
    const pid = child.pid!;

    const viewers = await Promise.all(
      Array.from({ length: VIEWERS }, (_, i) =>
        openViewer(url, i === 0 && process.env.BENCH_FEED_SLOW !== '0'),
      ),
    );
    const [slow, ...fast] = viewers;
    const publisher = new RedisStreamsEventBus({ redisUrl: redis.url });
    // Warm up: one event of each type reaches every fast viewer before the clock starts.
    for (const type of TYPES)
      await publisher.publish(
        createEnvelope('bench', { type, subject: 'warm-up', data: { sentAt: Date.now() } }),
      );
    const warmDeadline = Date.now() + 15_000;
    while (Date.now() < warmDeadline && fast.some((v) => v.received < TYPES.length))
      await new Promise((r) => setTimeout(r, 50));
    for (const v of fast) {
      v.received = 0;
      v.lags.length = 0;
    }

    const before = usage(pid);
    const benchBefore = process.cpuUsage();
    let peakRss = before.rssMb;
    const total = RATE * SECONDS;
    const started = performance.now();
    // Open loop in 10 ms steps: each step publishes what the schedule says is due.
    let sent = 0;
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE));
      const batch: Array<Promise<void>> = [];
      for (; sent < due; sent++) {
        const type = TYPES[sent % TYPES.length]!;
        batch.push(
          publisher.publish(
            createEnvelope('bench', { type, subject: `s-${sent}`, data: { sentAt: Date.now() } }),
          ),
        );
      }
      await Promise.all(batch);
      peakRss = Math.max(peakRss, usage(pid).rssMb);
      await new Promise((r) => setTimeout(r, 10));
    }
    const publishSeconds = (performance.now() - started) / 1000;
    // Let the fast viewers catch up (or give up after 10 s).
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && fast.some((v) => v.received < total))
      await new Promise((r) => setTimeout(r, 100));
    const after = usage(pid);
    const benchCpu = process.cpuUsage(benchBefore);
    const stats = (await (await fetch(`${url}/api/ops/feed/stats`, { headers: OPS })).json()) as {
      viewers: Array<{ delivered: number; dropped: number; buffered: number }>;
    };
    // The slow viewer is the one the server could hand the fewest events to.
    const slowStats = [...stats.viewers].sort((a, b) => a.delivered - b.delivered)[0];

    const lags = fast.flatMap((v) => v.lags).sort((a, b) => a - b);
    const complete = fast.filter((v) => v.received === total).length;
    console.log(
      `published ${total} events in ${publishSeconds.toFixed(1)} s (${Math.round(total / publishSeconds)}/s) to ${VIEWERS} viewers (1 never reads)`,
    );
    console.log(
      `fast viewers: ${complete} of ${fast.length} received all ${total} (fewest ${Math.min(...fast.map((v) => v.received))}); delivery lag p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms, max ${lags.at(-1)} ms`,
    );
    const cpuMs = after.cpuMs - before.cpuMs;
    console.log(
      `serving process: ${Math.round(cpuMs)} ms CPU (${((cpuMs / 1000 / publishSeconds) * 100).toFixed(0)}% of one core, ${((cpuMs * 1000) / (total * (VIEWERS - 1))).toFixed(1)} µs per event per viewer), RSS ${before.rssMb.toFixed(0)} MB before, peak ${peakRss.toFixed(0)} MB`,
    );
    console.log(
      `slow viewer: ${slowStats?.delivered ?? '?'} written to its connection (the kernel's socket buffers take the first few MB), ${slowStats?.dropped ?? '?'} dropped, ${slowStats?.buffered ?? '?'} waiting (its buffer holds ${notificationsConfigSchema.shape.OPS_FEED_CLIENT_BUFFER.parse(undefined)})`,
    );
    console.log(
      `this process (publisher and the 20 viewers): ${Math.round((benchCpu.user + benchCpu.system) / 1000)} ms CPU; the machine has ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
    );
    for (const v of viewers) v.close();
    void slow;
    await publisher.close();
  } finally {
    child?.kill('SIGTERM');
    await redis.release();
  }
  process.exit(0);
}

void main();
