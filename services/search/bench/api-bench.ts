/**
 * POST latency and throughput of the three searches through the gateway, at a fixed arrival rate.
 *
 * The production shape on one machine: the embedded MongoDB, the search service and the gateway each
 * in their own process (as `npm start` runs them), Redis Streams as the event bus, and this process
 * only generating load. Requests are sent open-loop on a fixed schedule (a slow answer does not delay
 * the next request), and latency is measured from each request's scheduled time, so queueing shows up
 * in the percentiles instead of being hidden. Everything listens on loopback and is stopped at the end.
 *
 *   npm run bench -- api-bench          (BENCH_RATE, BENCH_SECONDS to change the load)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, setPriority } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort, leaseRedisDb } from '@lsp/testing';
import mongoose from 'mongoose';
import { BRIDGING_PAYLOAD, COMMERCIAL_PAYLOAD, DEVELOPMENT_PAYLOAD } from '../test/search-harness';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Long enough for every process to have compiled its hot paths: the first seconds run far slower. */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 6);
/** Requests allowed in flight before new ones are counted as dropped rather than queued without bound. */
const MAX_IN_FLIGHT = 400;
const ROOT = join(__dirname, '..', '..', '..');
const SECRET = 'bench-internal-secret-0123456789abcdef';

const children: ChildProcess[] = [];

