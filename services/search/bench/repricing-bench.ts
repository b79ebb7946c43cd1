/**
 * `npm run bench -- repricing`: how fast the re-pricing worker re-prices saved searches after a lender
 * panel activation, and what that does to live searches.
 *
 * The search service, the re-pricing worker and the embedded MongoDB run as processes of their own
 * (as npm start and the deployments run them), with a leased Redis database. REPRICING_SEARCHES saved searches (the three
 * loan types, amounts varied, saved over the last 90 days) are stored; then:
 *   - a cheaper panel is activated as the Lender panel page does it (panel.activated through the
 *     outbox, queued by the service, run by the worker);
 *   - while the worker re-prices, sequential bridging searches against the search service in
 *     alternating blocks, the worker stopped (SIGSTOP) for one block and running for the next: their
 *     p50/p90/p99 wall time and the service's CPU per search (from /proc, idle CPU taken off), each
 *     way (the budget: at most 10 % slower while it runs);
 *   - saved searches re-priced per second once alone, and the worker's CPU per re-priced search.
 *
 *   REPRICING_SEARCHES (default 10000)  saved searches to re-price
 *   REPRICING_LIVE (default 1000)       live searches with the worker stopped, and as many running
 *   REPRICING_BATCH_SIZE, REPRICING_DUTY_CYCLE, REPRICING_NICE: the worker's own settings
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Outbox } from '@lsp/service-kit';
import mongoose from 'mongoose';
import { TEST_SECRETS, freePort, leaseRedisDb, silentLogger } from '@lsp/testing';
import { MongoClient } from 'mongodb';
import { SEARCH_PAYLOADS } from '../../../scripts/lib/journeys';
import { cpuMsOf } from '../../../scripts/lib/process-stats';
import { repricingWorkerConfigSchema } from '../src/config';
import { savedSearchModel } from '../src/data/models/saved-searches';
import { PanelStore } from '../src/data/panel-store';
import { loadDefaultPanel, panelWithRatesCut } from '../src/panel';

const SAVED = Number(process.env.REPRICING_SEARCHES ?? 10_000);
const LIVE = Number(process.env.REPRICING_LIVE ?? 1000);
/** Live searches per block; the worker is stopped for one block and running for the next. */
const LIVE_BLOCK = 50;
const SERVICE_DIR = path.resolve(__dirname, '..');
const DAY_MS = 24 * 3600 * 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function startProcess(entry: string, env: Record<string, string>, args: string[] = []): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: SERVICE_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

/** The embedded MongoDB in a process of its own, as npm start runs it; resolves with its URL. */
async function startMongoProcess(dbPath: string): Promise<{ proc: ChildProcess; url: string }> {
  const port = await freePort();
  const bin = path.resolve(SERVICE_DIR, '../../packages/embedded-mongo/bin/embedded-mongo.ts');
  const proc = startProcess(bin, {}, ['--port', String(port), '--dbpath', dbPath, '--replset', 'rs0']);
  const url = `mongodb://127.0.0.1:${port}/?replicaSet=rs0&directConnection=true`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const probe = new MongoClient(url, { serverSelectionTimeoutMS: 500 });
    try {
      await probe.db('admin').command({ ping: 1 });
      return { proc, url };
    } catch {
      if (Date.now() > deadline) throw new Error('the embedded MongoDB did not come up in a minute');
      await sleep(250);
    } finally {
      await probe.close();
    }
  }
}

