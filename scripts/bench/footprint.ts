/**
 * `npm run bench -- footprint`: what the single-machine stack costs at rest and per search, in both
 * of `npm start`'s layouts side by side, in one run: the all-in-one host (the default) and
 * `--split` (one process per service).
 *
 * Each stack runs in a child process of its own, as `npm start` runs it (console logs relayed and
 * formatted by that process, here into a file), so the relay counts like any other process. Then:
 *   - resident memory at rest of every process of the stack (the embedded MongoDB, the relay and
 *     every child included), after warming up and a minute's rest: summed RSS, which counts pages
 *     the processes share (the Node binary) once per process, and summed PSS, which divides them;
 *   - idle CPU per second of all of them over FOOTPRINT_IDLE_SECONDS;
 *   - for each loan type, FOOTPRINT_COUNT sequential anonymous searches through the gateway: CPU per
 *     search of every process (idle CPU over the same time taken off) and p50/p99 wall time;
 *   - idle CPU again, FOOTPRINT_REST_SECONDS after the last search: a stack nobody has used for a
 *     while. The first reading, minutes after start-up, still holds V8's start-up work (compiling,
 *     collecting) and the back-offs of relays and consumers reaching their longest waits.
 *
 *   FOOTPRINT_COUNT (default 200)          searches of each loan type, one after another
 *   FOOTPRINT_SETTLE_SECONDS (default 60)  rest after the warm-up before memory and idle CPU are read
 *   FOOTPRINT_IDLE_SECONDS (default 60)    how long idle CPU is measured
 *   FOOTPRINT_REST_SECONDS (default 300)   rest after the last search before idle CPU is read again
 *   FOOTPRINT_MODES (default both)         e.g. "all-in-one" to measure one layout only
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freeStackPortOffset, leaseRedisDb } from '@lsp/testing';
import { LOAN_TYPES, type LoanType, SEARCH_PAYLOADS, sameOrigin } from '../lib/journeys';
import { cpuSnapshot, parentPids, pssMbOf, rssMbOf, withDescendants } from '../lib/process-stats';

const COUNT = Number(process.env.FOOTPRINT_COUNT ?? 200);
const SETTLE_SECONDS = Number(process.env.FOOTPRINT_SETTLE_SECONDS ?? 60);
const IDLE_SECONDS = Number(process.env.FOOTPRINT_IDLE_SECONDS ?? 60);
const REST_SECONDS = Number(process.env.FOOTPRINT_REST_SECONDS ?? 300);
const MODES = (process.env.FOOTPRINT_MODES ?? 'all-in-one,split').split(',').filter(Boolean);
const ROOT = path.resolve(__dirname, '../..');

interface StackStatus {
  processes: Array<{ name: string; pid: number | null }>;
}

interface Footprint {
  mode: string;
  processes: number;
  rssMb: number;
  pssMb: number;
  rssByProcess: Map<string, number>;
  idleMsPerSecond: number;
  /** Idle CPU per process, REST_SECONDS after the last search. */
  restedIdleByProcess: Map<string, number>;
  perLoanType: Map<LoanType, { cpuMs: number; p50: number; p99: number }>;
  /** CPU per search of each process over every loan type's searches, its own idle CPU taken off. */
  cpuMsPerSearchByProcess: Map<string, number>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Every process tree of the stack by name, the relay (`npm start`'s own process) included. */
function stackTrees(relayPid: number, status: StackStatus): Map<string, number[]> {
  const parents = parentPids();
  const trees = new Map<string, number[]>();
  for (const p of status.processes) if (p.pid !== null) trees.set(p.name, withDescendants(p.pid, parents));
  trees.set('npm start', [relayPid]);
  return trees;
}

/** CPU per second of each process tree over IDLE_SECONDS, while nothing is sent to the stack. */
async function idleCpu(trees: Map<string, number[]>): Promise<Map<string, number>> {
  const start = cpuSnapshot(trees);
  await sleep(IDLE_SECONDS * 1000);
  return new Map(
    [...cpuSnapshot(trees)].map(
      ([name, ms]) => [name, (ms - start.get(name)!) / IDLE_SECONDS] as [string, number],
    ),
  );
}

async function measure(mode: string): Promise<Footprint> {
  const redis = await leaseRedisDb();
  const dataDir = mkdtempSync(path.join(tmpdir(), `lsp-footprint-${mode}-`));
  const portOffset = await freeStackPortOffset(16000, 24000);
  const readyFile = path.join(dataDir, 'ready');
  const runner = `
    import { writeFileSync } from 'node:fs';
    import { startStack } from ${JSON.stringify(path.join(ROOT, 'scripts/lib/stack.mjs'))};
    const stack = await startStack(JSON.parse(process.env.FOOTPRINT_STACK));
    writeFileSync(${JSON.stringify(readyFile)}, stack.url);
    process.on('SIGTERM', async () => { await stack.stop(); process.exit(0); });
  `;
  const stackOptions = {
    dataDir,
    portOffset,
    logs: 'console',
    mode,
    env: {
      REDIS_URL: redis.url,
      MAIL_CATCHER_ENABLED: 'true',
      // Every search comes from one address: the per-address limit would measure itself.
      RATE_LIMIT_MAX: '100000000',
    },
  };
  const logFd = openSync(path.join(dataDir, 'console.log'), 'a');
  const stackProcess = spawn(process.execPath, ['--input-type=module', '-e', runner], {
    cwd: ROOT,
    env: { ...process.env, FOOTPRINT_STACK: JSON.stringify(stackOptions) },
    stdio: ['ignore', logFd, logFd],
  });
  const exited = new Promise((resolve) => stackProcess.once('exit', resolve));
  try {
    const started = Date.now();
    while (!existsSync(readyFile)) {
      if (stackProcess.exitCode !== null)
        throw new Error(`the stack failed to start: see ${dataDir}/console.log`);
      if (Date.now() - started > 300_000) throw new Error('the stack did not start in 5 minutes');
      await sleep(500);
    }
    const url = readFileSync(readyFile, 'utf8');
    const headers = { ...sameOrigin(url), accept: 'application/json', 'content-type': 'application/json' };
    const search = async (loanType: LoanType) => {
      const res = await fetch(`${url}/api/${loanType}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(SEARCH_PAYLOADS[loanType]),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`a ${loanType} search answered ${res.status}`);
    };
    // Warm every path (JIT, connections, caches), then rest as a stack nobody uses: the idle
    // back-offs of the relays and consumers and V8's memory reducer settle within a minute.
    for (const loanType of LOAN_TYPES) for (let i = 0; i < 30; i++) await search(loanType);
    await sleep(SETTLE_SECONDS * 1000);

    const status = JSON.parse(readFileSync(path.join(dataDir, 'stack-status.json'), 'utf8')) as StackStatus;
    const trees = stackTrees(stackProcess.pid!, status);
    const rssByProcess = new Map(
      [...trees].map(([name, pids]) => [name, sum(pids.map((pid) => rssMbOf(pid)))] as [string, number]),
    );
    const pssMb = sum([...trees.values()].flatMap((pids) => pids.map((pid) => pssMbOf(pid))));
    const idleByProcess = await idleCpu(trees);
    const idleMsPerSecond = sum(idleByProcess.values());

    const perLoanType = new Map<LoanType, { cpuMs: number; p50: number; p99: number }>();
    const searchesStart = cpuSnapshot(trees);
    const searchesStarted = performance.now();
    for (const loanType of LOAN_TYPES) {
      const latencies: number[] = [];
      const before = sum(cpuSnapshot(trees).values());
      const loadStarted = performance.now();
      for (let i = 0; i < COUNT; i++) {
        const t0 = performance.now();
        await search(loanType);
        latencies.push(performance.now() - t0);
      }
      const loadSeconds = (performance.now() - loadStarted) / 1000;
      const used = sum(cpuSnapshot(trees).values()) - before - idleMsPerSecond * loadSeconds;
      latencies.sort((a, b) => a - b);
      perLoanType.set(loanType, {
        cpuMs: used / COUNT,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
      });
    }
    const searchesSeconds = (performance.now() - searchesStarted) / 1000;
    const cpuMsPerSearchByProcess = new Map(
      [...cpuSnapshot(trees)].map(
        ([name, ms]) =>
          [
            name,
            (ms - searchesStart.get(name)! - idleByProcess.get(name)! * searchesSeconds) /
              (COUNT * LOAN_TYPES.length),
          ] as [string, number],
      ),
    );
    await sleep(REST_SECONDS * 1000);
    const restedIdleByProcess = await idleCpu(trees);
    return {
      mode,
      processes: sum([...trees.values()].map((pids) => pids.length)),
      rssMb: sum(rssByProcess.values()),
      pssMb,
      rssByProcess,
      idleMsPerSecond,
      perLoanType,
      cpuMsPerSearchByProcess,
      restedIdleByProcess,
    };
  } finally {
    stackProcess.kill('SIGTERM');
    await exited;
    await redis.release();
    if (!process.env.FOOTPRINT_KEEP) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `name figure` for each process, largest first. */
const byProcess = (figures: Map<string, number>, digits: number) =>
  [...figures]
    .sort((a, b) => b[1] - a[1])
    .map(([name, figure]) => `${name} ${figure.toFixed(digits)}`)
    .join(', ');

function report(results: Footprint[]): string {
  const row = (cells: string[]) =>
    `${cells[0].padEnd(30)}${cells
      .slice(1)
      .map((c) => c.padStart(14))
      .join('')}\n`;
  let out = `\nfootprint: the single-machine stack at rest and per search (${COUNT} sequential searches of each loan type)\n\n`;
  out += row(['', ...results.map((r) => r.mode)]);
  out += row(['processes (every pid)', ...results.map((r) => String(r.processes))]);
  out += row(['resident at rest, MB', ...results.map((r) => r.rssMb.toFixed(0))]);
  out += row(['  proportional (PSS), MB', ...results.map((r) => r.pssMb.toFixed(0))]);
  out += row(['idle CPU, ms/s', ...results.map((r) => r.idleMsPerSecond.toFixed(1))]);
  out += row([
    `  ${(REST_SECONDS / 60).toFixed(0)} min after the last search`,
    ...results.map((r) => sum(r.restedIdleByProcess.values()).toFixed(1)),
  ]);
  for (const loanType of LOAN_TYPES) {
    out += row([
      `${loanType}: CPU ms/search`,
      ...results.map((r) => r.perLoanType.get(loanType)!.cpuMs.toFixed(2)),
    ]);
    out += row([
      `${loanType}: p50 / p99 ms`,
      ...results.map((r) => {
        const { p50, p99 } = r.perLoanType.get(loanType)!;
        return `${p50.toFixed(1)} / ${p99.toFixed(1)}`;
      }),
    ]);
  }
  for (const r of results) {
    out += `\n${r.mode} resident MB by process: ${byProcess(r.rssByProcess, 0)}`;
    out += `\n${r.mode} CPU ms per search by process (every loan type): ${byProcess(r.cpuMsPerSearchByProcess, 2)}`;
    out += `\n${r.mode} idle ms/s by process, ${(REST_SECONDS / 60).toFixed(0)} min after the last search: ${byProcess(r.restedIdleByProcess, 2)}`;
  }
  return `${out}\n`;
}

async function main() {
  const results: Footprint[] = [];
  for (const mode of MODES) results.push(await measure(mode));
  process.stdout.write(report(results));
}

main().catch((err) => {
  process.stderr.write(`footprint: failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