function startProcess(name: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk}`));
  children.push(child);
  named.push([name, child]);
  prioritise(child.pid);
  return child;
}

/** CPU time (user + system, ms) a process has used so far, from /proc; null where there is no /proc. */
function cpuMs(pid: number | undefined): number | null {
  const file = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(file)) return null;
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
  const ticksPerSecond = 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

function cpuSnapshot(): Record<string, number | null> {
  return Object.fromEntries(named.map(([name, child]) => [name, cpuMs(child.pid)]));
}

const named: Array<[string, ChildProcess]> = [];

/**
 * BENCH_PRIORITY (e.g. -10, needs the right to raise priority) runs the measured processes ahead of
 * other work on a shared machine: the figures then approach those of a machine given to the system.
 */
const PRIORITY = process.env.BENCH_PRIORITY === undefined ? undefined : Number(process.env.BENCH_PRIORITY);

function prioritise(pid: number | undefined) {
  if (PRIORITY === undefined || pid === undefined) return;
  try {
    setPriority(pid, PRIORITY);
  } catch (err) {
    process.stderr.write(`cannot set priority ${PRIORITY}: ${(err as Error).message}\n`);
  }
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });

function post(port: number, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const REQUESTS = [
  { path: '/api/development', body: JSON.stringify(DEVELOPMENT_PAYLOAD) },
  { path: '/api/bridging', body: JSON.stringify(BRIDGING_PAYLOAD) },
  { path: '/api/commercial', body: JSON.stringify(COMMERCIAL_PAYLOAD) },
];

interface Phase {
  latencies: number[];
  statuses: Map<number, number>;
  errors: number;
  dropped: number;
  wallMs: number;
}

/** Sends `rate` requests a second for `seconds`, rotating over the three loan types. */
async function drive(port: number, rate: number, seconds: number): Promise<Phase> {
  const phase: Phase = { latencies: [], statuses: new Map(), errors: 0, dropped: 0, wallMs: 0 };
  const total = Math.round(rate * seconds);
  const intervalMs = 1000 / rate;
  const started = performance.now();
  let sent = 0;
  let inFlight = 0;
  const pending: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - started) / intervalMs) + 1);
      while (sent < due) {
        const scheduledAt = started + sent * intervalMs;
        const request = REQUESTS[sent % REQUESTS.length];
        sent += 1;
        if (inFlight >= MAX_IN_FLIGHT) {
          phase.dropped += 1;
          continue;
        }
        inFlight += 1;
        pending.push(
          post(port, request.path, request.body).then(
            (status) => {
              inFlight -= 1;
              phase.latencies.push(performance.now() - scheduledAt);
              phase.statuses.set(status, (phase.statuses.get(status) ?? 0) + 1);
            },
            () => {
              inFlight -= 1;
              phase.errors += 1;
            },
          ),
        );
      }
      if (sent >= total) resolve();
      else setTimeout(tick, Math.max(0, started + sent * intervalMs - performance.now()));
    };
    tick();
  });
  await Promise.all(pending);
  phase.wallMs = performance.now() - started;
  return phase;
}

function report(label: string, phase: Phase) {
  const sorted = [...phase.latencies].sort((a, b) => a - b);
  const ok = phase.statuses.get(200) ?? 0;
  const statuses = [...phase.statuses].map(([status, count]) => `${status}: ${count}`).join(', ');
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(`  ${label}`);
  console.log(
    `    requests      ${phase.latencies.length + phase.errors + phase.dropped} sent, ${ok} answered 200 (${statuses || 'none'}), ${phase.errors} errors, ${phase.dropped} dropped`,
  );
  console.log(`    throughput    ${((ok / phase.wallMs) * 1000).toFixed(1)} answers/s`);
  console.log(
    `    latency       p50 ${fmt(percentile(sorted, 50))}, p90 ${fmt(percentile(sorted, 90))}, p99 ${fmt(percentile(sorted, 99))}, max ${fmt(sorted[sorted.length - 1] ?? NaN)}`,
  );
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  prioritise(process.pid);
  const redis = await leaseRedisDb();
  try {
    const [mongoPort, searchPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
    startProcess(
      'embedded-mongo',
      ['packages/embedded-mongo/bin/embedded-mongo.ts', '--port', String(mongoPort), '--replset', 'rs0'],
      {},
    );
    const mongoUrl = `mongodb://127.0.0.1:${mongoPort}/?replicaSet=rs0`;
    // The server answers hello before the driver can select it; the search service retries on its own.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    startProcess('search', ['services/search/src/server.ts'], {
      PORT: String(searchPort),
      HOST: '127.0.0.1',
      MONGO_URL: mongoUrl,
      REDIS_URL: redis.url,
      INTERNAL_SECRET: SECRET,
    });
    startProcess('gateway', ['services/gateway/src/server.ts'], {
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      REDIS_URL: redis.url,
      INTERNAL_SECRET: SECRET,
      COOKIE_SECRET: 'bench-cookie-secret-0123456789abcdef0123456789',
      SEARCH_URL: `http://127.0.0.1:${searchPort}`,
      // One load generator is one client address: lift the per-address limit for the measurement.
      RATE_LIMIT_MAX: '10000000',
    });
    await waitFor(`http://127.0.0.1:${searchPort}/health`);
    await waitFor(`http://127.0.0.1:${gatewayPort}/alive`);

    await drive(gatewayPort, RATE, WARMUP_SECONDS);
    const loadBefore = loadavg()[0];
    const cpuBefore = cpuSnapshot();
    const throughGateway = await drive(gatewayPort, RATE, SECONDS);
    const cpuAfter = cpuSnapshot();
    // The same load straight at the service shows what the gateway hop adds.
    const direct = await drive(searchPort, RATE, SECONDS);
    const loadAfter = loadavg()[0];

    const db = mongoose.createConnection(mongoUrl, { dbName: 'search' });
    await db.asPromise();
    const runs = (
      await Promise.all(
        ['development_searches', 'bridging_searches', 'commercial_searches'].map((c) =>
          db.collection(c).countDocuments(),
        ),
      )
    ).reduce((a, b) => a + b, 0);
    // Give the relay a moment to drain what the last requests added.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const unpublished = await db.collection('outbox').countDocuments({ publishedAt: null });
    await db.close();

    console.log(
      `Search API: ${RATE} req/s offered for ${SECONDS} s (after ${WARMUP_SECONDS} s warm-up), development/bridging/commercial in turn`,
    );
    report('through the gateway', throughGateway);
    report('straight to the service', direct);
    // CPU time per answered request barely depends on what else runs: it bounds throughput on an idle machine.
    const answered = throughGateway.statuses.get(200) ?? 0;
    const perRequest = named.map(([name]) => {
      const before = cpuBefore[name];
      const after = cpuAfter[name];
      return before === null || after === null || answered === 0
        ? null
        : ([name, (after - before) / answered] as const);
    });
    if (perRequest.every((entry) => entry !== null)) {
      const total = perRequest.reduce((sum, entry) => sum + entry![1], 0);
      const parts = perRequest.map((entry) => `${entry![0]} ${entry![1].toFixed(2)}`).join(', ');
      console.log(
        `  CPU per request ${total.toFixed(2)} ms through the gateway (${parts}); ${cpus().length} idle cores would serve about ${Math.floor((cpus().length * 1000) / total)} req/s`,
      );
    }
    console.log(
      `  stored          ${runs} search runs; ${unpublished} search.completed events still in the outbox 1 s later`,
    );
    // Other work on the machine competes for its cores: the figures mean little when this is high.
    if (PRIORITY !== undefined)
      console.log(`  priority        the measured processes ran at nice ${PRIORITY}`);
    console.log(
      `  machine load    ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after (1-minute load average, ${cpus().length} cores)`,
    );
    const p99 = percentile(
      [...throughGateway.latencies].sort((a, b) => a - b),
      99,
    );
    console.log(
      `  target          p99 under 50 ms through the gateway at 200 req/s: ${RATE >= 200 && p99 < 50 ? 'met' : 'NOT met'}`,
    );
  } finally {
    agent.destroy();
    for (const child of children.reverse()) {
      child.kill('SIGTERM');
      await new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(undefined);
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(undefined);
        }, 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
    }
    await redis.release();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