async function waitForHealth(url: string, what: string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${what} did not come up in 2 minutes`);
    await sleep(250);
  }
}

/** Saved searches as users leave them: each loan type, amounts spread, saved over the last 90 days. */
function savedSearches(count: number) {
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => {
    const loanType = (['bridging', 'development', 'commercial'] as const)[i % 3];
    const scale = 0.6 + (i % 17) / 20;
    const base = SEARCH_PAYLOADS[loanType] as Record<string, unknown>;
    const searchData =
      loanType === 'bridging'
        ? { ...base, currentValue: Math.round(650_000 * scale), netLoanRequired: Math.round(350_000 * scale) }
        : loanType === 'development'
          ? { ...base, gdv: Math.round(3_200_000 * scale), buildCost: Math.round(900_000 * scale) }
          : { ...base, currentValue: Math.round(1_500_000 * scale) };
    const at = new Date(now - ((i * 7919) % 89) * DAY_MS - (i % 1000) * 1000);
    return {
      _id: randomUUID(),
      user_id: `bench-user-${i % 2000}`,
      session_id: null,
      loan_type: loanType,
      project_name: `Bench ${i}`,
      search_data: searchData,
      api_response: null,
      result_count: 0,
      application_status: 'not_submitted',
      created_at: at,
      updated_at: at,
      repricing: null,
    };
  });
}

/** Live searches and what they cost: each one's wall time, and the search service's CPU over them. */
interface LivePhase {
  latencies: number[];
  cpuMs: number;
  seconds: number;
}

const noLiveSearches = (): LivePhase => ({ latencies: [], cpuMs: 0, seconds: 0 });

async function liveSearches(url: string, pid: number, count: number, into = noLiveSearches()) {
  const body = JSON.stringify(SEARCH_PAYLOADS.bridging);
  const cpuBefore = cpuMsOf(pid);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/bridging`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`a live search answered ${res.status}`);
    into.latencies.push(performance.now() - t0);
  }
  into.seconds += (performance.now() - started) / 1000;
  into.cpuMs += cpuMsOf(pid) - cpuBefore;
  return into;
}

async function main() {
  const dbPath = mkdtempSync(path.join(os.tmpdir(), 'repricing-bench-'));
  const redis = await leaseRedisDb();
  const children: ChildProcess[] = [];
  let searchDb: mongoose.Connection | undefined;
  try {
    const mongo = await startMongoProcess(dbPath);
    children.push(mongo.proc);
    const base = loadDefaultPanel();
    const env = {
      ...TEST_SECRETS,
      MONGO_URL: mongo.url,
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
      QUEUE_PREFIX: `bench-${randomUUID().slice(0, 8)}`,
      EVENT_STREAM_PREFIX: `bench-${randomUUID().slice(0, 8)}:`,
      OUTBOX_POLL_MS: '500',
    };
    // The processes use the service's own database name on this bench's own embedded server.
    const db = await mongoose.createConnection(mongo.url, { dbName: 'search' }).asPromise();
    searchDb = db;
    const searchPort = await freePort();
    const workerPort = await freePort();
    const search = startProcess('src/server.ts', { ...env, PORT: String(searchPort) });
    const worker = startProcess('src/worker.ts', { ...env, PORT: String(workerPort) });
    children.push(search, worker);
    const url = `http://127.0.0.1:${searchPort}`;
    await Promise.all([
      waitForHealth(url, 'the search service'),
      waitForHealth(`http://127.0.0.1:${workerPort}`, 'the re-pricing worker'),
    ]);

    const docs = savedSearches(SAVED);
    for (let i = 0; i < docs.length; i += 1000)
      await savedSearchModel(db).insertMany(docs.slice(i, i + 1000), { lean: true });

    // Warm the service (JIT, connections), then its CPU at rest.
    await liveSearches(url, search.pid!, 50);
    await sleep(2000);
    const idleBefore = cpuMsOf(search.pid!);
    await sleep(5000);
    const idlePerSecond = (cpuMsOf(search.pid!) - idleBefore) / 5;

    // Activate a cheaper panel as the Lender panel page does: panel.activated through the outbox.
    const outbox = await Outbox.open(db);
    const panels = new PanelStore(db, silentLogger(), outbox);
    await panels.load(() => base);
    const version = `bench-${Date.now()}`;
    await panels.storeDraft(panelWithRatesCut(base, version, 0.05), { operator: 'bench', source: 'bench' });
    const workerCpuBefore = cpuMsOf(worker.pid!);
    await panels.activateVersion(version, 'bench');
    const runs = db.collection<{
      _id: string;
      done: number;
      status: string;
      startedAt: Date;
      finishedAt: Date | null;
      changed: number;
    }>('repricing_runs');
    const deadline = Date.now() + 120_000;
    while (!(await runs.findOne({ panelVersion: version }))) {
      if (Date.now() > deadline) throw new Error('the re-pricing did not start in 2 minutes');
      await sleep(100);
    }

    // While the run is under way, blocks of live searches with the worker stopped (SIGSTOP) and
    // running, alternating (and which goes first, too), so the machine's changing load hits both
    // alike: the difference is the re-pricing's alone. The worker is stopped just after a batch
    // commits, never inside its transaction (an open transaction makes the database keep older
    // versions for it, which would slow the "stopped" blocks).
    const doneSoFar = async () => (await runs.findOne({ panelVersion: version }))!.done;
    const stopAfterCommit = async () => {
      const was = await doneSoFar();
      const until = Date.now() + 5000;
      while ((await doneSoFar()) === was && Date.now() < until) await sleep(2);
      worker.kill('SIGSTOP');
    };
    const progressBeforeLive = (await runs.findOne({ panelVersion: version }))!;
    const baseline = noLiveSearches();
    const during = noLiveSearches();
    const blocks = Math.max(1, Math.round(LIVE / LIVE_BLOCK));
    for (let b = 0; b < blocks; b++) {
      for (const phase of b % 2 ? ['running', 'stopped'] : ['stopped', 'running']) {
        if (phase === 'stopped') await stopAfterCommit();
        else worker.kill('SIGCONT');
        await liveSearches(url, search.pid!, LIVE_BLOCK, phase === 'stopped' ? baseline : during);
      }
    }
    worker.kill('SIGCONT');
    const progressAfterLive = (await runs.findOne({ panelVersion: version }))!;
    const liveEnded = Date.now();
    let run = progressAfterLive;
    while (run.status !== 'done') {
      if (Date.now() > deadline + 600_000) throw new Error('the re-pricing did not finish in 12 minutes');
      await sleep(250);
      run = (await runs.findOne({ panelVersion: version }))!;
    }
    const workerCpu = cpuMsOf(worker.pid!) - workerCpuBefore;
    // The pace once nothing stops the worker and no live searches run.
    const afterLive = run.done - progressAfterLive.done;
    const afterLiveSeconds = (run.finishedAt!.getTime() - liveEnded) / 1000;

    const count = (phase: LivePhase) => phase.latencies.length;
    const perSearch = (phase: LivePhase) => (phase.cpuMs - idlePerSecond * phase.seconds) / count(phase);
    const at = (phase: LivePhase, p: number) =>
      percentile(
        [...phase.latencies].sort((x, y) => x - y),
        p,
      );
    const change = (now: number, was: number) =>
      `${now >= was ? '+' : ''}${(((now - was) / was) * 100).toFixed(1)} %`;
    const line = (label: string, value: string) => `${label.padEnd(46)} ${value}\n`;
    const settings = repricingWorkerConfigSchema
      .pick({ REPRICING_BATCH_SIZE: true, REPRICING_DUTY_CYCLE: true, REPRICING_NICE: true })
      .parse(process.env);
    let out = `\nrepricing: ${SAVED} saved searches; ${count(baseline)} live bridging searches (one at a time) with the worker stopped, ${count(during)} with it re-pricing, in alternating blocks of ${LIVE_BLOCK}\n`;
    out += `worker: ${Object.entries(settings)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}\n\n`;
    out += line('saved searches re-priced', `${run.done} (${run.changed} changed, search.repriced each)`);
    out += line('re-priced per second (worker, alone)', (afterLive / afterLiveSeconds).toFixed(0));
    out += line('worker CPU per re-priced search', `${(workerCpu / run.done).toFixed(2)} ms`);
    out += line(
      'saved searches re-priced during the live blocks',
      `${progressAfterLive.done - progressBeforeLive.done} of ${run.done}`,
    );
    for (const p of [50, 90, 99])
      out += line(
        `live search p${p}, worker stopped → re-pricing`,
        `${at(baseline, p).toFixed(1)} → ${at(during, p).toFixed(1)} ms (${change(at(during, p), at(baseline, p))})`,
      );
    out += line(
      'search service CPU per live search',
      `${perSearch(baseline).toFixed(2)} → ${perSearch(during).toFixed(2)} ms (${change(perSearch(during), perSearch(baseline))})`,
    );
    process.stdout.write(out);
  } finally {
    // A stopped process takes SIGTERM only once continued.
    for (const child of children) child.kill('SIGCONT');
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (c) => new Promise((resolve) => (c.exitCode !== null ? resolve(null) : c.once('exit', resolve))),
      ),
    );
    await searchDb?.close();
    await redis.release();
    rmSync(dbPath, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`✖ ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
